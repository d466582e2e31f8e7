"""HTML to PDF for any document the project writes, through WeasyPrint's public API only.

Lead-agnostic: the caller brings the HTML, its stylesheets and its attachments; this
module brings what every document shares and is costly to build, once per process: the
font configuration, the report fonts (``selector.documents.fonts``), the URL fetcher that
reads nothing but the project's own files (``selector.documents.fetcher``), parsed
stylesheets and the image cache.

Nothing here changes WeasyPrint, pydyf or any other library for the process (no patched
module, no private name): the speed comes from what the public API offers, so a
WeasyPrint upgrade is a change of its one pin in requirements.txt.

* Fonts cut down ahead of time (``fonts.py``): subsetting Noto Sans CJK for each PDF is
  the largest cost WeasyPrint has on a Chinese document, and the cut-down copy makes it
  small.
* Objects WeasyPrint can reuse: one ``FontConfiguration``, parsed ``CSS`` objects, the
  ``cache`` option (images decoded once).
* PDF options from ``DEFAULT_OPTIONS``: PDF/A-3u with tags (``PDF_OPTIONS``), images kept
  as they are (the report's are small PNGs and one SVG: ``optimize_images`` would only cost).
* One render at a time, with the cyclic garbage collector paused for its length (below).

docs/performance.md has the figures and ``bench/bench_reports.py`` measures this module
against WeasyPrint with its defaults on the same HTML in the same run.
"""

from __future__ import annotations

import gc
import os
import posixpath
import threading
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from django.contrib.staticfiles import finders
from weasyprint import CSS, HTML, Attachment
from weasyprint.document import Document
from weasyprint.text.fonts import FontConfiguration

from selector.documents import fonts
from selector.documents.fetcher import ASSET_BASE_URL, FontFileFetcher, StaticOnlyFetcher

# PDF/A-3u (ISO 19005-3, Unicode text): an archivable file that may carry associated files
# (AF) such as machine-readable data, with XMP metadata (pdfaid), an sRGB OutputIntent and
# embedded fonts; tagged (a structure tree) for screen readers and text extraction.
# WeasyPrint's own implementation (its pdf_variant and pdf_tags options).
PDF_VARIANT = "pdf/a-3u"
PDF_OPTIONS: dict[str, object] = {"pdf_variant": PDF_VARIANT, "pdf_tags": True}

_lock = threading.Lock()
_image_cache: dict = {}


@lru_cache(maxsize=1)
def font_config() -> FontConfiguration:
    """One font configuration for every stylesheet and document of the process (WeasyPrint
    requires the same one for the CSS objects applied to a document)."""
    return FontConfiguration()


@lru_cache(maxsize=1)
def default_fetcher() -> StaticOnlyFetcher:
    return StaticOnlyFetcher()


@lru_cache(maxsize=1)
def fonts_stylesheet() -> CSS:
    """@font-face rules for the cut-down report fonts (empty without them)."""
    paths = fonts.available_fonts()
    return CSS(string=fonts.font_face_css(), font_config=font_config(),
               url_fetcher=FontFileFetcher(paths.values()))


@lru_cache(maxsize=8)
def _static_stylesheet(name: str, path: str, mtime: float) -> CSS:
    base = posixpath.dirname(name)
    return CSS(filename=path, base_url=ASSET_BASE_URL + (base + "/" if base else ""),
               font_config=font_config(), url_fetcher=default_fetcher())


def static_stylesheet(name: str) -> CSS:
    """The parsed static file ``name`` (e.g. "css/report.css"); parsed again only when the
    file changes. Its url()s resolve against the static files, through the fetcher."""
    path = finders.find(name)
    if not isinstance(path, str):
        raise FileNotFoundError(name)
    return _static_stylesheet(name, path, os.stat(path).st_mtime)


@lru_cache(maxsize=16)
def string_stylesheet(css: str) -> CSS:
    """A stylesheet written by the project (e.g. a page footer per language), parsed once."""
    return CSS(string=css, font_config=font_config(), url_fetcher=default_fetcher())


@contextmanager
def _cyclic_gc_paused():
    """A render builds some 100,000 objects that live until it ends, and the cyclic garbage
    collector would scan them again at every collection it triggers (on the sample report,
    12 ms of the median render and ~90 ms of the 95th percentile, in full collections).
    Reference counting still frees everything meanwhile; what the render leaves in cycles
    goes at the next collection after it. Renders run one at a time (``_lock``), so the
    pause lasts one render; bench/pdf_soak.py checks that memory stays flat over 500
    renders."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def render(html: str, *, stylesheets: Sequence[CSS],
           fetcher: StaticOnlyFetcher | None = None) -> Document:
    """Lay ``html`` out into pages (WeasyPrint's ``Document``), with the report fonts and
    ``stylesheets`` after them. Call under ``_lock`` (``html_to_pdf`` does) or in tests."""
    fetcher = fetcher or default_fetcher()
    return HTML(string=html, base_url=ASSET_BASE_URL, url_fetcher=fetcher).render(
        font_config=font_config(), stylesheets=[fonts_stylesheet(), *stylesheets],
        cache=_image_cache)


@dataclass(frozen=True)
class FileAttachment:
    """A file the PDF carries (PDF/A-3: an associated file with its relationship)."""

    content: bytes
    name: str
    description: str
    relationship: str  # e.g. "Data", "Source", "Alternative", "Supplement"


@dataclass(frozen=True)
class RenderedPdf:
    content: bytes
    pages: int


def _one_entry_each(document, pdf) -> None:
    """WeasyPrint's ``finisher`` hook, before the file is written: WeasyPrint 70's PDF/A
    code lists each embedded file twice in the catalog's /AF array (once from the
    EmbeddedFiles name tree, once from its file specification). Keep one of each."""
    associated = pdf.catalog.get("AF")
    if associated:
        unique = list(dict.fromkeys(associated))
        associated.clear()
        associated.extend(unique)


def html_to_pdf(html: str, *, stylesheets: Sequence[CSS], created: datetime,
                attachments: Sequence[FileAttachment] = (),
                fetcher: StaticOnlyFetcher | None = None) -> RenderedPdf:
    """``html`` as a tagged PDF/A-3u with exactly ``attachments`` (whatever the HTML
    declares is dropped). No database: safe to run in a worker thread."""
    fetcher = fetcher or default_fetcher()
    naive = created.replace(tzinfo=None)
    files = [Attachment(string=item.content, name=item.name, url_fetcher=fetcher,
                        description=item.description, created=naive, modified=naive,
                        relationship=item.relationship) for item in attachments]
    with _lock, _cyclic_gc_paused():  # one render at a time: WeasyPrint shares the font map
        document = render(html, stylesheets=stylesheets, fetcher=fetcher)
        # Attachments come only from the caller: drop any <link rel=attachment>.
        document.metadata.attachments = []
        pdf = document.write_pdf(attachments=files, finisher=_one_entry_each, **PDF_OPTIONS)
    return RenderedPdf(pdf, len(document.pages))
