"""The landing page is the seed article built from the content tables, in both languages."""

import re

import pytest
from django.utils import translation

from selector.content import queries
from selector.content.models import CompanyProfile, ContentBlock
from tests.public.helpers import visible_faq


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", html)


@pytest.mark.parametrize("path,language", [("/", "zh-hans"), ("/en/", "en")])
def test_it_shows_every_piece_of_article_content_in_the_page_language(
        client, content, path, language):
    html = client.get(path).content.decode()
    with translation.override(language):
        company = queries.company()
        expected = [queries.block("article").title]
        for section in ("intro", "tuning", "decision", "keypoint"):
            for block in queries.blocks(section):
                expected += [t for t in (block.title, block.body) if t]
        for row in queries.comparison_rows():
            expected += [row.dimension, row.roce, row.infiniband]
        faq = [(e.question, e.answer) for e in queries.faq_entries()]
        expected += [company.name, company.tagline]
    for text in expected:
        assert text in html, text
    assert visible_faq(html) == faq
    other = "en" if language == "zh-hans" else "zh"
    intro = ContentBlock.objects.get(key="intro")
    assert getattr(intro, f"body_{other}") not in html


def test_it_shows_the_company_block_with_its_figures(client, content):
    html = _text(client.get("/en/").content.decode())
    block = html[html.index('class="company-block"'):]
    for fact in ("<strong>14</strong><span>years of IT service",
                 "<strong>2000+</strong><span>enterprise clients",
                 "<strong>7x24</strong><span>technical support"):
        assert fact in block
    assert "Guangdong Shenhua Tiancheng Intelligent Engineering Co., Ltd." in block
    zh = _text(client.get("/").content.decode())
    assert "<strong>14</strong><span>年 IT 服务经验" in zh
    assert "<strong>7x24</strong><span>小时技术支持" in zh


def test_it_reflects_a_company_profile_edit(client, content):
    CompanyProfile.objects.update(years_of_service=15, clients="2500+")
    html = client.get("/").content.decode()
    assert "<strong>15</strong>" in html and "<strong>2500+</strong>" in html


@pytest.mark.parametrize("path,wizard", [("/", "/wizard/"), ("/en/", "/en/wizard/")])
def test_it_calls_the_reader_into_the_wizard(client, content, path, wizard):
    html = client.get(path).content.decode()
    ctas = re.findall(r'<a class="btn btn-cta" href="([^"]+)">([^<]+)</a>', html)
    assert len(ctas) == 2 and {href for href, _ in ctas} == {wizard}
    label = "开始网络选型" if path == "/" else "Start the network selector"
    assert all(text == label for _, text in ctas)


def test_it_uses_the_seed_headings_in_chinese(client, content):
    html = client.get("/").content.decode()
    for heading in ("两种网络横向对比", "RoCE 无损调优三件套", "选型决策树", "3 条要点回顾",
                    "常见问题（FAQ）", "让专业团队帮你落地"):
        assert heading in html, heading


def test_it_counts_key_points_from_the_content(client, content):
    ContentBlock.objects.create(key="point-extra", section="keypoint", order=9,
                                body_zh="第四条要点。", body_en="A fourth point.")
    html = client.get("/en/").content.decode()
    assert "4 key points to remember" in html and "A fourth point." in html


def test_it_escapes_content_text(client, content):
    ContentBlock.objects.filter(key="tuning-pfc").update(title_zh="<b>PFC</b> & <i>x</i>")
    html = client.get("/").content.decode()
    assert "&lt;b&gt;PFC&lt;/b&gt; &amp; &lt;i&gt;x&lt;/i&gt;" in html
    assert "<b>PFC</b>" not in html


def test_the_comparison_page_shows_the_table_and_key_points(client, content):
    html = client.get("/en/compare/").content.decode()
    for text in ("NDR 400G (Quantum-2 QM9700); XDR 800G (Quantum-X800, since 2024)",
                 "PFC + ECN, tuned in software", "Separate protocol stack", "Relatively higher",
                 "Ultra Ethernet 1.0", "Spectrum-X", "our estimate: about 30% less"):
        assert text in html
    # Each row says whose statement it is; the sourced ones name the document and its date.
    assert "Bandwidth: <a" in html and "(read 2026-12-01)" in html
    assert "Cost: our estimate" in html and "Ecosystem: the company's article" in html
    assert 'aria-current="page">Comparison</span>' in html
    assert 'href="/en/wizard/"' in html


def test_the_faq_page_opens_the_first_answer_and_anchors_each_question(client, content):
    html = client.get("/faq/").content.decode()
    assert '<details class="faq-item" id="which-is-faster" open>' in html
    assert '<details class="faq-item" id="small-cluster">' in html
    assert len(visible_faq(html)) == 4
