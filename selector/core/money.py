"""How an amount of money reads, everywhere a person reads one: "¥1,234,567.89" (CNY,
digits grouped, two decimals, exact Decimal formatting, no float in between)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation


def yuan_text(amount: Decimal | int | float | str | None) -> str:
    """¥1,234,567.89; "—" for no amount; a value that is not a number is shown as it is
    (an old timeline entry, say)."""
    if amount is None or amount == "":
        return "—"
    try:
        return f"¥{Decimal(amount):,.2f}"
    except (InvalidOperation, TypeError, ValueError):
        return str(amount)
