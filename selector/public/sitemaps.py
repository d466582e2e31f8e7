"""sitemap.xml: the public pages in both languages with hreflang alternates and x-default.

Absolute URLs come from settings.SITE_URL (not the request's Host header), like the
canonical links and the JSON-LD; only in development, with SITE_URL unset, from the
request (selector.core.siteurl)."""

from urllib.parse import urlsplit

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from selector.core.siteurl import site_url
from selector.public.views import modified_at


class PublicSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    changefreq = "weekly"

    def items(self) -> list[str]:
        return ["home", "public:comparison", "public:faq"]

    def location(self, item: str) -> str:
        return reverse(item)

    def lastmod(self, item: str):
        return modified_at(item)

    def priority(self, item: str) -> float:
        return 1.0 if item == "home" else 0.8

    def get_protocol(self, protocol=None) -> str:
        return urlsplit(site_url()).scheme or "https"

    def get_domain(self, site=None) -> str:
        return urlsplit(site_url()).netloc
