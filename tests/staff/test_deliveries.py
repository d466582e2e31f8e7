"""Managers see the deliveries about leads that are waiting or failed (/staff/deliveries/,
selector.leads.deliveries); sales reps do not. The workspace's robot messages (assignment,
reminder) go out once each and a failure ends on the lead's timeline."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from selector.leads import deliveries
from selector.leads.models import Delivery, LeadEvent
from selector.staff import services, tasks
from tests.conftest import make_lead
from tests.staff.conftest import login


def test_managers_see_what_is_waiting_or_failed(client, manager, sales):
    late, failed, sent = make_lead(), make_lead(), make_lead()
    deliveries.expect(late, Delivery.Kind.REPORT_EMAIL)
    Delivery.objects.filter(lead=late).update(created_at=timezone.now() - timedelta(hours=1))
    row = deliveries.expect(failed, Delivery.Kind.SALES_ROBOT)
    deliveries.give_up(row, "uncertain")
    Delivery.objects.filter(pk=deliveries.expect(sent, Delivery.Kind.SALES_EMAIL).pk).update(
        status="sent")
    url = reverse("staff:deliveries")
    page = login(client, manager).get(url).content.decode()
    assert late.report_number in page and failed.report_number in page
    assert sent.report_number not in page
    assert "超时" in page  # waiting for more than 15 minutes
    assert "接收方服务器没有应答：可能已送达" in page
    only_failed = client.get(url, {"status": "failed"}).content.decode()
    assert failed.report_number in only_failed and late.report_number not in only_failed
    only_waiting = client.get(url, {"status": "waiting"}).content.decode()
    assert late.report_number in only_waiting and failed.report_number not in only_waiting
    assert login(client, sales).get(url).status_code == 403


# --- the workspace's robot messages: once each --------------------------------------------

class Killed(BaseException):
    """A worker killed mid-task: nothing after this point runs (no handler catches it)."""


def test_an_assignment_is_posted_once_however_often_its_task_runs(
        webhook, manager, sales, django_capture_on_commit_callbacks):
    lead = make_lead()
    with django_capture_on_commit_callbacks(execute=True):
        services.lead_assign(lead=lead, owner=sales, actor=manager)
    event = lead.events.get(kind=LeadEvent.Kind.OWNER_CHANGED)
    # The worker re-runs the task (its first worker died before recording the result).
    assert tasks.assigned.call(str(lead.public_id), sales.pk, event.pk) == "sent"
    assert len(webhook.requests) == 1
    assert Delivery.objects.get(lead=lead).key == str(event.pk)
    # A new assignment to the same person is a new message.
    with django_capture_on_commit_callbacks(execute=True):
        services.lead_assign(lead=lead, owner=None, actor=manager)
        services.lead_assign(lead=lead, owner=sales, actor=manager)
    assert len(webhook.requests) == 2


def test_a_reminder_posted_before_its_worker_died_is_not_posted_again(webhook, sales,
                                                                      monkeypatch):
    due = timezone.localtime(timezone.now() + timedelta(hours=1))
    lead = make_lead(owner=sales, next_action_kind="call", next_action_due=due)

    def die(self, *args, **kwargs):
        raise Killed  # the robot got it; the worker dies sending the e-mail

    monkeypatch.setattr(mail.EmailMessage, "send", die)
    with pytest.raises(Killed):
        tasks.remind.call(str(lead.public_id), due.isoformat())
    monkeypatch.undo()
    assert len(webhook.requests) == 1
    assert tasks.remind.call(str(lead.public_id), due.isoformat()) == "sent"  # the e-mail
    assert len(webhook.requests) == 1  # the robot message is not repeated
    assert lead.events.filter(kind=LeadEvent.Kind.REMINDED).count() == 1


def test_a_refused_robot_message_ends_failed_on_the_timeline(webhook_factory, settings,
                                                             manager, sales):
    robot = webhook_factory([500])
    settings.LEAD_WEBHOOK_URL = robot.url
    lead = make_lead(owner=sales)
    event = LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED,
                                     data={"from": None, "to": "sam"})
    assert tasks.assigned.call(str(lead.public_id), sales.pk, event.pk) == "sent"  # e-mail
    row = Delivery.objects.get(lead=lead)
    assert (row.kind, row.status, row.error) == ("assigned_robot", "failed", "HTTPError")
    failed = lead.events.get(kind=LeadEvent.Kind.NOTIFICATION_FAILED)
    assert failed.data == {"channel": "assigned_robot", "attempt": 1, "final": True,
                           "error": "HTTPError"}
