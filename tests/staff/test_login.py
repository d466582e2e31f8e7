from datetime import timedelta

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from selector.staff import lockout
from selector.staff.models import LoginThrottle

from .conftest import PASSWORD, make_user

LOGIN = "/staff/login/"
EN_LOGIN = "/en/staff/login/"


@pytest.fixture
def sam(db):
    return make_user("sam", "sales")


def _fail(client, username="sam", ip="10.0.0.1", url=LOGIN):
    return client.post(url, {"username": username, "password": "wrong-password"},
                       REMOTE_ADDR=ip)


def test_it_logs_in_and_lands_on_my_day(client, sam):
    response = client.post(LOGIN, {"username": "sam", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("staff:my_day")
    assert client.get(reverse("staff:my_day")).status_code == 200


def _ok(client, username="sam", ip="10.9.9.9", url=LOGIN):
    return client.post(url, {"username": username, "password": PASSWORD}, REMOTE_ADDR=ip)


def _age(**filters):
    """Move the throttle rows' last failure back in time (the wait has passed)."""
    LoginThrottle.objects.filter(**filters).update(
        last_failed_at=timezone.now() - timedelta(hours=1))


def test_an_attacker_from_one_address_cannot_keep_the_owner_out(client, sam):
    for _ in range(40):
        _fail(client, ip="203.0.113.9")
    # The owner, from an address that has not failed, is never refused ...
    assert _ok(client, ip="198.51.100.4").status_code == 302
    client.logout()
    # ... and neither is the admin login for the owner.
    response = _ok(client, ip="198.51.100.5", url="/admin/login/?next=/admin/")
    assert response.status_code == 302


def test_the_attackers_address_waits_after_five_failures(client, sam):
    for _ in range(5):
        failed = _fail(client, ip="203.0.113.9", url=EN_LOGIN).content.decode()
        assert "Please enter a correct username and password" in failed
    refused = client.post(EN_LOGIN, {"username": "sam", "password": PASSWORD},
                          REMOTE_ADDR="203.0.113.9")
    assert refused.status_code == 200
    assert "_auth_user_id" not in client.session
    html = refused.content.decode()
    assert "Too many failed log-in attempts for this account from your network" in html
    assert "30 seconds" in html
    zh = _ok(client, username="SAM", ip="203.0.113.9")
    assert "登录失败次数过多" in zh.content.decode()
    # Refused attempts are not counted: the wait does not grow while the attacker knocks.
    assert LoginThrottle.objects.get(username="sam").failures == 5


def test_the_wait_doubles_with_each_further_failure(client, sam):
    for _ in range(5):
        _fail(client, ip="203.0.113.9")
    waits = []
    for _ in range(4):
        _age(username="sam")
        LoginThrottle.objects.update(last_failed_at=timezone.now())  # just failed
        waits.append(lockout.wait_seconds(_request("203.0.113.9"), "sam"))
        _age(username="sam")
        _fail(client, ip="203.0.113.9")
    assert waits == [30, 60, 120, 240]
    LoginThrottle.objects.update(failures=50, last_failed_at=timezone.now())
    assert lockout.wait_seconds(_request("203.0.113.9"), "sam") == 900  # the ceiling


def test_after_the_wait_the_right_password_works(client, sam):
    for _ in range(6):
        _fail(client, ip="203.0.113.9")
    _age(username="sam")
    assert _ok(client, ip="203.0.113.9").status_code == 302
    assert not LoginThrottle.objects.filter(username="sam").exists()  # forgiven


def test_an_address_trying_many_usernames_waits(client, sam):
    for i in range(30):
        _fail(client, username=f"user{i}", ip="192.0.2.7")
    response = _ok(client, ip="192.0.2.7", url=EN_LOGIN)
    assert "_auth_user_id" not in client.session
    assert "Too many failed log-in attempts" in response.content.decode()
    # The same account from another address works.
    assert _ok(client, ip="192.0.2.8").status_code == 302


def test_a_known_browser_behind_the_same_office_nat_is_not_held_back(client, sam):
    assert _ok(client, ip="192.0.2.7").status_code == 302  # sam's browser, known from now on
    client.post(reverse("staff:logout"))  # (Client.logout() would drop every cookie)
    for i in range(40):  # a colleague's script behind the same NAT address
        _fail(client, username=f"user{i}", ip="192.0.2.7")
    assert _ok(client, ip="192.0.2.7").status_code == 302
    other = Client()
    assert "_auth_user_id" not in other.session
    response = _ok(other, ip="192.0.2.7")  # a browser that never logged in as sam waits
    assert response.status_code == 200


def test_a_forged_known_device_cookie_counts_for_nothing(client, sam):
    for i in range(30):
        _fail(client, username=f"user{i}", ip="192.0.2.7")
    client.cookies[lockout.DEVICE_COOKIE] = "sam:forged"
    assert _ok(client, ip="192.0.2.7").status_code == 200


def test_the_admin_login_is_the_same_page_and_says_what_happened(client, db):
    make_user("root", is_staff=True, is_superuser=True)
    for _ in range(5):
        _fail(client, username="root", ip="10.1.0.1", url="/admin/login/")
    response = client.post("/en/admin/login/", {"username": "root", "password": PASSWORD},
                           REMOTE_ADDR="10.1.0.1")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "Too many failed log-in attempts" in response.content.decode()


def test_a_failed_login_checks_the_password_once(client, sam, monkeypatch):
    calls = []
    original = MD5PasswordHasher.verify

    def counting(self, password, encoded):
        calls.append(1)
        return original(self, password, encoded)

    monkeypatch.setattr(MD5PasswordHasher, "verify", counting)
    _fail(client, ip="10.3.3.3")
    assert len(calls) == 1


@pytest.mark.parametrize(("username", "fields", "landing"), [
    ("root", {"is_staff": True}, "/admin/"),
    ("sam2", {}, "/staff/"),
])
def test_a_rejected_next_lands_somewhere_sane(client, db, username, fields, landing):
    user = make_user(username, "sales" if not fields else None, **fields)
    response = client.post("/admin/login/?next=https://evil.example/", {
        "username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == landing


def test_a_success_forgives_the_addresss_failures_for_that_user(client, sam):
    for _ in range(4):
        _fail(client, ip="10.0.1.1")
    assert _ok(client, ip="10.0.1.1").status_code == 302
    client.logout()
    for _ in range(4):
        _fail(client, ip="10.0.1.1")
    assert _ok(client, ip="10.0.1.1").status_code == 302


def _request(ip):
    return RequestFactory().post(LOGIN, REMOTE_ADDR=ip)


def test_logout_is_post_only(client, sam):
    client.force_login(sam)
    assert client.get(reverse("staff:logout")).status_code == 405
    assert client.post(reverse("staff:logout")).status_code == 302
    assert client.get(reverse("staff:lead_list")).status_code == 302


def test_a_manager_sees_and_lifts_a_throttle(client, sam, manager):
    for _ in range(7):
        _fail(client, ip="203.0.113.9")
    assert _ok(Client(), ip="203.0.113.9").status_code == 200  # waiting
    client.force_login(manager)
    page = client.get("/en/staff/security/")
    html = page.content.decode()
    assert "203.0.113.9" in html and ">sam<" in html
    response = client.post("/en/staff/security/", {"username": "sam"})
    assert response.status_code == 302
    assert not LoginThrottle.objects.exists()
    assert _ok(Client(), ip="203.0.113.9").status_code == 302


def test_sales_cannot_unlock(client, sam, db):
    for _ in range(7):
        _fail(client, ip="203.0.113.9")
    client.force_login(make_user("sue", "sales"))
    assert client.post("/staff/security/", {"username": "sam"}).status_code == 403
    assert LoginThrottle.objects.filter(username="sam").exists()


def test_an_admin_lifts_a_throttle_in_the_admin(client, sam, db):
    for _ in range(7):
        _fail(client, ip="203.0.113.9")
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    row = LoginThrottle.objects.get()
    assert client.get(f"/admin/staff/loginthrottle/{row.pk}/change/").status_code == 200
    response = client.post(f"/admin/staff/loginthrottle/{row.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not LoginThrottle.objects.exists()
