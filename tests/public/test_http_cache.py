"""Compressed and cacheable (issue 26, item 7): HTML and JSON go out gzipped; anonymous
public pages set no cookie and vary on nothing but the encoding; they carry an ETag of the
content version and answer 304; the language switch is a link to the same page in the
other language; the API has an ETag and varies on Accept-Language, not Cookie. Pages with
a POST form keep their CSRF token."""

import gzip
import re

import pytest
from django.test import Client

from selector.content.models import FaqEntry
from selector.core.sharing import share_token
from selector.domain import Answers
from tests.leads.conftest import attach, make_session

SHARED = "/wizard/r/{token}/"
PUBLIC = ["/", "/faq/", "/compare/", "/privacy/", "/wizard/", SHARED]
API = ["/api/recommend?gpus=1024&workload=training&budget=balanced&determinism=standard",
       "/api/fabric?gpus=256&fabric=roce-v2-400g"]


def _url(path: str, prefix: str = "") -> str:
    if path == SHARED:
        path = SHARED.format(token=share_token(Answers(gpus=64)))
    return prefix + path


def _vary(response) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}


@pytest.fixture
def anonymous(content):
    return Client()


@pytest.mark.parametrize("prefix", ["", "/en"])
@pytest.mark.parametrize("path", PUBLIC)
def test_an_anonymous_public_page_sets_no_cookie_and_varies_on_no_cookie(
        anonymous, path, prefix):
    response = anonymous.get(_url(path, prefix))
    assert response.status_code in (200, 302), response.status_code
    assert not response.cookies, (path, list(response.cookies))
    assert "Set-Cookie" not in response.headers
    if path == "/wizard/":  # a redirect that depends on the session, stored by no cache
        assert response["Location"] == prefix + "/wizard/scale/"
        assert "no-store" in response["Cache-Control"]
    else:
        assert "cookie" not in _vary(response)
    if response.status_code == 200:
        html = response.content.decode()
        assert "csrfmiddlewaretoken" not in html and "X-CSRFToken" not in html
        # No per-response nonce where the page has no inline script.
        assert "nonce" not in html
        policy = response["Content-Security-Policy"]
        assert "script-src 'self';" in policy + ";" and "nonce-" not in policy


@pytest.mark.parametrize("path", ["/", "/en/faq/", "/compare/", "/en/privacy/", SHARED])
def test_html_is_gzipped_when_the_client_accepts_it(anonymous, path):
    plain = anonymous.get(_url(path))
    response = anonymous.get(_url(path), HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert response["Content-Encoding"] == "gzip"
    assert "accept-encoding" in _vary(response)
    body = gzip.decompress(response.content)
    assert body.startswith(b"<!doctype html>")
    assert len(response.content) < len(plain.content) / 2
    assert "Content-Encoding" not in plain.headers


@pytest.mark.parametrize("url", API)
def test_json_is_gzipped_when_the_client_accepts_it(anonymous, url):
    response = anonymous.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.content).startswith(b"{")


@pytest.mark.parametrize("prefix", ["", "/en"])
@pytest.mark.parametrize("path", ["/", "/faq/", "/compare/", "/privacy/", SHARED])
def test_a_public_page_has_an_etag_and_answers_304(anonymous, path, prefix):
    url = _url(path, prefix)
    response = anonymous.get(url)
    etag = response["ETag"]
    cache_control = {d.strip() for d in response["Cache-Control"].split(",")}
    assert "public" in cache_control and "max-age=300" in cache_control
    again = anonymous.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    # gzip makes the ETag weak; the weak form matches too.
    zipped = anonymous.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["ETag"] == "W/" + etag
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=zipped["ETag"]).status_code == 304
    assert anonymous.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_the_etag_is_per_language_and_content_version(anonymous):
    zh, en = anonymous.get("/faq/")["ETag"], anonymous.get("/en/faq/")["ETag"]
    assert zh != en
    entry = FaqEntry.objects.first()
    entry.answer_zh += "（更新）"
    entry.save()
    changed = anonymous.get("/faq/", HTTP_IF_NONE_MATCH=zh)
    assert changed.status_code == 200 and changed["ETag"] != zh
    assert "（更新）" in changed.content.decode()


def test_public_pages_do_not_vary_on_accept_language(anonymous):
    for url in ("/", "/en/", "/faq/", "/en/compare/"):
        assert "accept-language" not in _vary(anonymous.get(url)), url


def _switch(html: str) -> tuple[str, str]:
    found = re.search(r'<a class="lang-switch"[^>]*hreflang="([^"]+)"[^>]*href="([^"]*)"', html)
    assert found, "no language link"
    return found.group(1), found.group(2).replace("&amp;", "&")


@pytest.mark.parametrize("path", ["/", "/faq/", "/compare/", "/privacy/", "/contact/",
                                  "/wizard/scale/", SHARED])
def test_the_language_link_goes_to_the_same_page_in_the_other_language(content, path):
    visitor = Client()
    attach(visitor, make_session())  # the contact step needs answers
    url = _url(path)
    assert _switch(visitor.get(url).content.decode()) == ("en", "/en" + url)
    assert _switch(visitor.get("/en" + url).content.decode()) == ("zh-Hans", url)


def test_the_language_link_keeps_the_query_and_is_no_form(anonymous):
    html = anonymous.get("/faq/?utm_source=x&utm_medium=y").content.decode()
    assert _switch(html) == ("en", "/en/faq/?utm_source=x&utm_medium=y")
    assert 'class="lang-switch"' in html and "<form class=\"lang-switch\"" not in html


def test_the_language_link_reaches_a_page_in_that_language(anonymous):
    _lang, target = _switch(anonymous.get("/compare/").content.decode())
    assert '<html lang="en">' in anonymous.get(target).content.decode()
    _lang, back = _switch(anonymous.get(target).content.decode())
    assert '<html lang="zh-Hans">' in anonymous.get(back).content.decode()


@pytest.mark.parametrize("url", API)
def test_the_api_has_an_etag_and_varies_on_accept_language_only(anonymous, url):
    response = anonymous.get(url, HTTP_ACCEPT_LANGUAGE="en")
    vary = _vary(response)
    assert "accept-language" in vary and "cookie" not in vary
    etag = response["ETag"]
    again = anonymous.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    chinese = anonymous.get(url, HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    assert chinese["ETag"] != etag and chinese["Content-Language"] == "zh-hans"
    assert anonymous.get(url, HTTP_ACCEPT_LANGUAGE="zh-CN", HTTP_IF_NONE_MATCH=etag
                         ).status_code == 200


def test_the_api_language_follows_accept_language_not_a_cookie(anonymous):
    anonymous.cookies["django_language"] = "en"
    response = anonymous.get(API[0] + "&gpus=x", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert response["Content-Language"] == "zh-hans"
    anonymous.cookies["django_language"] = "zh-hans"
    response = anonymous.get(API[0] + "&gpus=x", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8")
    assert response["Content-Language"] == "en"


def test_form_pages_keep_their_csrf_token(content):
    strict = Client(enforce_csrf_checks=True)
    step = strict.get("/wizard/", follow=True)
    assert "csrftoken" in strict.cookies
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', step.content.decode())
    assert token
    refused = strict.post("/wizard/scale/", {"gpus": 64, "gpus_per_server": 8})
    assert refused.status_code == 403
    accepted = strict.post("/wizard/scale/", {"gpus": 64, "gpus_per_server": 8,
                                              "csrfmiddlewaretoken": token.group(1)})
    assert accepted.status_code == 302
    attach(strict, make_session())
    contact = strict.get("/contact/")
    assert contact.status_code == 200 and "csrfmiddlewaretoken" in contact.content.decode()
    # Form pages are never stored by shared caches.
    assert "private" in step["Cache-Control"] or "no-cache" in step["Cache-Control"]


def test_the_shared_result_hands_off_by_a_same_origin_link(content):
    """The shared result's call to action is a link (its page sets no cookie). Followed from
    our own page (Sec-Fetch-Site: same-origin) it starts the hand-off; from anywhere else it
    asks first, with a CSRF-protected form."""
    token = share_token(Answers(gpus=64))
    strict = Client(enforce_csrf_checks=True)
    html = strict.get(f"/wizard/r/{token}/").content.decode()
    assert f'href="/wizard/r/{token}/continue/"' in html
    cross = strict.get(f"/wizard/r/{token}/continue/", HTTP_SEC_FETCH_SITE="cross-site")
    assert cross.status_code == 200 and "wizard_session_id" not in strict.session
    form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"',
                           cross.content.decode())
    assert form_token
    assert strict.post(f"/wizard/r/{token}/continue/").status_code == 403
    unknown = strict.get(f"/wizard/r/{token}/continue/")  # no Fetch Metadata: ask too
    assert unknown.status_code == 200 and "wizard_session_id" not in strict.session
    same = strict.get(f"/wizard/r/{token}/continue/", HTTP_SEC_FETCH_SITE="same-origin")
    assert same.status_code == 303 and same["Location"] == "/contact/"
    assert "wizard_session_id" in strict.session


# The page store (selector.content.httpcache): a visitor without the page gets the kept
# bytes of its ETag instead of a render; nothing else is kept, and nothing kept goes stale.

def _renders(client, url: str, **extra) -> tuple[int, bytes, object]:
    from django.test.signals import template_rendered

    seen: list[str] = []

    def listen(sender, template, context, **kwargs):
        seen.append(template.name)

    template_rendered.connect(listen)
    try:
        response = client.get(url, **extra)
    finally:
        template_rendered.disconnect(listen)
    return len(seen), response.content, response


@pytest.mark.parametrize("prefix", ["", "/en"])
@pytest.mark.parametrize("path", ["/", "/faq/", "/compare/", "/privacy/", SHARED])
def test_a_second_visitor_gets_the_kept_page_without_a_render(content, path, prefix):
    url = _url(path, prefix)
    first, body, response = _renders(Client(), url)
    assert first > 0 and response.status_code == 200
    again, body_again, response_again = _renders(Client(), url)
    assert again == 0
    assert body_again == body
    assert response_again["ETag"] == response["ETag"]
    assert response_again["Content-Type"] == response["Content-Type"]
    assert response_again["Content-Language"] == response["Content-Language"]
    assert not response_again.cookies
    # gzip still applies to the kept page, per request.
    gz = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert gz["Content-Encoding"] == "gzip" and gzip.decompress(gz.content) == body


def test_a_content_edit_is_on_the_next_visit_not_the_kept_page(content):
    Client().get("/faq/")
    entry = FaqEntry.objects.filter(is_published=True).first()
    FaqEntry.objects.filter(pk=entry.pk).update(question_zh="全新的问题：缓存会过期吗？")
    renders, body, _ = _renders(Client(), "/faq/")
    assert renders > 0
    assert "全新的问题：缓存会过期吗？" in body.decode()


def test_a_query_string_or_a_cookie_setting_visit_is_never_kept(content):
    Client().get("/?utm_source=wechat&utm_medium=share")  # records the visit: a cookie
    assert _renders(Client(), "/?utm_source=wechat&utm_medium=share")[0] > 0
    assert _renders(Client(), "/?anything=1")[0] > 0
    assert _renders(Client(), "/?anything=1")[0] > 0


def test_the_languages_are_kept_apart(content):
    Client().get("/")
    Client().get("/en/")
    zh = Client().get("/").content.decode()
    en = Client().get("/en/").content.decode()
    assert 'lang="zh-hans"' in zh.lower() and 'lang="en"' in en.lower()


def test_a_changed_setting_forgets_the_kept_pages(content, settings):
    Client().get("/")
    settings.SITE_NAME_FOR_TEST_ONLY = "x"
    assert _renders(Client(), "/")[0] > 0
