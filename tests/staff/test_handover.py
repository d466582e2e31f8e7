"""Issue 24, finding 3 (the rest): "all open leads of a rep who left to a colleague" is one
action, run by the real task worker (selector.core.worker, the loop of manage.py
task_worker around django-tasks-db's worker) in batches, with its progress on the page
and one summary message to the new owner, instead of 53 clicks of 50 leads."""

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from selector.core import worker
from selector.leads.models import Lead, LeadEvent
from selector.staff import tasks
from selector.staff.models import Handover
from tests.conftest import make_lead

from .conftest import login, make_user

LEFT = 230  # more than one batch


@pytest.fixture
def book(db, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.LEAD_WEBHOOK_URL = ""
    leaver = make_user("leo", "sales", first_name="磊", last_name="王")
    leads = [make_lead(owner=leaver, status="contacted") for _ in range(LEFT)]
    closed = make_lead(owner=leaver, status="won")
    leaver.is_active = False  # he left: deactivated, his leads still his
    leaver.save()
    return leaver, leads, closed


def _worker():
    """The project's task worker (manage.py task_worker's loop), one pass."""
    worker.run(worker_id="test-worker", queue_names=["default"], passes=1)


def test_a_manager_hands_over_every_open_lead_of_a_rep_who_left(
        transactional_db, client, manager, sales2, book, mailoutbox, monkeypatch):
    leaver, leads, closed = book
    monkeypatch.setattr(tasks, "HANDOVER_BATCH", 100)
    login(client, manager)
    page = client.get(reverse("staff:handover")).content.decode()
    assert "王磊（已离职）" in page  # a former rep can be chosen
    response = client.post(reverse("staff:handover"),
                           {"from_user": leaver.pk, "to_user": sales2.pk})
    assert response.status_code == 303
    job = Handover.objects.get()
    assert (job.status, job.total, job.done) == ("queued", LEFT, 0)
    queued = client.get(response["Location"]).content.decode()
    assert f"已移交 0 / {LEFT} 条线索" in queued and 'http-equiv="refresh"' in queued
    assert DBTaskResult.objects.filter(status="READY").count() == 1

    _worker()  # the hand-over, then the summary it enqueued
    _worker()
    job.refresh_from_db()
    assert (job.status, job.done) == ("done", LEFT)
    assert set(Lead.objects.filter(owner=sales2).values_list("pk", flat=True)) == {
        lead.pk for lead in leads}
    assert Lead.objects.get(pk=closed.pk).owner == leaver  # closed leads stay as they were
    assert all(v == 2 for v in Lead.objects.filter(owner=sales2).values_list(
        "version", flat=True))  # a stale tab of the old owner's cannot undo it
    events = LeadEvent.objects.filter(kind=LeadEvent.Kind.OWNER_CHANGED, data__handover=job.pk)
    assert events.count() == LEFT and {e.actor_id for e in events} == {manager.pk}
    # One message to the new owner about all of them.
    mails = [m for m in mailoutbox if sales2.email in m.to]
    assert len(mails) == 1 and str(LEFT) in mails[0].subject
    done = client.get(response["Location"]).content.decode()
    assert f"已移交 {LEFT} / {LEFT} 条线索" in done and 'http-equiv="refresh"' not in done

    # Run again (a worker may): nothing moves twice, no second message.
    assert tasks.run_handover(job.pk) == "done"
    Handover.objects.filter(pk=job.pk).update(status="running")
    assert tasks.run_handover(job.pk) == "done"
    _worker()
    assert events.count() == LEFT
    assert len([m for m in mailoutbox if sales2.email in m.to]) == 1


def test_only_managers_hand_over_and_not_to_the_same_person(client, sales, manager, book):
    leaver, _leads, _closed = book
    data = {"from_user": leaver.pk, "to_user": sales.pk}
    assert login(client, sales).post(reverse("staff:handover"), data).status_code == 403
    response = login(client, manager).post(reverse("staff:handover"),
                                           {"from_user": sales.pk, "to_user": sales.pk})
    assert response.status_code == 400 and "请选择另一位同事" in response.content.decode()
    bogus = client.post(reverse("staff:handover"), {"from_user": "x", "to_user": "99999"})
    assert bogus.status_code == 400
    assert not Handover.objects.exists()
