"""The report embeds a cut-down Noto Sans CJK SC (fast to subset) and still prints any
character the cut-down copy lacks from the full system font."""

import dataclasses
from io import BytesIO

import pytest
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from selector.documents import fonts
from selector.documents.fetcher import FetchRefused, FontFileFetcher
from selector.leads.report.render import render_pdf_document
from selector.leads.report.samples import sample_report

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db


def _font_names(pdf: bytes) -> set[str]:
    names = set()
    for page in PdfReader(BytesIO(pdf)).pages:
        resources = page["/Resources"].get_object()
        assert isinstance(resources, DictionaryObject)
        page_fonts = resources["/Font"].get_object()
        assert isinstance(page_fonts, DictionaryObject)
        for font in page_fonts.values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


def test_it_builds_small_copies_of_both_weights():
    paths = fonts.available_fonts()
    assert set(paths) == {400, 700}
    for path in paths.values():
        assert path.stat().st_size < 4_000_000
        assert path.read_bytes()[:4] == b"OTTO"  # CFF OpenType, like the source


def test_it_embeds_only_subsets_of_the_report_font(content):
    rendered = render_pdf_document(sample_report("zh-hans", "roce"))
    names = _font_names(rendered.content)
    assert names and all("+" in n and "Noto-Sans-CJK-SC-Report" in n for n in names), names


def test_it_prints_a_rare_hanzi_from_the_full_font(content):
    data = dataclasses.replace(sample_report("zh-hans", "roce"), customer_name="王堃喆")
    rendered = render_pdf_document(data)
    assert "王堃喆" in squash(pdf_text(rendered.content))
    assert any("Report" not in n for n in _font_names(rendered.content))


def test_the_font_fetcher_serves_nothing_but_the_fonts(tmp_path):
    fetcher = FontFileFetcher(fonts.available_fonts().values())
    with pytest.raises(FetchRefused):
        fetcher.fetch("file:///etc/passwd")
    with pytest.raises(FetchRefused):
        fetcher.fetch((tmp_path / "x.otf").as_uri())
