"""The language switch keeps the visitor on the same page, both ways, from every public
page and every wizard page: a link in the header to the same URL in the other language
(no form, no cookie: the URL says the language)."""

import re

import pytest
from django.test import Client

from selector.core.sharing import share_token
from selector.domain import Answers
from tests.leads.conftest import attach, contact_data, make_session
from tests.wizard.conftest import RULE_CASES, walk

PUBLIC = ["/", "/faq/", "/compare/", "/privacy/"]
WIZARD = ["/wizard/scale/", "/wizard/workload/", "/wizard/budget/", "/wizard/determinism/",
          "/wizard/nic-speed/", "/wizard/result/"]


def _first(pattern: str, text: str, flags: int = 0) -> str:
    found = re.search(pattern, text, flags)
    assert found, pattern
    return found.group(1)


def switch(client: Client, page: str) -> str:
    """The header link's target on ``page`` (the other language)."""
    html = client.get(page).content.decode()
    assert '<form class="lang-switch"' not in html
    link = _first(r'(<a class="lang-switch"[^>]*>)', html)
    return _first(r'href="([^"]*)"', link).replace("&amp;", "&")


def english(path: str) -> str:
    return "/en" + path


@pytest.fixture
def visitor(content):
    client = Client()
    walk(client, RULE_CASES["R7"])
    return client


@pytest.mark.parametrize("path", PUBLIC + WIZARD)
def test_chinese_to_english_keeps_the_page(visitor, path):
    target = switch(visitor, path)
    assert target == english(path)
    page = visitor.get(target)
    assert page.status_code == 200 and '<html lang="en">' in page.content.decode()
    assert "django_language" not in visitor.cookies


@pytest.mark.parametrize("path", PUBLIC + WIZARD)
def test_english_to_chinese_keeps_the_page(visitor, path):
    target = switch(visitor, english(path))
    assert target == path
    page = visitor.get(target)
    assert page.status_code == 200 and '<html lang="zh-Hans">' in page.content.decode()


def test_the_shared_result_contact_and_thanks_pages_switch_both_ways(visitor):
    shared = f"/wizard/r/{share_token(Answers(gpus=64))}/"
    assert switch(visitor, shared) == english(shared)
    assert switch(visitor, english(shared)) == shared
    assert switch(visitor, "/contact/") == "/en/contact/"
    assert switch(visitor, "/en/contact/") == "/contact/"


def test_the_query_string_is_kept(visitor):
    assert switch(visitor, "/faq/?utm_source=x") == "/en/faq/?utm_source=x"
    assert switch(visitor, "/en/?a=1&b=2") == "/?a=1&b=2"


def test_the_link_names_the_other_language_in_that_language(visitor):
    zh = _first(r'(<a class="lang-switch"[^>]*>[^<]*</a>)', visitor.get("/").content.decode())
    assert 'lang="en"' in zh and 'hreflang="en"' in zh and ">EN</a>" in zh
    en = _first(r'(<a class="lang-switch"[^>]*>[^<]*</a>)',
                visitor.get("/en/").content.decode())
    assert 'lang="zh-Hans"' in en and ">中文</a>" in en


def test_the_wizard_answers_survive_the_switch(visitor):
    html = visitor.get(switch(visitor, "/wizard/result/")).content.decode()
    assert "RoCE v2 lossless Ethernet, 400G" in html  # R7, the same result in English


def test_after_a_lead_the_thanks_page_switches(content):
    client = Client()
    attach(client, make_session())
    client.post("/contact/", contact_data(client))
    assert switch(client, "/contact/thanks/") == "/en/contact/thanks/"
    assert "Thank you" in client.get("/en/contact/thanks/").content.decode()
