"""selector.documents.document.ReportHTML (fast XML parse, the report's own user-agent
stylesheet) prints exactly what WeasyPrint's own parser and stylesheet print: same pages,
same text on each page, same outline, for every sample report in both languages."""

import inspect
import subprocess
from datetime import datetime
from io import BytesIO

import pytest
from pypdf import PdfReader
from weasyprint import HTML

from selector.documents.document import ReportHTML
from selector.documents.fetcher import ASSET_BASE_URL
from selector.leads.report.render import (
    default_fetcher,
    font_config,
    fonts_stylesheet,
    html_to_pdf,
    page_css,
    render_html,
    stylesheet,
)
from selector.leads.report.samples import SAMPLE_ANSWERS, sample_report

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db


def _pdf(document_class, html: str, language: str) -> bytes:
    document = document_class(string=html, base_url=ASSET_BASE_URL,
                              url_fetcher=default_fetcher()).render(
        font_config=font_config(),
        stylesheets=[fonts_stylesheet(), stylesheet(), page_css(language)])
    return document.write_pdf()


def _titles(items) -> list:
    """The outline as nested lists of titles."""
    return [_titles(item) if isinstance(item, list) else item.title for item in items]


def _flat(titles) -> list[str]:
    return [t for item in titles for t in (_flat(item) if isinstance(item, list) else [item])]


def _shape(pdf: bytes) -> tuple[int, list[str], list]:
    reader = PdfReader(BytesIO(pdf))
    return (len(reader.pages), [page.extract_text() for page in reader.pages],
            _titles(reader.outline))


VERIFIED = {"weasyprint": "70.0", "pydyf": "0.13.0", "cssselect2": "0.10.1"}


@pytest.mark.django_db(False)
def test_an_upgrade_of_what_document_py_patches_fails_here_first():
    """document.py relies on WeasyPrint's and pydyf's internals. Another version fails this
    test rather than rendering differently or slowly: re-read each hook against the new
    source, re-run this module and ``bench/run.py reports``, then move VERIFIED and the pins
    in requirements.txt."""
    from importlib.metadata import version

    import pydyf

    from selector.documents import document

    assert {name: version(name) for name in VERIFIED} == VERIFIED
    # The zlib shim: pydyf compresses through its module-level ``zlib`` name.
    assert pydyf.zlib is document._Zlib
    assert "zlib.compressobj(" in inspect.getsource(pydyf.Stream)
    # serialise_once wraps these properties.
    assert isinstance(vars(pydyf.Stream)["data"], property)
    assert isinstance(vars(pydyf.Dictionary)["data"], property)
    # _svg_text: WeasyPrint's SVG renderer finds it under both tags and its own name, and
    # the letter-by-letter original still has what _svg_text copies (style, alignment).
    import weasyprint.svg

    assert weasyprint.svg.TAGS["text"] is weasyprint.svg.TAGS["tspan"] is document._svg_text
    assert weasyprint.svg.text is document._svg_text
    original = inspect.getsource(document._letter_by_letter)
    for copied in ("style['font_family'] = [", "font_size * .8, font_size * .2",
                   "for char in node.text]", "y_align = (ascent + descent) / 2 - descent",
                   "svg.cursor_position = x + width, y", "draw_first_line(svg.stream,"):
        assert copied in original
    # ReportHTML's fast path sets every attribute WeasyPrint's own __init__ sets.
    assert "_ua_stylesheets" in vars(HTML)
    html = "<html><body><p>x</p></body></html>"
    shipped = HTML(string=html, base_url=ASSET_BASE_URL, url_fetcher=default_fetcher())
    fast = ReportHTML(html, base_url=ASSET_BASE_URL, url_fetcher=default_fetcher())
    assert fast.parsed_as_xml
    assert set(vars(fast)) - {"parsed_as_xml"} == set(vars(shipped))


@pytest.mark.parametrize("kind", sorted(SAMPLE_ANSWERS))
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_it_prints_what_weasyprint_itself_prints(content, kind, language):
    html = render_html(sample_report(language, kind), web=False)
    fast = ReportHTML(html, base_url=ASSET_BASE_URL, url_fetcher=default_fetcher())
    assert fast.parsed_as_xml, "the report template must stay well-formed XHTML"

    pages, texts, outline = _shape(_pdf(ReportHTML, html, language))
    ref_pages, ref_texts, ref_outline = _shape(_pdf(HTML, html, language))

    assert pages == ref_pages
    assert texts == ref_texts
    assert outline == ref_outline
    assert len(_flat(outline)) >= 5  # the cover title and the numbered sections


def test_html_that_is_not_xml_falls_back_to_the_html_parser(content):
    html = render_html(sample_report("en", "roce"), web=False)
    not_xml = html.replace("<br />", "<br>")
    document = ReportHTML(not_xml, base_url=ASSET_BASE_URL, url_fetcher=default_fetcher())
    assert not document.parsed_as_xml
    assert _shape(_pdf(ReportHTML, not_xml, "en")) == _shape(_pdf(ReportHTML, html, "en"))


def test_a_control_character_still_renders(content):
    # The lead form refuses control characters; the renderer must not fail on one anyway.
    data = sample_report("en", "roce", customer_name="Jane\x01Smith")
    html = render_html(data, web=False)
    assert not ReportHTML(html, base_url=ASSET_BASE_URL,
                          url_fetcher=default_fetcher()).parsed_as_xml
    rendered = html_to_pdf(html, attachment=b"{}", created=datetime(2026, 11, 30),
                           language="en")
    assert rendered.pages == _shape(_pdf(ReportHTML, render_html(
        sample_report("en", "roce"), web=False), "en"))[0]


def test_markup_in_customer_text_stays_text_on_the_fast_path(content):
    data = sample_report("en", "roce", customer_company='<b>Acme</b> & "Sons" </html>')
    html = render_html(data, web=False)
    assert ReportHTML(html, base_url=ASSET_BASE_URL,
                      url_fetcher=default_fetcher()).parsed_as_xml
    rendered = html_to_pdf(html, attachment=b"{}", created=datetime(2026, 11, 30),
                           language="en")
    assert squash('<b>Acme</b> & "Sons" </html>') in squash(pdf_text(rendered.content))


def test_entity_declarations_never_reach_the_xml_parser(content):
    html = ('<!DOCTYPE html [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
            "<html><body><p>&b;</p></body></html>")
    document = ReportHTML(html, base_url=ASSET_BASE_URL, url_fetcher=default_fetcher())
    assert not document.parsed_as_xml
    rendered = html_to_pdf(html, attachment=b"{}", created=datetime(2026, 11, 30),
                           language="en")
    assert "aaaaaaaaaa" not in pdf_text(rendered.content)


def test_the_garbage_collector_is_back_on_after_a_render_even_a_failed_one(content):
    import gc

    html = render_html(sample_report("en", "roce"), web=False)
    html_to_pdf(html, attachment=b"{}", created=datetime(2026, 11, 30), language="en")
    assert gc.isenabled()
    with pytest.raises(TypeError):
        html_to_pdf(html, attachment=None, created=datetime(2026, 11, 30), language="en")
    assert gc.isenabled()


def test_serialising_each_object_once_writes_the_same_bytes(content, monkeypatch):
    from selector.documents import document
    from selector.leads.report import render

    html = render_html(sample_report("en", "roce"), web=False)

    def pdf() -> bytes:
        return html_to_pdf(html, attachment=b"{}", created=datetime(2026, 11, 30),
                           language="en").content

    once = pdf()
    for module in (document, render):  # wherever the renderer looks it up
        if hasattr(module, "serialise_once"):
            monkeypatch.setattr(module, "serialise_once", lambda pdf: None)
    assert pdf() == once


SVG_LABELS = """<html><head><style>@page { size: 300px 160px; margin: 0 }
body { margin: 0 } svg { display: block }</style></head><body><svg xmlns="http://www.w3.org/2000/svg"
 viewBox="0 0 300 160" width="300" height="160"
 font-family="Noto Sans CJK SC Report, Noto Sans CJK SC, Noto Sans, sans-serif">
<text x="10" y="20" font-size="12" font-weight="700" fill="#0b3a6e">RoCE v2 400G 网络：2 层</text>
<text x="150" y="55" text-anchor="middle" font-size="11">Spectrum-4 SN5600</text>
<text x="290" y="90" text-anchor="end" font-size="11" fill="#1c2430">256 条 400G 链路</text>
<text x="10" y="125" font-size="11" dx="0 3 3 3">per letter</text>
<text x="150" y="150" text-anchor="middle" font-size="11">服务器 ×32<tspan> · tail</tspan></text>
</svg></body></html>"""


def _label_boxes(pdf: bytes, tmp_path, name: str) -> list[tuple[int, int, int, int]]:
    """The ink box (left, top, right, bottom, in pixels at 150 dpi) of each SVG label,
    one per horizontal band of the picture above."""
    from PIL import Image

    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-gray", "-singlefile", "-png", str(path),
                    str(tmp_path / name)], check=True)
    image = Image.open(tmp_path / f"{name}.png").point(lambda v: 255 if v < 200 else 0)
    px_per_unit = 150 / 96
    boxes = []
    for top, bottom in ((0, 30), (35, 65), (70, 100), (105, 135), (135, 160)):
        band = image.crop((0, round(top * px_per_unit), image.width,
                           round(bottom * px_per_unit)))
        ink = band.getbbox()
        assert ink, f"no label drawn between y={top} and y={bottom}"
        left, upper, right, lower = ink
        boxes.append((left, upper + round(top * px_per_unit), right,
                      lower + round(top * px_per_unit)))
    return boxes


@pytest.mark.django_db(False)
def test_svg_labels_drawn_as_one_run_sit_where_letter_by_letter_puts_them(tmp_path,
                                                                          monkeypatch):
    import weasyprint.svg

    from selector.documents import document

    def pdf() -> bytes:
        return ReportHTML(SVG_LABELS, base_url=ASSET_BASE_URL,
                          url_fetcher=default_fetcher()).render(
            font_config=font_config(), stylesheets=[fonts_stylesheet()]).write_pdf()

    one_run = pdf()
    monkeypatch.setitem(weasyprint.svg.TAGS, "text", document._letter_by_letter)
    monkeypatch.setitem(weasyprint.svg.TAGS, "tspan", document._letter_by_letter)
    monkeypatch.setattr(weasyprint.svg, "text", document._letter_by_letter)
    by_letter = pdf()

    # Same start, anchor (middle, end) and extent, within 2 px at 150 dpi (kerning).
    for fast, slow in zip(_label_boxes(one_run, tmp_path, "run"),
                          _label_boxes(by_letter, tmp_path, "letters"), strict=True):
        assert max(abs(a - b) for a, b in zip(fast, slow, strict=True)) <= 2, (fast, slow)
    assert squash(pdf_text(one_run)) == squash(pdf_text(by_letter))
