"""Every catalogue row and every number shown to a customer has a source; customers read
source titles and public links, never an internal path (``shared/``, ``docs/``)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from selector.content.models import Part, Switch
from selector.content.snapshot import current
from selector.domain import DEFAULT_CATALOGUE, Answers
from selector.leads.report.render import render_html
from selector.leads.report.samples import sample_report
from selector.planner.presenter import present
from selector.planner.services import fresh

pytestmark = pytest.mark.django_db

# A repository path ("docs/planner.md"), not a public URL that has a docs/ segment.
INTERNAL = re.compile(r"shared/|(?<![/\w-])docs/")
CASES = [
    dict(gpus=8),
    dict(gpus=64, throughput_limited=True),
    dict(gpus=1024, nic_speed=400),
    dict(gpus=2048, workload="inference", nic_speed=800),
    dict(gpus=512, determinism="strict", distance="campus"),
    dict(gpus=100_000, vendor="arista"),
    dict(gpus=1_000_000, determinism="strict"),
]


def visible(html: str) -> str:
    """The text a reader sees: no tags, no attribute values (links' hrefs are fine)."""
    html = re.sub(r"<script\b.*?</script>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def assert_no_internal_path(text: str, where: str):
    match = INTERNAL.search(text)
    assert match is None, f"{where}: {text[max(0, match.start() - 60):match.end() + 60]!r}"


def assert_no_internal_jsonld(html: str, where: str, required: bool = False):
    """The schema.org markup is customer-facing too (search engines show it)."""
    scripts = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert scripts or not required, where
    for script in scripts:
        assert_no_internal_path(json.dumps(json.loads(script), ensure_ascii=False),
                                f"JSON-LD of {where}")


def test_the_check_catches_an_internal_path():
    with pytest.raises(AssertionError):
        assert_no_internal_path("Source: shared/docs/domain.md §3", "test")
    assert_no_internal_path("NVIDIA SN5000 manual https://docs.nvidia.com/x", "test")


def test_fixture_catalogue_equals_the_domain_catalogue_and_has_sources(content):
    catalogue = current().catalogue
    def by_key(rows):
        return sorted(rows, key=lambda r: r.key)

    # fixtures/content.json is the domain catalogue (manage.py catalogue_fixture writes it).
    assert by_key(catalogue.switches) == by_key(DEFAULT_CATALOGUE.switches)
    assert by_key(catalogue.parts) == by_key(DEFAULT_CATALOGUE.parts)
    assert catalogue.problems() == []


def test_a_catalogue_row_without_a_source_cannot_be_saved_in_the_admin(content):
    switch = Switch.objects.get(key="nvidia-sn5600")
    switch.source_title = " "
    with pytest.raises(ValidationError) as exc:
        switch.full_clean()
    assert "source_title" in exc.value.message_dict
    part = Part.objects.first()
    part.more_sources = [{"url": "https://example.com"}]
    with pytest.raises(ValidationError):
        part.full_clean()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{v}" for v in c.values()))
def test_result_pages_show_no_internal_path(client, content, case, language):
    from selector.core.sharing import share_token

    token = share_token(Answers(**case))
    prefix = "" if language == "zh-hans" else "/en"
    html = client.get(f"{prefix}/wizard/r/{token}/").content.decode()
    assert_no_internal_path(visible(html), f"result page {case} {language}")
    assert_no_internal_jsonld(html, f"result page {case} {language}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{v}" for v in c.values()))
def test_api_and_report_show_no_internal_path(client, content, case):
    params = {"workload": "training", "budget": "balanced", "determinism": "standard",
              **{k: str(v).lower() if isinstance(v, bool) else v for k, v in case.items()}}
    for lang in ("zh-hans", "en"):
        body = client.get("/api/recommend", params, HTTP_ACCEPT_LANGUAGE=lang).json()
        assert_no_internal_path(json.dumps(body, ensure_ascii=False), f"API {case} {lang}")
        data = sample_report(lang, "roce", answers=Answers(**case))
        html = render_html(data, web=True)
        assert_no_internal_path(visible(html), f"report {case} {lang}")
        assert_no_internal_jsonld(html, f"report {case} {lang}", required=True)


@pytest.mark.parametrize("case", CASES[2:4] + CASES[5:6],
                         ids=lambda c: "-".join(f"{v}" for v in c.values()))
def test_the_pdf_and_its_attachment_show_no_internal_path(content, case):
    from io import BytesIO

    from pypdf import PdfReader

    from selector.leads.report.render import JSONLD_NAME, render_pdf_document
    from tests.reports.conftest import pdf_text

    pdf = render_pdf_document(sample_report("zh-hans", "roce", answers=Answers(**case)))
    assert_no_internal_path(pdf_text(pdf.content), f"PDF {case}")
    attachment = PdfReader(BytesIO(pdf.content)).attachments[JSONLD_NAME][0].decode()
    assert_no_internal_path(attachment, f"PDF attachment {case}")


def test_every_number_in_the_plan_comes_with_a_source(content):
    for case in CASES:
        rec = fresh(Answers(**case))
        with translation.override("en"):
            vm = present(rec)
        titles = {s.original for s in vm.sources}
        for view in vm.fabrics:
            if view.plan is None:
                continue
            assert view.plan.switch.sources[0].title in titles
            for line in view.plan.bom:
                assert line.source.title in titles, line.key
        if vm.tuning:
            for row in vm.tuning.rows:
                assert row.citations, row.key


def test_comparison_rows_say_whose_statement_they_are(content):
    from selector.content.models import ComparisonRow

    rows = list(ComparisonRow.objects.all())
    assert {r.slug for r in rows} >= {"bandwidth", "nics", "ai-ethernet", "ultra-ethernet",
                                      "cost"}
    for row in rows:
        row.full_clean()
        if row.basis == ComparisonRow.Basis.SOURCED:
            assert row.sources() and row.source_date, row.slug
            for src in row.sources():
                assert src.title and src.url.startswith("https://") and src.date, row.slug
    cost = ComparisonRow.objects.get(slug="cost")
    assert cost.basis == ComparisonRow.Basis.ESTIMATE and "estimate" in cost.roce_en
    bandwidth = ComparisonRow.objects.get(slug="bandwidth")
    assert "XDR 800G" in bandwidth.infiniband_en and "NDR 400G" in bandwidth.infiniband_en
    bandwidth.source_title = ""
    with pytest.raises(ValidationError):
        bandwidth.full_clean()


def test_faq_answers_say_what_nvlink_spans_and_label_the_cost_estimate(content):
    from selector.content.models import FaqEntry

    small = FaqEntry.objects.get(slug="small-cluster")
    assert "直接 NVLink 域内互联" not in small.answer_zh
    assert "NVLink 不跨越独立的 HGX/DGX 服务器" in small.answer_zh
    assert "does not span separate HGX/DGX servers" in small.answer_en
    faster = FaqEntry.objects.get(slug="which-is-faster")
    assert "估算" in faster.answer_zh and "estimate" in faster.answer_en


@pytest.mark.parametrize("path", ["/", "/faq/", "/compare/", "/en/", "/en/faq/", "/en/compare/"])
def test_public_pages_and_their_markup_show_no_internal_path(client, content, path):
    html = client.get(path).content.decode()
    assert_no_internal_path(visible(html), path)
    assert_no_internal_jsonld(html, path, required=True)


def test_sharp_and_subnet_management_rows_are_sourced_on_both_sides(client, content):
    """Issue 22 finding 13: in-network reduction and subnet management rows, every cell
    sourced; the data migration adds them to a database loaded from the older fixture."""
    import importlib

    from django.apps import apps

    from selector.content.models import ComparisonRow

    migration = importlib.import_module(
        "selector.content.migrations.0007_comparison_rows_sharp_subnet_manager")
    slugs = ["in-network-reduction", "subnet-management"]
    for slug in slugs:
        row = ComparisonRow.objects.get(slug=slug)
        row.full_clean()
        assert row.basis == ComparisonRow.Basis.SOURCED and row.source_date
        assert all(src.url.startswith("https://") and src.date for src in row.sources())
        assert row.roce_zh and row.roce_en and row.infiniband_zh and row.infiniband_en
    assert "SHARP" in ComparisonRow.objects.get(slug=slugs[0]).infiniband_en
    assert "OpenSM" in ComparisonRow.objects.get(slug=slugs[1]).infiniband_en
    for prefix, text in (("", "子网管理"), ("/en", "Subnet management")):
        html = client.get(f"{prefix}/compare/").content.decode()
        assert text in html and "sharpv3130" in html
    edited = ComparisonRow.objects.get(slug=slugs[1])
    edited.roce_en = "Edited in the admin"
    edited.save()
    ComparisonRow.objects.filter(slug=slugs[0]).delete()
    migration.forwards(apps, None)
    assert ComparisonRow.objects.get(slug=slugs[0]).source_url.endswith("general-information")
    assert ComparisonRow.objects.get(slug=slugs[1]).roce_en == "Edited in the admin"
