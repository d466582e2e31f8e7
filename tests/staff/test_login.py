import time

import pytest
from django.test import override_settings
from django.urls import reverse

from selector.staff.access import LAST_SEEN_KEY

from .conftest import PASSWORD, make_user

LOGIN = "/staff/login/"
EN_LOGIN = "/en/staff/login/"


@pytest.fixture
def sam(db):
    return make_user("sam", "sales")


def _fail(client, username="sam", ip="10.0.0.1", url=LOGIN):
    return client.post(url, {"username": username, "password": "wrong-password"},
                       REMOTE_ADDR=ip)


def test_it_logs_in_and_lands_on_the_lead_list(client, sam):
    response = client.post(LOGIN, {"username": "sam", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("staff:lead_list")
    assert client.get(reverse("staff:lead_list")).status_code == 200


def test_it_locks_a_username_after_repeated_failures(client, sam):
    for i in range(5):
        assert _fail(client, ip=f"10.0.0.{i}").status_code == 200
    response = client.post(EN_LOGIN, {"username": "sam", "password": PASSWORD},
                           REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
    zh = client.post(LOGIN, {"username": "SAM", "password": PASSWORD},
                     REMOTE_ADDR="10.9.9.9")
    assert "登录失败次数过多" in zh.content.decode()


def test_it_locks_an_ip_trying_many_usernames(client, sam):
    for i in range(20):
        _fail(client, username=f"user{i}", ip="192.0.2.7")
    response = client.post(LOGIN, {"username": "sam", "password": PASSWORD},
                           REMOTE_ADDR="192.0.2.7")
    assert "_auth_user_id" not in client.session
    assert response.status_code == 200
    # The same account from another address still works.
    ok = client.post(LOGIN, {"username": "sam", "password": PASSWORD}, REMOTE_ADDR="192.0.2.8")
    assert ok.status_code == 302


def test_the_lock_applies_to_the_admin_login_too(client, db):
    make_user("root", is_staff=True, is_superuser=True)
    for i in range(5):
        _fail(client, username="root", ip=f"10.1.0.{i}")
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD},
                           REMOTE_ADDR="10.2.2.2")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_a_success_forgives_the_usernames_failures(client, sam):
    for i in range(4):
        _fail(client, ip=f"10.0.1.{i}")
    assert client.post(LOGIN, {"username": "sam", "password": PASSWORD}).status_code == 302
    client.logout()
    for i in range(4):
        _fail(client, ip=f"10.0.2.{i}")
    assert client.post(LOGIN, {"username": "sam", "password": PASSWORD}).status_code == 302


def test_logout_is_post_only(client, sam):
    client.force_login(sam)
    assert client.get(reverse("staff:logout")).status_code == 405
    assert client.post(reverse("staff:logout")).status_code == 302
    assert client.get(reverse("staff:lead_list")).status_code == 302


@override_settings(STAFF_IDLE_TIMEOUT=60)
def test_an_idle_session_ends(client, sam):
    client.force_login(sam)
    assert client.get(reverse("staff:lead_list")).status_code == 200
    session = client.session
    session[LAST_SEEN_KEY] = int(time.time()) - 61
    session.save()
    response = client.get(reverse("staff:lead_list"))
    assert response.status_code == 302 and response["Location"].startswith(LOGIN)
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("staff:lead_list")).status_code == 302


@override_settings(STAFF_IDLE_TIMEOUT=60)
def test_activity_keeps_the_session_alive(client, sam):
    client.force_login(sam)
    session = client.session
    session[LAST_SEEN_KEY] = int(time.time()) - 50
    session.save()
    assert client.get(reverse("staff:lead_list")).status_code == 200
    assert client.session[LAST_SEEN_KEY] >= int(time.time()) - 1
