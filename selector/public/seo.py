"""Canonical URL, hreflang alternates and Open Graph values for a public page."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation

from selector.core.i18n import active_lang_tag, lang_tag
from selector.public.jsonld import absolute

# Open Graph wants territory locales.
OG_LOCALES = {"zh-Hans": "zh_CN", "en": "en_US"}


def url_in(url_name: str, language_code: str) -> str:
    with translation.override(language_code):
        return absolute(reverse(url_name))


@dataclass
class Seo:
    """Everything templates/public/_seo.html prints into <head>."""

    url_name: str
    title: str
    description: str
    og_type: str = "website"
    published: datetime | None = None
    modified: datetime | None = None
    alternates: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.alternates = [
            (lang_tag(code), url_in(self.url_name, code)) for code, _name in settings.LANGUAGES
        ]
        self.alternates.append(("x-default", url_in(self.url_name, settings.LANGUAGE_CODE)))

    @property
    def canonical(self) -> str:
        return absolute(reverse(self.url_name))

    @property
    def og_locale(self) -> str:
        return OG_LOCALES[active_lang_tag()]

    @property
    def og_locale_alternates(self) -> list[str]:
        return [v for k, v in OG_LOCALES.items() if k != active_lang_tag()]

    @property
    def image(self) -> str:
        return absolute(static("img/logo.svg"))
