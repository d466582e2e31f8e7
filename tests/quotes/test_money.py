"""The quote's totals are exact: Decimal only, each amount rounded once to the fen, half
up, in the order selector.quotes.money states. The oracle below computes the same totals
with exact fractions and its own rounding, over random lines (Hypothesis)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.quotes.money import exceeds, line_amounts, quote_totals, to_fen

prices = st.one_of(st.none(), st.decimals(min_value=0, max_value=Decimal("999999999.99"),
                                          places=2, allow_nan=False, allow_infinity=False))
percents = st.decimals(min_value=0, max_value=100, places=2, allow_nan=False,
                       allow_infinity=False)
rates = st.decimals(min_value=0, max_value=1, places=4, allow_nan=False, allow_infinity=False)
lines = st.lists(st.tuples(st.integers(1, 10_000_000), prices, percents), max_size=40)


def fen(x: Fraction) -> Fraction:
    """Half up to 0.01, for x >= 0, on exact fractions."""
    return Fraction(math.floor(x * 100 + Fraction(1, 2)), 100)


def oracle(rows, total_discount, vat_rate):
    f = lambda d: Fraction(str(d))  # noqa: E731
    priced = [(q, f(p), f(d)) for q, p, d in rows if p is not None]
    list_total = sum((fen(q * p) for q, p, _ in priced), Fraction(0))
    subtotal = sum((fen(fen(q * p) * (100 - d) / 100) for q, p, d in priced), Fraction(0))
    net = subtotal - fen(subtotal * f(total_discount) / 100)
    vat = fen(net * f(vat_rate))
    return list_total, subtotal, net, vat, net + vat


@given(lines, percents, rates)
def test_totals_are_exact_over_random_lines(rows, total_discount, vat_rate):
    totals = quote_totals(rows, total_discount_percent=total_discount, vat_rate=vat_rate)
    expected = oracle(rows, total_discount, vat_rate)
    got = (totals.list_total, totals.subtotal, totals.net, totals.vat, totals.total)
    assert [Fraction(str(x)) for x in got] == list(expected)
    for amount in got:  # every amount is in fen, as a Decimal
        assert isinstance(amount, Decimal) and amount.as_tuple().exponent == -2
    assert totals.total == totals.net + totals.vat
    assert totals.unpriced == sum(1 for _, p, _ in rows if p is None)
    assert totals.complete == (totals.unpriced == 0)


@given(lines, percents, rates)
def test_the_discount_is_what_the_lines_and_the_total_take_off(rows, total_discount, rate):
    totals = quote_totals(rows, total_discount_percent=total_discount, vat_rate=rate)
    line_off = sum((a.discount_amount for a in totals.lines if a.discount_amount is not None),
                   Decimal(0))
    assert totals.discount == line_off + totals.total_discount
    assert Decimal(0) <= totals.net <= totals.subtotal <= totals.list_total


def test_rounding_is_half_up_to_the_fen_once():
    assert to_fen(Decimal("0.005")) == Decimal("0.01")  # half up, not half even
    assert to_fen(Decimal("0.015")) == Decimal("0.02")
    assert to_fen(Decimal("0.0049999")) == Decimal("0.00")
    # 3 x 33.33 with 10 % off: 99.99 x 0.9 = 89.991 -> 89.99; VAT 13 %: 11.6987 -> 11.70.
    totals = quote_totals([(3, Decimal("33.33"), Decimal("10"))],
                          total_discount_percent=Decimal(0), vat_rate=Decimal("0.13"))
    assert (totals.list_total, totals.net, totals.vat, totals.total) == (
        Decimal("99.99"), Decimal("89.99"), Decimal("11.70"), Decimal("101.69"))
    # A line discount of 0.5 fen rounds up: 0.01 x 1 with 50 % off -> 0.01 (0.005 half up).
    assert line_amounts(1, Decimal("0.01"), Decimal("50")).net_amount == Decimal("0.01")
    # The total discount is taken from the rounded subtotal: 100.01 - 33.33 % = 66.68.
    totals = quote_totals([(1, Decimal("100.01"), Decimal(0))],
                          total_discount_percent=Decimal("33.33"), vat_rate=Decimal(0))
    assert totals.total_discount == Decimal("33.33") and totals.net == Decimal("66.68")


def test_a_line_without_a_price_counts_nothing_and_says_so():
    totals = quote_totals([(2, None, Decimal(0)), (1, Decimal("10.00"), Decimal(0))],
                          total_discount_percent=Decimal(0), vat_rate=Decimal("0.13"))
    assert totals.unpriced == 1 and not totals.complete
    assert totals.net == Decimal("10.00") and totals.total == Decimal("11.30")


def test_large_amounts_stay_exact():
    totals = quote_totals([(10_000_000, Decimal("999999999.99"), Decimal("33.33"))],
                          total_discount_percent=Decimal("0.01"), vat_rate=Decimal("0.1300"))
    list_amount = Decimal("9999999999900000.00")
    assert totals.list_total == list_amount
    assert totals.subtotal == Decimal("6666999999933330.00")


def test_the_approval_threshold_compares_exactly():
    # 10 % off exactly is not above a 10 % threshold; one fen more is.
    at = quote_totals([(1, Decimal("100.00"), Decimal("10"))],
                      total_discount_percent=Decimal(0), vat_rate=Decimal(0))
    assert not exceeds(at, Decimal("10"))
    above = quote_totals([(1, Decimal("100.00"), Decimal("10.01"))],
                         total_discount_percent=Decimal(0), vat_rate=Decimal(0))
    assert exceeds(above, Decimal("10"))
    # Line and total discounts add up: 5 % then 5 % = 9.75 %.
    both = quote_totals([(1, Decimal("100.00"), Decimal("5"))],
                        total_discount_percent=Decimal("5"), vat_rate=Decimal(0))
    assert both.discount == Decimal("9.75") and both.discount_percent == Decimal("9.75")
    assert exceeds(both, Decimal("9.74")) and not exceeds(both, Decimal("9.75"))
    assert not exceeds(quote_totals([], total_discount_percent=Decimal(0),
                                    vat_rate=Decimal(0)), Decimal(0))


@pytest.mark.parametrize("rate, text", [("0.1300", "13%"), ("0.0900", "9%"), ("0.0600", "6%"),
                                        ("0.0650", "6.5%"), ("0.0000", "0%"), ("0.1000", "10%")])
def test_the_vat_rate_is_shown_as_an_invoice_prints_it(rate, text):
    from selector.quotes.models import Quote

    assert Quote(vat_rate=Decimal(rate)).vat_percent == text
