import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers

# Paths outside i18n_patterns whose responses follow the request's language
# (Accept-Language) instead of the default language.
NEGOTIATED_PREFIXES = ("/api/",)
_ACCEPT_LANGUAGE = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q=([0-9.]+))?")


def accept_language(header: str) -> str:
    """The best of our languages for an ``Accept-Language`` header (RFC 9110 12.5.4), or
    the default. Only the header decides: the API's answers are cached by URL and
    ``Vary: Accept-Language``, so a cookie must not change them."""
    ranked = []
    for position, item in enumerate(header.split(",")[:20]):
        found = _ACCEPT_LANGUAGE.fullmatch(item)
        if not found:
            continue
        try:
            q = float(found.group(2)) if found.group(2) else 1.0
        except ValueError:
            continue
        if q > 0:
            ranked.append((-q, position, found.group(1)))
    for _q, _position, tag in sorted(ranked):
        if tag == "*":
            break
        try:
            return translation.get_supported_language_variant(tag.lower())
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware, except that

    - the API negotiates its language from Accept-Language (with
      ``prefix_default_language=False`` Django pins every unprefixed path to LANGUAGE_CODE,
      which would make API error messages ignore it), and varies on that header only;
    - every other path's language is its URL's (``/en/...`` English, the rest Chinese), so
      those responses do not vary on Accept-Language: a cache keeps one copy per URL."""

    def process_request(self, request: HttpRequest) -> None:
        if request.path_info.startswith(NEGOTIATED_PREFIXES):
            translation.activate(accept_language(request.headers.get("accept-language", "")))
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)

    def process_response(self, request: HttpRequest, response: HttpResponseBase
                         ) -> HttpResponseBase:
        if request.path_info.startswith(NEGOTIATED_PREFIXES):
            patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


# What is worth compressing: text. PDFs, images, fonts and spreadsheets are compressed
# formats already; static files are WhiteNoise's (pre-compressed at collectstatic).
COMPRESSIBLE = ("text/", "application/json", "application/ld+json", "application/xml",
                "application/javascript", "image/svg+xml", "application/problem+json")


class CompressionMiddleware(GZipMiddleware):
    """Django's GZipMiddleware for our HTML, JSON and other text responses.

    BREACH (compressed secrets guessed from response lengths) is mitigated by Django
    itself: GZipMiddleware implements "Heal The Breach", up to ``max_random_bytes`` (100)
    random bytes in each gzip header, so the length of a response no longer tells what it
    contains; and Django masks the CSRF token differently in every response. (Django
    documentation, "Middleware: GZip middleware",
    https://docs.djangoproject.com/en/6.0/ref/middleware/#module-django.middleware.gzip,
    read 2026-12-02.) Public pages carry no secret at all: no token, no session."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase
                         ) -> HttpResponseBase:
        content_type = response.get("Content-Type", "").lower()
        if not content_type.startswith(COMPRESSIBLE):
            return response
        return super().process_response(request, response)


class PermissionsPolicyMiddleware:
    """``Permissions-Policy`` on every response (settings.PERMISSIONS_POLICY): the site uses
    no camera, microphone, location, payment or sensor, so no page — nor anything injected
    into one — may ask for them. Django has no setting for this header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(allow)})"
            for feature, allow in settings.PERMISSIONS_POLICY.items())

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault("Permissions-Policy", self.header)
        return response
