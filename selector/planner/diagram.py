"""THE fabric diagram: server-side SVG of a planned fabric, for the result page, the staff
lead page and the PDF (``variant="print"`` swaps in the report's font; the drawing is the
same).

Groups with counts, never one box per switch, so the picture stays the same size and
legible from 8 to 1,000,000 GPUs: core, spines, the rails' leaf groups (first two rails, an
ellipsis, the last rail) and the servers, with the link count and speed of every tier. A
multi-plane fabric draws one plane and says how many there are. The SVG carries only
presentation attributes (no style attributes, no CSS), so the web page (under CSP) and the
PDF render it alike (but for the labels' halo, see HALO). The viewBox is 360 units wide:
on a 360 px phone one unit is about one pixel.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from selector.core.explain import FABRIC_SHORT

WIDTH = 360
BOX_H = 44
ROW_GAP = 46
FONTS = {
    "web": "-apple-system, 'PingFang SC', 'Noto Sans CJK SC', 'Microsoft YaHei', sans-serif",
    "print": "Noto Sans CJK SC Report, Noto Sans CJK SC, Noto Sans, sans-serif",
}
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


# A white halo under the link labels on screen. Not in print: WeasyPrint ignores
# paint-order and strokes over the glyphs, which hid the labels in every PDF (the labels sit
# right of the boxes, where no line runs, so the halo only ever mattered to browsers).
HALO = {"web": ' paint-order="stroke" stroke="#ffffff" stroke-width="3"', "print": ""}


def _links(x1s: list[float], y1: float, x2s: list[float], y2: float, label: str,
           variant: str) -> str:
    out = []
    for x1 in x1s:
        for x2 in x2s:
            out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
                       f'stroke="#5b6675" stroke-width="1"/>')
    ym = (y1 + y2) / 2 + 4
    out.append(f'<text x="{WIDTH - 4}" y="{ym:.0f}" text-anchor="end" font-size="11" '
               f'fill="#1c2430"{HALO[variant]}>{escape(label)}</text>')
    return "".join(out)


def _rail_columns(rails: int) -> list[int | None]:
    """Rails drawn: all up to 3, else rail 1, rail 2, an ellipsis (None), the last rail."""
    if rails <= 3:
        return list(range(1, rails + 1))
    return [1, 2, None, rails]


def _links_label(count: int, speed: int) -> str:
    return _("%(n)s × %(speed)sG links") % {"n": _n(count), "speed": speed}


def fabric_svg(option, id_prefix: str = "fabric", *, variant: str = "web") -> SafeString:
    """The SVG for ``option`` (a FabricOption with a plan), or "" when it has none."""
    plan = getattr(option, "plan", None)
    if plan is None:
        return mark_safe("")  # noqa: S308 (constant)
    size = plan.largest_plane
    planes = plan.plane_count * plan.pods  # every pod's planes are the drawn one's twins
    switch = plan.switch
    rows = ["core"] if size.tiers == 3 else []
    rows += ["spine"] if size.tiers >= 2 else []
    rows += ["leaf", "server"]
    top = 44  # title line, then the header line, then the boxes
    height = top + len(rows) * BOX_H + (len(rows) - 1) * ROW_GAP + 8
    ys = {kind: top + i * (BOX_H + ROW_GAP) for i, kind in enumerate(rows)}
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    fabric_name = str(FABRIC_SHORT[option.fabric])
    if size.tiers == 1:
        title = _("%(fabric)s fabric: one switch per plane") % {"fabric": fabric_name}
    else:
        title = _("%(fabric)s fabric: %(tiers)s tiers") % {"fabric": fabric_name,
                                                             "tiers": size.tiers}
    links = plan.links
    desc = _(
        "%(core)s core, %(spine)s spine and %(leaf)s leaf switches (%(model)s) in %(planes)s "
        "planes for %(servers)s servers with %(rails)s NICs each; %(gpu_leaf)s GPU-leaf, "
        "%(leaf_spine)s leaf-spine and %(spine_core)s spine-core links."
    ) % {"core": _n(plan.core), "spine": _n(plan.spine), "leaf": _n(plan.leaf),
         "model": f"{switch.vendor} {switch.model}", "planes": planes,
         "servers": _n(plan.servers), "rails": plan.rails, "gpu_leaf": _n(links["gpu_leaf"]),
         "leaf_spine": _n(links["leaf_spine"]), "spine_core": _n(links["spine_core"])}

    # Leaf and Spine stay as they are in both languages (the glossary's "Leaf 交换机").
    words = {"leaf": "Leaf", "spine": "Spine", "core": _("Core"),
             "servers": _("Servers"), "switch": _("Switch")}
    body = []
    box_w = 200
    center_x = (WIDTH - 70 - box_w) / 2  # leave room on the right for link labels
    mid = center_x + box_w / 2
    rails = max(size.rails, 1)
    one_leaf_per_rail_group = size.leaf >= rails and size.leaf % rails == 0
    leaf_parts = []
    if size.tiers == 1:
        leaf_parts.append(_box(center_x, ys["leaf"], box_w, "leaf", f"{words['switch']} ×1",
                               _("%(rails)s rails, %(ports)s ports used") % {
                                   "rails": rails, "ports": _n(size.links["gpu_leaf"])}))
        leaf_xs = [mid]
    elif one_leaf_per_rail_group:
        per_rail = size.leaf // rails
        cols = _rail_columns(rails)
        col_w, gap = 66, 8
        total = len(cols) * col_w + (len(cols) - 1) * gap
        x0 = mid - total / 2
        leaf_xs = []
        for i, rail in enumerate(cols):
            x = x0 + i * (col_w + gap)
            if rail is None:
                leaf_parts.append(f'<text x="{x + col_w / 2:.0f}" y="{ys["leaf"] + 27}" '
                                  f'text-anchor="middle" font-size="14" fill="#0b3a6e">…</text>')
                continue
            leaf_xs.append(x + col_w / 2)
            leaf_parts.append(_box(x, ys["leaf"], col_w, "leaf", _("Rail %(n)s") % {"n": rail},
                                   f"{words['leaf']} ×{_n(per_rail)}"))
    else:
        leaf_parts.append(_box(center_x, ys["leaf"], box_w, "leaf",
                               f"{words['leaf']} ×{_n(size.leaf)}",
                               _("%(rails)s rails share the leaves") % {"rails": rails}))
        leaf_xs = [mid]

    if "core" in ys:
        body.append(_links([mid], ys["core"] + BOX_H, [mid], ys["spine"],
                           _links_label(size.links["spine_core"], plan.uplink_gbps), variant))
    if "spine" in ys:
        body.append(_links([mid], ys["spine"] + BOX_H, leaf_xs, ys["leaf"],
                           _links_label(size.links["leaf_spine"], plan.uplink_gbps), variant))
    body.append(_links(leaf_xs, ys["leaf"] + BOX_H, [mid], ys["server"],
                       _links_label(size.links["gpu_leaf"], plan.port_gbps), variant))
    if "core" in ys:
        body.append(_box(center_x, ys["core"], box_w, "core",
                         f"{words['core']} ×{_n(size.core)}", switch.model))
    if "spine" in ys:
        body.append(_box(center_x, ys["spine"], box_w, "spine",
                         f"{words['spine']} ×{_n(size.spine)}", switch.model))
    body.extend(leaf_parts)
    body.append(_box(center_x, ys["server"], box_w, "server",
                     f"{words['servers']} ×{_n(plan.servers)}",
                     _("%(gpus)s GPUs, %(rails)s rails") % {"gpus": _n(plan.gpus),
                                                            "rails": plan.rails}))
    # What the drawing does not show by itself: how many planes it stands for, or the
    # switch total (a link speed here read as the leaves' speed; the links carry theirs).
    if planes > 1:
        header = _("One of %(planes)s identical planes") % {"planes": planes}
    else:
        header = _("%(switches)s switches") % {"switches": _n(size.switches)}
    font = FONTS.get(variant, FONTS["web"])
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fabric-diagram fabric-{variant}" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" font-family="{escape(font)}">'
        f'<title id="{title_id}">{escape(title)}</title>'
        f'<desc id="{desc_id}">{escape(desc)}</desc>'
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>'
        f'<text x="4" y="18" font-size="12" font-weight="700" fill="#0b3a6e">'
        f'{escape(title)}</text>'
        f'<text x="4" y="34" font-size="11" fill="#5b6675">{escape(header)}</text>'
        + "".join(body) + "</svg>"
    )
    return mark_safe(svg)  # noqa: S308 (every text above is escaped)
