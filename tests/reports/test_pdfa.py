"""The PDF is archivable and accessible: PDF/A-3u with XMP metadata (pdfaid), an sRGB
OutputIntent, tagged (a structure tree, `pdfinfo` says "Tagged: yes"), and report.jsonld
as an associated file (AFRelationship Data) whose schema.org nodes carry the answers, the
plan and the tuning values as PropertyValues. It opens with a one-page management summary
with a QR code and link to the online result, ends with the contact box, and its last
page is never less than a third full."""

import json
import re
import shutil
import subprocess
from io import BytesIO

import pytest
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from selector.content.models import CompanyProfile
from selector.core.qr import qr_png
from selector.core.sharing import answers_from_token
from selector.documents.fetcher import StaticOnlyFetcher
from selector.leads.report.render import JSONLD_NAME, pdf_sources, render_pdf_document
from selector.leads.report.samples import SAMPLE_ANSWERS, sample_report

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db

EXAMPLE_CHANNELS = {"phone": "400-000-0000", "email": "sales@example.com",
                    "wechat_name_zh": "示例公众号", "wechat_name_en": "Example account",
                    "wechat_qr_url": "https://weixin.qq.com/r/example"}


def _resolve(obj):
    return obj.get_object() if isinstance(obj, IndirectObject) else obj


@pytest.fixture(scope="module")
def rendered(django_db_setup, django_db_blocker):
    """Each sample once per language (rendering is the slow part)."""
    from django.core.management import call_command

    out = {}
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            call_command("load_content", force=True, verbosity=0)
            CompanyProfile.objects.update(**EXAMPLE_CHANNELS)
            for kind in SAMPLE_ANSWERS:
                for language in ("zh-hans", "en"):
                    data = sample_report(language, kind)
                    out[kind, language] = (data, render_pdf_document(data))
            transaction.set_rollback(True)
    return out


def _reader(rendered, kind="roce", language="zh-hans") -> PdfReader:
    return PdfReader(BytesIO(rendered[kind, language][1].content))


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_xmp_metadata_declares_pdfa_3u(rendered, language):
    reader = _reader(rendered, language=language)
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
    assert re.search(r'pdfaid:part="3"', xmp), xmp[:500]
    assert re.search(r'pdfaid:conformance="U"', xmp)
    assert reader.pdf_header == "%PDF-1.7"
    assert reader.trailer.get("/ID")  # PDF/A needs the file identifier


def test_it_has_an_srgb_output_intent(rendered):
    intents = _reader(rendered).trailer["/Root"]["/OutputIntents"]
    intent = _resolve(intents[0])
    assert intent["/S"] == "/GTS_PDFA1"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 3  # an RGB ICC profile
    assert b"sRGB" in profile.get_data()[:200] or "sRGB" in str(intent.get("/Info", ""))


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_jsonld_is_an_associated_file_with_relationship_data(rendered, language):
    reader = _reader(rendered, language=language)
    root = reader.trailer["/Root"]
    associated = [_resolve(f) for f in root["/AF"]]
    (spec,) = [f for f in associated if f["/F"] == JSONLD_NAME]  # listed once
    assert spec["/AFRelationship"] == "/Data"
    stream = spec["/EF"]["/F"].get_object()
    assert stream["/Subtype"] in ("/application#2fld+json", "/application/ld+json")
    doc = json.loads(stream.get_data())
    assert doc["@type"] == "Report" and doc["inLanguage"] in ("zh-Hans", "en")


def _values(doc: dict) -> dict:
    return {v["propertyID"]: v for v in doc["additionalProperty"]}


def test_the_jsonld_carries_answers_plan_and_tuning_as_property_values(rendered):
    data, pdf = rendered["roce", "zh-hans"]
    doc = json.loads(PdfReader(BytesIO(pdf.content)).attachments[JSONLD_NAME][0])
    values = _values(doc)
    assert values and all(v["@type"] == "PropertyValue" for v in values.values())
    assert values["answer.gpus"]["name"] == "GPU 总数"  # the page's label, in Chinese
    assert values["answer.gpus"]["value"] == "256"
    assert values["answer.workload"]["value"] == "训练"
    text = squash(pdf_text(pdf.content))
    switches = values["recommended.switches"]["value"]
    assert isinstance(switches, int) and str(switches) in text  # as printed
    assert isinstance(values["recommended.modules"]["value"], int)
    assert values["recommended.power_w"].get("unitText") == "W"
    assert "runner_up.switches" in values
    tuning = [k for k in values if k.startswith("tuning.")]
    assert len(tuning) >= 5, tuning
    assert doc["url"].startswith("http://testserver/wizard/r/")


def test_an_infiniband_report_has_the_infiniband_tuning_values(rendered):
    """An InfiniBand report carries the subnet manager's values (issue 22, finding 9), not
    the RoCE lossless ones."""
    doc = json.loads(_reader(rendered, "infiniband").attachments[JSONLD_NAME][0])
    tuning = sorted(k for k in _values(doc) if k.startswith("tuning."))
    assert tuning == ["tuning.routing_engine", "tuning.service_level", "tuning.sharp",
                      "tuning.shield"]
    assert "answer.determinism" in _values(doc)


def test_it_is_tagged_with_a_structure_tree(rendered):
    root = _reader(rendered).trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"])
    tree = root["/StructTreeRoot"].get_object()
    kids = tree["/K"]
    kids = kids if isinstance(kids, list) else [kids]
    document = _resolve(kids[0])
    assert document["/S"] == "/Document"
    assert root["/Lang"] == "zh-Hans"


@pytest.mark.skipif(not shutil.which("pdfinfo"), reason="poppler-utils (make install)")
def test_pdfinfo_says_tagged_and_finds_the_metadata_stream(rendered, tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(rendered["roce", "en"][1].content)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    assert re.search(r"^Tagged:\s+yes$", info.stdout, re.M), info.stdout
    meta = subprocess.run(["pdfinfo", "-meta", str(path)], capture_output=True, text=True,
                          check=True)
    assert "pdfaid:part" in meta.stdout


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_page_one_is_the_management_summary_with_the_qr_code_and_link(rendered, language):
    data, pdf = rendered["roce", language]
    reader = PdfReader(BytesIO(pdf.content))
    first = squash(reader.pages[0].extract_text())
    summary = "管理摘要" if language == "zh-hans" else "Managementsummary"
    assert summary in first
    assert data.report_number in first and data.customer_name.replace(" ", "") in first
    links = [_resolve(a)["/A"]["/URI"] for a in reader.pages[0].get("/Annots", [])
             if _resolve(a).get("/Subtype") == "/Link"]
    (online,) = [u for u in links if "/wizard/r/" in u]
    assert online.startswith("http://testserver/")  # SITE_URL: the link leaves the PDF
    token = online.rstrip("/").rsplit("/", 1)[1]
    assert answers_from_token(token) == data.answers  # the online result is this result
    # The QR code printed beside it encodes that same link (segno draws it from the URL;
    # in the PDF it is a PNG that only the report's own URL fetcher serves).
    html, _attachment = pdf_sources(data)
    src = re.search(r'<img class="qr result-qr" src="([^"]+)" alt="([^"]+)"', html)
    link = re.search(r'<a href="([^"]+)" class="online-link"', html).group(1)
    assert answers_from_token(link.rstrip("/").rsplit("/", 1)[1]) == data.answers
    assert src.group(1).startswith("file:///static/_generated/qr-")
    served = StaticOnlyFetcher().fetch(src.group(1)).read()
    assert served == qr_png(link.replace("&amp;", "&")) and served.startswith(b"\x89PNG")
    assert src.group(2) in ("扫码查看在线选型结果", "Scan to open your result online")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_contact_box_carries_the_channels(rendered, language):
    text = squash(pdf_text(rendered["roce", language][1].content))
    assert "400-000-0000" in text and "sales@example.com" in text
    assert ("示例公众号" if language == "zh-hans" else "Exampleaccount") in text


def _content_bottom(page) -> float:
    """How far down the page its flowed content goes (CSS px), from WeasyPrint's layout:
    the lowest border box of any text or block inside the body (margin boxes such as the
    running header and footer are not content)."""
    from weasyprint.formatting_structure.boxes import MarginBox

    bottom = 0.0

    def walk(box):
        nonlocal bottom
        for child in getattr(box, "children", None) or []:
            if isinstance(child, MarginBox):
                continue
            if child.element_tag not in ("html", "body", "main"):
                bottom = max(bottom, child.position_y + child.margin_height())
            walk(child)

    walk(page._page_box)
    return bottom


@pytest.mark.parametrize("kind", sorted(SAMPLE_ANSWERS))
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_last_page_is_at_least_a_third_full(content, kind, language):
    from selector.documents.document import render
    from selector.leads.report.render import pdf_sources, stylesheets

    html, _attachment = pdf_sources(sample_report(language, kind))
    document = render(html, stylesheets=stylesheets(language))
    last = document.pages[-1]._page_box
    top = last.content_box_y()
    usable = last.height
    filled = (_content_bottom(document.pages[-1]) - top) / usable
    assert filled >= 1 / 3, f"{kind}/{language}: last page {filled:.0%} full"


def test_the_checklist_cites_the_numbered_source_list(rendered, content):
    """Each checklist value cites [n] of the report's numbered source list (the title and
    link printed once there)."""
    data, _pdf = rendered["roce", "zh-hans"]
    html, _attachment = pdf_sources(data)
    refs = re.search(r'<ol class="refs">(.*?)</ol>', html, re.S).group(1)
    titles = re.findall(r"<li>\[(\d+)\]", refs, re.S)
    assert titles == [str(n) for n in range(1, len(titles) + 1)]
    table = re.search(r'<table class="data tuning">(.*?)</table>', html, re.S).group(1)
    cells = re.findall(r'<span class="ref">(.*?)</span>', table, re.S)
    rows = re.findall(r'<tr><th scope="row"', table)
    assert cells and len(cells) == len(rows) and all(re.fullmatch(r"(\[\d+\])+", c)
                                                    for c in cells), cells[:3]
    numbers = {int(n) for c in cells for n in re.findall(r"\[(\d+)\]", c)}
    assert numbers and max(numbers) <= len(titles)
