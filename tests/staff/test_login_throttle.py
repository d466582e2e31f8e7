"""Issue 21, M1, M2 and the burst: the log-in throttle cannot lock anyone out and still
brakes guessing (selector.staff.lockout).

M1: a colleague behind the same office address locked the owner out with five wrong
passwords, even when the owner's browser had the known-device cookie. M2: there was no
per-account brake (10 addresses x 5 guesses: 50 passwords checked), and 40 simultaneous
wrong passwords got 10 checks instead of 5.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connection
from django.test import Client
from django.utils import timezone

from selector.staff import lockout
from selector.staff.models import LoginThrottle

from .conftest import PASSWORD, make_user

LOGIN = "/en/staff/login/"
WAIT = "Too many failed log-in attempts"
WRONG = "Please enter a correct username and password"


@pytest.fixture
def checks(monkeypatch):
    """How many times a password was checked (thread-safe); each check takes 50 ms, as a
    real password hash does a few hundred, so concurrent attempts overlap."""
    lock, calls = threading.Lock(), []
    original = MD5PasswordHasher.verify

    def counting(self, password, encoded):
        with lock:
            calls.append(password)
        time.sleep(0.05)
        return original(self, password, encoded)

    monkeypatch.setattr(MD5PasswordHasher, "verify", counting)
    return calls


def _post(client, password, ip, username="sam"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


def _fail(client, ip, username="sam") -> str:
    """A wrong password: "wrong" (checked and refused) or "wait" (not checked)."""
    html = _post(client, "wrong-password", ip, username).content.decode()
    assert (WRONG in html) != (WAIT in html), html[:300]
    return "wrong" if WRONG in html else "wait"


def _logged_in(response, client) -> bool:
    return response.status_code == 302 and "_auth_user_id" in client.session


def _known_browser(ip: str) -> Client:
    """The owner's browser: it has logged in as sam once, and logged out again."""
    browser = Client()
    assert _logged_in(_post(browser, PASSWORD, ip), browser)
    browser.post("/en/staff/logout/")
    assert lockout.DEVICE_COOKIE in browser.cookies
    return browser


def _age(**filters):
    """The waits have passed: every matching failure is an hour old."""
    LoginThrottle.objects.filter(**filters).update(
        last_failed_at=timezone.now() - timedelta(hours=1))


@pytest.fixture
def sam(db):
    return make_user("sam", "sales")


def test_m1_a_colleague_behind_the_office_address_cannot_lock_the_known_owner_out(sam):
    office = "192.0.2.7"
    owner = _known_browser(office)
    colleague = Client()
    outcomes = [_fail(colleague, office) for _ in range(8)]
    assert outcomes == ["wrong"] * 5 + ["wait"] * 3  # the colleague's browser waits
    stranger = Client()  # nor does any other browser there, even with the password
    assert not _logged_in(_post(stranger, PASSWORD, office), stranger)
    # The owner's own browser, same address, right password: in at once.
    assert _logged_in(_post(owner, PASSWORD, office), owner)


def test_m1_failures_from_everywhere_never_hold_the_known_browser_back(sam):
    owner = _known_browser("198.51.100.4")
    for i in range(12):  # the per-account brake is on for every other browser
        for _ in range(5):
            _fail(Client(), f"203.0.113.{i}")
    stranger = Client()
    assert _fail(stranger, "203.0.113.200") == "wait"
    assert _logged_in(_post(owner, PASSWORD, "203.0.113.0"), owner)


def test_a_known_browser_is_throttled_by_its_own_failures_only(sam):
    owner = _known_browser("198.51.100.4")
    assert [_fail(owner, "198.51.100.4") for _ in range(6)] == ["wrong"] * 5 + ["wait"]
    assert set(LoginThrottle.objects.values_list("device", flat=True)) != {""}
    # Its failures are its own: a new browser at the same address is not held back.
    other = Client()
    assert _logged_in(_post(other, PASSWORD, "198.51.100.4"), other)
    # And the owner's browser, once its wait is over, logs in and is forgiven.
    _age(username="sam")
    assert _logged_in(_post(owner, PASSWORD, "198.51.100.4"), owner)
    assert not LoginThrottle.objects.exclude(device="").exists()


def test_m2_ten_addresses_share_one_brake_on_the_account(sam, checks):
    outcomes = [_fail(Client(), f"203.0.113.{i}") for i in range(10) for _ in range(5)]
    assert outcomes.count("wrong") == 10 and len(checks) == 10  # not 50
    assert outcomes[10:] == ["wait"] * 40
    # The owner from a new browser and address waits too (the brake is per account) ...
    fresh = Client()
    response = _post(fresh, PASSWORD, "198.51.100.77")
    assert WAIT in response.content.decode() and not _logged_in(response, fresh)
    assert len(checks) == 10  # ... without the password even being checked
    # ... but it is a brake, not a lock: once the wait is over the right password works.
    _age(username="sam")
    assert _logged_in(_post(fresh, PASSWORD, "198.51.100.77"), fresh)


def test_m2_the_account_brake_grows_with_failures_and_has_a_ceiling(sam, settings):
    def wait_now() -> int:
        LoginThrottle.objects.update(last_failed_at=timezone.now())
        return lockout.wait_seconds(_request("198.51.100.99"), "sam")

    waits = []
    for i in range(14):
        _age(username="sam")
        _fail(Client(), f"203.0.113.{i}")
        waits.append(wait_now())
    # 10 free failures across all addresses, then 30 s doubling per failure.
    assert waits == [0] * 9 + [30, 60, 120, 240, 480]
    LoginThrottle.objects.filter(ip="203.0.113.0").update(failures=500)
    assert wait_now() == settings.STAFF_LOGIN_MAX_DELAY_SECONDS  # never more than 15 min


def _request(ip):
    from django.test import RequestFactory

    return RequestFactory().post(LOGIN, REMOTE_ADDR=ip)


def test_a_cookie_from_before_the_device_ids_still_counts_as_known(sam):
    from django.core import signing

    office = "192.0.2.7"
    owner = Client()
    owner.cookies[lockout.DEVICE_COOKIE] = signing.dumps(
        ["sam"], salt=lockout.DEVICE_SALT, compress=True)
    for _ in range(8):
        _fail(Client(), office)
    assert _logged_in(_post(owner, PASSWORD, office), owner)
    assert "users" in signing.loads(owner.cookies[lockout.DEVICE_COOKIE].value,
                                    salt=lockout.DEVICE_SALT)


def _burst(n, ip_of, checks) -> list[str]:
    """``n`` wrong passwords for sam at once, each from its own browser and thread."""
    barrier, outcomes, errors = threading.Barrier(n), [], []

    def one(i):
        try:
            browser = Client()
            barrier.wait(timeout=30)
            outcomes.append(_fail(browser, ip_of(i)))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors[:3]
    return outcomes


pg_only = pytest.mark.skipif(connection.vendor != "postgresql",
                             reason="the atomic check is PostgreSQL's advisory locks")


@pg_only
@pytest.mark.django_db(transaction=True)
def test_a_burst_of_40_from_one_address_gets_exactly_the_allowance(checks):
    make_user("sam", "sales")
    outcomes = _burst(40, lambda i: "203.0.113.9", checks)
    assert (outcomes.count("wrong"), outcomes.count("wait"), len(checks)) == (5, 35, 5)
    assert LoginThrottle.objects.get(username="sam").failures == 5


@pg_only
@pytest.mark.django_db(transaction=True)
def test_a_burst_of_40_from_40_addresses_gets_exactly_the_account_allowance(checks):
    make_user("sam", "sales")
    outcomes = _burst(40, lambda i: f"203.0.113.{i + 1}", checks)
    assert (outcomes.count("wrong"), outcomes.count("wait"), len(checks)) == (10, 30, 10)
    assert sum(LoginThrottle.objects.values_list("failures", flat=True)) == 10
