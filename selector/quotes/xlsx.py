"""One quote as an XLSX workbook for the company's ERP: a sheet of lines (kind, part,
description, quantity, unit price, discount, amount) and the totals. Formula-safe like the
lead exports (selector.staff.export): every text is an explicit string cell, never a
formula, and one a spreadsheet could run as a formula (=, +, -, @, tab, CR) also gets the
quote-prefix style, as Excel gives a typed '=1+1. Amounts are numbers with two decimals,
written from the Decimals (no float in between)."""

from __future__ import annotations

from decimal import Decimal
from io import BytesIO

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.cell.cell import Cell, MergedCell

from selector.quotes.models import Quote
from selector.staff.export import is_dangerous

MONEY_FORMAT = "#,##0.00"


def _set(cell: Cell | MergedCell, value) -> None:
    if value is None or value == "":
        return
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        cell.value = value
        if isinstance(value, Decimal):
            cell.number_format = MONEY_FORMAT
        return
    text = str(value)
    cell.value = text
    cell.data_type = "s"  # text, even when it starts with "="
    if is_dangerous(text):
        cell.quotePrefix = True


def quote_xlsx(quote: Quote, language: str) -> bytes:
    with translation.override(language):
        lines = list(quote.lines.all())
        totals = quote.totals(lines)
        book = Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.title = quote.number[:31]
        rows: list[list] = [
            [_("Quote number"), quote.number],
            [pgettext("quote: the customer", "To"), quote.lead.company],
            [_("Valid until"), quote.valid_until.isoformat()],
            [_("currency"), quote.currency],
            [],
            ["#", _("Kind"), pgettext("quote: catalogue key", "Part"), _("Description"),
             _("Quantity"), _("Unit price before VAT"), _("Discount (%)"),
             _("Amount before VAT")],
        ]
        for line, amounts in zip(lines, totals.lines, strict=True):
            rows.append([line.position, str(line.get_kind_display()), line.part_key,
                         line.description, line.quantity, line.unit_price,
                         line.discount_percent, amounts.net_amount])
        rows += [
            [],
            [_("Subtotal after line discounts"), None, None, None, None, None, None,
             totals.subtotal],
            [_("Total discount (%)"), None, None, None, None, None,
             quote.total_discount_percent, -totals.total_discount],
            [_("Amount before VAT"), None, None, None, None, None, None, totals.net],
            [_("VAT rate"), None, None, None, None, None, quote.vat_rate, totals.vat],
            [_("Total with VAT"), None, None, None, None, None, None, totals.total],
        ]
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                _set(sheet.cell(row=r, column=c), value)
        for column, width in zip("ABCDEFGH", (14, 14, 24, 60, 10, 16, 12, 18), strict=True):
            sheet.column_dimensions[column].width = width
        out = BytesIO()
        book.save(out)
        return out.getvalue()
