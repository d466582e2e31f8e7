"""schema.org JSON-LD for the public pages, built from the same objects the templates show.

Each ``*_section`` function returns the visible list AND the JSON-LD node made from that
very list, so the structured data cannot drift from what the page shows. ``script_tag``
serialises a graph so that no content (``</script>``, ``<!--``, quotes, U+2028) can leave
the JSON string or the script element.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from selector.content.models import CompanyProfile, ContentBlock, FaqEntry
from selector.core.i18n import active_lang_tag
from selector.core.jsonld import dumps
from selector.core.siteurl import site_url
from selector.core.social import SHARE_IMAGE_SIZE, share_image
from selector.planner.presenter import organization_node

CONTEXT = "https://schema.org"


def script_tag(nodes: Sequence[dict]) -> SafeString:
    """One ``application/ld+json`` data block holding ``nodes`` as an ``@graph``.

    A data block is never executed, so it needs no CSP nonce; ``dumps`` has escaped every
    character that could end the element, which is what makes ``mark_safe`` correct here.
    """
    payload = dumps({"@context": CONTEXT, "@graph": list(nodes)})
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(payload))  # noqa: S308


def absolute(path: str) -> str:
    """An absolute URL on the public site (selector.core.siteurl) for a root-relative
    path."""
    return site_url() + path


def organization_id() -> str:
    """One identifier for the company in every language: the default-language home page."""
    with translation.override(settings.LANGUAGE_CODE):
        return absolute(reverse("home")) + "#organization"


def organization(company: CompanyProfile) -> dict:
    """The company's Organization node: the planner's one builder (also in the result page,
    the report and its attachment)."""
    return organization_node(company)


def _org_ref(company: CompanyProfile) -> dict:
    return {"@type": "Organization", "@id": organization_id(), "name": company.name,
            "url": absolute(reverse("home"))}


def article(*, block: ContentBlock, company: CompanyProfile, url: str,
            modified: datetime) -> dict:
    return {
        "@type": "Article",
        "@id": url + "#article",
        "headline": block.title,
        "description": block.body,
        "author": _org_ref(company),
        "publisher": _org_ref(company),
        "datePublished": block.published_at or block.updated_at,
        "dateModified": max(modified, block.published_at or modified),
        "inLanguage": active_lang_tag(),
        "mainEntityOfPage": {"@type": "WebPage", "@id": url},
        # The page's sharing image (og:image): Google shows an article with its image.
        "image": {"@type": "ImageObject", "url": share_image(),
                  "width": SHARE_IMAGE_SIZE[0], "height": SHARE_IMAGE_SIZE[1]},
    }


@dataclass(frozen=True)
class QA:
    slug: str
    question: str
    answer: str


def faq_section(entries: Iterable[FaqEntry]) -> tuple[list[QA], dict]:
    """The visible FAQ list (active language) and the FAQPage node made from that list."""
    items = [QA(slug=e.slug, question=e.question, answer=e.answer) for e in entries]
    node = {
        "@type": "FAQPage",
        "inLanguage": active_lang_tag(),
        "mainEntity": [
            {"@type": "Question", "name": qa.question,
             "acceptedAnswer": {"@type": "Answer", "text": qa.answer}}
            for qa in items
        ],
    }
    return items, node


@dataclass(frozen=True)
class Crumb:
    name: str
    path: str

    @property
    def url(self) -> str:
        return absolute(self.path)


def breadcrumb_section(trail: Sequence[tuple[str, str]]) -> tuple[list[Crumb], dict]:
    """``trail`` is ``[(name, url name), ...]`` from the home page down to this page: at
    least the parent and the page (the home page has no trail)."""
    if len(trail) < 2:
        raise ValueError("a breadcrumb trail names the page's parent and the page")
    crumbs = [Crumb(name=str(name), path=reverse(url_name)) for name, url_name in trail]
    node = {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": i, "name": c.name, "item": c.url}
            for i, c in enumerate(crumbs, start=1)
        ],
    }
    return crumbs, node
