"""Copy edits of issue 26 (item 9), on what customers read: Asterfusion's Chinese name is
星融元 everywhere; our cost estimate is said once per sentence; the comparison page promises
no decision tree it does not have; English without literal translations."""

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client
from django.utils import translation

from selector.content.models import ContentBlock, FaqEntry, Switch
from selector.core import choices, explain
from selector.domain.catalogue import DEFAULT_CATALOGUE
from selector.leads.report.render import render_pdf_document
from selector.leads.report.samples import sample_report
from tests.reports.conftest import pdf_text
from tests.wizard.conftest import RULE_CASES, walk

LITERAL = re.compile(r"three-piece|single-point performance", re.I)


def _shown(client: Client, url: str) -> str:
    return client.get(url, follow=True).content.decode()


@pytest.fixture
def pages(content):
    client = Client()
    walk(client, RULE_CASES["R6"])  # 1,024 GPUs: the catalogue's switches, Asterfusion too
    urls = ["/", "/faq/", "/compare/", "/wizard/result/"]
    return {url: _shown(client, url) for url in urls} | {
        "/en" + url: _shown(client, "/en" + url) for url in urls}


def test_asterfusion_is_called_xingrongyuan(pages):
    shown = "".join(pages.values())
    assert re.findall(r"星融(?!元)", shown) == []
    vendors = {s.vendor for s in DEFAULT_CATALOGUE.switches if s.vendor_key == "asterfusion"}
    assert vendors == {"Asterfusion 星融元"}
    with translation.override("zh-hans"):
        assert str(choices.VENDOR_LABELS["asterfusion"]) == "星融元（国产）"


def test_the_estimate_is_said_once_per_sentence():
    with translation.override("zh-hans"):
        for key, text in explain._REASONS.items():
            for sentence in re.split(r"[。！？]", str(text)):
                assert sentence.count("估算") <= 1, (key, sentence)
    with translation.override("en"):
        for key, text in explain._REASONS.items():
            for sentence in re.split(r"(?<=\.)\s", str(text)):
                assert len(re.findall(r"\bestimate", sentence)) <= 1, (key, sentence)


@pytest.mark.parametrize("path", ["/compare/", "/en/compare/"])
def test_the_comparison_page_promises_no_decision_tree(pages, path):
    html = pages[path]
    lead = " ".join(re.findall(r'<p class="lead">(.*?)</p>', html, re.S))
    assert lead and not re.search(r"decision tree|决策树", lead, re.I)
    assert 'class="tree"' not in html  # the tree lives on the guide page; the page links it


def test_english_pages_have_no_literal_translations(pages):
    for url, html in pages.items():
        if url.startswith("/en"):
            assert not LITERAL.search(html), (url, LITERAL.findall(html))
    with translation.override("en"):
        text = pdf_text(render_pdf_document(sample_report("en", "roce")).content)
    assert not LITERAL.search(text)


def test_the_old_fixture_text_is_edited_by_the_migration(content):
    """A database loaded from the old fixture gets the edits; an editor's text stays."""
    migration = importlib.import_module("selector.content.migrations.0006_copy_edits_issue_26")
    Switch.objects.filter(vendor_key="asterfusion").update(vendor="Asterfusion 星融")
    ContentBlock.objects.filter(key="intro").update(body_zh=migration.OLD_INTRO_ZH,
                                                    body_en="An editor's own intro.")
    FaqEntry.objects.filter(slug="which-is-faster").update(
        answer_en=migration.OLD_SINGLE_POINT + " the rest.")
    migration.forwards(apps, None)
    assert set(Switch.objects.filter(vendor_key="asterfusion").values_list(
        "vendor", flat=True)) == {"Asterfusion 星融元"}
    intro = ContentBlock.objects.get(key="intro")
    assert (intro.body_zh, intro.body_en) == (migration.NEW_INTRO_ZH, "An editor's own intro.")
    assert FaqEntry.objects.get(slug="which-is-faster").answer_en == (
        migration.NEW_SINGLE_POINT + " the rest.")
