import pytest
from django.test import RequestFactory

from selector.core.request import client_ip
from selector.leads.models import Lead

from .conftest import attach, contact_data, make_session

URL = "/contact/"


def _request(remote, xff=None):
    meta = {"REMOTE_ADDR": remote}
    if xff is not None:
        meta["HTTP_X_FORWARDED_FOR"] = xff
    return RequestFactory().get("/", **meta)


@pytest.mark.parametrize(("trusted", "remote", "xff", "expected"), [
    ([], "203.0.113.7", None, "203.0.113.7"),
    ([], "203.0.113.7", "198.51.100.1", "203.0.113.7"),  # not behind a proxy: ignore XFF
    (["10.0.0.2"], "203.0.113.7", "198.51.100.1", "203.0.113.7"),  # peer is not our proxy
    (["10.0.0.2"], "10.0.0.2", "198.51.100.1", "198.51.100.1"),
    (["10.0.0.2"], "10.0.0.2", "1.1.1.1, 198.51.100.1", "198.51.100.1"),  # forged left part
    (["10.0.0.2", "10.0.0.3"], "10.0.0.2", "198.51.100.1, 10.0.0.3", "198.51.100.1"),
    (["10.0.0.2"], "10.0.0.2", "", "10.0.0.2"),
    (["10.0.0.2"], "10.0.0.2", "garbage", "10.0.0.2"),
    (["10.0.0.2"], "10.0.0.2", "198.51.100.1, garbage", "10.0.0.2"),
    (["10.0.0.2"], "10.0.0.2", " 2001:db8::1 ", "2001:db8::1"),
    ([], "not-an-ip", None, "0.0.0.0"),  # noqa: S104
])
def test_client_ip(settings, trusted, remote, xff, expected):
    settings.TRUSTED_PROXIES = trusted
    assert client_ip(_request(remote, xff)) == expected


@pytest.fixture
def limited(settings):
    settings.LEAD_RATE_LIMIT = 3
    settings.LEAD_RATE_WINDOW_SECONDS = 600
    return settings


def _post(client, prefix="", **meta):
    # A fresh finished wizard each time, so each POST would otherwise create a lead.
    attach(client, make_session())
    return client.post(prefix + URL, contact_data(client), **meta)


def test_it_answers_429_with_a_friendly_page_after_the_limit(client, content, limited):
    statuses = [_post(client).status_code for _ in range(4)]
    assert statuses == [302, 302, 302, 429]
    assert Lead.objects.count() == 3
    response = _post(client)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    html = response.content.decode()
    assert "此表单暂时停用" in html  # Chinese by default
    assert 'href="/wizard/result/"' in html  # back to the result, answers kept


def test_the_429_page_speaks_the_visitors_language(client, content, limited):
    for _ in range(3):
        _post(client, "/en")
    response = _post(client, "/en")
    assert response.status_code == 429
    assert "this form is paused" in response.content.decode()


def test_a_forged_x_forwarded_for_does_not_bypass_it(client, content, limited):
    limited.TRUSTED_PROXIES = []
    statuses = [_post(client, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
                for i in range(6)]
    assert statuses.count(429) == 3
    assert Lead.objects.count() == 3


def test_a_forged_address_left_of_our_proxy_does_not_bypass_it(client, content, limited):
    limited.TRUSTED_PROXIES = ["10.0.0.2"]
    statuses = [_post(client, REMOTE_ADDR="10.0.0.2",
                      HTTP_X_FORWARDED_FOR=f"192.0.2.{i}, 203.0.113.9").status_code
                for i in range(5)]
    assert statuses == [302, 302, 302, 429, 429]


def test_behind_a_trusted_proxy_clients_are_counted_separately(client, content, limited):
    limited.TRUSTED_PROXIES = ["10.0.0.2"]
    for i in range(5):
        response = _post(client, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
        assert response.status_code == 302
    assert Lead.objects.count() == 5


def test_only_accepted_leads_count(client, content, limited):
    """Refused posts (bad fields, bots) don't use up an office's quota: only leads do."""
    attach(client, make_session())
    statuses = [client.post(URL, contact_data(client, email="bad")).status_code
                for _ in range(6)]
    statuses += [client.post(URL, contact_data(client, website="spam")).status_code
                 for _ in range(3)]
    assert statuses == [303] * 9
    assert [_post(client).status_code for _ in range(4)] == [302, 302, 302, 429]
    assert Lead.objects.count() == 3


def test_a_repeated_submit_of_the_same_session_is_not_counted_twice(client, content, limited):
    attach(client, make_session())
    assert client.post(URL, contact_data(client)).status_code == 302
    assert client.post(URL, contact_data(client)).status_code == 302  # back to thanks
    assert [_post(client).status_code for _ in range(3)] == [302, 302, 429]


def test_looking_at_the_form_is_not_limited(client, content, limited):
    attach(client, make_session())
    assert [client.get(URL).status_code for _ in range(6)] == [200] * 6


def test_zero_turns_the_limit_off(client, content, settings):
    settings.LEAD_RATE_LIMIT = 0
    assert all(_post(client).status_code == 302 for _ in range(12))
