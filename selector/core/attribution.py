"""Where a visit came from: UTM parameters, the referrer and the landing URL, captured on
the first page of the visit (any public page) and kept in the session, so that the wizard
session started later (and the lead made from it) carries them.

A visit is recorded when there is something to attribute: UTM parameters in the URL (a
campaign click; a later click of another campaign starts a new visit) or a referrer from
another site (the first such page only). A direct visit without either writes nothing,
so crawlers and bookmarks create no session; the wizard then records its own landing URL.
Such a page does not read the session either: it sets no cookie and varies on none. A page
that records a visit sets the session cookie and is marked private (selector.content.httpcache).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponseBase

VISIT_KEY = "visit"
UTM_FIELDS = ("utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content")
LIMITS = {"landing_url": 500, "referrer": 500, **dict.fromkeys(UTM_FIELDS, 100)}
# Not public pages: nothing to attribute there.
_SKIP = ("/static/", "/api/", "/healthz", "/robots.txt", "/sitemap.xml",
         "/favicon.ico")
_SKIP_SECTIONS = ("staff", "admin", "report")


def _fit(value: str, name: str) -> str:
    return str(value).replace("\x00", "")[:LIMITS[name]]


def _is_public_page(request: HttpRequest) -> bool:
    path = request.path_info
    if request.method != "GET" or path.startswith(_SKIP):
        return False
    parts = [p for p in path.split("/") if p]
    if parts and parts[0] == "en":
        parts = parts[1:]
    return not (parts and parts[0] in _SKIP_SECTIONS)


def _external_referrer(request: HttpRequest) -> str:
    referrer = request.headers.get("referer", "")
    host = urlsplit(referrer).netloc
    return referrer if host and host != request.get_host() else ""


def capture(request: HttpRequest) -> None:
    """Record the visit's source in the session (see the module doc)."""
    session = getattr(request, "session", None)
    if session is None or not _is_public_page(request):
        return
    utm = {name: request.GET.get(name, "") for name in UTM_FIELDS}
    has_utm = any(utm.values())
    try:
        referrer = _external_referrer(request)
    except Exception:  # noqa: BLE001 - DisallowedHost: Django answers 400 itself
        return
    # Nothing to attribute: the session is not even read, so the page varies on no cookie
    # and sets none (selector.content.httpcache).
    if not has_utm and not referrer:
        return
    if not has_utm and VISIT_KEY in session:
        return
    session[VISIT_KEY] = {
        "landing_url": _fit(request.get_full_path(), "landing_url"),
        "referrer": _fit(referrer, "referrer"),
        **{name: _fit(value, name) for name, value in utm.items()},
    }


def visit_source(request: HttpRequest) -> dict[str, str]:
    """The recorded visit (landing_url, referrer, utm_*), or {} when none was recorded."""
    session = getattr(request, "session", None)
    visit = session.get(VISIT_KEY) if session is not None else None
    if not isinstance(visit, dict):
        return {}
    return {name: _fit(visit.get(name) or "", name) for name in LIMITS}


class VisitAttributionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        capture(request)
        return self.get_response(request)
