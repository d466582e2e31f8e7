import json
import re
import socket

import pytest
from django.core import mail
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from selector.domain import Answers
from selector.leads import notify
from selector.leads.models import Lead, LeadEvent
from selector.leads.services import lead_create
from selector.leads.tasks import notify_lead

from .conftest import ANSWERS, contact_data

PII = ["张伟", "+8613812345678", "zhang.wei@example.com", "zhangwei_ai", "请尽快联系"]


@pytest.fixture
def fast_retries(settings):
    settings.LEAD_NOTIFY_MAX_ATTEMPTS = 3
    settings.LEAD_NOTIFY_BACKOFF_SECONDS = 0
    settings.SALES_NOTIFY_EMAILS = []
    return settings


def _lead(ws, **contact):
    data = {k: v for k, v in contact_data(phone="+8613812345678", **contact).items()
            if k not in {"consent", "website", "started"}}
    lead, _ = lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS), contact=data,
                          language="zh-hans")
    return lead


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_failing_webhook_is_retried_recorded_and_the_lead_kept(
        ws, content, fast_retries, webhook_factory, django_capture_on_commit_callbacks):
    robot = webhook_factory([500, 500, 500, 500])
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    assert len(robot.requests) == 3
    failed = list(lead.events.filter(kind="notification_failed").values_list("data", flat=True))
    assert [(d["channel"], d["attempt"], d["final"]) for d in failed] == [
        ("webhook", 1, False), ("webhook", 2, False), ("webhook", 3, True)]
    assert failed[0]["error"] == "HTTPError"
    assert not lead.events.filter(kind="notified").exists()
    assert Lead.objects.filter(pk=lead.pk).exists()


def test_a_webhook_that_recovers_is_sent_once(ws, content, fast_retries, webhook_factory,
                                              django_capture_on_commit_callbacks):
    robot = webhook_factory([500, 503, 200])
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    assert len(robot.requests) == 3
    assert lead.events.filter(kind="notification_failed").count() == 2
    assert lead.events.get(kind="notified").data == {"channel": "webhook", "attempt": 3}
    # Running the task again (a worker retrying a finished job) does not send twice.
    assert notify_lead.call(str(lead.public_id), "webhook") == "already-sent"
    assert len(robot.requests) == 3


def test_a_closed_port_is_retried_and_recorded(ws, content, fast_retries,
                                               django_capture_on_commit_callbacks):
    fast_retries.LEAD_WEBHOOK_URL = f"http://127.0.0.1:{_closed_port()}/hook"
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    events = lead.events.filter(kind="notification_failed")
    assert events.count() == 3
    assert events.last().data["error"] == "URLError" and events.last().data["final"]


def test_a_robot_error_code_counts_as_a_failure(ws, content, fast_retries, webhook_factory,
                                                django_capture_on_commit_callbacks):
    robot = webhook_factory([200, 200, 200], body=b'{"errcode": 93000, "errmsg": "invalid"}')
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    assert len(robot.requests) == 3
    assert lead.events.filter(kind="notification_failed").count() == 3


def test_a_failing_webhook_does_not_stop_or_repeat_the_email(
        ws, content, fast_retries, webhook_factory, django_capture_on_commit_callbacks):
    robot = webhook_factory([500] * 5)
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    fast_retries.SALES_NOTIFY_EMAILS = ["sales@example.com", "boss@example.com"]
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    assert len(mail.outbox) == 1
    assert lead.events.get(kind="notified").data["channel"] == "email"


def test_a_failing_mail_server_is_retried_and_recorded(ws, content, fast_retries, monkeypatch,
                                                       django_capture_on_commit_callbacks):
    import smtplib

    def refuse(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    # The test environment sends through the locmem backend: make it behave like a dead
    # SMTP server (pytest-django/Django's test setup replaces the configured backend).
    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", refuse)
    fast_retries.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    failed = lead.events.filter(kind="notification_failed")
    assert failed.count() == 3
    assert {e.data["channel"] for e in failed} == {"email"}
    assert failed.last().data["error"] == "SMTPServerDisconnected"
    assert Lead.objects.filter(pk=lead.pk).exists()


def test_on_a_deferring_backend_a_retry_is_enqueued_with_backoff(
        ws, content, fast_retries, webhook_factory, django_capture_on_commit_callbacks):
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    robot = webhook_factory([500])
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    fast_retries.LEAD_NOTIFY_BACKOFF_SECONDS = 30
    fast_retries.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    queued = DBTaskResult.objects.get()
    assert queued.args_kwargs["args"] == [str(lead.public_id), "webhook"]
    assert robot.requests == []  # queued for the worker, not run in the request
    assert notify_lead.call(str(lead.public_id), "webhook") == "retry-scheduled"
    retry = DBTaskResult.objects.exclude(pk=queued.pk).get()
    assert retry.args_kwargs["args"] == [str(lead.public_id), "webhook", 2]
    delay = (retry.run_after - timezone.now()).total_seconds()
    assert 25 < delay <= 30
    assert lead.events.get(kind="notification_failed").data["attempt"] == 1


@pytest.mark.parametrize(("url", "kind"), [
    ("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k", "wecom"),
    ("https://oapi.dingtalk.com/robot/send?access_token=t", "dingtalk"),
    ("https://open.feishu.cn/open-apis/bot/v2/hook/x", "feishu"),
    ("https://open.larksuite.com/open-apis/bot/v2/hook/x", "feishu"),
    ("https://hooks.example.com/lead", "generic"),
])
def test_the_webhook_kind_is_detected_by_host(settings, url, kind):
    settings.LEAD_WEBHOOK_KIND = ""
    assert notify.webhook_kind(url) == kind


@pytest.mark.parametrize(("kind", "check"), [
    ("wecom", lambda p: p["msgtype"] == "text" and "content" in p["text"]),
    ("dingtalk", lambda p: p["msgtype"] == "markdown" and {"title", "text"} <= set(p["markdown"])),
    ("feishu", lambda p: p["msg_type"] == "text" and "text" in p["content"]),
    ("generic", lambda p: p["event"] == "lead.created" and "report_number" in p["lead"]),
])
def test_each_robot_gets_its_payload_shape_without_personal_data(
        ws, content, fast_retries, webhook_factory, django_capture_on_commit_callbacks,
        kind, check):
    robot = webhook_factory([200])
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    fast_retries.LEAD_WEBHOOK_KIND = kind
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws, company="[点我](http://evil.example) <b>@all</b>")
    payload = robot.requests[0]
    assert check(payload)
    text = json.dumps(payload, ensure_ascii=False)
    assert lead.report_number in text
    for value in PII:
        assert value not in text
    if kind != "generic":
        # User text cannot make links, markup or mentions; our own deep link is there.
        assert "evil.example" not in text and "http://evil" not in text
        assert "<b>" not in text and "@all" not in text
    assert f"/staff/leads/{lead.public_id}/" in text


def test_the_message_uses_the_robots_language_and_human_labels(
        ws, content, fast_retries, webhook_factory, django_capture_on_commit_callbacks):
    """Defect: the payload showed raw codes (roce-v2-800g, zh-hans) and no link."""
    robot = webhook_factory([200, 200])
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    fast_retries.LEAD_WEBHOOK_KIND = "wecom"
    with django_capture_on_commit_callbacks(execute=True):
        lead = _lead(ws)
    text = robot.requests[0]["text"]["content"]
    assert lead.recommendation not in text and "zh-hans" not in text
    assert "中文" in text and "新线索" in text and "公司" in text
    assert f"http://testserver/staff/leads/{lead.public_id}/" in text  # SITE_URL
    from selector.core.explain import FABRIC_SHORT
    from selector.domain import Fabric
    with translation.override("zh-hans"):
        assert str(FABRIC_SHORT[Fabric(lead.recommendation)]) in text
    # An English-speaking lead: the group still gets Chinese (its keyword is Chinese), the
    # lead's language named in it; a robot set to English gets English.
    lead.language = "en"
    text = notify.payload(notify.new_lead_message(lead), "wecom")["text"]["content"]
    assert "新线索" in text and "English" in text and "New lead" not in text
    fast_retries.LEAD_WEBHOOK_LANGUAGE = "en"
    english = notify.payload(notify.new_lead_message(lead), "wecom")["text"]["content"]
    assert "New lead" in english and "English" in english and "新线索" not in english


def test_the_email_is_bilingual_and_escapes_user_text(ws, content, fast_retries,
                                                      django_capture_on_commit_callbacks):
    fast_retries.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    with django_capture_on_commit_callbacks(execute=True):
        _lead(ws, name="<script>alert(1)</script>", message='"><img src=x onerror=y>')
    message = mail.outbox[0]
    assert "\n" not in message.subject
    assert "新线索" in message.subject and "New lead" in message.subject
    assert "<script>alert(1)</script>" in message.body  # plain text: verbatim
    html = message.alternatives[0].content
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert "<img src=x" not in html
    assert "热" in message.body and "Hot" in message.body
    assert "+86 138 1234 5678" in message.body and "+86 138 1234 5678" in html


def test_a_purged_lead_is_not_notified(ws, content, fast_retries):
    fast_retries.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    lead = _lead(ws)
    public_id = str(lead.public_id)
    lead.delete()
    assert notify_lead.call(public_id, "email") == "gone"
    assert mail.outbox == []


def test_no_personal_data_in_the_logs(ws, content, fast_retries, webhook_factory, caplog,
                                      client, django_capture_on_commit_callbacks):
    robot = webhook_factory([500] * 3)
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    fast_retries.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    caplog.set_level("DEBUG")
    from .conftest import attach

    attach(client, ws)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/contact/", contact_data(client))
        client.post("/contact/", contact_data(client, email="bad", website="spam"))
    lead = Lead.objects.get()
    assert lead.report_number in caplog.text
    for value in PII + ["13812345678", "sales@example.com"]:
        assert value not in caplog.text
    assert LeadEvent.objects.filter(kind="notification_failed").count() == 3


def test_the_deep_link_does_not_follow_the_active_language(ws, content):
    lead = _lead(ws)
    with translation.override("en"):
        assert notify.staff_url(lead) == f"http://testserver/staff/leads/{lead.public_id}/"


PIECES = st.sampled_from([*"ab1.:/ 星w@[]()_", "http", "www", ".cn", "://", "mailto:"])


@given(st.lists(PIECES, max_size=20).map("".join) | st.text(max_size=40))
def test_user_text_in_a_robot_message_can_never_be_clicked(text):
    """Chat clients link "scheme:" and "host.tld" in plain text; user text (the company,
    the source) goes into the group with neither, whatever it is."""
    plain = notify._plain(text, limit=200)
    assert not re.search(r"[A-Za-z]:", plain)
    assert not re.search(r"[^\W_]\.[A-Za-z]", plain)
    assert not re.search(r"[\[\]()<>@]", plain)


@pytest.mark.parametrize("company", ["访问 https://evil.example/x 领奖", "www.evil.cn 科技",
                                     "mailto:boss@evil.example"])
def test_a_link_in_the_company_reaches_the_group_unclickable_but_readable(ws, content,
                                                                          company):
    lead = _lead(ws, company=company)
    for kind in ("wecom", "dingtalk", "feishu"):
        text = json.dumps(notify.payload(notify.new_lead_message(lead), kind),
                          ensure_ascii=False)
        assert "evil.example" not in text and "evil.cn" not in text and "://evil" not in text
        assert "evil" in text  # still readable: the rep sees what the customer wrote


# --- robot signatures (issue 24, finding 8) -------------------------------------------------

def _dingtalk_accepts(path: str, secret: str, now: float) -> bool:
    """DingTalk's check of a signed call, as its security settings page describes it."""
    import base64
    import hashlib
    import hmac
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(path).query)
    stamp, sign = query["timestamp"][0], query["sign"][0]  # parse_qs URL-decodes once
    expected = base64.b64encode(hmac.new(secret.encode(), f"{stamp}\n{secret}".encode(),
                                         hashlib.sha256).digest()).decode()
    return hmac.compare_digest(sign, expected) and abs(int(stamp) / 1000 - now) < 3600


def _feishu_accepts(body: dict, secret: str, now: float) -> bool:
    import base64
    import hashlib
    import hmac

    stamp = body["timestamp"]
    expected = base64.b64encode(hmac.new(f"{stamp}\n{secret}".encode(), b"",
                                         hashlib.sha256).digest()).decode()
    return hmac.compare_digest(body["sign"], expected) and abs(int(stamp) - now) < 3600


@pytest.mark.parametrize("secret", ["SEC0123456789abcdef", "SEC+/=&?% 含中文"])
def test_signed_robots_accept_the_message(ws, content, fast_retries, webhook_factory,
                                          django_capture_on_commit_callbacks, secret):
    import time

    for kind in ("dingtalk", "feishu"):
        robot = webhook_factory([200])
        fast_retries.LEAD_WEBHOOK_URL = robot.url + "?access_token=tok"
        fast_retries.LEAD_WEBHOOK_KIND = kind
        fast_retries.LEAD_WEBHOOK_SECRET = secret
        with django_capture_on_commit_callbacks(execute=True):
            lead = _lead(ws)
        now = time.time()
        body, path = robot.requests[0], robot.paths[0]
        assert "access_token=tok" in path
        if kind == "dingtalk":
            assert _dingtalk_accepts(path, secret, now) and body["msgtype"] == "markdown"
            assert not _dingtalk_accepts(path, secret + "x", now)
        else:
            assert _feishu_accepts(body, secret, now) and body["msg_type"] == "text"
            assert not _feishu_accepts(body, secret + "x", now)
        assert lead.report_number in json.dumps(body, ensure_ascii=False)
        ws = type(ws).objects.create()  # a new visitor for the next kind


def test_without_a_secret_nothing_is_signed(ws, content, fast_retries, webhook_factory,
                                            django_capture_on_commit_callbacks):
    robot = webhook_factory([200])
    fast_retries.LEAD_WEBHOOK_URL = robot.url
    fast_retries.LEAD_WEBHOOK_KIND = "feishu"
    fast_retries.LEAD_WEBHOOK_SECRET = ""
    with django_capture_on_commit_callbacks(execute=True):
        _lead(ws)
    assert "sign" not in robot.requests[0] and "sign=" not in robot.paths[0]
