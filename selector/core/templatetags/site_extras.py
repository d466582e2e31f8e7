"""Template helpers shared by every app: the QR code of a link."""

from django import template

from selector.core.qr import qr_svg

register = template.Library()


@register.simple_tag
def qr(data: str, title: str, css_class: str = "qr"):
    """``{% qr url title %}``: an inline SVG QR code of ``url`` (nothing for an empty url)."""
    return qr_svg(data or "", title=title, css_class=css_class)
