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
from selector.staff import services, sweeps, tasks
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
    assert page.index(failed.report_number) < page.index(late.report_number)  # newest first
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
    assert set(Delivery.objects.filter(lead=lead).values_list("kind", "key", "status")) == {
        ("assigned_robot", str(event.pk), "sent"), ("assigned_email", str(event.pk), "sent")}
    assert len([m for m in mail.outbox if m.to == ["sam@example.com"]]) == 1
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
    # Re-run by the stuck-task recovery, minutes later.
    Delivery.objects.update(claimed_at=timezone.now() - timedelta(minutes=10))
    assert tasks.remind.call(str(lead.public_id), due.isoformat()) == "sent"
    assert len(webhook.requests) == 1  # the robot message is not repeated
    # The e-mail was cut short in the middle: it may have gone, so it is not repeated
    # either, and it ends failed on the timeline.
    assert mail.outbox == []
    email = Delivery.objects.get(lead=lead, kind="reminder_email")
    assert (email.status, email.error) == ("failed", "interrupted")
    assert lead.events.get(kind=LeadEvent.Kind.NOTIFICATION_FAILED).data["final"] is True
    assert lead.events.filter(kind=LeadEvent.Kind.REMINDED).count() == 1


def test_a_refused_robot_message_ends_failed_on_the_timeline(webhook_factory, settings,
                                                             manager, sales):
    robot = webhook_factory([500])
    settings.LEAD_WEBHOOK_URL = robot.url
    lead = make_lead(owner=sales)
    event = LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED,
                                     data={"from": None, "to": "sam"})
    assert tasks.assigned.call(str(lead.public_id), sales.pk, event.pk) == "sent"  # e-mail
    row = Delivery.objects.get(lead=lead, kind="assigned_robot")
    assert (row.status, row.error) == ("failed", "HTTPError")
    failed = lead.events.get(kind=LeadEvent.Kind.NOTIFICATION_FAILED)
    assert failed.data == {"channel": "assigned_robot", "attempt": 1, "final": True,
                           "error": "HTTPError"}


# --- pacing under the robot's rate --------------------------------------------------------

WECOM = "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=test"


def test_the_robot_gets_at_most_20_posts_a_minute_and_the_rest_wait(db):
    from selector.leads import pacing

    start = 1_800_000_000.0
    waits = [pacing.reserve(WECOM, now=start + i * 0.1) for i in range(25)]
    assert waits[:20] == [0.0] * 20
    assert all(w > 55 for w in waits[20:])  # the 21st waits for the first to leave the window
    assert pacing.reserve(WECOM, now=start + 61.5) == 0.0  # the first's minute is over
    assert pacing.reserve("http://127.0.0.1:9/hook", now=start) == 0.0  # no known limit


def test_a_burst_of_assignments_is_queued_not_dropped(settings, db, manager, sales,
                                                      django_capture_on_commit_callbacks):
    """22 assignments at once: 20 posts now, 2 re-enqueued for when the minute is over
    (each e-mail goes at once), and those 2 posted when their turn comes."""
    from unittest import mock

    import time_machine
    from django_tasks_db.models import DBTaskResult, get_date_max

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.LEAD_WEBHOOK_URL = WECOM
    with django_capture_on_commit_callbacks(execute=True):
        for lead in [make_lead() for _ in range(22)]:
            services.lead_assign(lead=lead, owner=sales, actor=manager)
    queued = list(DBTaskResult.objects.order_by("enqueued_at"))
    now = timezone.now()
    with mock.patch("selector.leads.notify.post_message") as post:
        outcomes = [row.task.call(*row.args_kwargs["args"]) for row in queued]
        assert post.call_count == 20
        assert outcomes.count("sent") == 22  # the e-mail went for every one
        assert len(mail.outbox) == 22
        deferred = list(DBTaskResult.objects.exclude(pk__in=[r.pk for r in queued]))
        assert len(deferred) == 2
        assert all(run.run_after != get_date_max() for run in deferred)
        assert all(55 < (run.run_after - now).total_seconds() < 65 for run in deferred)
        assert Delivery.objects.filter(kind="assigned_robot", status="pending").count() == 2
        turn = max(run.run_after for run in deferred) + timedelta(seconds=2)
        with time_machine.travel(turn, tick=False):
            for run in deferred:
                run.task.call(*run.args_kwargs["args"])
        assert post.call_count == 22
    assert len(mail.outbox) == 22  # not again
    assert not Delivery.objects.exclude(status="sent").exists()


def test_a_refused_robot_post_is_retried_with_backoff_and_recorded(settings, webhook_factory,
                                                                   manager, sales):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.LEAD_NOTIFY_BACKOFF_SECONDS = 30
    robot = webhook_factory([200], body=b'{"errcode": 45009, "errmsg": "api freq out of limit"}')
    settings.LEAD_WEBHOOK_URL = robot.url
    lead = make_lead(owner=sales)
    event = LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED,
                                     data={"from": None, "to": "sam"})
    now = timezone.now()
    tasks.assigned.call(str(lead.public_id), sales.pk, event.pk)
    row = Delivery.objects.get(lead=lead, kind="assigned_robot")
    assert (row.status, row.attempts, row.error) == ("pending", 1, "RuntimeError")
    failed = lead.events.get(kind=LeadEvent.Kind.NOTIFICATION_FAILED)
    assert failed.data == {"channel": "assigned_robot", "attempt": 1, "final": False,
                           "error": "RuntimeError"}
    retry = DBTaskResult.objects.get(task_path="selector.staff.tasks.assigned")
    assert retry.args_kwargs["args"] == [str(lead.public_id), sales.pk, event.pk]
    assert 25 < (retry.run_after - now).total_seconds() <= 31
    robot.body = b'{"errcode": 0, "errmsg": "ok"}'
    assert tasks.assigned.call(*retry.args_kwargs["args"]) == "sent"
    assert Delivery.objects.get(pk=row.pk).status == "sent"
    assert len(robot.requests) == 2
    assert len(mail.outbox) == 1  # the e-mail went once, on the first run


# --- SLA escalations: each breach once, a backlog as one summary, escalated when told -----

def _breach(minutes_ago: float, **fields):
    return make_lead(score="hot", sla_due=timezone.now() - timedelta(minutes=minutes_ago),
                     **fields)


def test_an_imported_backlog_becomes_one_summary(webhook, manager):
    fresh = [_breach(5), _breach(10)]
    backlog = [_breach(60 * 24 * 300 + i) for i in range(30)]  # a year-old imported book
    assert sweeps.escalate_sla() == 32
    texts = webhook.texts()
    assert len(texts) == 3  # two breaches of the last hour, one summary for the other 30
    assert fresh[0].report_number in texts[0] or fresh[0].report_number in texts[1]
    assert "30" in texts[2] and backlog[-1].report_number in texts[2]
    assert LeadEvent.objects.filter(kind="sla_breached").count() == 32
    assert sweeps.escalate_sla() == 0
    assert len(webhook.texts()) == 3


def test_a_lead_is_marked_escalated_only_after_the_message_went_out(webhook_factory, settings,
                                                                    db):
    from django.contrib.auth.models import Group, User

    User.objects.create_user("nomail", "", "x" * 12).groups.add(Group.objects.get(name="managers"))
    robot = webhook_factory([500])
    settings.LEAD_WEBHOOK_URL = robot.url
    late = _breach(5)
    assert sweeps.escalate_sla() == 0  # refused: not marked
    assert not late.events.filter(kind="sla_breached").exists()
    assert late.events.get(kind="notification_failed").data["final"] is False
    assert sweeps.escalate_sla() == 1  # the next tick tries again, and it goes
    assert late.events.filter(kind="sla_breached").count() == 1
    assert len(robot.requests) == 2


def test_more_breaches_than_the_robot_takes_wait_for_the_next_tick(webhook, manager):
    import time_machine

    for i in range(25):
        _breach(5 + i)
    assert sweeps.escalate_sla() == 20  # the robot's minute is full
    assert len(webhook.requests) == 20
    with time_machine.travel(timezone.now() + timedelta(minutes=5), tick=False):
        assert sweeps.escalate_sla() == 5
    assert len(webhook.requests) == 25
    assert LeadEvent.objects.filter(kind="sla_breached").count() == 25


def test_a_bulk_reassignment_tells_the_new_owner_once(client, webhook, manager, sales,
                                                      django_capture_on_commit_callbacks):
    from selector.staff.models import StaffProfile

    StaffProfile.objects.create(user=sales, mobile="13900139000")
    leads = [make_lead() for _ in range(50)]
    login(client, manager)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("staff:lead_bulk"), {
            "leads": [str(lead.public_id) for lead in leads], "owner": str(sales.pk)})
    assert response.status_code == 302
    assert len(webhook.requests) == 1  # one summary, not 50 @mentions
    text = webhook.requests[0]["text"]
    assert text["mentioned_mobile_list"] == ["13900139000"]
    assert "50" in text["content"] and "40" in text["content"]  # 10 listed, 40 more
    assert [m.to for m in mail.outbox] == [["sam@example.com"]]
    # The task run again (its worker died before recording the result): nothing repeats.
    from selector.leads.models import Lead

    order = list(Lead.objects.filter(pk__in=[lead.pk for lead in leads]))  # as the view had
    event = order[0].events.get(kind=LeadEvent.Kind.OWNER_CHANGED)
    assert tasks.assigned_many.call(sales.pk, [str(lead.public_id) for lead in order],
                                    event.pk) == "sent"
    assert len(webhook.requests) == 1 and len(mail.outbox) == 1


def test_a_large_team_gets_its_digests_within_the_robots_rate(settings, db):
    """25 people with something due: 20 digests now, the other 5 at the next tick, each
    once."""
    import datetime as dt
    from unittest import mock
    from zoneinfo import ZoneInfo

    import time_machine
    from django.contrib.auth.models import Group, User

    settings.LEAD_WEBHOOK_URL = WECOM
    settings.STAFF_DIGEST_TIME = "08:30"
    morning = dt.datetime(2026, 12, 1, 9, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    sales = Group.objects.get(name="sales")
    with time_machine.travel(morning, tick=False):
        for n in range(25):
            user = User.objects.create_user(f"rep{n}", f"rep{n}@example.com", "x" * 12)
            user.groups.add(sales)
            make_lead(owner=user, next_action_kind="call",
                      next_action_due=timezone.now() - timedelta(hours=1))
        with mock.patch("selector.leads.notify.post_message") as post:
            assert sweeps.send_digests() == 20
            assert sweeps.send_digests() == 0  # still the same minute
            with time_machine.travel(morning + timedelta(minutes=5), tick=False):
                assert sweeps.send_digests() == 5
                assert sweeps.send_digests() == 0  # each once a day
    assert post.call_count == 25


def test_paced_robot_messages_wait_once_each_for_a_slot_of_their_own(settings, db, webhook):
    """25 new-lead messages at once (a 20-a-minute robot): 20 go now, each of the other 5 is
    re-enqueued once for a slot booked for it, and posted then. Before, every waiting
    message woke at the same freed slot and all but one waited again: `make load` counted
    2,523 task runs for about 130 robot messages."""
    import time_machine
    from django_tasks_db.models import DBTaskResult

    from selector.leads import pacing
    from selector.leads.tasks import notify_lead

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    leads = [make_lead() for _ in range(25)]
    for lead in leads:
        deliveries.expect(lead, Delivery.Kind.SALES_ROBOT)
    outcomes = [notify_lead.call(str(lead.public_id), "webhook") for lead in leads]
    assert outcomes == ["sent"] * 20 + ["paced"] * 5
    waiting = sorted(DBTaskResult.objects.all(), key=lambda run: run.run_after)
    assert len(waiting) == 5
    slots = [run.args_kwargs["args"][3] for run in waiting]
    assert slots == sorted(slots) and len(set(slots)) == 5  # one slot each, in turn
    runs = 0
    for run in waiting:  # each at its own time: posted, no second wait
        with time_machine.travel(run.run_after, tick=False):
            assert run.task.call(*run.args_kwargs["args"]) == "sent"
            runs += 1
    assert runs == 5 and DBTaskResult.objects.count() == 5  # nothing re-enqueued
    assert len(webhook.requests) == 25
    assert not Delivery.objects.exclude(status="sent").exists()
    # A slot taken more than the margin late is not used (it could bunch up with the next
    # ones): the message books again.
    assert not pacing.booked_slot_is_due(slots[0], now=slots[0] + pacing.MARGIN + 0.5)
    assert pacing.booked_slot_is_due(slots[0], now=slots[0] + 0.5)


def test_booked_slots_keep_every_minute_within_the_limit(db):
    from selector.leads import pacing

    start = 1_800_000_000.0
    slots = []
    for i in range(65):
        now = start + i * 0.05
        slots.append(now + pacing.reserve(WECOM, now=now, book=True))
    for t in slots:  # any 60 s window holds at most 20 posts
        assert sum(1 for u in slots if t - 60 < u <= t) <= 20
    assert slots[20] > slots[0] + 60 and slots[40] > slots[20] + 60
    # Someone who does not book (the workspace's messages) queues behind the booked slots.
    assert pacing.reserve(WECOM, now=start + 5) > slots[-1] - (start + 5)
