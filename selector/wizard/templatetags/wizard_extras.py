"""Filters for the result includes (fabric table, tuning card), so the PDF can include them
as they are."""

from __future__ import annotations

from django import template

from selector.core.explain import FABRIC_SHORT, fabric_label

register = template.Library()


@register.filter
def fabric_name(code) -> str:
    return fabric_label(code)


@register.filter
def fabric_short(code) -> str:
    return str(FABRIC_SHORT[code])


@register.filter
def num(value) -> str:
    """Thousands separators: 16384 -> 16,384."""
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return ""

