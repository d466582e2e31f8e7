"""HTTP caching of the public pages and the JSON API: an ETag of the content version, a
304 for a client (or cache) that already has it, ``Cache-Control: public`` for a response
every visitor would get alike.

A page's bytes are a function of: the code that draws it (templates, Python, compiled
translations: ``codeversion.code_version``), the static files it links to (their names
carry a hash in production), the content tables (the snapshot's stamp), the language, the
public base URL, and the URL itself (which an ETag is always scoped to). The ETag digests
exactly those, so it is computed before the view runs, with the one stamp query the page
would run anyway, and a matching ``If-None-Match`` is answered 304 without rendering.

Only pages without a POST form use this: they read neither the session nor the CSRF
token, so they set no cookie and vary on nothing but the encoding. A response that does
set a cookie after all (the visit's source recorded on its first page,
selector.core.attribution) is marked ``private``: no shared cache stores it.

Because the ETag names the bytes, each process keeps them too: a 200 for a URL without a
query string is kept under its ETag and path, and the next visitor without the page (no
``If-None-Match``) gets a copy instead of a render; a first visit then costs what a 304
costs (`make bench`: http_landing_vs_hello_world, budget >= 40 % of a hello-world view's
requests/s, and the same page with a query string, which is rendered, in the same run).
An entry cannot go stale: other content, code or language make another ETag. Nothing
private is kept (a cookie set, a session written), nor a URL with a query string, so the
store holds at most one entry per public page, language and content state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition

from selector.content import snapshot
from selector.core.codeversion import code_version, digest_files
from selector.core.siteurl import site_url

# How long a browser or shared cache may use a page without asking again; after that a
# conditional request costs one stamp query and a 304. Content edits reach every visitor
# within this time.
MAX_AGE = 300


@lru_cache(maxsize=1)
def static_version() -> str:
    """The static files' digest (computed once per process, like the code version)."""
    return digest_files(Path(settings.BASE_DIR), ("static/**/*",))


def content_version(request: HttpRequest, *, content: bool = True) -> str:
    """What the current response's bytes depend on besides its URL (module docstring);
    ``content=False`` for an answer that shows nothing from the content tables."""
    parts = (code_version(), static_version(), snapshot.current().stamp if content else "",
             translation.get_language() or "", site_url(request))
    return hashlib.blake2b("\0".join(parts).encode(), digest_size=12).hexdigest()


@dataclass(frozen=True)
class _Kept:
    """A stored page: its bytes and headers, made into a fresh response for each visitor
    (the middleware on the way out changes a response, so none is shared)."""

    content: bytes
    headers: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, response: HttpResponse) -> _Kept:
        return cls(response.content, tuple(response.headers.items()))

    def response(self) -> HttpResponse:
        response = HttpResponse(self.content)
        for name, value in self.headers:
            response[name] = value
        return response


# (ETag, path) -> the page. The ETag names the bytes (the code, static files, content,
# language and base URL they depend on), so an entry is never stale: a new content state
# simply makes new keys. Bounded: emptied when it holds PAGES_KEPT entries.
PAGES_KEPT = 256
_PAGES: dict[tuple[str, str], _Kept] = {}


def _keep(key: tuple[str, str], page: _Kept) -> None:
    if len(_PAGES) >= PAGES_KEPT:
        _PAGES.clear()
    _PAGES[key] = page


def forget_pages() -> None:
    _PAGES.clear()


@receiver(setting_changed)
def _forget_pages(**kwargs: object) -> None:
    """A changed setting (tests' override_settings) may change pages the ETag cannot see."""
    forget_pages()


def _private(request: HttpRequest, response: HttpResponseBase) -> bool:
    session = getattr(request, "session", None)
    return bool(response.cookies) or (session is not None and session.modified)


def _mark(request: HttpRequest, response: HttpResponseBase, max_age: int) -> HttpResponseBase:
    if _private(request, response):
        patch_cache_control(response, private=True)
    elif not response.has_header("Cache-Control"):
        patch_cache_control(response, public=True, max_age=max_age)
    return response


def cacheable[V: Callable[..., HttpResponseBase]](view: V, *, max_age: int = MAX_AGE,
                                                   content: bool = True) -> V:
    """A view of a page (or API answer) that is the same for every visitor: ETag of the
    content version, 304 on a match, ``Cache-Control: public, max-age`` unless the
    response sets a cookie (then ``private``)."""
    def etag(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
        tag = f'"{content_version(request, content=content)}"'
        request.content_etag = tag  # type: ignore[attr-defined]  # for the store below
        return tag

    @wraps(view)
    def stored(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        tag = getattr(request, "content_etag", None)
        if request.method != "GET" or request.META.get("QUERY_STRING") or tag is None:
            return view(request, *args, **kwargs)
        key = (tag, request.path)
        kept = _PAGES.get(key)
        if kept is not None:
            return kept.response()
        response = view(request, *args, **kwargs)
        # A view that varies on a request header itself (Vary at this point) is not kept:
        # the key names only the ETag and the path.
        if (isinstance(response, HttpResponse) and response.status_code == 200
                and not response.has_header("Vary") and not _private(request, response)):
            _keep(key, _Kept.of(response))
        return response

    conditional = condition(etag_func=etag)(stored)

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return _mark(request, conditional(request, *args, **kwargs), max_age)

    return wrapper  # type: ignore[return-value]
