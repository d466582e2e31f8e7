"""The PDF carries the whole answer: customer, recommendation, comparison rows, switch
counts, company, metadata and the schema.org JSON-LD attachment, in both languages."""

import json
from io import BytesIO

import pytest
from django.utils import translation
from pypdf import PdfReader

from selector.content import queries
from selector.core import explain
from selector.leads.report.render import (
    JSONLD_NAME,
    _safe_json,
    render_html,
    render_pdf_document,
)
from selector.leads.report.samples import sample_report
from selector.planner.services import fresh

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["zh-hans", "en"])
def language(request):
    return request.param


def test_it_prints_the_whole_answer(content, language):
    data = sample_report(language, "roce")
    rendered = render_pdf_document(data)
    text = squash(pdf_text(rendered.content))
    with translation.override(language):
        result = fresh(data.answers)
        company = queries.company()
        expected = [
            data.customer_name, data.customer_company, data.report_number, company.name,
            explain.fabric_label(result.decision.recommendation),
            explain.fabric_label(result.decision.runner_up),
            str(explain.RULE_TITLES[result.decision.rule]),
        ]
        for row in queries.comparison_rows():
            expected += [row.dimension, row.roce, row.infiniband]
        for option in (result.recommended, result.runner_up):
            expected += [option.plan.switch.model, f"{option.plan.switches:,}"]
        questions = [squash(f.question) for f in queries.faq_entries()]
    for value in expected:
        assert squash(value) in text, value
    assert rendered.pages >= 4
    assert len(rendered.content) <= 600 * 1024
    assert any(q in text for q in questions)


def test_it_prints_the_switch_counts_of_both_fabrics(content):
    data = sample_report("en", "roce")
    text = pdf_text(render_pdf_document(data).content)
    result = fresh(data.answers)
    rec, run = result.recommended.plan, result.runner_up.plan
    lines = {line.strip() for line in text.splitlines()}
    assert f"Leaf switches {rec.leaf:,} {run.leaf:,}" in lines
    assert f"Spine switches {rec.spine:,} {run.spine:,}" in lines
    assert f"Optical modules {rec.modules:,} {run.modules:,}" in lines
    assert f"Cables and fibres {rec.cables:,} {run.cables:,}" in lines
    for line in rec.bom:
        assert line.model in text


def test_it_prints_the_cover_brand_and_running_header(content):
    text = pdf_text(render_pdf_document(sample_report("zh-hans", "roce")).content)
    flat = squash(text)
    assert squash("14 年 IT 服务经验 | 2000+ 企业客户 | 7x24 小时技术支持") in flat
    reader_pages = text.count("报告编号")
    assert reader_pages >= 3  # cover + running header on the following pages
    assert "第2页/共" in flat


def test_it_sets_the_pdf_metadata(content, language):
    data = sample_report(language, "roce")
    reader = PdfReader(BytesIO(render_pdf_document(data).content))
    meta = reader.metadata
    with translation.override(language):
        company_name = queries.company().name
        label = explain.fabric_label(fresh(data.answers).decision.recommendation)
    assert data.report_number in meta.title
    assert meta.author == company_name
    assert label in meta.subject
    assert "InfiniBand" in meta["/Keywords"]
    assert meta["/CreationDate"].startswith("D:20261130")
    assert reader.trailer["/Root"]["/Lang"] == data.lang_tag


def test_it_embeds_the_jsonld_report(content, language):
    data = sample_report(language, "roce")
    reader = PdfReader(BytesIO(render_pdf_document(data).content))
    assert list(reader.attachments) == [JSONLD_NAME]
    doc = json.loads(reader.attachments[JSONLD_NAME][0])
    assert doc["@context"] == "https://schema.org"
    assert doc["@type"] == "Report"
    assert doc["inLanguage"] == data.lang_tag
    assert doc["dateCreated"].startswith("2026-11-30T10:30:00")
    assert doc["reportNumber"] == data.report_number
    assert doc["publisher"]["@type"] == "Organization"
    with translation.override(language):
        assert doc["publisher"]["name"] == queries.company().name
    assert doc["about"]["name"]
    # The answers, the plan's totals and the tuning values as PropertyValues.
    props = {p["propertyID"]: p for p in doc["additionalProperty"]}
    plan = fresh(data.answers).recommended.plan
    assert props["answer.gpus"]["value"] == f"{data.answers.gpus:,}"
    assert props["recommended.switches"]["value"] == plan.switches
    assert props["recommended.power_w"]["unitText"] == "W"
    assert "tuning.ecn" in props
    # No personal data in machine-readable metadata.
    assert data.customer_name not in json.dumps(doc, ensure_ascii=False)


def test_the_web_version_shows_the_same_content_and_jsonld(content, language):
    data = sample_report(language, "roce")
    html = render_html(data, web=True, links={"pdf": "/report/x/"})
    assert data.customer_name in html and data.customer_company in html
    start = html.index('<script type="application/ld+json">') + len(
        '<script type="application/ld+json">')
    doc = json.loads(html[start:html.index("</script>", start)])
    assert doc["@type"] == "Report" and doc["inLanguage"] == data.lang_tag
    assert 'href="/report/x/"' in html
    assert "/static/css/report.css" in html


@pytest.mark.parametrize("kind", ["large", "infiniband", "small"])
def test_other_recommendations_render(content, kind):
    data = sample_report("en", kind)
    rendered = render_pdf_document(data)
    text = squash(pdf_text(rendered.content))
    with translation.override("en"):
        result = fresh(data.answers)
        label = explain.fabric_label(result.decision.recommendation)
    assert squash(label) in text
    assert ("Losslesstuningchecklist" in text) == result.is_roce
    if kind == "large":
        assert result.recommended.plan.tiers == 2
        assert squash(f"{result.recommended.plan.switches:,}") in text


def test_safe_json_cannot_close_the_script_element():
    text = str(_safe_json({"x": "</script><script>alert(1)</script> & <!--"}))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["x"] == "</script><script>alert(1)</script> & <!--"


def test_every_checklist_remark_is_translated(client, content):
    """The Chinese result page prints each value's remark in Chinese (the PDF cites the
    numbered source instead); only the documents' own titles stay as published."""
    from selector.core.sharing import share_token

    data = sample_report("zh-hans", "roce")
    html = client.get(f"/wizard/r/{share_token(data.answers)}/").content.decode()
    assert "交换机根据线缆长度自行计算 PFC Headroom" in html
    assert "computes the PFC headroom" not in html
    text = squash(pdf_text(render_pdf_document(data).content))
    assert "computesthePFCheadroom" not in text


def test_an_infiniband_report_prints_its_own_tuning_checklist(content):
    """Finding 9: the report promised tuning and printed none for InfiniBand."""
    from selector.domain import Answers, Budget

    data = sample_report("en", "roce", answers=Answers(256, budget=Budget.PERFORMANCE))
    html = render_html(data, web=False)
    assert "InfiniBand tuning checklist" in html
    assert "routing_engine ftree" in html and "NCCL_COLLNET_ENABLE=1" in html
    assert "Lossless tuning checklist" not in html


def test_the_pdf_summarises_the_cabling_plan_and_links_its_downloads(content, language):
    """Issue 23: the cabling plan is summarised in the PDF (links, switches, parts per reach)
    with the signed links to the CSV, the XLSX and the configurations, as the result page
    has them; each link opens the same download the page offers."""
    from django.test import Client

    from selector.wizard.presenters import build_downloads

    data = sample_report(language, "roce")
    rendered = render_pdf_document(data)
    text = squash(pdf_text(rendered.content))
    with translation.override(language):
        page = build_downloads(fresh(data.answers))
        heading = translation.gettext("Cabling plan and switch configurations")
    assert page is not None and squash(heading) in text
    assert squash(page["links_text"]) in text and squash(page["switches_text"]) in text
    for part in page["parts"]:
        assert squash(part) in text
    uris = [annot.get_object().get("/A", {}).get("/URI")
            for p in PdfReader(BytesIO(rendered.content)).pages
            for annot in (p.get("/Annots") or [])]
    client = Client()
    for key, media in (("csv_url", "text/csv"), ("configs_url", "application/zip")):
        uri = next(u for u in uris if u and u.endswith(page[key]))
        response = client.get(page[key])
        assert response.status_code == 200 and response["Content-Type"].startswith(media), uri
