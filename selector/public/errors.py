"""Friendly error pages (400, 403, 404, 429, 500, 503) in the visitor's language.

They render a stand-alone template with a plain context: no context processors, nothing
from the request echoed back, so they leak nothing. The company's contact channels come
from the cache, or from one guarded query; for a database outage (503) only from a cache
that is not the database (Redis), so the page never waits for a database that is down, and
for a Redis outage (503 too) only from the database.

An outage of either shared service answers the 503 page with Retry-After, never the 500
page: DatabaseUnavailableMiddleware for errors in views, ``server_error`` for errors raised
in middleware (the rate limits and the session run there)."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template import loader
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from selector.content.models import CompanyProfile
from selector.core.i18n import language_code

logger = logging.getLogger("selector.errors")

PAGES = {
    400: (_("Bad request"), _("The request could not be understood. Please check the "
                              "address or the form and try again.")),
    403: (_("Access denied"), _("You do not have access to this page, or the form expired. "
                                "Reload the page and try again.")),
    404: (_("Page not found"), _("This page does not exist or the link has expired.")),
    429: (_("Too many requests"), _("You have sent too many requests in a short time. "
                                    "Please wait a moment and try again.")),
    500: (_("Something went wrong"), _("An unexpected error occurred on our side. It has been "
                                       "logged; please try again in a moment.")),
    503: (_("Temporarily unavailable"), _("The service is briefly unavailable, for example "
                                          "during maintenance. Your data is safe; please try "
                                          "again in a few seconds.")),
}
OTHER_LANGUAGE_HINT = {
    "zh-hans": "An error occurred. Please try again later.",
    "en": "出错了，请稍后再试。",
}


CHANNELS_CACHE_KEY = "errors:company-channels:v2"
CHANNELS_CACHE_SECONDS = 300
_CHANNEL_FIELDS = ("short_name_zh", "short_name_en", "phone", "email", "wechat_name_zh",
                   "wechat_name_en", "wechat_qr_url")


DATABASE_DOWN = (OperationalError, InterfaceError)
# What redis-py raises when the server is gone, refuses, or does not answer in time
# (BusyLoadingError, a restart's "loading the dataset", is a ConnectionError too).
CACHE_DOWN = (RedisConnectionError, RedisTimeoutError)


def outage(exc: BaseException | None) -> str:
    """"database", "cache" (Redis), or "" when ``exc`` is not a shared service being down."""
    if isinstance(exc, DATABASE_DOWN):
        return "database"
    if isinstance(exc, CACHE_DOWN):
        return "cache"
    return ""


def outage_response(request: HttpRequest | None, exc: BaseException) -> HttpResponse:
    """The 503 page for a database or Redis outage, with Retry-After."""
    what = outage(exc)
    logger.warning("%s unavailable: %s on %s %s", what, type(exc).__name__,
                   getattr(request, "method", "-"), getattr(request, "path", "-"))
    return error_response(request, 503, retry=True, headers={"Retry-After": "10"},
                          down=what)


def _cache_uses_the_database() -> bool:
    return "DatabaseCache" in settings.CACHES.get("default", {}).get("BACKEND", "")


def _company_channels(status: int, down: str = "") -> CompanyProfile | None:
    """An unsaved CompanyProfile holding only the short names and the contact channels,
    or None. ``down``: the service that is out ("database", "cache"), not asked; a 503
    without it is taken as a database outage."""
    values = None
    database_down = status == 503 and down != "cache"
    if down != "cache" and not (database_down and _cache_uses_the_database()):
        try:
            values = cache.get(CHANNELS_CACHE_KEY)
        except Exception:  # noqa: BLE001 - a cache outage must not break the error page
            values = None
    if values is None and not database_down:
        try:
            profile = CompanyProfile.objects.order_by("pk").first()
        except DatabaseError:
            return None
        values = {f: getattr(profile, f) for f in _CHANNEL_FIELDS} if profile else {}
        if down != "cache":
            with contextlib.suppress(Exception):  # a cache outage must not break the page
                cache.set(CHANNELS_CACHE_KEY, values, CHANNELS_CACHE_SECONDS)
    return CompanyProfile(**values) if values else None


def error_response(request: HttpRequest | None, status: int, *, retry: bool = False,
                   headers: dict[str, str] | None = None, down: str = "") -> HttpResponse:
    title, message = PAGES[status]
    language = language_code(translation.get_language())
    try:
        home_url = reverse("home")
    except Exception:  # noqa: BLE001 - an error page must render whatever happened
        home_url = "/"
    company = _company_channels(status, down)
    context = {
        "status": status, "title": title, "message": message, "retry": retry,
        # The brand is the company profile's short name (what marketing edits).
        "brand": (company or CompanyProfile.default()).short_name, "home_url": home_url,
        "other_language_hint": OTHER_LANGUAGE_HINT.get(language, OTHER_LANGUAGE_HINT["en"]),
        "company": company,
    }
    body = loader.get_template("errors/error.html").render(context)
    response = HttpResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    for key, value in (headers or {}).items():
        response[key] = value
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None
                      ) -> HttpResponse:
    return error_response(request, 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    # Also reached for exceptions raised in middleware (e.g. saving the session while the
    # database restarts, a rate limit while Redis is down): an outage is still a 503.
    exc = sys.exc_info()[1]
    if outage(exc):
        assert exc is not None
        return outage_response(request, exc)
    return error_response(request, 500, retry=True)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return error_response(request, 403)


def too_many_requests(request: HttpRequest | None, retry_after: int | None = None
                      ) -> HttpResponse:
    headers = {"Retry-After": str(retry_after)} if retry_after else None
    return error_response(request, 429, retry=True, headers=headers)


class DatabaseUnavailableMiddleware:
    """Turn an outage of the database (connection refused, pool exhausted, server
    restarting) or of Redis into the 503 page with Retry-After instead of a 500. The
    transaction of the failed request is rolled back by Django, so no half-written row is
    left behind."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        if outage(exception):
            return outage_response(request, exception)
        return None
