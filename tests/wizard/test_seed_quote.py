"""The article's sentence under the recommendation (issue 26, item 5): English result pages
show it in English, with the Chinese original kept as the company's quote; Chinese pages
show the original only."""

import re

import pytest

from selector.content.models import CompanyProfile, ContentBlock
from selector.core.explain import SEED_QUOTE_EN
from selector.domain.decision import RULES, RULES_BY_ID
from tests.wizard.conftest import RULE_CASES, walk

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def test_every_rule_s_quote_has_an_english_translation():
    assert set(SEED_QUOTE_EN) == {rule.id for rule in RULES}
    for rule_id, text in SEED_QUOTE_EN.items():
        assert text and not CJK.search(text), rule_id
        assert (text[0].isupper() or text[0].isdigit()) and text.endswith("."), rule_id


def _figure(html: str) -> str:
    found = re.search(r'<figure class="seed-quote"[^>]*>(.*?)</figure>', html, re.S)
    assert found, "no quote"
    return found.group(1)


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_an_english_result_shows_the_translation_and_the_original_as_the_company_s(
        client, content, rule):
    walk(client, RULE_CASES[rule])
    html = client.get("/en/wizard/result/").content.decode()
    rule_id = re.search(r"Rule (R\d)</span>", html).group(1)
    assert rule_id == rule
    figure = _figure(html)
    translation = re.search(r'<p class="seed-translation">“(.*?)”</p>', figure).group(1)
    assert translation == SEED_QUOTE_EN[rule_id].replace("'", "&#x27;")
    original = re.search(r'<blockquote lang="zh-Hans"[^>]*><p>“(.*?)”</p></blockquote>',
                         figure).group(1)
    assert original == RULES_BY_ID[rule_id].seed_quote
    caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S).group(1)
    with_lang = CompanyProfile.current()
    assert with_lang.name_en in caption
    assert ContentBlock.objects.get(key="article").title_en in caption
    assert "Chinese original" in caption
    # Outside the quote, no Chinese is left untranslated on the English result's head.
    head = html.split('data-testid="result-summary"', 1)[1].split("answers-heading")[0]
    outside = head.replace(figure, "")
    assert not CJK.search(outside), CJK.findall(outside)


def test_a_chinese_result_shows_the_original_as_the_company_s_quote(client, content):
    walk(client, RULE_CASES["R7"])
    html = client.get("/wizard/result/").content.decode()
    figure = _figure(html)
    assert "seed-translation" not in figure
    assert f"<p>“{RULES_BY_ID['R7'].seed_quote}”</p>" in figure
    caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S).group(1)
    assert CompanyProfile.current().name_zh in caption
    assert f"《{ContentBlock.objects.get(key='article').title_zh}》" in caption
