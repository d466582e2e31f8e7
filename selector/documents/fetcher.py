"""The only way WeasyPrint may read anything while rendering a report.

WeasyPrint fetches stylesheets, images, fonts (``@font-face``) and attachments through a
URL fetcher. The default one reads any ``file://`` path and any ``http(s)://`` URL, which
would let a crafted document read the server's files or probe the network. This fetcher
serves exactly one kind of URL: ``file:///static/<path>`` where ``<path>`` is a file
inside one of the project's static directories (after resolving symlinks), or an image
the project itself generated for the report and registered here (``generated_url``: the
QR codes, drawn by segno; nothing from a request or a user can register one). Everything
else raises ``FetchRefused`` (WeasyPrint logs it and renders without the resource).
"""

from __future__ import annotations

import mimetypes
import posixpath
import ssl
import threading
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.apps import apps
from django.conf import settings
from weasyprint.urls import URLFetcher, URLFetcherResponse

# The virtual prefix report templates use for assets in the PDF (independent of
# STATIC_URL, which may point at a CDN in production).
ASSET_PREFIX = "/static/"
ASSET_BASE_URL = "file://" + ASSET_PREFIX
MAX_ASSET_BYTES = 2 * 1024 * 1024


class FetchRefused(ValueError):
    """A URL outside the project's static files. The message never contains the URL."""


def asset_url(path: str) -> str:
    """The URL a report template uses for the static file ``path`` in the PDF."""
    return ASSET_BASE_URL + path.lstrip("/")


GENERATED_PREFIX = ASSET_BASE_URL + "_generated/"
GENERATED_MAX = 64
_generated: dict[str, tuple[bytes, str]] = {}
_generated_lock = threading.Lock()


def generated_url(name: str, body: bytes, content_type: str) -> str:
    """Register an image the project generated (keyed by ``name``, e.g. a hash of what it
    shows) and return the URL the report uses for it. Bounded: the oldest go first."""
    url = GENERATED_PREFIX + name
    with _generated_lock:
        _generated.pop(url, None)
        _generated[url] = (body, content_type)
        while len(_generated) > GENERATED_MAX:
            _generated.pop(next(iter(_generated)))
    return url


def _generated_asset(url: str) -> tuple[bytes, str] | None:
    with _generated_lock:
        return _generated.get(url)


@lru_cache(maxsize=1)
def static_roots() -> tuple[Path, ...]:
    """Resolved static directories: STATICFILES_DIRS, each app's static/, STATIC_ROOT."""
    roots: list[Path] = []
    for entry in settings.STATICFILES_DIRS:
        roots.append(Path(entry[1] if isinstance(entry, list | tuple) else entry))
    for config in apps.get_app_configs():
        roots.append(Path(config.path) / "static")
    if settings.STATIC_ROOT:
        roots.append(Path(settings.STATIC_ROOT))
    return tuple(r.resolve() for r in roots if r.is_dir())


def resolve_asset(url: str) -> Path:
    """The real file behind an allowed asset URL, or ``FetchRefused``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        raise FetchRefused("malformed URL") from None
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        raise FetchRefused("only the project's static files may be fetched")
    path = unquote(parts.path)
    if not path.startswith(ASSET_PREFIX) or "\\" in path or "\x00" in path:
        raise FetchRefused("outside the static files")
    relative = path[len(ASSET_PREFIX):]
    segments = relative.split("/")
    if not relative or any(s in ("", ".", "..") for s in segments):
        raise FetchRefused("path traversal")
    if posixpath.normpath(relative) != relative:
        raise FetchRefused("path traversal")
    for root in static_roots():
        candidate = (root / relative).resolve()  # follows symlinks
        if candidate.is_relative_to(root) and candidate.is_file():
            return candidate
    raise FetchRefused("no such static file")


class StaticOnlyFetcher(URLFetcher):
    """WeasyPrint's documented way to fetch resources itself (a ``URLFetcher`` subclass
    with its own ``fetch``): this one serves the project's static files and the images
    registered above, and never calls ``URLFetcher.fetch`` or ``open``, so nothing else
    can be read. A refused URL is logged by WeasyPrint, which renders on without it
    (``fail_on_errors=False``).

    ``calls`` keeps the URLs asked for, so tests can prove what was fetched.
    """

    def __init__(self, record: bool = False):
        # URLFetcher builds an HTTPS handler we never use; given this bare context it does
        # not load the system's CA certificates (~100-400 ms) to build a default one.
        super().__init__(allowed_protocols=("file",), allow_redirects=False,
                         fail_on_errors=False,
                         ssl_context=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))
        self._record_lock = threading.Lock()
        self.record = record
        self.calls: list[str] = []
        self.served: list[str] = []

    def fetch(self, url, headers=None):
        if self.record:
            with self._record_lock:
                self.calls.append(url)
        generated = _generated_asset(url) if isinstance(url, str) else None
        if generated is not None:
            body, content_type = generated
            if self.record:
                with self._record_lock:
                    self.served.append(url)
            return URLFetcherResponse(url, body=body, headers={"Content-Type": content_type})
        path = resolve_asset(url)
        if path.stat().st_size > MAX_ASSET_BYTES:
            raise FetchRefused("static file too large")
        if self.record:
            with self._record_lock:
                self.served.append(url)
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            url, body=path.read_bytes(), headers={"Content-Type": content_type})

    def open(self, url, data=None, timeout=None):  # pragma: no cover - not used by WeasyPrint
        raise FetchRefused("opening URLs is not allowed")


class FontFileFetcher(StaticOnlyFetcher):
    """Serves exactly the given font files (the report's own cut-down fonts, see
    ``selector.documents.fonts``); used only for the stylesheet that declares them."""

    def __init__(self, paths):
        super().__init__()
        self.allowed = {Path(p).resolve().as_uri(): Path(p).resolve() for p in paths}

    def fetch(self, url, headers=None):
        path = self.allowed.get(url)
        if path is None:
            raise FetchRefused("not a report font")
        return URLFetcherResponse(url, body=path.read_bytes(),
                                  headers={"Content-Type": "font/otf"})
