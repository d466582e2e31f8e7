"""selector.documents.document: any HTML the project writes, as a tagged PDF/A-3u with
exactly the attachments the caller gives, through WeasyPrint's public API; customer text
stays text, whatever it contains."""

import gc
from datetime import datetime
from importlib.metadata import version
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from selector.documents.document import (
    FileAttachment,
    html_to_pdf,
    string_stylesheet,
)
from selector.leads.report import render
from selector.leads.report.render import render_html
from selector.leads.report.samples import sample_report

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CREATED = datetime(2026, 11, 30, 9, 0)


def _report_pdf(html: str) -> bytes:
    return render.html_to_pdf(html, attachment=b"{}", created=CREATED, language="en").content


@pytest.mark.django_db(False)
def test_a_document_that_is_not_a_report_gets_its_attachments_once():
    """Lead-agnostic: a page of plain HTML, two attachments, one associated file each."""
    html = "<html lang='en'><body><h1>Delivery note</h1><p>Two boxes.</p></body></html>"
    rendered = html_to_pdf(html, stylesheets=[string_stylesheet("h1 { color: #0b3a6e }")],
                           created=CREATED, attachments=[
                               FileAttachment(content=b'{"boxes": 2}', name="note.json",
                                              description="data", relationship="Data"),
                               FileAttachment(content=b"boxes,2\n", name="note.csv",
                                              description="source", relationship="Source")])
    reader = PdfReader(BytesIO(rendered.content))
    assert rendered.pages == 1 and "Delivery note" in pdf_text(rendered.content)
    assert set(reader.attachments) == {"note.json", "note.csv"}
    assert reader.attachments["note.json"] == [b'{"boxes": 2}']
    catalog = reader.trailer["/Root"]
    associated = [item.get_object()["/F"] for item in catalog["/AF"]]
    assert sorted(associated) == ["note.csv", "note.json"]  # each once (WeasyPrint: twice)
    relationships = {item.get_object()["/F"]: item.get_object()["/AFRelationship"]
                     for item in catalog["/AF"]}
    assert relationships == {"note.json": "/Data", "note.csv": "/Source"}
    xmp = catalog["/Metadata"].get_object().get_data().decode()
    assert 'pdfaid:part="3"' in xmp and 'pdfaid:conformance="U"' in xmp


@pytest.mark.django_db(False)
def test_an_attachment_the_html_declares_is_dropped():
    html = ("<html><head><link rel='attachment' href='file:///static/css/report.css' />"
            "</head><body><p>x</p></body></html>")
    rendered = html_to_pdf(html, stylesheets=[], created=CREATED)
    assert PdfReader(BytesIO(rendered.content)).attachments == {}


def test_a_control_character_still_renders(content):
    # The lead form refuses control characters; the renderer must not fail on one anyway.
    html = render_html(sample_report("en", "roce", customer_name="Jane\x01Smith"), web=False)
    plain = render_html(sample_report("en", "roce"), web=False)
    pages = [len(PdfReader(BytesIO(_report_pdf(h))).pages) for h in (html, plain)]
    assert pages[0] == pages[1] >= 5


def test_markup_in_customer_text_stays_text(content):
    data = sample_report("en", "roce", customer_company='<b>Acme</b> & "Sons" </html>')
    pdf = _report_pdf(render_html(data, web=False))
    assert squash('<b>Acme</b> & "Sons" </html>') in squash(pdf_text(pdf))


@pytest.mark.django_db(False)
def test_entity_declarations_are_not_expanded():
    html = ('<!DOCTYPE html [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
            "<html><body><p>&b;</p></body></html>")
    rendered = html_to_pdf(html, stylesheets=[], created=CREATED)
    assert "aaaaaaaaaa" not in pdf_text(rendered.content)


def test_the_garbage_collector_is_back_on_after_a_render_even_a_failed_one(content):
    html = render_html(sample_report("en", "roce"), web=False)
    _report_pdf(html)
    assert gc.isenabled()
    with pytest.raises(TypeError):
        render.html_to_pdf(html, attachment=None, created=CREATED, language="en")
    assert gc.isenabled()


@pytest.mark.django_db(False)
def test_upgrading_weasyprint_is_one_pin():
    """requirements.txt pins WeasyPrint and none of the libraries it brings: nothing of ours
    uses pydyf, cssselect2, tinycss2 or tinyhtml5 (tests/test_library_internals.py), so
    their versions are WeasyPrint's choice."""
    pins = {line.split("==")[0].split("[")[0].strip().lower()
            for line in (ROOT / "requirements.txt").read_text().splitlines()
            if "==" in line and not line.lstrip().startswith("#")}
    assert "weasyprint" in pins
    assert pins & {"pydyf", "cssselect2", "tinycss2", "tinyhtml5"} == set()
    pinned = next(line for line in (ROOT / "requirements.txt").read_text().splitlines()
                  if line.lower().startswith("weasyprint=="))
    assert pinned.split("==")[1] == version("weasyprint")
