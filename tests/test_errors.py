import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from selector.content.models import CompanyProfile
from selector.public.errors import CHANNELS_CACHE_KEY


@pytest.fixture
def quiet_client(db):
    return Client(raise_request_exception=False)


def test_404_is_friendly_in_chinese_and_english(client, db):
    zh = client.get("/no-such-page/")
    assert zh.status_code == 404
    assert "页面不存在" in zh.content.decode()
    en = client.get("/en/no-such-page/")
    assert en.status_code == 404
    body = en.content.decode()
    assert "Page not found" in body
    assert "no-such-page" not in body  # nothing from the request is echoed
    assert en["Cache-Control"] == "no-store"


@override_settings(ROOT_URLCONF="tests.urls_errors")
def test_500_leaks_nothing(quiet_client):
    response = quiet_client.get("/en/boom/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body
    assert "secret internal detail" not in body
    assert "Traceback" not in body


@override_settings(ROOT_URLCONF="tests.urls_errors")
def test_a_database_outage_is_a_503_with_retry_after(quiet_client):
    response = quiet_client.get("/db-down/")
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    body = response.content.decode()
    assert "暂时无法访问" in body
    assert "10.0.0.5" not in body


def test_csrf_failure_is_the_friendly_403(db):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/wizard/scale/", {"gpus": "64"})
    assert response.status_code == 403
    assert "拒绝访问" in response.content.decode()


def test_error_page_carries_the_security_headers(client, db):
    response = client.get("/en/no-such-page/")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("path", ["/en/no-such-page/", "/", "/api/openapi.json", "/healthz",
                                  "/static/css/app.css"])
def test_every_response_carries_a_permissions_policy(client, db, path):
    policy = client.get(path)["Permissions-Policy"]
    features = dict(item.split("=") for item in policy.split(", "))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features[feature] == "()"


def test_the_brand_is_the_company_profiles_short_name(client, content):
    """One source of the brand: the profile marketing edits (no setting, no literal)."""
    CompanyProfile.objects.update(short_name_zh="新华天成", short_name_en="Xinhua Tiancheng")
    cache.delete(CHANNELS_CACHE_KEY)
    zh = client.get("/no-such-page/").content.decode()
    assert "<span>新华天成</span>" in zh and "页面不存在 · 新华天成" in zh
    en = client.get("/en/no-such-page/").content.decode()
    assert "<span>Xinhua Tiancheng</span>" in en


def test_without_a_profile_the_brand_is_the_default_short_name(client, db):
    CompanyProfile.objects.all().delete()
    cache.delete(CHANNELS_CACHE_KEY)
    assert "<span>深华天成</span>" in client.get("/no-such-page/").content.decode()
    assert "<span>Shenhua Tiancheng</span>" in client.get("/en/no-such-page/").content.decode()
