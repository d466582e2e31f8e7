"""Server-side SVG of a rail-optimized fat-tree, drawn from a FabricOption's plan.

Groups with counts, never one box per switch, so the picture stays the same size and
legible from 16 to 16,000 GPUs: core, spines, the rails' leaf groups (first two rails, an
ellipsis, the last rail) and the servers, with the link count of every tier. The SVG
carries only presentation attributes (no style attributes, no CSS), so the web page
(under CSP) and the PDF render it alike. The viewBox is 360 units wide: on a 360 px
phone one unit is about one pixel.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from selector.core.explain import FABRIC_SHORT

WIDTH = 360
BOX_H = 44
ROW_GAP = 46
FONT = "-apple-system, 'PingFang SC', 'Noto Sans CJK SC', 'Microsoft YaHei', sans-serif"
COLORS = {
    "core": ("#0b3a6e", "#ffffff"),
    "spine": ("#1467c8", "#ffffff"),
    "leaf": ("#e6f0fb", "#0b3a6e"),
    "server": ("#f5f7fa", "#1c2430"),
}


def _n(value: int) -> str:
    return f"{value:,}"


def _box(x: float, y: float, w: float, kind: str, line1: str, line2: str = "") -> str:
    fill, ink = COLORS[kind]
    parts = [
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{BOX_H}" rx="6" '
        f'fill="{fill}" stroke="#0b3a6e" stroke-width="1"/>'
    ]
    cx = x + w / 2
    if line2:
        parts.append(f'<text x="{cx:.0f}" y="{y + 18:.0f}" text-anchor="middle" '
                     f'font-size="12" font-weight="700" fill="{ink}">{escape(line1)}</text>')
        parts.append(f'<text x="{cx:.0f}" y="{y + 34:.0f}" text-anchor="middle" '
                     f'font-size="11" fill="{ink}">{escape(line2)}</text>')
    else:
        parts.append(f'<text x="{cx:.0f}" y="{y + 27:.0f}" text-anchor="middle" '
                     f'font-size="12" font-weight="700" fill="{ink}">{escape(line1)}</text>')
    return "".join(parts)


def _links(x1s: list[float], y1: float, x2s: list[float], y2: float, label: str) -> str:
    out = []
    for x1 in x1s:
        for x2 in x2s:
            out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
                       f'stroke="#5b6675" stroke-width="1"/>')
    ym = (y1 + y2) / 2 + 4
    out.append(f'<text x="{WIDTH - 4}" y="{ym:.0f}" text-anchor="end" font-size="11" '
               f'fill="#1c2430" paint-order="stroke" stroke="#ffffff" stroke-width="3">'
               f'{escape(label)}</text>')
    return "".join(out)


def _rail_columns(rails: int) -> list[int | None]:
    """Rails drawn: all up to 3, else rail 1, rail 2, an ellipsis (None), the last rail."""
    if rails <= 3:
        return list(range(1, rails + 1))
    return [1, 2, None, rails]


def fabric_svg(option, id_prefix: str = "fabric") -> SafeString:
    """The SVG for ``option`` (a FabricOption with a plan), or "" when it has none."""
    plan = getattr(option, "plan", None)
    if plan is None:
        return mark_safe("")  # noqa: S308 (constant)
    size = plan.size
    switch = plan.switch
    rails = max(size.rails, 1)
    per_rail = size.leaf // rails if size.leaf % rails == 0 else None
    rows = ["core"] if size.tiers == 3 else []
    rows += ["spine", "leaf", "server"]
    height = 30 + len(rows) * BOX_H + (len(rows) - 1) * ROW_GAP + 8
    ys = {kind: 30 + i * (BOX_H + ROW_GAP) for i, kind in enumerate(rows)}
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    fabric_name = str(FABRIC_SHORT[option.fabric])
    title = _("%(fabric)s fabric: %(tiers)s tiers") % {"fabric": fabric_name,
                                                         "tiers": size.tiers}
    desc = _(
        "%(core)s core, %(spine)s spine and %(leaf)s leaf switches (%(model)s) for %(servers)s "
        "servers in %(rails)s rails; %(gpu_leaf)s GPU-leaf, %(leaf_spine)s leaf-spine and "
        "%(spine_core)s spine-core links."
    ) % {"core": size.core, "spine": size.spine, "leaf": size.leaf,
         "model": f"{switch.vendor} {switch.model}", "servers": size.servers,
         "rails": size.rails, "gpu_leaf": size.links["gpu_leaf"],
         "leaf_spine": size.links["leaf_spine"], "spine_core": size.links["spine_core"]}

    words = {"leaf": _("Leaf"), "spine": _("Spine"), "core": _("Core"), "servers": _("Servers")}
    body = []
    box_w = 200
    center_x = (WIDTH - 70 - box_w) / 2  # leave room on the right for link labels
    mid = center_x + box_w / 2
    # Rail leaf groups.
    cols = _rail_columns(rails)
    col_w, gap = 66, 8
    total = len(cols) * col_w + (len(cols) - 1) * gap
    x0 = mid - total / 2
    rail_centers = []
    leaf_parts = []
    for i, rail in enumerate(cols):
        x = x0 + i * (col_w + gap)
        rail_centers.append(x + col_w / 2)
        if rail is None:
            leaf_parts.append(f'<text x="{x + col_w / 2:.0f}" y="{ys["leaf"] + 27}" '
                              f'text-anchor="middle" font-size="14" fill="#0b3a6e">…</text>')
            continue
        leaves = f"{words['leaf']} ×{_n(per_rail)}" if per_rail else _("Leaves")
        leaf_parts.append(_box(x, ys["leaf"], col_w, "leaf",
                               _("Rail %(n)s") % {"n": rail}, leaves))
    real_rails = [c for c, r in zip(rail_centers, cols, strict=True) if r is not None]

    if "core" in ys:
        body.append(_links([mid], ys["core"] + BOX_H, [mid], ys["spine"],
                           _("%(n)s links") % {"n": _n(size.links["spine_core"])}))
    body.append(_links([mid], ys["spine"] + BOX_H, real_rails, ys["leaf"],
                       _("%(n)s links") % {"n": _n(size.links["leaf_spine"])}))
    body.append(_links(real_rails, ys["leaf"] + BOX_H, [mid], ys["server"],
                       _("%(n)s links") % {"n": _n(size.links["gpu_leaf"])}))
    if "core" in ys:
        body.append(_box(center_x, ys["core"], box_w, "core",
                         f"{words['core']} ×{_n(size.core)}", switch.model))
    body.append(_box(center_x, ys["spine"], box_w, "spine",
                     f"{words['spine']} ×{_n(size.spine)}", switch.model))
    body.extend(leaf_parts)
    body.append(_box(center_x, ys["server"], box_w, "server",
                     f"{words['servers']} ×{_n(size.servers)}",
                     _("%(gpus)s GPUs, %(rails)s rails") % {"gpus": _n(size.gpus),
                                                            "rails": size.rails}))
    header = _("%(leaf)s leaves, %(speed)sG") % {"leaf": _n(size.leaf),
                                                  "speed": plan.speed_gbps}
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fabric-diagram" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" font-family="{escape(FONT)}">'
        f'<title id="{title_id}">{escape(title)}</title>'
        f'<desc id="{desc_id}">{escape(desc)}</desc>'
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>'
        f'<text x="4" y="18" font-size="12" font-weight="700" fill="#0b3a6e">'
        f'{escape(title)}</text>'
        f'<text x="{WIDTH - 4}" y="18" text-anchor="end" font-size="11" fill="#5b6675">'
        f'{escape(header)}</text>'
        + "".join(body) + "</svg>"
    )
    return mark_safe(svg)  # noqa: S308 (every text above is escaped)
