"""Every message about a lead goes out once and ends "sent" or "failed" (leads.Delivery,
selector.leads.deliveries), whatever the task worker does: a task run twice, a worker
killed before or after the send, two runs at once, a robot that takes the message and
never answers. (The managers' panel: tests/staff/test_deliveries.py.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from selector.leads import deliveries
from selector.leads.models import Delivery, LeadEvent
from selector.leads.report.tasks import email_report
from selector.leads.services import schedule_notifications
from selector.leads.tasks import notify_lead
from tests.conftest import make_lead


class Killed(BaseException):
    """What SIGKILL does to a task, as far as the database can tell: nothing after it runs
    (not an Exception, so no handler of ours records it)."""


@pytest.fixture
def sales_mail(settings, db):
    settings.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    settings.LEAD_NOTIFY_MAX_ATTEMPTS = 3
    settings.LEAD_NOTIFY_BACKOFF_SECONDS = 0
    return settings


def _sales_mails():
    return [m for m in mail.outbox if m.to == ["sales@example.com"]]


def test_a_delivery_task_run_twice_sends_once(sales_mail):
    lead = make_lead()
    assert notify_lead.call(str(lead.public_id), "email") == "sent"
    assert notify_lead.call(str(lead.public_id), "email") == "already-sent"
    assert len(_sales_mails()) == 1
    row = Delivery.objects.get(lead=lead)
    assert (row.kind, row.status, row.attempts) == ("sales_email", "sent", 1)


def test_the_report_email_task_run_twice_sends_once(settings, content):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend",
                                    "OPTIONS": {}}}
    lead = make_lead(email="kunde@example.cn")
    assert email_report.call(str(lead.public_id), "http://testserver") == "sent"
    assert email_report.call(str(lead.public_id), "http://testserver") == "already-sent"
    assert [m.to for m in mail.outbox] == [["kunde@example.cn"]]
    assert lead.events.filter(kind=LeadEvent.Kind.REPORT_EMAILED).count() == 1


def test_a_worker_killed_after_sending_does_not_send_again(sales_mail, monkeypatch):
    lead = make_lead()
    real_send = mail.EmailMessage.send

    def send_then_die(self, *args, **kwargs):
        real_send(self, *args, **kwargs)
        raise Killed  # the message is out; the worker dies before recording it

    monkeypatch.setattr(mail.EmailMessage, "send", send_then_die)
    with pytest.raises(Killed):
        notify_lead.call(str(lead.public_id), "email")
    monkeypatch.setattr(mail.EmailMessage, "send", real_send)
    assert Delivery.objects.get(lead=lead).status == "sending"
    # The worker's stuck-task recovery runs the task again, minutes later.
    Delivery.objects.update(claimed_at=timezone.now() - timedelta(minutes=10))
    assert notify_lead.call(str(lead.public_id), "email") == "interrupted"
    assert len(_sales_mails()) == 1  # not twice
    row = Delivery.objects.get(lead=lead)
    assert (row.status, row.error) == ("failed", "interrupted")
    event = lead.events.get(kind=LeadEvent.Kind.NOTIFICATION_FAILED)
    assert event.data == {"channel": "email", "attempt": 1, "final": True,
                          "error": "interrupted"}


def test_a_worker_killed_before_sending_sends_on_the_rerun(sales_mail, monkeypatch):
    lead = make_lead()
    from selector.leads import notify

    real = notify.sales_email

    def die(lead):
        raise Killed  # e.g. killed while building the message

    monkeypatch.setattr(notify, "sales_email", die)
    with pytest.raises(Killed):
        notify_lead.call(str(lead.public_id), "email")
    monkeypatch.setattr(notify, "sales_email", real)
    assert Delivery.objects.get(lead=lead).status == "pending"
    assert _sales_mails() == []
    assert notify_lead.call(str(lead.public_id), "email") == "sent"
    assert len(_sales_mails()) == 1


def test_a_run_that_finds_another_one_sending_leaves_it_alone(sales_mail):
    lead = make_lead()
    row = deliveries.expect(lead, Delivery.Kind.SALES_EMAIL)
    assert deliveries.claim(row)
    assert not deliveries.claim(Delivery.objects.get(pk=row.pk))  # one claim only
    assert notify_lead.call(str(lead.public_id), "email") == "in-progress"
    assert _sales_mails() == []
    assert Delivery.objects.get(pk=row.pk).status == "sending"


def test_a_robot_that_never_answers_is_not_posted_again(sales_mail, webhook_factory):
    robot = webhook_factory(delay=3.0)
    sales_mail.LEAD_WEBHOOK_URL = robot.url
    sales_mail.LEAD_WEBHOOK_TIMEOUT = 1
    lead = make_lead()
    assert notify_lead.call(str(lead.public_id), "webhook") == "uncertain"
    assert len(robot.requests) == 1  # the old code posted it 3 times
    row = Delivery.objects.get(lead=lead)
    assert (row.kind, row.status, row.error) == ("sales_robot", "failed", "uncertain")
    assert lead.events.get(kind=LeadEvent.Kind.NOTIFICATION_FAILED).data["final"] is True


def test_a_refused_robot_is_retried_and_the_delivery_ends_failed(sales_mail, webhook_factory):
    robot = webhook_factory([500, 500, 500])
    sales_mail.LEAD_WEBHOOK_URL = robot.url
    lead = make_lead()
    assert notify_lead.call(str(lead.public_id), "webhook") == "failed"
    assert len(robot.requests) == 3
    row = Delivery.objects.get(lead=lead)
    assert (row.status, row.attempts, row.error) == ("failed", 3, "HTTPError")
    finals = list(lead.events.filter(kind=LeadEvent.Kind.NOTIFICATION_FAILED)
                  .values_list("data__final", flat=True))
    assert finals == [False, False, True]


def test_scheduled_deliveries_are_waiting_before_the_worker_runs(sales_mail, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.LEAD_WEBHOOK_URL = "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=x"
    lead = make_lead()
    schedule_notifications(str(lead.public_id))
    assert sorted(Delivery.objects.filter(lead=lead).values_list("kind", "status")) == [
        ("sales_email", "pending"), ("sales_robot", "pending")]
