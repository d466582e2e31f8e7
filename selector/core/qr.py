"""QR codes drawn on our own server as inline SVG (segno: pure Python, maintained), for the
company's WeChat link and the PDF's link back to the online result. No image service, no
network: the SVG goes straight into the page, the e-mail or the report."""

from __future__ import annotations

import io
from functools import lru_cache

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

MAX_DATA_LENGTH = 600  # a share link is < 450 characters; anything longer is not ours


@lru_cache(maxsize=64)
def _svg(data: str, title: str, css_class: str) -> str:
    code = segno.make(data, error="m", micro=False)
    buffer = io.BytesIO()
    code.save(buffer, kind="svg", xmldecl=False, svgns=True, nl=False, scale=1, border=2,
              omitsize=True, dark="#0b3a6e", svgclass=None, lineclass=None)
    svg = buffer.getvalue().decode()
    # role=img + <title>: read as one picture; the class sizes it (no inline style: CSP).
    head, rest = svg.split(">", 1)
    return (f'{head} class="{escape(css_class)}" role="img" aria-label="{escape(title)}">'
            f"<title>{escape(title)}</title>{rest}")


@lru_cache(maxsize=64)
def qr_png(data: str) -> bytes:
    """The QR code as a small PNG (4 px per module, no transparency: PDF/A-safe). For the
    PDF, where WeasyPrint draws an image far faster than an SVG path of ~2,000 segments;
    the report's CSS keeps it sharp (image-rendering: pixelated)."""
    buffer = io.BytesIO()
    segno.make(data, error="m", micro=False).save(buffer, kind="png", scale=4, border=2,
                                                   dark="#0b3a6e", light="#ffffff")
    return buffer.getvalue()


def qr_svg(data: str, *, title: str, css_class: str = "qr") -> SafeString:
    """An inline ``<svg>`` QR code for ``data`` (empty for empty or oversized data)."""
    if not data or len(data) > MAX_DATA_LENGTH:
        return mark_safe("")  # noqa: S308 - a constant
    return mark_safe(_svg(data, str(title), css_class))  # noqa: S308 - segno output, escaped title
