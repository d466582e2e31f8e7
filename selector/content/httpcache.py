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
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
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


def _mark(request: HttpRequest, response: HttpResponseBase, max_age: int) -> HttpResponseBase:
    session = getattr(request, "session", None)
    if response.cookies or (session is not None and session.modified):
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
        return f'"{content_version(request, content=content)}"'

    conditional = condition(etag_func=etag)(view)

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return _mark(request, conditional(request, *args, **kwargs), max_age)

    return wrapper  # type: ignore[return-value]
