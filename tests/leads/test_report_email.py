"""The report e-mail to the customer: sent after the lead is created, in their language,
HTML + text, PDF attached (or a link above the size limit), contact channels, retried and
recorded on the timeline; the thank-you page says where the report went."""

import email
import email.policy
import re
from pathlib import Path

import pytest
from django.core import mail
from django.test import override_settings

from selector.content.models import CompanyProfile
from selector.leads.models import Lead, LeadEvent
from selector.leads.report.delivery import report_email_status
from selector.leads.report.tasks import email_report

from .conftest import contact_data

URL = "/contact/"
# Clearly marked test values, never the company's real channels.
EXAMPLE_CHANNELS = {"phone": "400-000-0000", "email": "sales@example.com",
                    "wechat_name_zh": "示例公众号", "wechat_name_en": "Example account",
                    "wechat_qr_url": "https://weixin.qq.com/r/example"}


@pytest.fixture
def sending(settings, visitor):
    settings.REPORT_EMAIL_ENABLED = True
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend",
                                    "OPTIONS": {}}}
    CompanyProfile.objects.update(**EXAMPLE_CHANNELS)
    return visitor


def _submit(client, django_capture_on_commit_callbacks, url=URL, **fields):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, contact_data(client, **fields))
    assert response.status_code == 302
    return Lead.objects.get()


def _report_mails():
    return [m for m in mail.outbox if m.to == ["zhang.wei@example.com"]]


def test_the_customer_gets_the_report_in_chinese(sending, django_capture_on_commit_callbacks):
    lead = _submit(sending, django_capture_on_commit_callbacks)
    (message,) = _report_mails()
    assert message.subject == f"您的 AI 集群网络选型报告 {lead.report_number}"
    assert message.reply_to == ["sales@example.com"]
    text = message.body
    html = message.alternatives[0].content
    for body in (text, html):
        assert "张伟，您好：" in body
        assert lead.report_number in body
        assert "http://testserver/report/" in body  # the signed download link, absolute
        assert "http://testserver/wizard/r/" in body  # the online result
        assert "工作日内与您联系" in body  # the engineer's follow-up promise
        assert "400-000-0000" in body and "示例公众号" in body  # contact channels
    (name, content, mimetype) = message.attachments[0]
    assert mimetype == "application/pdf" and content.startswith(b"%PDF-")
    assert lead.report_number in name
    assert "完整的 PDF 报告已作为附件" in text
    events = list(lead.events.values_list("kind", flat=True))
    assert LeadEvent.Kind.REPORT_EMAILED in events


def test_the_link_in_the_mail_downloads_the_pdf(sending, django_capture_on_commit_callbacks):
    _submit(sending, django_capture_on_commit_callbacks)
    (message,) = _report_mails()
    link = re.search(r"http://testserver(/report/[^\s\"<]+/)", message.body).group(1)
    response = sending.get(link)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"


def test_english_visitors_get_an_english_mail(sending, django_capture_on_commit_callbacks):
    lead = _submit(sending, django_capture_on_commit_callbacks, url="/en/contact/")
    (message,) = _report_mails()
    assert message.subject == f"Your AI cluster network report {lead.report_number}"
    assert "Dear 张伟," in message.body
    assert "http://testserver/en/report/" in message.body
    assert "Example account" in message.body


@pytest.mark.parametrize("url", [URL, "/en/contact/"])
@pytest.mark.parametrize("limit", [5_000_000, 1000])  # the PDF attached / the link only
def test_every_customer_mail_replies_to_the_sales_e_mail_from_the_configured_sender(
        sending, settings, django_capture_on_commit_callbacks, url, limit):
    """Every e-mail a customer gets (the report, in both languages, attached or as a
    link: the only one the customer is sent) answers to the company's sales e-mail and
    comes from DEFAULT_FROM_EMAIL, which the deployment check keeps off localhost."""
    settings.DEFAULT_FROM_EMAIL = "Shenhua Tiancheng <report@selector.example.com>"
    settings.REPORT_EMAIL_ATTACH_MAX_BYTES = limit
    _submit(sending, django_capture_on_commit_callbacks, url=url)
    customer = [m for m in mail.outbox if "zhang.wei@example.com" in m.to + m.cc + m.bcc]
    assert customer
    for message in customer:
        assert message.reply_to == ["sales@example.com"]
        assert message.from_email == "Shenhua Tiancheng <report@selector.example.com>"
        raw = message.message()
        assert raw["Reply-To"] == "sales@example.com"


def test_a_report_over_the_limit_goes_as_a_link(sending, settings,
                                               django_capture_on_commit_callbacks):
    settings.REPORT_EMAIL_ATTACH_MAX_BYTES = 1000
    _submit(sending, django_capture_on_commit_callbacks)
    (message,) = _report_mails()
    assert message.attachments == []
    assert "报告较大" in message.body and "/report/" in message.body


def test_no_address_no_mail_and_the_thanks_page_says_so(
        sending, django_capture_on_commit_callbacks):
    lead = _submit(sending, django_capture_on_commit_callbacks, email="")
    assert _report_mails() == []
    assert report_email_status(lead).state == "none"
    html = sending.get("/contact/thanks/").content.decode()
    assert "您没有留下邮箱" in html
    assert 'data-testid="report-link"' in html


def test_the_thanks_page_says_where_the_report_went(
        sending, django_capture_on_commit_callbacks):
    _submit(sending, django_capture_on_commit_callbacks)
    html = sending.get("/contact/thanks/").content.decode()
    assert 'data-state="sent"' in html
    assert "报告已发送到 <strong>zhang.wei@example.com</strong>" in html


def test_the_thanks_page_does_not_wait_for_the_mail(visitor, settings):
    """With a worker (tasks not run yet), the page says the mail is on its way."""
    settings.REPORT_EMAIL_ENABLED = True
    visitor.post(URL, contact_data(visitor))  # on_commit callbacks not run: nothing sent yet
    html = visitor.get("/contact/thanks/").content.decode()
    assert 'data-state="pending"' in html and "正在发送到" in html


def test_a_failing_mail_server_is_retried_and_recorded(sending, settings, monkeypatch,
                                                     django_capture_on_commit_callbacks):
    settings.LEAD_NOTIFY_BACKOFF_SECONDS = 0
    settings.LEAD_NOTIFY_MAX_ATTEMPTS = 3
    calls = []
    real_send = mail.EmailMessage.send

    def flaky(self, *args, **kwargs):
        calls.append(1)
        if len(calls) < 3:
            raise ConnectionRefusedError("mail server down")
        return real_send(self, *args, **kwargs)

    monkeypatch.setattr(mail.EmailMessage, "send", flaky)
    lead = _submit(sending, django_capture_on_commit_callbacks)
    kinds = list(lead.events.order_by("pk").values_list("kind", "data"))
    failed = [d for k, d in kinds if k == LeadEvent.Kind.REPORT_EMAIL_FAILED]
    assert [d["attempt"] for d in failed] == [1, 2]
    assert all(d["error"] == "ConnectionRefusedError" for d in failed)
    assert [k for k, _d in kinds].count(LeadEvent.Kind.REPORT_EMAILED) == 1
    assert len(_report_mails()) == 1
    assert report_email_status(lead).state == "sent"


def test_it_gives_up_after_the_last_attempt(sending, settings, monkeypatch,
                                            django_capture_on_commit_callbacks):
    settings.LEAD_NOTIFY_BACKOFF_SECONDS = 0
    settings.LEAD_NOTIFY_MAX_ATTEMPTS = 2

    def down(self, *args, **kwargs):
        raise OSError("unreachable")

    monkeypatch.setattr(mail.EmailMessage, "send", down)
    lead = _submit(sending, django_capture_on_commit_callbacks)
    failed = list(lead.events.filter(kind=LeadEvent.Kind.REPORT_EMAIL_FAILED)
                  .order_by("pk").values_list("data", flat=True))
    assert [d["final"] for d in failed] == [False, True]
    assert report_email_status(lead).state == "failed"
    html = sending.get("/contact/thanks/").content.decode()
    assert "未能送达" in html and 'data-testid="report-link"' in html


def test_it_is_sent_once_even_if_the_task_runs_twice(sending,
                                                     django_capture_on_commit_callbacks):
    lead = _submit(sending, django_capture_on_commit_callbacks)
    assert email_report.call(str(lead.public_id), "http://testserver") == "already-sent"
    assert len(_report_mails()) == 1


def test_the_file_backend_writes_the_mail_to_a_folder(visitor, settings, tmp_path,
                                                      django_capture_on_commit_callbacks):
    """EMAIL_BACKEND=file (README): development and the browser tests read mail there."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; import django; "
         "django.setup(); print(settings.MAILERS['default'])"],
        env={"DJANGO_SETTINGS_MODULE": "tests.settings", "EMAIL_BACKEND": "file",
             "EMAIL_FILE_PATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2])
    assert "filebased.EmailBackend" in out.stdout and str(tmp_path) in out.stdout

    settings.REPORT_EMAIL_ENABLED = True
    settings.MAILERS = {"default": {
        "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "OPTIONS": {"file_path": str(tmp_path)}}}
    with django_capture_on_commit_callbacks(execute=True):
        visitor.post(URL, contact_data(visitor))
    lead = Lead.objects.get()
    files = list(tmp_path.iterdir())
    assert len(files) == 1
    parsed = email.message_from_bytes(files[0].read_bytes(), policy=email.policy.default)
    assert parsed["To"] == "zhang.wei@example.com"
    parts = {p.get_content_type(): p for p in parsed.walk()}
    assert lead.report_number in parts["text/plain"].get_content()
    assert parts["application/pdf"].get_content().startswith(b"%PDF-")


@override_settings(SITE_URL="", ALLOWED_HOSTS=["testserver", "127.0.0.1"])
def test_without_site_url_the_mail_links_follow_the_host_the_visitor_used(
        sending, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sending.post(URL, contact_data(sending), HTTP_HOST="127.0.0.1:9000")
    (message,) = _report_mails()
    assert "http://127.0.0.1:9000/report/" in message.body
    assert "http://127.0.0.1:9000/wizard/r/" in message.body
