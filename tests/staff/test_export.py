"""Exports read back cell by cell, formula-injection payloads included.

"Exact text" (see selector/staff/export.py): CSV — after dropping one leading apostrophe
from any cell that starts with one (unneutralise_csv); XLSX — the cell value as a
conforming reader (Excel) gives it, i.e. with OOXML _xHHHH_ escapes of control characters
decoded."""

import csv
import io

import openpyxl
import pytest
from django.urls import reverse
from openpyxl.utils.escape import unescape

from selector.leads.models import Lead
from selector.staff import export
from tests.conftest import make_lead

from .conftest import login

PAYLOADS = [
    "=1+1", "+86 138", "-2+3", "@SUM(A1:A2)", "\t=cmd", "\r=cmd",
    "=HYPERLINK(\"http://evil.example\",\"x\")", "'=already quoted", "'plain apostrophe",
    "普通文本", "a,b;\"c\"\nd", "=cmd|' /C calc'!A0",
]


@pytest.fixture
def payload_leads(db):
    return [make_lead(name=p, company=f"Co {i} =x", message=p, role=p[:100],
                      phone="+8613800000000", wechat=p[:50])
            for i, p in enumerate(PAYLOADS)]


def _expected_rows(client_lang_rows):
    return client_lang_rows


def _db_rows():
    qs = Lead.objects.order_by("-created_at", "-pk")
    return [[str(c) if not isinstance(c, int) else c for c in row] for row in export.rows(qs)]


def test_csv_round_trips_exactly_and_neutralises_formulas(client, manager, payload_leads):
    response = login(client, manager).get(reverse("staff:export_csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="leads-')
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")  # BOM for Excel
    text = raw.decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text, newline="")))
    header, body = table[0], table[1:]
    assert header == export.header()
    # No cell as written may start a formula; phone numbers stay as typed (no apostrophe).
    for row in body:
        for cell in row:
            assert not export.is_dangerous(cell)
    phones = {row[header.index(str(export.COLUMNS[5][1]))] for row in body}
    assert phones == {"+86 138 0000 0000"}
    with_header = [[export.unneutralise_csv(c) for c in row] for row in body]
    expected = [[str(c) for c in row] for row in export.rows(
        Lead.objects.order_by("-created_at", "-pk"))]
    assert len(with_header) == len(PAYLOADS)
    assert with_header == expected
    names = {row[header.index(str(export.COLUMNS[2][1]))] for row in body}
    assert "'=1+1" in names and "''=already quoted" in names and "普通文本" in names


def test_xlsx_round_trips_exactly_with_string_cells(client, manager, payload_leads):
    response = login(client, manager).get(reverse("staff:export_xlsx"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    data = b"".join(response.streaming_content)
    book = openpyxl.load_workbook(io.BytesIO(data))
    sheet = book.active
    rows = list(sheet.iter_rows())
    assert [c.value for c in rows[0]] == export.header()
    expected = export.rows(Lead.objects.order_by("-created_at", "-pk"))
    for row, want in zip(rows[1:], expected, strict=True):
        # Control characters are stored as OOXML _xHHHH_ escapes (ECMA-376 ST_Xstring);
        # Excel decodes them, openpyxl leaves them encoded: decode like Excel does.
        got = [("" if c.value is None else unescape(c.value) if isinstance(c.value, str)
                else c.value) for c in row]
        got += [""] * (len(want) - len(got))
        assert got == want
        for cell in row:
            if isinstance(cell.value, str):
                assert cell.data_type == "s"  # a string, never a formula
                if export.is_dangerous(cell.value):
                    assert cell.quotePrefix  # Excel keeps it text even when re-edited
    assert len(rows) == len(PAYLOADS) + 1


def test_exports_follow_the_filters(client, manager, db):
    make_lead(name="Keep", status="won")
    make_lead(name="Drop", status="new")
    raw = b"".join(login(client, manager).get(
        reverse("staff:export_csv") + "?status=won").streaming_content).decode("utf-8-sig")
    assert "Keep" in raw and "Drop" not in raw
    bad = client.get(reverse("staff:export_csv") + "?status=bogus")
    assert bad.status_code == 400


def test_export_headers_follow_the_language(client, manager, lead):
    raw = b"".join(login(client, manager).get(
        "/en/staff/leads/export.csv").streaming_content).decode("utf-8-sig")
    assert raw.splitlines()[0].startswith("Report number,")
    zh = b"".join(client.get("/staff/leads/export.csv").streaming_content).decode(
        "utf-8-sig")
    assert zh.splitlines()[0].startswith("报告编号,")


@pytest.mark.parametrize("text,written", [
    ("=1", "'=1"), ("+1", "+1"), ("-1", "-1"), ("+86 138 0013 8000", "+86 138 0013 8000"),
    ("+1-555", "'+1-555"), ("-2+3", "'-2+3"), ("+", "'+"), ("- ", "'- "), ("+A1", "'+A1"),
    ("@a", "'@a"), ("\tx", "'\tx"), ("\rx", "'\rx"), ("'x", "''x"), ("x=1", "x=1"),
    ("", ""),
])
def test_neutralise_is_reversible(text, written):
    assert export.neutralise_csv(text) == written
    assert export.unneutralise_csv(written) == text
