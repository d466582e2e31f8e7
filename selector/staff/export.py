"""CSV and XLSX export of the filtered lead list, streamed in bounded memory.

Formula injection (OWASP "CSV Injection"): a cell whose text starts with ``=``, ``@``, a
tab or a carriage return, or with ``+``/``-`` followed by anything but digits and spaces,
could be run as a formula by a spreadsheet. A ``+`` or ``-`` followed only by digits and
spaces is a phone number or a plain number, not a formula: it is left alone. Phone numbers
are written in the international format with spaces (``+86 138 0013 8000``): Excel, WPS
and LibreOffice read that as text (a bare ``+8613800138000`` would become the number
8613800138000, losing the ``+``), and dialling apps ignore the spaces.
(tests/staff/test_export_spreadsheet.py opens both files in LibreOffice to prove it.)

- **CSV**: a dangerous cell is written with one leading apostrophe (``'=1+1``), as OWASP
  recommends; so is a cell that itself starts with an apostrophe, which makes the rule
  reversible. *Exact text* for CSV means: read the file with any CSV reader (UTF-8 with
  BOM), and for every cell that starts with ``'`` drop that one character
  (``unneutralise_csv``) — the result equals the stored text, character for character.
- **XLSX**: every text is written as an explicit string cell (never a formula), and
  the dangerous ones also get Excel's own *quote prefix* cell style — what Excel itself
  does when a user types ``'=1+1`` — so re-editing the cell in Excel keeps it text.
  *Exact text* for XLSX means: the cell value read back equals the stored text with
  nothing to strip (control characters such as CR are stored as the standard OOXML
  ``_x000D_`` escape, which Excel decodes; with openpyxl apply
  ``openpyxl.utils.escape.unescape``).

Both stream rows from ``.iterator(chunk_size=2000)`` through a StreamingHttpResponse, so
the first byte leaves at once whatever the size. XLSX is SpreadsheetML written row by row
(inline strings, no shared-string table) into a ZIP that the standard library's zipfile
writes to a non-seekable stream (data descriptors instead of seeking back).
``on_done(rows)`` is called with the number of data rows when the last byte has been
produced (the export log records it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.utils import timezone, translation

from selector.core.spreadsheet import (  # noqa: F401 (re-exported: quotes and the tests)
    DANGEROUS_PREFIXES,
    csv_lines,
    is_dangerous,
    neutralise_csv,
    unneutralise_csv,
    xlsx_parts,
)
from selector.staff.columns import EXPORT_COLUMNS, export_context

CHUNK_SIZE = 2000

# (field, header label) of each exported column, in the file's order
# (selector.staff.columns.EXPORT_COLUMNS).
COLUMNS = tuple((column.field, column.label) for column in EXPORT_COLUMNS)
FIELDS = tuple(dict.fromkeys(
    name for column in EXPORT_COLUMNS for name in (column.field, *column.reads)))


def header() -> list[str]:
    return [str(column.label) for column in EXPORT_COLUMNS]


def rows(queryset) -> Iterator[list]:
    """Export rows (text cells, GPU count as int) in the active language. A lead whose
    contact the exporting user does not see (the queryset's ``contact_shown`` annotation:
    selector.staff.views.exports) has its contact columns empty."""
    ctx = export_context(timezone.get_current_timezone())
    scoped = "contact_shown" in queryset.query.annotations
    fields = (*FIELDS, "contact_shown") if scoped else FIELDS
    for values in queryset.values_list(*fields).iterator(chunk_size=CHUNK_SIZE):
        row_values = dict(zip(fields, values, strict=True))
        hidden = scoped and not row_values["contact_shown"]
        row: list = []
        for column in EXPORT_COLUMNS:
            value: object
            if hidden and column.contact:
                value = ""
            elif column.export is not None:
                value = column.export(row_values, ctx)
            else:
                value = row_values[column.field]
            row.append("" if value is None else value)
        yield row


def csv_chunks(queryset, on_done: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """The CSV, streamed. The generator runs after the view returned, so it keeps the
    request's language itself."""
    return _with_language(_csv_lines(queryset, on_done), translation.get_language())


def xlsx_chunks(queryset, title: str,
                on_done: Callable[[int], None] | None = None) -> Iterator[bytes]:
    return _with_language(_xlsx_parts(queryset, str(title), on_done),
                          translation.get_language())


def _with_language(chunks: Iterator[bytes], language: str) -> Iterator[bytes]:
    with translation.override(language):
        yield from chunks


def _csv_lines(queryset, on_done) -> Iterator[bytes]:
    return csv_lines(header(), rows(queryset), on_done)


def _xlsx_parts(queryset, title: str, on_done) -> Iterator[bytes]:
    return xlsx_parts(header(), rows(queryset), title, on_done)
