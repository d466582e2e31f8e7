"""A quote's amounts, in Decimal only (no float anywhere), rounded in one place.

The rounding, stated once: every amount a quote shows is rounded to the fen (0.01 yuan,
the smallest unit of an amount on a Chinese invoice) half up (四舍五入), by ``to_fen``.
What is rounded, in this order:

1. each line: list amount = quantity x unit price (exact: prices carry fen, quantities
   are whole); net amount = list amount x (100 - line discount %) / 100, rounded;
2. subtotal = the sum of the lines' net amounts (exact);
3. the total discount = subtotal x total discount % / 100, rounded; net = subtotal - it;
4. VAT = net x VAT rate, rounded; total = net + VAT.

Unit prices are before VAT (不含税单价); VAT is added once on the net amount.
Pure Python: the model, the pages, the PDF and the exports all call ``quote_totals``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext

__all__ = ["FEN", "LineAmounts", "Totals", "line_amounts", "quote_totals", "to_fen",
           "exceeds"]

FEN = Decimal("0.01")
HUNDRED = Decimal(100)
ZERO = Decimal("0.00")
# Enough digits that no product or sum below is ever rounded by the context itself (the
# default 28 could be reached by a 12-digit price x a large quantity x a percentage).
EXACT = Context(prec=60)


def to_fen(amount: Decimal) -> Decimal:
    """The one rounding of the quotes: to the fen, half up."""
    return amount.quantize(FEN, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class LineAmounts:
    """One line's amounts; both None while the line has no unit price."""

    list_amount: Decimal | None
    net_amount: Decimal | None

    @property
    def discount_amount(self) -> Decimal | None:
        if self.list_amount is None or self.net_amount is None:
            return None
        return self.list_amount - self.net_amount


def line_amounts(quantity: int, unit_price: Decimal | None,
                 discount_percent: Decimal) -> LineAmounts:
    if unit_price is None:
        return LineAmounts(None, None)
    with localcontext(EXACT):
        list_amount = to_fen(unit_price * quantity)
        net = to_fen(list_amount * (HUNDRED - discount_percent) / HUNDRED)
    return LineAmounts(list_amount, net)


@dataclass(frozen=True)
class Totals:
    lines: tuple[LineAmounts, ...]
    list_total: Decimal  # before any discount, over the priced lines
    subtotal: Decimal  # after the line discounts
    total_discount: Decimal  # the discount on the subtotal
    net: Decimal  # before VAT
    vat: Decimal
    total: Decimal  # with VAT: what the customer pays
    unpriced: int  # lines without a unit price (then the quote cannot be sent)

    @property
    def complete(self) -> bool:
        return self.unpriced == 0

    @property
    def discount(self) -> Decimal:
        """All discounts (line and total) together, before VAT."""
        return self.list_total - self.net

    @property
    def discount_percent(self) -> Decimal:
        """The discount as a percentage of the list total, for display (two decimals)."""
        if not self.list_total:
            return ZERO
        with localcontext(EXACT):
            return to_fen(self.discount * HUNDRED / self.list_total)


def exceeds(totals: Totals, threshold_percent: Decimal) -> bool:
    """True when the quote's discount is above ``threshold_percent`` of its list total,
    compared exactly (discount x 100 > threshold x list total), not on a rounded figure."""
    with localcontext(EXACT):
        return totals.discount * HUNDRED > threshold_percent * totals.list_total


def quote_totals(lines: Iterable[tuple[int, Decimal | None, Decimal]], *,
                 total_discount_percent: Decimal, vat_rate: Decimal) -> Totals:
    """The totals of ``lines`` (quantity, unit price or None, line discount %)."""
    amounts = tuple(line_amounts(q, p, d) for q, p, d in lines)
    priced = [a for a in amounts if a.net_amount is not None]
    with localcontext(EXACT):
        list_total = sum((a.list_amount for a in priced if a.list_amount is not None), ZERO)
        subtotal = sum((a.net_amount for a in priced if a.net_amount is not None), ZERO)
        total_discount = to_fen(subtotal * total_discount_percent / HUNDRED)
        net = subtotal - total_discount
        vat = to_fen(net * vat_rate)
        total = net + vat
    return Totals(lines=amounts, list_total=list_total, subtotal=subtotal,
                  total_discount=total_discount, net=net, vat=vat, total=total,
                  unpriced=len(amounts) - len(priced))
