"""The exports as Excel/WPS users open them, proven with a real spreadsheet application:
LibreOffice Calc (headless) imports the CSV with the import rules spreadsheet programs use
(a cell that looks like a number becomes a number, one that starts with "=" a formula) and
opens the streamed XLSX. Phone numbers must arrive as text, exactly as shown in the
workspace; no payload may arrive as a formula; and no cell may carry a stray apostrophe
unless it starts a real formula. `make install-dev` installs libreoffice-calc-nogui."""

import shutil
import subprocess

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from selector.staff import export
from tests.conftest import make_lead

from .conftest import login

PAYLOADS = ["=1+1", "=HYPERLINK(\"http://evil.example\",\"x\")", "@SUM(A1:A2)", "-2+3",
            "+1-555-0100", "普通文本", "'quoted"]
PHONES = ["+8613800138000", "+85291234567", "+862087654321"]


def _soffice():
    path = shutil.which("soffice") or shutil.which("libreoffice")
    if path is None:
        pytest.fail("LibreOffice is not installed: run `make install-dev`")
    return path


def _convert(path, target: str, tmp_path, infilter: str | None = None):
    """soffice --convert-to in a private profile (parallel runs do not share a lock)."""
    profile = tmp_path / "lo-profile"
    command = [_soffice(), f"-env:UserInstallation=file://{profile}", "--headless",
               "--convert-to", target, "--outdir", str(tmp_path / "out"), str(path)]
    if infilter:
        command[3:3] = [f"--infilter={infilter}"]
    subprocess.run(command, check=True, capture_output=True, timeout=180)
    return tmp_path / "out" / (path.stem + "." + target.split(":")[0])


@pytest.fixture
def leads(db):
    return [make_lead(name=p, company=f"公司{i}", phone=PHONES[i % len(PHONES)])
            for i, p in enumerate(PAYLOADS)]


def _download(client, manager, name: str) -> bytes:
    response = login(client, manager).get(reverse(name))
    return b"".join(response.streaming_content)


def test_csv_opens_with_phones_as_text_and_no_formulas(client, manager, leads, tmp_path):
    source = tmp_path / "leads.csv"
    source.write_bytes(_download(client, manager, "staff:export_csv"))
    # Comma-separated, double quotes, UTF-8 (76), start at row 1: what a double click does
    # for a UTF-8 file with a BOM.
    book = openpyxl.load_workbook(_convert(source, "xlsx", tmp_path, "CSV:44,34,76,1"))
    rows = list(book.active.iter_rows())
    header = [c.value.lstrip("\ufeff") for c in rows[0]]
    with translation.override("zh-hans"):
        phone_col = header.index(str(export.COLUMNS[5][1]))
        name_col = header.index(str(export.COLUMNS[2][1]))
    by_name = {}
    for row in rows[1:]:
        for cell in row:
            assert cell.data_type != "f", f"{cell.value!r} was imported as a formula"
        phone = row[phone_col]
        assert phone.data_type == "s", f"{phone.value!r} became a number"
        assert phone.value.startswith("+") and "'" not in phone.value
        by_name[export.unneutralise_csv(row[name_col].value)] = row
    assert {row[phone_col].value for row in by_name.values()} == {
        "+86 138 0013 8000", "+852 9123 4567", "+86 20 8765 4321"}
    assert by_name["普通文本"][name_col].value == "普通文本"
    assert by_name["=1+1"][name_col].value == "'=1+1"  # shown, never run


def test_the_streamed_xlsx_opens_and_reads_back(client, manager, leads, tmp_path):
    source = tmp_path / "leads.xlsx"
    source.write_bytes(_download(client, manager, "staff:export_xlsx"))
    assert openpyxl.load_workbook(source).active.max_row == len(PAYLOADS) + 1
    # LibreOffice opens it (a broken ZIP or sheet XML makes the conversion fail) and keeps
    # every value as text.
    csv_path = _convert(source, "csv:Text - txt - csv (StarCalc):44,34,76", tmp_path)
    text = csv_path.read_text(encoding="utf-8")
    for payload in ("=1+1", "@SUM(A1:A2)", "+86 138 0013 8000", "普通文本"):
        assert payload in text
    assert "2\n" not in text.split("=1+1")[0][-3:]  # not evaluated to 2
