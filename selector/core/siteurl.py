"""The public base URL of the site, for absolute links (canonical, hreflang, sitemap,
JSON-LD, e-mails, the PDF's link and QR code).

``settings.SITE_URL`` when it is set (production requires it, see settings.py). In
development it may be unset: then absolute URLs follow the host and port the current
request came to (``SiteUrlMiddleware`` remembers them for the request), so
``PORT=9000 make run`` links to port 9000. Work outside a request (the task worker, a
management command) passes the base URL it was given, or falls back to
``DEV_FALLBACK``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

DEV_FALLBACK = "http://127.0.0.1:8000"

_request_base: ContextVar[str | None] = ContextVar("selector_request_base", default=None)


def request_base(request: HttpRequest) -> str:
    """``scheme://host[:port]`` of ``request`` (host validated by ALLOWED_HOSTS)."""
    return request.build_absolute_uri("/").rstrip("/")


def site_url(request: HttpRequest | None = None) -> str:
    """The base URL without a trailing slash."""
    if settings.SITE_URL:
        return settings.SITE_URL
    if request is not None:
        return request_base(request)
    return _request_base.get() or DEV_FALLBACK


def absolute(path: str, request: HttpRequest | None = None) -> str:
    """An absolute URL for a root-relative ``path``."""
    return site_url(request) + path


class SiteUrlMiddleware:
    """Remembers the request's base URL while it is handled, when SITE_URL is unset."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if settings.SITE_URL:
            return self.get_response(request)
        try:
            base = request_base(request)
        except Exception:  # DisallowedHost: Django answers 400 further down  # noqa: BLE001
            base = None
        token = _request_base.set(base)
        try:
            return self.get_response(request)
        finally:
            _request_base.reset(token)
