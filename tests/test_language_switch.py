"""The language switch keeps the visitor on the same page, both ways, from every public
page and every wizard page (without JavaScript: the header's form POSTs `next`)."""

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


def switch(client: Client, page: str, language: str):
    html = client.get(page).content.decode()
    form = _first(r'<form class="lang-switch"[^>]*>(.*?)</form>', html, re.S)
    next_url = _first(r'name="next" type="hidden" value="([^"]*)"', form)
    assert next_url == page.replace("&", "&amp;")
    token = _first(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    return client.post("/i18n/setlang/", {"language": language, "next": next_url,
                                          "csrfmiddlewaretoken": token})


def english(path: str) -> str:
    return "/en" + path


@pytest.fixture
def visitor(content):
    client = Client()
    walk(client, RULE_CASES["R7"])
    return client


@pytest.mark.parametrize("path", PUBLIC + WIZARD)
def test_chinese_to_english_keeps_the_page(visitor, path):
    response = switch(visitor, path, "en")
    assert response.status_code == 302
    assert response["Location"] == english(path)
    assert visitor.cookies["django_language"].value == "en"
    page = visitor.get(response["Location"])
    assert page.status_code == 200 and '<html lang="en">' in page.content.decode()


@pytest.mark.parametrize("path", PUBLIC + WIZARD)
def test_english_to_chinese_keeps_the_page(visitor, path):
    response = switch(visitor, english(path), "zh-hans")
    assert response.status_code == 302
    assert response["Location"] == path  # was: back to the same /en/ page
    assert visitor.cookies["django_language"].value == "zh-hans"
    page = visitor.get(response["Location"])
    assert page.status_code == 200 and '<html lang="zh-Hans">' in page.content.decode()


def test_the_shared_result_contact_and_thanks_pages_switch_both_ways(visitor):
    shared = f"/wizard/r/{share_token(Answers(gpus=64))}/"
    assert switch(visitor, shared, "en")["Location"] == english(shared)
    assert switch(visitor, english(shared), "zh-hans")["Location"] == shared
    assert switch(visitor, "/contact/", "en")["Location"] == "/en/contact/"
    assert switch(visitor, "/en/contact/", "zh-hans")["Location"] == "/contact/"


def test_the_query_string_is_kept(visitor):
    response = visitor.post("/i18n/setlang/", {"language": "en", "next": "/faq/?utm_source=x",
                                               "csrfmiddlewaretoken": _token(visitor)})
    assert response["Location"] == "/en/faq/?utm_source=x"


def test_a_foreign_next_is_refused(visitor):
    response = visitor.post("/i18n/setlang/", {"language": "en",
                                               "next": "https://evil.example/en/",
                                               "csrfmiddlewaretoken": _token(visitor)})
    assert response["Location"] == "/en/"


def test_an_unknown_language_changes_nothing(visitor):
    response = visitor.post("/i18n/setlang/", {"language": "fr", "next": "/en/faq/",
                                               "csrfmiddlewaretoken": _token(visitor)})
    assert response["Location"] == "/en/faq/"
    assert "django_language" not in visitor.cookies


def test_it_needs_the_csrf_token(content):
    strict = Client(enforce_csrf_checks=True)
    strict.get("/faq/")
    response = strict.post("/i18n/setlang/", {"language": "en", "next": "/faq/"})
    assert response.status_code == 403
    token = _token(strict)
    response = strict.post("/i18n/setlang/", {"language": "en", "next": "/faq/",
                                              "csrfmiddlewaretoken": token})
    assert response.status_code == 302


def test_the_wizard_answers_survive_the_switch(visitor):
    switch(visitor, "/wizard/result/", "en")
    html = visitor.get("/en/wizard/result/").content.decode()
    assert "RoCE v2 lossless Ethernet, 400G" in html  # R7, the same result in English


def test_after_a_lead_the_thanks_page_switches(content):
    client = Client()
    attach(client, make_session())
    client.post("/contact/", contact_data(client))
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/contact/thanks/"})
    assert response["Location"] == "/en/contact/thanks/"
    assert "Thank you" in client.get("/en/contact/thanks/").content.decode()


def _token(client: Client) -> str:
    html = client.get("/faq/").content.decode()
    return _first(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
