"""Public pages: the landing page (the seed article as a living page), the FAQ and the
comparison. Every visible article text comes from the content tables in the active
language; the JSON-LD is built from the very objects the template shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from selector.content import queries
from selector.content.httpcache import cacheable
from selector.content.models import CompanyProfile, ComparisonRow, ContentBlock, FaqEntry
from selector.core.i18n import active_is_english
from selector.public import jsonld
from selector.public.seo import Seo
from selector.public.tree import decision_tree


@dataclass
class LandingContent:
    article: ContentBlock | None
    intro: list[ContentBlock]
    tuning: list[ContentBlock]
    decision: list[ContentBlock]
    keypoints: list[ContentBlock]
    cta: list[ContentBlock]
    rows: list[ComparisonRow]
    faqs: list[FaqEntry]
    company: CompanyProfile = field(default_factory=queries.company)

    @classmethod
    def load(cls) -> LandingContent:
        return cls(
            article=queries.block("article"),
            intro=queries.blocks("intro"),
            tuning=queries.blocks("tuning"),
            decision=queries.blocks("decision"),
            keypoints=queries.blocks("keypoint"),
            cta=queries.blocks("cta"),
            rows=queries.comparison_rows(),
            faqs=queries.faq_entries(),
        )

    def modified(self) -> datetime | None:
        return latest(
            [self.article] if self.article else [], self.intro, self.tuning, self.decision,
            self.keypoints, self.cta, self.rows, self.faqs, [self.company],
        )


def latest(*groups) -> datetime | None:
    """The newest ``updated_at`` among saved rows (an unsaved default company has none)."""
    stamps = [obj.updated_at for group in groups for obj in group
              if getattr(obj, "updated_at", None)]
    return max(stamps, default=None)


def modified_at(url_name: str) -> datetime | None:
    """When the content shown on a public page last changed (sitemap lastmod)."""
    if url_name == "public:faq":
        return latest(queries.faq_entries(), [queries.company()])
    if url_name == "public:comparison":
        return latest(queries.comparison_rows(), queries.blocks("intro"),
                      queries.blocks("keypoint"), [queries.company()])
    return LandingContent.load().modified()


def _list_separator() -> str:
    return ", " if active_is_english() else "、"


@require_safe
@cacheable
def landing(request: HttpRequest) -> HttpResponse:
    content = LandingContent.load()
    company = content.company
    article = content.article
    headline = article.title if article else _("Choosing a network for your AI cluster")
    description = article.body if article else _(
        "Choose between RoCE v2 lossless Ethernet and InfiniBand for your AI cluster.")
    modified = content.modified()
    seo = Seo(url_name="home", title=headline, description=description, og_type="article",
              published=article.published_at if article else None, modified=modified)
    faq_items, _faq_node = jsonld.faq_section(content.faqs)  # FAQPage: on the FAQ page only
    # No BreadcrumbList: the home page has no parent, and a trail of one item is none
    # (every other page's trail starts here).
    nodes = [jsonld.organization(company)]
    if article:
        nodes.append(jsonld.article(block=article, company=company, url=seo.canonical,
                                    modified=modified or article.updated_at))
    leaves, extra_lines = decision_tree(content.decision)
    return render(request, "core/home.html", {
        "company": company,
        "content": content,
        "headline": headline,
        "faq_items": faq_items,
        "leaves": leaves,
        "extra_lines": extra_lines,
        "seo": seo,
        "json_ld": jsonld.script_tag(nodes),
    })


@require_safe
@cacheable
def faq(request: HttpRequest) -> HttpResponse:
    company = queries.company()
    faq_items, faq_node = jsonld.faq_section(queries.faq_entries())
    crumbs, crumbs_node = jsonld.breadcrumb_section(
        [(_("Home"), "home"), (_("FAQ"), "public:faq")])
    seo = Seo(
        url_name="public:faq",
        title=_("Frequently asked questions: RoCE v2 and InfiniBand"),
        description=_("Answers to the questions customers ask most about RoCE v2 lossless "
                      "Ethernet and InfiniBand for AI clusters."),
    )
    return render(request, "public/faq.html", {
        "company": company,
        "faq_items": faq_items,
        "crumbs": crumbs,
        "seo": seo,
        "json_ld": jsonld.script_tag([jsonld.organization(company), crumbs_node, faq_node]),
    })


@require_safe
@cacheable
def comparison(request: HttpRequest) -> HttpResponse:
    company = queries.company()
    rows = queries.comparison_rows()
    crumbs, crumbs_node = jsonld.breadcrumb_section(
        [(_("Home"), "home"), (_("Comparison"), "public:comparison")])
    dimensions = _list_separator().join(row.dimension for row in rows)
    seo = Seo(
        url_name="public:comparison",
        title=_("RoCE v2 vs InfiniBand: side-by-side comparison"),
        description=(_("RoCE v2 lossless Ethernet and InfiniBand for AI clusters compared by "
                       "%(dimensions)s.") % {"dimensions": dimensions}) if rows else
        _("RoCE v2 lossless Ethernet and InfiniBand for AI clusters compared."),
    )
    return render(request, "public/comparison.html", {
        "company": company,
        "rows": rows,
        "intro": queries.blocks("intro"),
        "keypoints": queries.blocks("keypoint"),
        "crumbs": crumbs,
        "seo": seo,
        "json_ld": jsonld.script_tag([jsonld.organization(company), crumbs_node]),
    })


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    """Crawlers may read the public pages; staff, admin and customer reports stay out (in
    both languages: English pages live under /en/)."""
    prefixes = [""] + [f"/{code}" for code, _name in settings.LANGUAGES
                       if code != settings.LANGUAGE_CODE]
    lines = ["User-agent: *"]
    for prefix in prefixes:
        lines += [f"Disallow: {prefix}/staff/", f"Disallow: {prefix}/admin/",
                  f"Disallow: {prefix}/report/"]
    lines += ["", f"Sitemap: {jsonld.absolute(reverse('sitemap_xml'))}", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
