"""Canonical URL, hreflang alternates and the sharing tags (Open Graph, Twitter card) of a
public page or a shared result."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from selector.core.i18n import lang_tag
from selector.core.social import Social
from selector.public.jsonld import absolute


def url_in(url_name: str, language_code: str) -> str:
    with translation.override(language_code):
        return absolute(reverse(url_name))


@dataclass
class Seo(Social):
    """Everything templates/public/_seo.html prints into <head>."""

    url_name: str = ""
    published: datetime | None = None
    modified: datetime | None = None
    alternates: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.url = absolute(reverse(self.url_name))
        self.alternates = [
            (lang_tag(code), url_in(self.url_name, code)) for code, _name in settings.LANGUAGES
        ]
        self.alternates.append(("x-default", url_in(self.url_name, settings.LANGUAGE_CODE)))

    @property
    def canonical(self) -> str:
        return self.url
