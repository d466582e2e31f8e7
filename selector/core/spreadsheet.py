"""Formula-safe spreadsheets, streamed in bounded memory: the CSV and XLSX writers the
staff lead export and the public cabling plan share.

Formula injection (OWASP "CSV Injection"): a cell whose text starts with ``=``, ``@``, a
tab or a carriage return, or with ``+``/``-`` followed by anything but digits and spaces,
could be run as a formula by a spreadsheet. A ``+`` or ``-`` followed only by digits and
spaces is a phone number or a plain number, not a formula: it is left alone.

- **CSV**: a dangerous cell is written with one leading apostrophe (``'=1+1``), as OWASP
  recommends; so is a cell that itself starts with an apostrophe, which makes the rule
  reversible (``unneutralise_csv``).
- **XLSX**: every text is written as an explicit string cell (never a formula), and the
  dangerous ones also get Excel's own *quote prefix* cell style. SpreadsheetML is written
  row by row (inline strings, no shared-string table) into a ZIP that the standard
  library's zipfile writes to a non-seekable stream (data descriptors instead of seeking
  back), so the first byte leaves at once whatever the size.

``on_done(rows)`` is called with the number of data rows when the last byte has been
produced. (Moved from selector/staff/export.py, which keeps its names.)
"""

from __future__ import annotations

import csv
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from xml.sax.saxutils import escape

__all__ = ["DANGEROUS_PREFIXES", "is_dangerous", "neutralise_csv", "unneutralise_csv",
           "csv_lines", "xlsx_parts", "Sink"]

DANGEROUS_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_NUMBER_LIKE = re.compile(r"[+-][0-9 ]*[0-9][0-9 ]*")


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


class _Echo:
    """A pseudo-buffer: csv.writer writes a line, we hand it straight on."""

    def write(self, value: str) -> str:
        return value


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[object]],
              on_done: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """A UTF-8 CSV with BOM (Excel then reads Chinese correctly), 200 rows per chunk."""
    writer = csv.writer(_Echo())
    yield "\ufeff".encode()
    yield writer.writerow(list(header)).encode()
    buffer: list[str] = []
    count = 0
    for row in rows:
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


def _row_xml(r: int, row: Sequence[object], *, header_row: bool = False) -> str:
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

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.position = 0

    def write(self, data: bytes | bytearray | memoryview) -> int:
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



def xlsx_parts(header: Sequence[str], rows: Iterable[Sequence[object]], title: str,
               on_done: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """The workbook: one sheet ``title``, the header row in bold, then ``rows``."""
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
            sheet.write(_row_xml(1, header, header_row=True).encode())
            buffer = []
            for count, row in enumerate(rows, start=1):
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


Sink = _Sink  # for other streamed zips (selector.planner.downloads)
