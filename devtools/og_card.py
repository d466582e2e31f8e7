"""Draw static/img/og-card.png, the site's branded sharing image (Open Graph / Twitter
card, Article JSON-LD image): 1200 x 630 px, the size Open Graph consumers show large
(Facebook's "Sharing best practices": at least 1200 x 630,
https://developers.facebook.com/docs/sharing/webmasters/images/, read 2026-12-02).

A first step: one static image for every page; not yet drawn from each plan. Run after a
change of the brand: ``.venv/bin/python -m devtools.og_card``. Needs Pillow (WeasyPrint's
dependency) and Debian's fonts-noto-cjk (Makefile DEB_PACKAGES).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "img" / "og-card.png"
WIDTH, HEIGHT = 1200, 630
FONT_DIR = Path("/usr/share/fonts/opentype/noto")
SC = 2  # the Simplified Chinese face in Noto Sans CJK's collection
BRAND, LINE, WHITE, MUTED = "#0b3a6e", "#5cc8ff", "#ffffff", "#c9d6e6"


def _font(weight: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / f"NotoSansCJK-{weight}.ttc"), size, index=SC)


def _logo(draw: ImageDraw.ImageDraw, x: int, y: int, scale: float) -> None:
    """static/img/logo.svg (64 x 64 units) at (x, y)."""
    def p(u: float, v: float) -> tuple[float, float]:
        return x + u * scale, y + v * scale
    draw.rounded_rectangle([p(0, 0), p(64, 64)], radius=12 * scale, fill="#134b8a")
    width = round(3 * scale)
    for a, b in (((16, 44), (32, 20)), ((32, 20), (48, 44)), ((16, 44), (48, 44)),
                 ((32, 20), (32, 44))):
        draw.line([p(*a), p(*b)], fill=LINE, width=width)
    for cx, cy, r in ((32, 20, 5), (16, 44, 5), (48, 44, 5), (32, 44, 4)):
        draw.ellipse([p(cx - r, cy - r), p(cx + r, cy + r)], fill=WHITE)


def draw() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BRAND)
    d = ImageDraw.Draw(image)
    d.rectangle([0, HEIGHT - 16, WIDTH, HEIGHT], fill=LINE)
    _logo(d, 80, 72, 2.0)
    d.text((232, 82), "深华天成", font=_font("Bold", 44), fill=WHITE)
    d.text((232, 140), "Shenhua Tiancheng", font=_font("Regular", 28), fill=MUTED)
    d.text((80, 250), "AI 集群网络怎么选", font=_font("Bold", 76), fill=WHITE)
    d.text((80, 360), "RoCE v2 无损以太网 · InfiniBand", font=_font("Regular", 44), fill=LINE)
    d.text((80, 440), "AI cluster network selector: RoCE v2 or InfiniBand",
           font=_font("Regular", 34), fill=MUTED)
    d.text((80, 500), "方案、物料清单与调优参数 | Plan, bill of materials and tuning",
           font=_font("Regular", 28), fill=MUTED)
    return image


def main() -> None:
    draw().save(OUT, "PNG", optimize=True)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
