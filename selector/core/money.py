"""How an amount of money reads, everywhere a person reads one: "¥1,234,567.89" (CNY,
digits grouped, two decimals, exact Decimal formatting, no float in between), or
"¥415,920,000" where whole yuan are enough (the pipeline's sums)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation


def yuan_text(amount: Decimal | int | float | str | None, *, cents: bool = True) -> str:
    """¥1,234,567.89 (``cents=False``: ¥1,234,568); "—" for no amount; a value that is not
    a number is shown as it is (an old timeline entry, say)."""
    if amount is None or amount == "":
        return "—"
    try:
        value = Decimal(str(amount)) if isinstance(amount, float) else Decimal(amount)
        if not value.is_finite():
            return str(amount)
        if not cents:
            return f"¥{value.quantize(Decimal(1), rounding=ROUND_HALF_UP):,}"
        return f"¥{value:,.2f}"
    except (InvalidOperation, TypeError, ValueError):
        return str(amount)
