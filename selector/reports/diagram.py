"""A small SVG drawing of a sized fabric (core / spine / leaf / servers) for the report.

Only numbers and translated tier names go into the markup (all escaped), so it is safe to
mark as HTML. SVG presentation attributes only: the web version runs under a strict CSP.
Few elements on purpose (one path per layer): every element costs WeasyPrint time.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from selector.domain import FabricSize

WIDTH = 640
ROW_H = 42
BOX_W, BOX_H = 50, 20
LEFT = 118
MAX_BOXES = 8
FONT = "Noto Sans CJK SC Report, Noto Sans CJK SC, Noto Sans, sans-serif"


def _xs(count: int) -> list[float]:
    shown = min(count, MAX_BOXES)
    span = WIDTH - LEFT - 10
    step = span / shown
    return [LEFT + step * i + (step - BOX_W) / 2 for i in range(shown)]


def _box(x: float, y: float, w: float = BOX_W, h: float = BOX_H) -> str:
    return f"M{x:.1f} {y:.1f}h{w}v{h}h{-w}Z"


def fabric_svg(size: FabricSize) -> SafeString:
    tiers: list[tuple[str, int, str]] = []
    if size.core:
        tiers.append((_("Core"), size.core, "switch"))
    if size.spine:
        tiers.append((_("Spine"), size.spine, "switch"))
    tiers.append((_("Leaf"), size.leaf, "switch"))
    tiers.append((_("Servers"), size.servers, "server"))
    height = ROW_H * len(tiers) + 6
    rows = [(8 + i * ROW_H, _xs(count), count, kind, label)
            for i, (label, count, kind) in enumerate(tiers)]

    links = []
    for (y1, xs1, *_a), (y2, xs2, *_b) in zip(rows, rows[1:], strict=False):
        for x1 in xs1:
            for x2 in xs2:
                links.append(f"M{x1 + BOX_W / 2:.1f} {y1 + BOX_H}L{x2 + BOX_W / 2:.1f} {y2}")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fabric-diagram" viewBox="0 0 {WIDTH} '
        f'{height}" width="{WIDTH}" height="{height}" role="img" font-family="{FONT}" '
        f'aria-label="{escape(_("Fabric diagram"))}">',
        f'<path d="{"".join(links)}" stroke="#9fb6cf" stroke-width="0.6" fill="none"/>',
    ]
    for y, xs, count, kind, label in rows:
        out.append(
            f'<text x="0" y="{y + 13}" font-size="11" fill="#0b3a6e" font-weight="bold">'
            f'{escape(label)}</text><text x="0" y="{y + 27}" font-size="10" fill="#4a5b70">'
            f"× {count:,}</text>"
        )
        more = len(xs) - 2 if count > MAX_BOXES else -1
        boxes = "".join(_box(x, y) for i, x in enumerate(xs) if i != more)
        if kind == "switch":
            marks = "".join(_box(x + BOX_W / 2 - 2, y + BOX_H / 2 - 2, 4, 4)
                            for i, x in enumerate(xs) if i != more)
            out.append(f'<path d="{boxes}" fill="#0b3a6e"/><path d="{marks}" fill="#5cc8ff"/>')
        else:
            gpus = min(size.gpus_per_server or 8, 8)
            marks = "".join(_box(x + 5 + j * 5, y + 7, 3, 6)
                            for i, x in enumerate(xs) if i != more for j in range(gpus))
            out.append(f'<path d="{boxes}" fill="#eef3f9" stroke="#6b7f96" stroke-width="0.8"/>'
                       f'<path d="{marks}" fill="#5cc8ff"/>')
        if more >= 0:
            x = xs[more]
            out.append(f'<path d="{_box(x, y)}" fill="#ffffff" stroke="#0b3a6e" '
                       f'stroke-width="0.8"/><text x="{x + BOX_W / 2:.1f}" y="{y + 14}" '
                       f'font-size="11" text-anchor="middle" fill="#0b3a6e">…</text>')
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - numbers and escaped labels only
