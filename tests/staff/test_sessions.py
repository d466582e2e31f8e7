"""The staff session's idle timeout and absolute lifetime hold on every staff-scoped URL:
the workspace, staff report downloads (PDF and web) and the admin."""

import time

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from selector.staff.middleware import LAST_SEEN_KEY, LOGIN_AT_KEY
from tests.security.test_url_access import EXPECTED, _admin_urls, _url, world  # noqa: F401

from .conftest import PASSWORD

STAFF_NAMES = sorted(n for n in EXPECTED
                     if n.startswith("staff:")
                     and n not in ("staff:login", "staff:mfa_verify"))  # the log-in itself
ADMIN_PAGES = ["/admin/", "/admin/content/faqentry/", "/admin/auth/user/", "/en/admin/"]


def _staff_urls(lead):
    return [_url(name, lead) for name in STAFF_NAMES] + ADMIN_PAGES


@pytest.fixture
def boss(world):  # noqa: F811 (the imported fixture)
    """A manager who is also admin staff: every staff-scoped URL answers them."""
    users, lead = world
    manager = users["manager"]
    manager.is_staff = manager.is_superuser = True
    manager.save()
    return manager, lead


def _age(client, **keys):
    session = client.session
    for key, seconds in keys.items():
        session[key] = int(time.time()) - seconds
    session.save()


def _method(client, name):
    return client.post if name in ("staff:lead_bulk", "staff:lead_status", "staff:lead_note",
                                   "staff:lead_assign", "staff:logout") else client.get


def test_every_staff_url_answers_a_live_session(client, boss):
    manager, lead = boss
    client.force_login(manager)
    for url in _staff_urls(lead):
        response = client.get(url)
        assert response.status_code in (200, 405), url
        assert "_auth_user_id" in client.session, url


@override_settings(STAFF_IDLE_TIMEOUT=600)
def test_every_staff_url_ends_an_idle_session(client, boss):
    manager, lead = boss
    for url in _staff_urls(lead):
        client.force_login(manager)
        client.get("/healthz")  # the clocks start
        _age(client, **{LAST_SEEN_KEY: 601})
        response = client.get(url)
        assert response.status_code == 302, url
        assert "/staff/login/?next=" in response["Location"], url
        assert "_auth_user_id" not in client.session, url
        page = client.get(response["Location"]).content.decode()
        assert "inactivity" in page or "长时间未操作" in page, url


@override_settings(STAFF_SESSION_MAX_AGE=3600)
def test_every_staff_url_ends_a_session_past_its_lifetime(client, boss):
    manager, lead = boss
    for url in _staff_urls(lead):
        client.force_login(manager)
        client.get("/healthz")
        _age(client, **{LOGIN_AT_KEY: 3601, LAST_SEEN_KEY: 5})  # active, but too old
        response = client.get(url)
        assert response.status_code == 302, url
        assert "_auth_user_id" not in client.session, url


@override_settings(STAFF_IDLE_TIMEOUT=600)
def test_activity_keeps_the_session_alive(client, boss):
    manager, lead = boss
    client.force_login(manager)
    client.get("/healthz")
    _age(client, **{LAST_SEEN_KEY: 500})
    before = int(time.time())
    assert client.get(_url("staff:lead_report", lead)).status_code == 200
    assert client.session[LAST_SEEN_KEY] >= before
    _age(client, **{LAST_SEEN_KEY: 500})
    assert client.get("/admin/").status_code == 200


@override_settings(STAFF_IDLE_TIMEOUT=600)
def test_an_idle_session_on_a_public_page_goes_on_as_a_visitor(client, boss):
    manager, _lead = boss
    client.force_login(manager)
    client.get("/healthz")
    _age(client, **{LAST_SEEN_KEY: 601})
    assert client.get("/en/faq/").status_code == 200
    assert "_auth_user_id" not in client.session


@override_settings(STAFF_SESSION_MAX_AGE=7200)
def test_logging_in_starts_the_clocks_and_bounds_the_cookie(client, db):
    User.objects.create_user("ann", password=PASSWORD, is_staff=True)
    client.post("/staff/login/", {"username": "ann", "password": PASSWORD})
    session = client.session
    assert abs(session[LOGIN_AT_KEY] - time.time()) < 5
    assert session.get_expiry_age() == 7200
