"""Contact channels are company content (CompanyProfile, edited in the admin), shown in
every page footer, on the thanks, 429 and error pages (and, tested elsewhere, in the
e-mail and the PDF). Empty channels are not shown; nothing is invented."""

import re

import pytest
from django.test import Client, override_settings

from selector.content.models import CompanyProfile
from selector.public.errors import error_response
from tests.leads.conftest import attach, contact_data, make_session

# Clearly marked examples (tests only), never the company's real channels.
EXAMPLE = {"phone": "400-000-0000", "email": "sales@example.com",
           "wechat_name_zh": "示例公众号", "wechat_name_en": "Example account",
           "wechat_qr_url": "https://weixin.qq.com/r/example"}


@pytest.fixture
def channels(content, clear_cache):
    CompanyProfile.objects.update(**EXAMPLE)
    clear_cache.clear()  # the profile is cached: forget the one without the channels


def test_the_shipped_profile_has_no_invented_channels(content):
    profile = CompanyProfile.current()
    assert (profile.phone, profile.email, profile.wechat_name_zh, profile.wechat_qr_url) == (
        "", "", "", "")
    html = Client().get("/").content.decode()
    assert "tel:" not in html and "mailto:" not in html


@pytest.mark.parametrize("path", ["/", "/en/faq/", "/compare/", "/privacy/", "/wizard/scale/"])
def test_every_page_footer_shows_them(client, channels, path):
    html = client.get(path, follow=True).content.decode()
    footer = html[html.index('<footer class="site-footer">'):]
    assert 'href="tel:4000000000">400-000-0000</a>' in footer
    assert 'href="mailto:sales@example.com"' in footer
    assert ("示例公众号" if not path.startswith("/en/") else "Example account") in footer


def test_the_chinese_footer_uses_full_width_colons(client, channels):
    html = client.get("/").content.decode()
    line = re.search(r'<p class="contact-line".*?</p>', html, re.S).group(0)
    assert "咨询热线：" in line and "销售邮箱：" in line and "微信：" in line
    assert ": " not in re.sub(r"<[^>]+>", "", line)


def test_the_thanks_page_shows_the_box_with_the_wechat_qr_code(client, channels):
    attach(client, make_session())
    client.post("/contact/", contact_data(client))
    html = client.get("/contact/thanks/").content.decode()
    box = html[html.index('<div class="contact-box"'):]
    assert "<svg" in box and 'class="qr contact-qr-code"' in box and "微信扫码联系我们" in box
    assert "400-000-0000" in box


def test_the_429_page_shows_them(client, channels, settings):
    settings.LEAD_RATE_LIMIT = 1
    for _ in range(2):
        attach(client, make_session())
        response = client.post("/contact/", contact_data(client))
    assert response.status_code == 429
    html = response.content.decode()
    assert "访问过于频繁" in html
    box = html[html.index('<div class="contact-box"'):]
    assert "400-000-0000" in box and "sales@example.com" in box


@pytest.mark.parametrize("status", [400, 403, 404, 429, 500])
def test_error_pages_show_them(channels, status):
    html = error_response(None, status).content.decode()
    assert "400-000-0000" in html and "sales@example.com" in html


def test_the_503_page_never_asks_the_database(channels, django_assert_num_queries):
    # The test settings' cache is the database cache (production without REDIS_URL), so a
    # 503 page must not even read the cache: no channels, but a page.
    error_response(None, 404)  # caches the channels
    with django_assert_num_queries(0):
        html = error_response(None, 503).content.decode()
    assert "503" in html and "400-000-0000" not in html


@override_settings(CACHES={"default": {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "errors-test"}})
def test_with_a_cache_apart_from_the_database_the_503_page_shows_them(
        channels, django_assert_num_queries):
    from django.core.cache import caches

    caches["default"].clear()
    with django_assert_num_queries(0):
        assert "400-000-0000" not in error_response(None, 503).content.decode()
    error_response(None, 404)  # one query, then cached
    with django_assert_num_queries(0):
        assert "400-000-0000" in error_response(None, 503).content.decode()


def test_a_404_page_through_the_site_shows_them(channels):
    with override_settings(DEBUG=False):
        html = Client().get("/no-such-page/").content.decode()
    assert "400-000-0000" in html


def test_the_favicon_is_served_at_the_root(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    body = response.content
    assert body[:4] == b"\x00\x00\x01\x00"  # ICO header
    assert int.from_bytes(body[4:6], "little") >= 3  # several sizes (16, 32, 48, ...)
    assert "max-age" in response["Cache-Control"]
    html = client.get("/", follow=True).content.decode()
    assert '<link rel="icon" href="/favicon.ico" sizes="any">' in html
