"""Account self-service: password reset by e-mail end to end with the file e-mail backend
(EMAIL_BACKEND=file), password change for sales users who are not is_staff, My account."""

import email
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from .conftest import PASSWORD, login, make_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "lantern-ferry-quartz-71"


@pytest.fixture
def file_mail(settings, tmp_path):
    settings.MAILERS = {"default": {
        "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "OPTIONS": {"file_path": str(tmp_path)}}}
    return tmp_path


def _messages(folder):
    """Every message the file backend wrote. A file can hold several: its name is the
    second and id(backend), and a backend created within the same second may reuse a
    collected one's id, so it appends to the same file (a flaky 4 == 5 before)."""
    separator = b"\n" + b"-" * 79 + b"\n"
    return [email.message_from_bytes(part)
            for p in sorted(folder.glob("*.log"))
            for part in p.read_bytes().split(separator) if part.strip()]


def _text(message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode()
    raise AssertionError("no text part")


@pytest.mark.parametrize("prefix,subject,link_prefix", [
    ("", "重置销售工作台的密码", "/staff/password-reset/"),
    ("/en", "Reset your password for the sales workspace", "/en/staff/password-reset/"),
])
def test_password_reset_works_end_to_end_through_the_file_backend(
        client, file_mail, prefix, subject, link_prefix):
    user = make_user("sam", "sales")  # a sales user, not is_staff
    assert not user.is_staff
    login_page = client.get(f"{prefix}/staff/login/").content.decode()
    assert f'href="{prefix}/staff/password-reset/"' in login_page
    response = client.post(f"{prefix}/staff/password-reset/", {"email": "SAM@example.com"})
    assert response.status_code == 302
    assert response["Location"] == f"{prefix}/staff/password-reset/sent/"
    (message,) = _messages(file_mail)
    assert message["To"] == "sam@example.com"
    decoded = str(email.header.make_header(email.header.decode_header(message["Subject"])))
    assert decoded == subject
    body = _text(message)
    link = re.search(r"https?://testserver(/\S+/)", body).group(1)
    assert link.startswith(link_prefix)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200 and form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW_PASSWORD,
                                 "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done["Location"] == f"{prefix}/staff/password-reset/done/"
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD) and not user.check_password(PASSWORD)
    # The link works once.
    assert client.get(link, follow=True).context["validlink"] is False
    client.logout()
    response = client.post(f"{prefix}/staff/login/", {"username": "sam",
                                                      "password": NEW_PASSWORD})
    assert response.status_code == 302


def test_no_mail_for_unknown_or_outside_accounts_and_the_same_answer(client, file_mail):
    make_user("outsider")  # no role, not staff
    for address in ("outsider@example.com", "nobody@example.com"):
        response = client.post("/staff/password-reset/", {"email": address})
        assert response["Location"] == "/staff/password-reset/sent/"
    assert _messages(file_mail) == []


def test_reset_requests_are_limited(client, file_mail):
    make_user("sam", "sales")
    for _ in range(8):
        client.post("/staff/password-reset/", {"email": "sam@example.com"})
    assert len(_messages(file_mail)) == 5


def test_sales_users_change_their_password(client):
    user = make_user("sam", "sales")
    login(client, user)
    url = reverse("staff:password_change")
    page = client.get(url)
    assert page.status_code == 200 and "修改密码" in page.content.decode()
    bad = client.post(url, {"old_password": "wrong", "new_password1": NEW_PASSWORD,
                            "new_password2": NEW_PASSWORD})
    assert bad.status_code == 200
    response = client.post(url, {"old_password": PASSWORD, "new_password1": NEW_PASSWORD,
                                 "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("staff:account")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert client.get(reverse("staff:my_day")).status_code == 200  # still logged in


def test_my_account_stores_the_mobile_for_mentions(client):
    user = make_user("sam", "sales")
    login(client, user)
    url = reverse("staff:account")
    assert client.post(url, {"mobile": "12345", "language": "zh-hans"}).status_code == 400
    client.post(url, {"mobile": "+86 138-0013-8000", "language": "en"})
    profile = get_user_model().objects.get(pk=user.pk).staff_profile
    assert (profile.mobile, profile.language) == ("13800138000", "en")


def test_my_account_stores_the_feishu_user_id_and_refuses_anything_else(client):
    user = make_user("sam", "sales")
    login(client, user)
    url = reverse("staff:account")
    refused = client.post(url, {"mobile": "", "feishu_user_id": 'ou_1" onmouseover="x',
                                "language": "zh-hans"})
    assert refused.status_code == 400
    assert "只能包含字母、数字" in refused.content.decode()
    client.post(url, {"mobile": "", "feishu_user_id": "ou_7d8a6e6df7621556ce0d21922b676706",
                      "language": "zh-hans"})
    profile = get_user_model().objects.get(pk=user.pk).staff_profile
    assert profile.feishu_user_id == "ou_7d8a6e6df7621556ce0d21922b676706"


def test_anonymous_visitors_cannot_change_a_password(client):
    response = client.get(reverse("staff:password_change"))
    assert response.status_code == 302 and "/staff/login/" in response["Location"]
