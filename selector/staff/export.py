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

import csv
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping
from xml.sax.saxutils import escape

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from selector.core.explain import FABRIC_SHORT
from selector.core.money import yuan_text
from selector.domain import Fabric
from selector.leads.models import LostReason, NextActionKind, Score, Status, Timeline
from selector.leads.validators import phone_text

DANGEROUS_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_NUMBER_LIKE = re.compile(r"[+-][0-9 ]*[0-9][0-9 ]*")
CHUNK_SIZE = 2000

COLUMNS = (
    ("report_number", _("Report number")),
    ("created_at", pgettext_lazy("staff: when the lead was created", "Created")),
    ("name", _("Name")),
    ("company", _("Company")),
    ("role", _("Job role")),
    ("phone", _("Phone")),
    ("email", _("E-mail")),
    ("wechat", _("WeChat ID")),
    ("timeline", _("Project timeline")),
    ("gpus", _("Total GPUs")),
    ("recommendation", pgettext_lazy("staff", "Recommendation")),
    ("rule", _("Rule")),
    ("score", _("Score")),
    ("status", _("Status")),
    ("deal_value", _("Deal value")),
    ("lost_reason", _("Lost because")),
    ("next_action_kind", _("Next action")),
    ("first_contact_at", _("First contact at")),
    ("owner__username", _("Owner")),
    ("language", _("Language")),
    ("utm_source", "utm_source"),
    ("utm_medium", "utm_medium"),
    ("utm_campaign", "utm_campaign"),
    ("message", _("Message")),
)
# Read for a column without one of their own (the next action's due time and note).
EXTRA_FIELDS = ("next_action_due", "next_action_note")
FIELDS = (*(name for name, _label in COLUMNS), *EXTRA_FIELDS)
# Left empty on the leads whose contact the exporting user does not see (the queryset's
# ``contact_shown`` annotation: selector.staff.views.exports).
CONTACT_FIELDS = frozenset({"phone", "email", "wechat"})


def is_dangerous(text: str) -> bool:
    """A real formula start: = @ tab CR, or + - not followed by digits and spaces only."""
    if not text.startswith(DANGEROUS_PREFIXES):
        return False
    return not _NUMBER_LIKE.fullmatch(text)


def neutralise_csv(text: str) -> str:
    if is_dangerous(text) or text.startswith("'"):
        return "'" + text
    return text


def unneutralise_csv(text: str) -> str:
    """The reader's side of neutralise_csv: the exact original text."""
    return text[1:] if text.startswith("'") else text


def header() -> list[str]:
    return [str(label) for _name, label in COLUMNS]


def rows(queryset) -> Iterator[list]:
    """Export rows (text cells, GPU count as int) in the active language."""
    choices: dict[str, Mapping[str, object]] = {
        "status": dict(Status.choices), "score": dict(Score.choices),
        "timeline": dict(Timeline.choices), "lost_reason": dict(LostReason.choices),
        "recommendation": {f.value: FABRIC_SHORT[f] for f in Fabric},
    }
    labels = {k: {code: str(v) for code, v in m.items()} for k, m in choices.items()}
    index = {name: i for i, name in enumerate(FIELDS)}
    tz = timezone.get_current_timezone()
    scoped = "contact_shown" in queryset.query.annotations
    fields = (*FIELDS, "contact_shown") if scoped else FIELDS
    for values in queryset.values_list(*fields).iterator(chunk_size=CHUNK_SIZE):
        row = []
        hidden = scoped and not values[-1]
        for name, _label in COLUMNS:
            value = values[index[name]]
            if hidden and name in CONTACT_FIELDS:
                value = ""
            elif name in ("created_at", "first_contact_at"):
                value = value.astimezone(tz).strftime("%Y-%m-%d %H:%M") if value else ""
            elif name == "deal_value":
                value = yuan_text(value) if value is not None else ""
            elif name == "next_action_kind":
                value = _next_action(value, values[index["next_action_due"]],
                                     values[index["next_action_note"]], tz)
            elif name in labels:
                value = labels[name].get(value, value)
            elif name == "gpus":
                value = int(value) if isinstance(value, int | float) else ""
            elif name == "phone":
                value = phone_text(value or "")
            row.append("" if value is None else value)
        yield row


def _next_action(kind: str, due, note: str, tz) -> str:
    """"电话 · 2026-12-04 10:00 · note" (the kind's label first: never a formula)."""
    if not kind and due is None:
        return ""
    parts = [str(dict(NextActionKind.choices).get(kind, kind))]
    if due is not None:
        parts.append(due.astimezone(tz).strftime("%Y-%m-%d %H:%M"))
    if note:
        parts.append(note)
    return " · ".join(parts)


class _Echo:
    """A pseudo-buffer: csv.writer writes a line, we hand it straight on."""

    def write(self, value: str) -> str:
        return value


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
    writer = csv.writer(_Echo())
    yield "\ufeff".encode()  # BOM: Excel then reads the UTF-8 (Chinese) correctly
    yield writer.writerow(header()).encode()
    buffer: list[str] = []
    count = 0
    for row in rows(queryset):
        count += 1
        buffer.append(writer.writerow(
            [neutralise_csv(v) if isinstance(v, str) else v for v in row]))
        if len(buffer) >= 200:
            yield "".join(buffer).encode()
            buffer.clear()
    if buffer:
        yield "".join(buffer).encode()
    if on_done is not None:
        on_done(count)


# --- XLSX (SpreadsheetML, ECMA-376) ------------------------------------------------------

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.styles+xml"/></Types>')
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/styles" Target="styles.xml"/></Relationships>')
# Style 0: default; 1: bold (header); 2: quote prefix (what Excel stores for '=1+1).
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
    '</cellStyleXfs><cellXfs count="3">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>'
    '</cellXfs></styleSheet>')
# Control characters other than tab/LF/CR are not allowed in XML 1.0: OOXML escapes them
# (and a literal "_xHHHH_") as _xHHHH_ (ECMA-376 Part 1, 22.9.2.19 ST_Xstring).
_OOXML_ESCAPE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\r]|_(?=x[0-9A-Fa-f]{4}_)")


def _xml_text(text: str) -> str:
    text = _OOXML_ESCAPE.sub(lambda m: "_x005F_" if m.group() == "_"
                             else f"_x{ord(m.group()):04X}_", text)
    return escape(text)


def _column(index: int) -> str:
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(65 + rem) + name
    return name


def _row_xml(r: int, row, *, header_row: bool = False) -> str:
    cells = []
    for c, value in enumerate(row):
        ref = f"{_column(c)}{r}"
        if isinstance(value, int) and not isinstance(value, bool):
            cells.append(f'<c r="{ref}"><v>{value}</v></c>')
        elif value == "" or value is None:
            continue
        else:
            text = str(value)
            style = ' s="1"' if header_row else ' s="2"' if is_dangerous(text) else ""
            space = ' xml:space="preserve"' if text != text.strip() or "\n" in text else ""
            cells.append(f'<c r="{ref}" t="inlineStr"{style}><is><t{space}>'
                         f"{_xml_text(text)}</t></is></c>")
    return f'<row r="{r}">{"".join(cells)}</row>'


class _Sink:
    """A write-only, non-seekable file: zipfile writes into it, we drain what it wrote."""

    def __init__(self):
        self.parts: list[bytes] = []
        self.position = 0

    def write(self, data) -> int:
        self.parts.append(bytes(data))
        self.position += len(data)
        return len(data)

    def tell(self) -> int:
        return self.position

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass  # zipfile leaves a file it did not open alone; drain() has the bytes

    def drain(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        return data


def _xlsx_parts(queryset, title: str, on_done) -> Iterator[bytes]:
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as book:
        book.writestr("[Content_Types].xml", _CONTENT_TYPES)
        book.writestr("_rels/.rels", _ROOT_RELS)
        book.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        book.writestr("xl/styles.xml", _STYLES)
        book.writestr("xl/workbook.xml", (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            f'<sheets><sheet name="{escape(title[:31], {chr(34): "&quot;"})}" sheetId="1" '
            'r:id="rId1"/></sheets></workbook>'))
        yield sink.drain()
        count = 0
        with book.open("xl/worksheets/sheet1.xml", "w", force_zip64=False) as sheet:
            sheet.write(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
                        b'2006/main"><sheetData>')
            sheet.write(_row_xml(1, header(), header_row=True).encode())
            buffer = []
            for count, row in enumerate(rows(queryset), start=1):
                buffer.append(_row_xml(count + 1, row))
                if len(buffer) >= 200:
                    sheet.write("".join(buffer).encode())
                    buffer.clear()
                    chunk = sink.drain()
                    if chunk:
                        yield chunk
            sheet.write("".join(buffer).encode())
            sheet.write(b"</sheetData></worksheet>")
    yield sink.drain()
    if on_done is not None:
        on_done(count)
