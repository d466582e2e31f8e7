"""What a network engineer sees on the printed page: the configuration snippet wraps only
between ports or words and copies out as the exact command, and the parts list gives each
column the room its values need, up to a 1,000,000-GPU cluster, in both languages.

The snippet is read back from the PDF with poppler's pdftotext (what a PDF viewer copies);
the parts table is checked on WeasyPrint's laid-out boxes (the same render as the PDF)."""

import shutil
import subprocess

import pytest
from django.utils import translation
from weasyprint.formatting_structure import boxes

from selector.documents.document import render
from selector.domain import Answers
from selector.leads.report.render import (
    build_context,
    config_markup,
    pdf_sources,
    render_html,
    render_pdf_document,
    stylesheets,
)
from selector.leads.report.samples import SAMPLE_ANSWERS, sample_report

from .conftest import pdf_text

pytestmark = pytest.mark.django_db

LANGUAGES = ["zh-hans", "en"]
# The brief's huge cluster (tests/domain/test_plan.py plans it) and the engine's maximum.
HUGE, MAX = 100_000, 1_000_000


def _report(language: str, kind: str, gpus: int | None = None):
    overrides = {}
    if gpus:
        overrides["answers"] = Answers.from_dict({**SAMPLE_ANSWERS[kind], "gpus": gpus})
    return sample_report(language, kind, **overrides)


def _config_lines(data) -> list[str]:
    with translation.override(data.language_code):
        tuning = build_context(data)["tuning"]
    assert tuning, "a RoCE sample has a tuning checklist"
    return [text for text, _cit in tuning.config]


def _pdftotext(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def _read_back(commands: list[str], text: str) -> list[str]:
    """Follow ``commands`` through the extracted text's lines; return where each wrapped
    line ended (the text before and after the break). Fails when a line of the PDF is not
    exactly the next piece of the command, or when a command wraps inside a token (not
    after a comma, not at a space)."""
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line and commands[0].startswith(line))
    i, wraps = start, []
    for command in commands:
        pos = 0
        while pos < len(command):
            line = lines[i]
            i += 1
            assert line and command.startswith(line, pos), (
                f"the PDF's line {line!r} is not the next piece of {command!r} (at {pos})")
            pos += len(line)
            if pos == len(command):
                break
            if command[pos] == " ":
                pos += 1
            else:
                assert command[pos - 1] == ",", (
                    f"wraps inside a token: {command[pos - 12:pos]!r} | "
                    f"{command[pos:pos + 12]!r}")
            wraps.append(command[:pos])
    return wraps


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils (make install)")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind, gpus", [("roce", None), ("large", None), ("large", HUGE)])
def test_the_snippet_wraps_between_ports_and_copies_out_as_the_command(content, tmp_path,
                                                                       language, kind, gpus):
    data = _report(language, kind, gpus)
    commands = _config_lines(data)
    pdf = render_pdf_document(data).content
    wraps = _read_back(commands, _pdftotext(pdf, tmp_path))
    if kind == "large":  # 32 split GPU ports and the uplinks: longer than a line
        assert any(w.endswith(",") for w in wraps), "the port list wraps after a comma"
    # The zero width space is a break, not a glyph: nothing invisible lands in copied text.
    for text in (_pdftotext(pdf, tmp_path), pdf_text(pdf)):
        assert "\u200b" not in text and "\ufffd" not in text


def test_the_snippet_markup_breaks_only_after_commas_and_escapes(content):
    config = [("nv set interface swp1s0-1,swp2s0-1 qos pfc-watchdog", None),
              ('"pfc_enable": "3,4", <b>', None)]
    assert config_markup(config, web=True) == (
        "nv set interface swp1s0-1,<wbr />swp2s0-1 qos pfc-watchdog\n"
        "&quot;pfc_enable&quot;: &quot;3,<wbr />4&quot;, &lt;b&gt;")
    assert config_markup(config) == (
        "nv set interface swp1s0-1,\u200bswp2s0-1 qos pfc-watchdog\n"
        "&quot;pfc_enable&quot;: &quot;3,\u200b4&quot;, &lt;b&gt;")


def test_the_web_report_breaks_the_port_list_with_wbr_and_no_character(content):
    html = render_html(_report("en", "large"), web=True)
    assert ",<wbr />swp2s0-1," in html
    assert "\u200b" not in html  # a browser would copy it


# ---------------------------------------------------------------------------------------
# The parts list


def _layout(data):
    html, _attachment = pdf_sources(data)
    return render(html, stylesheets=stylesheets(data.language_code))


def _descendants(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from _descendants(child)


def _parts_tables(document) -> list:
    """The parts table's boxes, one per page it is on."""
    return [box for page in document.pages for box in _descendants(page._page_box)
            if isinstance(box, boxes.TableBox) and box.element is not None
            and "parts" in (box.element.get("class") or "").split()]


def _text_boxes(box):
    return [b for b in _descendants(box) if isinstance(b, boxes.TextBox) and b.text.strip()]


def _cells(table):
    return [box for box in _descendants(table) if isinstance(box, boxes.TableCellBox)]


CASES = [(language, kind, gpus) for language in LANGUAGES
         for kind, gpus in [("roce", None), ("large", None), ("infiniband", None),
                            ("large", HUGE), ("infiniband", HUGE), ("large", MAX)]]


@pytest.mark.parametrize("language, kind, gpus", CASES)
def test_every_value_of_the_parts_list_fits_its_column(content, language, kind, gpus):
    data = _report(language, kind, gpus)
    tables = _parts_tables(_layout(data))
    assert tables, "the report prints a parts list"
    seen = []
    for table in tables:
        for cell in _cells(table):
            left, right = cell.content_box_x(), cell.content_box_x() + cell.width
            for text in _text_boxes(cell):
                seen.append(text.text)
                assert left - 0.5 <= text.position_x, (text.text, "overflows to the left")
                assert text.position_x + text.width <= right + 0.5, (
                    text.text, "overflows its column")
    with translation.override(data.language_code):
        view = build_context(data)["vm"].shown_fabric
    # Every count and the totals are there, each whole on one line (never clipped or split).
    for value in [row.count_text for row in view.bom] + [
            f"{view.switches_text} / {view.modules_text} / {view.cables_text}"]:
        assert value in seen, value


def _classes(box) -> list[str]:
    element = getattr(box, "element", None)
    return (element.get("class") or "").split() if element is not None else []


def _description_lines(cell) -> list[str]:
    """The lines of a part's description (its ``span.muted``) in a cell."""
    return ["".join(t.text for t in _text_boxes(line)) for line in _descendants(cell)
            if isinstance(line, boxes.LineBox) and any(
                isinstance(b, boxes.InlineBox) and "muted" in _classes(b)
                and "qualifier" not in _classes(b) for b in line.children)]


@pytest.mark.parametrize("language, kind, gpus", CASES)
def test_the_part_column_has_the_room_and_a_description_takes_at_most_two_lines(
        content, language, kind, gpus):
    data = _report(language, kind, gpus)
    tables = _parts_tables(_layout(data))
    header = [c for c in _cells(tables[0]) if c.element.tag == "th"][:4]
    where, part, quantity, power = (c.width for c in header)
    assert part > max(where, quantity, power), "the part column is the widest"
    assert quantity + power < part, "the number columns take what their values need"
    described = 0
    for table in tables:
        for cell in _cells(table):
            lines = _description_lines(cell)
            described += bool(lines)
            assert len(lines) <= 2, lines
    assert described >= 2, "the parts carry descriptions"
