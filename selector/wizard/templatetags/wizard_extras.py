"""Filters for the result includes (fabric table, tuning card), so the PDF can include them
as they are."""

from __future__ import annotations

from django import template
from django.forms.utils import flatatt
from django.utils.html import format_html

from selector.core.explain import fabric_label

register = template.Library()


@register.filter
def fabric_name(code) -> str:
    return fabric_label(code)


@register.filter
def num(value) -> str:
    """Thousands separators: 16384 -> 16,384."""
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return ""



@register.filter
def radio_input(radio) -> str:
    """A radio's <input> without the widget templates (the same markup Django's input.html
    and attrs.html make): a step with a dozen radios renders in a fraction of the time."""
    data = radio.data
    value = "" if data["value"] is None else str(data["value"])
    return format_html('<input type="{}" name="{}" value="{}"{}>', data["type"], data["name"],
                       value, flatatt(data["attrs"]))
