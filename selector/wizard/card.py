"""The sharing image of a shared result: a 1200 x 630 PNG drawn from the plan (the
recommendation, its rule and the key numbers), in the page's language, so that a link
pasted into WeChat, Slack or an e-mail previews this cluster's answer, not a generic logo.

Drawn with Pillow (WeasyPrint's own image library, pinned in requirements.txt) in Noto
Sans CJK SC (Debian's fonts-noto-cjk, the font of the PDF report). About the size and
format: selector.core.social.
"""

from __future__ import annotations

import io
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from PIL import Image, ImageDraw, ImageFont

from selector.core.social import SHARE_IMAGE_SIZE
from selector.documents.fonts import SYSTEM_DIR
from selector.planner.presenter import ViewModel

WIDTH, HEIGHT = SHARE_IMAGE_SIZE
MARGIN = 72
BRAND, LINE, WHITE, MUTED = "#0b3a6e", "#5cc8ff", "#ffffff", "#c9d6e6"
_SC = 2  # the Simplified Chinese face of Noto Sans CJK's collection


@lru_cache(maxsize=16)
def _font(weight: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(SYSTEM_DIR / f"NotoSansCJK-{weight}.ttc"), size, index=_SC)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int,
          lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` px: at spaces where there are any
    (English), else between characters (Chinese); the last line ends in "…" if cut."""
    tokens = text.split(" ") if " " in text else list(text)
    sep = " " if " " in text else ""
    out: list[str] = []
    current = ""
    for token in tokens:
        candidate = f"{current}{sep}{token}" if current else token
        if draw.textlength(candidate, font=font) <= width:
            current = candidate
            continue
        out.append(current)
        current = token
        if len(out) == lines:
            break
    else:
        out.append(current)
        return out
    last = out[-1]
    while last and draw.textlength(last + "…", font=font) > width:
        last = last[:-1]
    return [*out[:-1], last + "…"]


def _logo(draw: ImageDraw.ImageDraw, x: int, y: int, scale: float) -> None:
    """static/img/logo.svg (64 x 64 units) at (x, y)."""
    def p(u: float, v: float) -> tuple[float, float]:
        return x + u * scale, y + v * scale
    draw.rounded_rectangle([p(0, 0), p(64, 64)], radius=12 * scale, fill="#134b8a")
    for a, b in (((16, 44), (32, 20)), ((32, 20), (48, 44)), ((16, 44), (48, 44)),
                 ((32, 20), (32, 44))):
        draw.line([p(*a), p(*b)], fill=LINE, width=round(3 * scale))
    for cx, cy, r in ((32, 20, 5), (16, 44, 5), (48, 44, 5), (32, 44, 4)):
        draw.ellipse([p(cx - r, cy - r), p(cx + r, cy + r)], fill=WHITE)


def key_numbers(vm: ViewModel) -> list[tuple[str, str]]:
    """(label, value) pairs the card shows, as the result page's key numbers say them."""
    s = vm.summary
    numbers = [(pgettext("key number", "GPUs"), vm.gpus_text)]
    if s.has_fabric:
        numbers += [(pgettext("key number", "Switches"), s.switches_text),
                    (_("Switch model"), s.switch_model),
                    (_("Optical modules"), s.modules_text)]
    return numbers


def plan_card(vm: ViewModel, company_name: str) -> bytes:
    """The PNG of ``vm``'s recommendation (the active language's words)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BRAND)
    d = ImageDraw.Draw(image)
    d.rectangle([0, HEIGHT - 14, WIDTH, HEIGHT], fill=LINE)
    _logo(d, MARGIN, 56, 1.1)
    d.text((MARGIN + 90, 62), company_name, font=_font("Bold", 34), fill=WHITE)
    d.text((MARGIN, 160), _("Shared result"), font=_font("Regular", 30), fill=LINE)
    y = 204
    for line in _wrap(d, vm.recommendation_label, _font("Bold", 62), WIDTH - 2 * MARGIN, 2):
        d.text((MARGIN, y), line, font=_font("Bold", 62), fill=WHITE)
        y += 80
    for line in _wrap(d, vm.rule_title, _font("Regular", 32), WIDTH - 2 * MARGIN, 1):
        d.text((MARGIN, y + 6), line, font=_font("Regular", 32), fill=MUTED)
    numbers = key_numbers(vm)
    # The switch model is the long value: it gets twice a number's width.
    weights = [2 if i == 2 else 1 for i in range(len(numbers))]
    unit = (WIDTH - 2 * MARGIN) / sum(weights)
    x = float(MARGIN)
    for (label, value), weight in zip(numbers, weights, strict=True):
        d.text((x, 452), label, font=_font("Regular", 26), fill=MUTED)
        for j, line in enumerate(_wrap(d, value, _font("Bold", 36), int(weight * unit) - 24, 2)):
            d.text((x, 490 + j * 44), line, font=_font("Bold", 36), fill=WHITE)
        x += weight * unit
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
