"""CSV and XLSX export of the filtered lead list, in bounded memory.

Formula injection (OWASP "CSV Injection"): a cell whose text starts with ``= + - @``, a
tab or a carriage return could be run as a formula by a spreadsheet.

- **CSV**: such a cell is written with one leading apostrophe (``'=1+1``), as OWASP
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

CSV streams rows from ``.iterator(chunk_size=2000)`` through a StreamingHttpResponse;
XLSX uses XlsxWriter's constant_memory mode (each row flushed to disk, inline strings, no
shared-string table) into an anonymous temporary file sent with FileResponse.
"""

from __future__ import annotations

import csv
import tempfile
from collections.abc import Iterable, Iterator

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from selector.core.explain import FABRIC_SHORT
from selector.domain import Fabric
from selector.leads.models import Score, Status, Timeline

DANGEROUS_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
CHUNK_SIZE = 2000

COLUMNS = (
    ("report_number", _("Report number")),
    ("created_at", _("Created")),
    ("name", _("Name")),
    ("company", _("Company")),
    ("role", _("Job role")),
    ("phone", _("Phone")),
    ("email", _("E-mail")),
    ("wechat", _("WeChat ID")),
    ("timeline", _("Project timeline")),
    ("gpus", _("Total GPUs")),
    ("recommendation", _("Recommendation")),
    ("rule", _("Rule")),
    ("score", _("Score")),
    ("status", _("Status")),
    ("owner__username", _("Owner")),
    ("language", _("Language")),
    ("utm_source", "utm_source"),
    ("utm_medium", "utm_medium"),
    ("utm_campaign", "utm_campaign"),
    ("message", _("Message")),
)
FIELDS = tuple(name for name, _label in COLUMNS)


def is_dangerous(text: str) -> bool:
    return text.startswith(DANGEROUS_PREFIXES)


def neutralise_csv(text: str) -> str:
    if text.startswith(DANGEROUS_PREFIXES) or text.startswith("'"):
        return "'" + text
    return text


def unneutralise_csv(text: str) -> str:
    """The reader's side of neutralise_csv: the exact original text."""
    return text[1:] if text.startswith("'") else text


def header() -> list[str]:
    return [str(label) for _name, label in COLUMNS]


def rows(queryset) -> Iterator[list]:
    """Export rows (text cells, GPU count as int) in the active language."""
    labels = {
        "status": dict(Status.choices), "score": dict(Score.choices),
        "timeline": dict(Timeline.choices),
        "recommendation": {f.value: str(FABRIC_SHORT[f]) for f in Fabric},
    }
    labels = {k: {code: str(v) for code, v in m.items()} for k, m in labels.items()}
    index = {name: i for i, name in enumerate(FIELDS)}
    tz = timezone.get_current_timezone()
    for values in queryset.values_list(*FIELDS).iterator(chunk_size=CHUNK_SIZE):
        row = []
        for name, _label in COLUMNS:
            value = values[index[name]]
            if name == "created_at":
                value = value.astimezone(tz).strftime("%Y-%m-%d %H:%M")
            elif name in labels:
                value = labels[name].get(value, value)
            elif name == "gpus":
                value = int(value) if isinstance(value, int | float) else ""
            row.append("" if value is None else value)
        yield row


class _Echo:
    """A pseudo-buffer: csv.writer writes a line, we hand it straight on."""

    def write(self, value: str) -> str:
        return value


def csv_chunks(queryset) -> Iterator[bytes]:
    """The CSV, streamed. The generator runs after the view returned, so it keeps the
    request's language itself."""
    return _csv_chunks(queryset, translation.get_language())


def _csv_chunks(queryset, language: str) -> Iterator[bytes]:
    with translation.override(language):
        yield from _csv_lines(queryset)


def _csv_lines(queryset) -> Iterator[bytes]:
    writer = csv.writer(_Echo())
    yield "\ufeff".encode()  # BOM: Excel then reads the UTF-8 (Chinese) correctly
    yield writer.writerow(header()).encode()
    buffer: list[str] = []
    for row in rows(queryset):
        buffer.append(writer.writerow(
            [neutralise_csv(v) if isinstance(v, str) else v for v in row]))
        if len(buffer) >= 200:
            yield "".join(buffer).encode()
            buffer.clear()
    if buffer:
        yield "".join(buffer).encode()


def write_xlsx(queryset, title: str):
    """The export as an anonymous temporary file (deleted when closed), positioned at 0."""
    import xlsxwriter

    out = tempfile.TemporaryFile()  # noqa: SIM115 (FileResponse closes it)
    workbook = xlsxwriter.Workbook(out, {"constant_memory": True, "in_memory": False,
                                         "strings_to_formulas": False,
                                         "strings_to_urls": False,
                                         "strings_to_numbers": False})
    sheet = workbook.add_worksheet(title[:31])
    bold = workbook.add_format({"bold": True})
    quoted = workbook.add_format({"quote_prefix": True})
    _write_row(sheet, 0, header(), quoted, bold)
    for r, row in enumerate(rows(queryset), start=1):
        _write_row(sheet, r, row, quoted)
    workbook.close()
    out.seek(0)
    return out


def _write_row(sheet, r: int, row: Iterable, quoted, fmt=None) -> None:
    for c, value in enumerate(row):
        if isinstance(value, int):
            sheet.write_number(r, c, value, fmt)
        elif value == "":
            continue
        else:
            sheet.write_string(r, c, value, quoted if is_dangerous(value) else fmt)
