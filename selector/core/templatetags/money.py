"""``{{ amount|yuan }}`` (¥1,234,567.89) and ``{{ amount|yuan:"whole" }}`` (¥1,234,568):
selector.core.money.yuan_text, the one way money reads on a page."""

from __future__ import annotations

from decimal import Decimal

from django import template

from selector.core.money import yuan_text

register = template.Library()


@register.filter
def yuan(amount: Decimal | int | float | str | None, arg: str = "") -> str:
    return yuan_text(amount, cents=arg != "whole")
