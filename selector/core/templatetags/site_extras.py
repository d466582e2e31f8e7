"""Template helpers shared by every app: the QR code of a link, the language switch."""

import hashlib
from collections.abc import Mapping
from typing import Any

from django import template
from django.conf import settings
from django.template import Context
from django.utils.html import format_html
from django.utils.safestring import SafeString

from selector.core.i18n import active_is_english, lang_tag, translate_path
from selector.core.qr import MAX_DATA_LENGTH, qr_png, qr_svg

register = template.Library()


@register.simple_tag(takes_context=True)
def qr(context: Context | Mapping[str, Any], data: str, title: str, css_class: str = "qr"
       ) -> SafeString:
    """``{% qr url title %}``: the QR code of ``url`` (nothing for an empty url). Inline
    SVG on pages and in e-mails; in the PDF (context ``qr_image_url``: a function that
    registers a generated image with the report's URL fetcher) an ``<img>`` of a PNG."""
    data = data or ""
    register_image = context.get("qr_image_url")
    if not register_image or not data or len(data) > MAX_DATA_LENGTH:
        return qr_svg(data, title=title, css_class=css_class)
    name = "qr-" + hashlib.sha256(data.encode()).hexdigest()[:24] + ".png"
    url = register_image(name, qr_png(data), "image/png")
    return format_html('<img class="{}" src="{}" alt="{}" />', css_class, url, title)



@register.simple_tag(takes_context=True)
def other_language(context: Context | Mapping[str, Any]) -> dict[str, str]:
    """The header's language switch: the same page (path and query) in the other language,
    as a link, so that no page needs a form (nor a CSRF cookie) to switch."""
    request = context.get("request")
    here = request.get_full_path() if request is not None else "/"
    code = "zh-hans" if active_is_english() else "en"
    return {"code": code, "tag": lang_tag(code), "label": "中文" if code == "zh-hans" else "EN",
            "name": "简体中文" if code == "zh-hans" else "English",
            "prefix": "" if code == settings.LANGUAGE_CODE else f"/{code}",
            "url": translate_path(here, code)}
