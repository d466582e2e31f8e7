"""The quote list (every sent version the user may see) as CSV or XLSX, formula-safe like
the lead exports (selector.staff.export): in CSV a text a spreadsheet could run as a
formula gets one leading apostrophe (reversible, OWASP); in XLSX every text is a string
cell with the quote-prefix style when it is dangerous. Amounts are the stored Decimals."""

from __future__ import annotations

import csv
import io
from io import BytesIO

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from selector.quotes.queries import visible_quotes
from selector.quotes.xlsx import _set
from selector.staff.export import neutralise_csv
from selector.staff.permissions import display_name

MAX_ROWS = 50_000


def header() -> list[str]:
    return [_("Quote number"), _("Company"), _("Owner"), _("Status"), _("Sent at"),
            _("Valid until"), _("Discount (%)"), _("Amount before VAT"), _("VAT"),
            _("Total with VAT"), _("Views"), _("Accepted at"), _("Accepted by")]


def rows(user):
    quotes = (visible_quotes(user).select_related("lead", "lead__owner")
              .order_by("-sent_at", "-pk")[:MAX_ROWS])
    for q in quotes.iterator(chunk_size=2000):
        yield [q.number, q.lead.company,
               display_name(q.lead.owner) if q.lead.owner else "",
               str(q.get_status_display()),
               timezone.localtime(q.sent_at).strftime("%Y-%m-%d %H:%M") if q.sent_at else "",
               q.valid_until.isoformat(), q.discount_percent, q.net_amount, q.vat_amount,
               q.total_amount, q.view_count,
               timezone.localtime(q.accepted_at).strftime("%Y-%m-%d %H:%M")
               if q.accepted_at else "", q.accepted_name]


def as_csv(user) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header())
    for row in rows(user):
        writer.writerow([neutralise_csv(v) if isinstance(v, str) else v for v in row])
    return ("\ufeff" + out.getvalue()).encode()  # BOM: Excel reads UTF-8


def as_xlsx(user) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = _("Quotes")[:31]
    for r, row in enumerate([header(), *rows(user)], start=1):
        for c, value in enumerate(row, start=1):
            _set(sheet.cell(row=r, column=c), value)
    out = BytesIO()
    book.save(out)
    return out.getvalue()



