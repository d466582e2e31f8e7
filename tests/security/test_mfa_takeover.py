"""Issue 21, H1 and M4: the second log-in step cannot be skipped, and a stolen session
cannot swap the authenticator or mint recovery codes.

H1: with the right password (half-way through a log-in) the enrolment page gave a fresh
secret whose code completed the log-in and replaced the owner's authenticator, on the staff
and on the admin log-in. M4: a logged-in session replaced the authenticator and made new
recovery codes without the password or a current code.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils import translation
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from selector.staff import messaging, mfa, tasks
from selector.staff.permissions import MANAGERS_GROUP
from tests.staff.conftest import PASSWORD, make_user
from tests.staff.test_mfa import code

LOGIN, VERIFY, SETUP = "/en/staff/login/", "/en/staff/login/verify/", "/en/staff/mfa/setup/"
MFA_PAGE = "/en/staff/mfa/"


def _notice(kind: str, user) -> str:
    """The subject of the notice ``kind`` in the user's language (Chinese by default)."""
    with translation.override(messaging.profile(user).language):
        return str(tasks.NOTICES[kind])


def _codes_on(page: str) -> list[str]:
    return re.findall(r"<li><code>([a-z0-9]+)</code></li>", page)


@pytest.fixture
def owner(db):
    """A manager with an authenticator and ten recovery codes."""
    user = make_user("mia", MANAGERS_GROUP)
    device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)
    codes = mfa.new_recovery_codes(user)
    return user, device, codes


def _fresh_secret_code(user) -> str | None:
    """The code of whatever unconfirmed authenticator the attacker was shown, if any."""
    fresh = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    return code(fresh) if fresh else None


def _assert_owner_device_intact(user, device, codes) -> None:
    assert list(TOTPDevice.objects.filter(user=user, confirmed=True)
                .values_list("pk", flat=True)) == [device.pk]
    assert sorted(StaticToken.objects.filter(device__user=user)
                  .values_list("token", flat=True)) == sorted(codes)
    # The owner logs in with the device they always had.
    browser = Client()
    browser.post(LOGIN, {"username": user.username, "password": PASSWORD})
    done = browser.post(VERIFY, {"code": code(device)})
    assert done.status_code == 302, done.content.decode()[:500]
    assert browser.get("/en/staff/security/").status_code == 200


@pytest.mark.parametrize("login_url", [LOGIN, "/admin/login/?next=/admin/"])
def test_h1_the_password_alone_cannot_enrol_a_new_authenticator(client, owner, login_url):
    """The exact attack: the password, then the enrolment page instead of the code page,
    then a code made from the secret it shows."""
    user, device, codes = owner
    client.post(login_url, {"username": "mia", "password": PASSWORD})
    shown = client.get(SETUP)
    attack = client.post(SETUP, {"code": _fresh_secret_code(user) or "123456"})
    assert "_auth_user_id" not in client.session
    assert client.get("/en/staff/security/").status_code == 302
    assert client.get("/admin/").status_code == 302
    # Half-way through the log-in, a user who has an authenticator is sent to the code page
    # and never shown a secret.
    assert shown.status_code == 302 and shown["Location"] == VERIFY
    assert attack.status_code == 302 and attack["Location"] == VERIFY
    assert not TOTPDevice.objects.filter(user=user, confirmed=False).exists()
    _assert_owner_device_intact(user, device, codes)


def test_h1_a_code_from_a_secret_made_otherwise_does_not_log_in(client, owner):
    user, device, codes = owner
    client.post(LOGIN, {"username": "mia", "password": PASSWORD})
    other = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)
    response = client.post(SETUP, {"code": code(other)})
    assert response.status_code == 302 and response["Location"] == VERIFY
    assert "_auth_user_id" not in client.session
    other.refresh_from_db()
    assert other.confirmed is False
    other.delete()
    _assert_owner_device_intact(user, device, codes)


def test_h1_a_superuser_on_the_admin_login_is_not_enrolled_either(client, db):
    root = make_user("root", is_staff=True, is_superuser=True)
    device = TOTPDevice.objects.create(user=root, name="authenticator", confirmed=True)
    client.post("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})
    assert client.get(SETUP)["Location"] == VERIFY
    assert client.post(SETUP, {"code": "123456"})["Location"] == VERIFY
    assert client.get("/admin/").status_code == 302
    assert list(TOTPDevice.objects.filter(user=root).values_list("pk", flat=True)) == [
        device.pk]


def test_h1_a_user_with_only_recovery_codes_is_not_enrolled_half_way(client, db):
    """Any confirmed device (recovery codes too) means the code page, not enrolment."""
    user = make_user("sam", "sales")
    codes = mfa.new_recovery_codes(user)
    client.post(LOGIN, {"username": "sam", "password": PASSWORD})
    assert client.get(SETUP)["Location"] == VERIFY
    assert client.get(VERIFY).status_code == 200
    assert client.post(VERIFY, {"code": codes[0]}).status_code == 302
    assert client.get("/en/staff/").status_code == 200


@override_settings(STAFF_MFA_REQUIRED=True)
def test_an_unenrolled_user_still_enrols_half_way_and_is_told_by_mail(
        client, db, django_capture_on_commit_callbacks):
    user = make_user("sam", "sales")
    response = client.post(LOGIN, {"username": "sam", "password": PASSWORD})
    assert response["Location"] == SETUP
    page = client.get(SETUP).content.decode()
    assert 'name="password"' not in page  # the password was just given
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(SETUP, {"code": code(device)})
    assert response.status_code == 200
    assert len(_codes_on(response.content.decode())) == 10
    device.refresh_from_db()
    assert device.confirmed
    assert client.session["otp_device_id"] == device.persistent_id
    assert client.get("/en/staff/").status_code == 200
    assert [m.to for m in mail.outbox] == [["sam@example.com"]]
    assert mail.outbox[0].subject == _notice("mfa_enrolled", user)


def _logged_in(client, user, device) -> None:
    client.post(LOGIN, {"username": user.username, "password": PASSWORD})
    assert client.post(VERIFY, {"code": code(device)}).status_code == 302
    # The code just used cannot be used again; the next tests need a fresh one.
    TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1)


def test_m4_a_logged_in_session_cannot_replace_the_authenticator_without_reauth(
        client, owner, django_capture_on_commit_callbacks):
    user, device, codes = owner
    _logged_in(client, user, device)
    page = client.get(SETUP).content.decode()
    assert 'name="password"' in page and 'name="current_code"' in page
    new = TOTPDevice.objects.get(user=user, confirmed=False)
    attempts = [
        {"code": code(new)},  # the M4 attack: the new code alone
        {"code": code(new), "password": PASSWORD},  # no current code
        {"code": code(new), "current_code": code(device)},  # no password
        {"code": code(new), "password": "wrong-password", "current_code": code(device)},
        {"code": code(new), "password": PASSWORD, "current_code": "000000"},
    ]
    for data in attempts:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(SETUP, data)
        assert response.status_code == 400, data
        new.refresh_from_db()
        assert not new.confirmed, data
        TOTPDevice.objects.filter(pk=new.pk).update(last_t=-1)
    assert mail.outbox == []
    client.post("/en/staff/logout/")
    TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1, throttling_failure_count=0)
    new.delete()
    _assert_owner_device_intact(user, device, codes)


def test_m4_replacing_with_password_and_current_code_works_and_mails_the_user(
        client, owner, django_capture_on_commit_callbacks):
    user, device, codes = owner
    _logged_in(client, user, device)
    client.get(SETUP)
    new = TOTPDevice.objects.get(user=user, confirmed=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(SETUP, {"code": code(new), "password": PASSWORD,
                                       "current_code": code(device)})
    assert response.status_code == 200
    fresh = _codes_on(response.content.decode())
    assert len(fresh) == 10 and not set(fresh) & set(codes)
    assert list(TOTPDevice.objects.filter(user=user).values_list("pk", flat=True)) == [new.pk]
    assert [m.to for m in mail.outbox] == [["mia@example.com"]]
    assert mail.outbox[0].subject == _notice("mfa_replaced", user)
    assert "http://testserver/staff/mfa/" in mail.outbox[0].body


def test_m4_a_recovery_code_stands_in_for_a_lost_phone(
        client, owner, django_capture_on_commit_callbacks):
    user, device, codes = owner
    _logged_in(client, user, device)
    client.get(SETUP)
    new = TOTPDevice.objects.get(user=user, confirmed=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(SETUP, {"code": code(new), "password": PASSWORD,
                                       "current_code": codes[3]})
    assert response.status_code == 200
    assert not TOTPDevice.objects.filter(pk=device.pk).exists()


def test_m4_new_recovery_codes_need_the_password_and_a_current_code(
        client, owner, django_capture_on_commit_callbacks):
    user, device, codes = owner
    _logged_in(client, user, device)
    for data in ({"action": "codes"}, {"action": "codes", "password": PASSWORD},
                 {"action": "codes", "current_code": code(device)},
                 {"action": "codes", "password": "nope", "current_code": code(device)}):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(MFA_PAGE, data)
        assert response.status_code == 400, data
        assert not _codes_on(response.content.decode())
        TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1)
    assert sorted(StaticToken.objects.filter(device__user=user)
                  .values_list("token", flat=True)) == sorted(codes)
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(MFA_PAGE, {"action": "codes", "password": PASSWORD,
                                          "current_code": code(device)})
    fresh = _codes_on(response.content.decode())
    assert len(fresh) == 10 and sorted(StaticToken.objects.filter(
        device__user=user).values_list("token", flat=True)) == sorted(fresh)
    assert [m.to for m in mail.outbox] == [["mia@example.com"]]
    assert mail.outbox[0].subject == _notice("recovery_codes", user)


def test_m4_turning_it_off_needs_the_password_and_a_current_code(
        client, owner, django_capture_on_commit_callbacks):
    user, device, _codes = owner
    _logged_in(client, user, device)
    assert client.post(MFA_PAGE, {"action": "off"}).status_code == 400
    assert TOTPDevice.objects.filter(user=user, confirmed=True).exists()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(MFA_PAGE, {"action": "off", "password": PASSWORD,
                               "current_code": code(device)})
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert mail.outbox[0].subject == _notice("mfa_off", user)


def test_a_logged_in_user_without_an_authenticator_enrols_with_the_password(
        client, db, django_capture_on_commit_callbacks):
    user = make_user("sam", "sales")
    client.force_login(user)
    page = client.get(SETUP).content.decode()
    assert 'name="password"' in page and 'name="current_code"' not in page
    new = TOTPDevice.objects.get(user=user, confirmed=False)
    assert client.post(SETUP, {"code": code(new)}).status_code == 400
    TOTPDevice.objects.filter(pk=new.pk).update(last_t=-1)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(SETUP, {"code": code(new), "password": PASSWORD})
    assert response.status_code == 200
    new.refresh_from_db()
    assert new.confirmed
    assert mail.outbox[0].subject == _notice("mfa_enrolled", user)


def test_wrong_passwords_on_these_forms_count_towards_the_log_in_throttle(client, owner):
    from selector.staff.models import LoginThrottle

    user, device, _codes = owner
    _logged_in(client, user, device)
    client.post(MFA_PAGE, {"action": "codes", "password": "nope", "current_code": "1"})
    assert LoginThrottle.objects.get(username="mia").failures == 1


def test_a_managers_reset_of_a_colleagues_two_factor_is_mailed_to_the_colleague(
        client, owner, django_capture_on_commit_callbacks):
    """After a reset the colleague enrols at the next log-in, where a password thief could
    be first: the owner learns of the reset at once, with who did it."""
    user, device, _codes = owner
    sam = make_user("sam", "sales")
    TOTPDevice.objects.create(user=sam, name="authenticator", confirmed=True)
    _logged_in(client, user, device)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/en/staff/security/", {"action": "mfa_reset", "user": sam.pk})
    assert response.status_code == 302
    assert not TOTPDevice.objects.filter(user=sam).exists()
    (notice,) = mail.outbox
    assert notice.to == ["sam@example.com"]
    assert notice.subject == _notice("mfa_reset", sam)
    assert "mia" in notice.body
