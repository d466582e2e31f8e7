"""`manage.py purge`: one daily job for every kind of data that must not pile up —
wizard sessions without a lead, expired Django sessions, finished task results, leads past
retention and stale log-in throttles. Deleting a lead, on request or by retention, takes
its wizard session and task results with it and ends the visitor's link to it."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from selector.leads.models import Lead
from selector.staff.models import LoginThrottle
from selector.wizard.models import WizardSession
from tests.leads.conftest import attach, contact_data, make_session

DAY = timedelta(days=1)


def _purge(*args) -> dict[str, str]:
    out = StringIO()
    call_command("purge", *args, stdout=out)
    return dict(line.rsplit(": ", 1) for line in out.getvalue().splitlines())


def _task(public_id: str, *, status=TaskResultStatus.SUCCESSFUL, age=DAY, path=None):
    now = timezone.now()
    return DBTaskResult.objects.create(
        status=status, args_kwargs={"args": [public_id, "email"], "kwargs": {}},
        task_path=path or "selector.leads.tasks.notify_lead", backend_name="default",
        queue_name="default", run_after=now - age, finished_at=(
            now - age if status in (TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED)
            else None))


def _session(expires: timedelta) -> Session:
    return Session.objects.create(session_key=f"k{Session.objects.count()}{expires.days}x" * 3,
                                  session_data="", expire_date=timezone.now() + expires)


def _submitted(client) -> Lead:
    """A visitor who finished the wizard and submitted the contact form."""
    attach(client, make_session())
    assert client.post("/contact/", contact_data(client)).status_code == 302
    return Lead.objects.get()


@pytest.fixture
def aged(db):
    now = timezone.now()
    old_empty = make_session(answers={}, furthest_step="scale", result_at=None)
    old_answered = make_session()
    recent = make_session()
    WizardSession.objects.filter(pk__in=[old_empty.pk, old_answered.pk]).update(
        created_at=now - 401 * DAY, updated_at=now - 401 * DAY)
    return {"old_empty": old_empty, "old_answered": old_answered, "recent": recent}


def test_it_deletes_wizard_sessions_without_a_lead_after_the_retention(aged):
    counts = _purge()
    assert counts["wizard sessions without a lead, inactive for 400 days"] == "2 deleted"
    assert list(WizardSession.objects.values_list("pk", flat=True)) == [aged["recent"].pk]


def test_a_wizard_session_with_a_lead_stays_while_the_lead_does(content, client):
    lead = _submitted(client)
    WizardSession.objects.update(updated_at=timezone.now() - 500 * DAY)
    _purge()
    assert WizardSession.objects.filter(pk=lead.wizard_session_id).exists()


def test_it_deletes_expired_django_sessions(db):
    expired, live = _session(-DAY), _session(DAY)
    counts = _purge()
    assert counts["expired sessions"] == "1 deleted"
    assert list(Session.objects.all()) == [live]
    assert expired.pk not in Session.objects.values_list("pk", flat=True)


def test_it_deletes_finished_task_results_after_the_retention(db):
    old_ok = _task("a", age=31 * DAY)
    old_failed = _task("b", status=TaskResultStatus.FAILED, age=40 * DAY)
    waiting = _task("c", status=TaskResultStatus.READY, age=60 * DAY)  # never ran: keep
    recent = _task("d", age=2 * DAY)
    counts = _purge()
    assert counts["task results finished more than 30 days ago"] == "2 deleted"
    assert set(DBTaskResult.objects.values_list("pk", flat=True)) == {waiting.pk, recent.pk}
    assert not DBTaskResult.objects.filter(pk__in=[old_ok.pk, old_failed.pk]).exists()


def test_it_deletes_throttles_past_their_window(db):
    now = timezone.now()
    LoginThrottle.objects.create(username="a", ip="192.0.2.1", failures=9,
                                 first_failed_at=now - 3 * DAY, last_failed_at=now - 2 * DAY)
    LoginThrottle.objects.create(username="b", ip="192.0.2.1", failures=2,
                                 first_failed_at=now, last_failed_at=now)
    counts = _purge()
    assert counts["log-in throttles past their window"] == "1 deleted"
    assert list(LoginThrottle.objects.values_list("username", flat=True)) == ["b"]


def test_dry_run_counts_everything_and_deletes_nothing(aged):
    _session(-DAY)
    _task("a", age=31 * DAY)
    counts = _purge("--dry-run")
    assert counts["wizard sessions without a lead, inactive for 400 days"] == "2 would be deleted"
    assert counts["expired sessions"] == "1 would be deleted"
    assert counts["task results finished more than 30 days ago"] == "1 would be deleted"
    assert WizardSession.objects.count() == 3 and Session.objects.count() == 1


def test_the_retentions_are_settings(aged, settings):
    settings.WIZARD_SESSION_RETENTION_DAYS = 1
    settings.TASK_RESULT_RETENTION_DAYS = 1
    _task("a", age=2 * DAY)
    counts = _purge()
    assert counts["wizard sessions without a lead, inactive for 1 days"] == "2 deleted"
    assert counts["task results finished more than 1 days ago"] == "1 deleted"


def test_deleting_a_lead_takes_its_wizard_session_and_task_results(content, client):
    from selector.leads.services import lead_delete

    lead = _submitted(client)
    public_id = str(lead.public_id)
    mine = [_task(public_id), _task(public_id, status=TaskResultStatus.READY),
            _task(public_id, path="selector.leads.report.tasks.prerender_report")]
    other = _task("00000000-0000-0000-0000-000000000000")
    ws_id = lead.wizard_session_id
    lead_delete(lead=lead)
    assert not WizardSession.objects.filter(pk=ws_id).exists()
    assert not DBTaskResult.objects.filter(pk__in=[t.pk for t in mine]).exists()
    assert DBTaskResult.objects.filter(pk=other.pk).exists()
    # The visitor's browser no longer reaches anything of it.
    assert client.get("/contact/thanks/")["Location"] == "/contact/"
    assert client.get("/contact/")["Location"] == "/wizard/"
    assert client.session.get("leads_submitted") in (None, [])


def test_deleting_a_lead_on_request_does_the_same(content, client, django_user_model):
    from django.contrib.auth.models import Group

    from selector.staff.permissions import MANAGERS_GROUP
    from selector.staff.roles import ensure_roles

    lead = _submitted(client)
    _task(str(lead.public_id))
    from django.apps import apps

    ensure_roles(apps)
    manager = django_user_model.objects.create_user("mia", password="x" * 12)
    manager.groups.add(Group.objects.get(name=MANAGERS_GROUP))
    staff = type(client)()
    staff.force_login(manager)
    response = staff.post(f"/staff/leads/{lead.public_id}/delete/",
                          {"reason": "customer asked by e-mail", "confirm": "on"})
    assert response.status_code == 302
    assert not WizardSession.objects.exists()
    assert not DBTaskResult.objects.exists()


def test_the_output_has_counts_only(content, client):
    lead = _submitted(client)
    Lead.objects.update(created_at=timezone.now() - 800 * DAY)
    out = StringIO()
    call_command("purge", stdout=out)
    text = out.getvalue()
    for value in (lead.name, lead.email, lead.phone, lead.report_number, str(lead.public_id),
                  str(lead.wizard_session_id)):
        assert value not in text
    assert "leads older than 730 days: 1 deleted" in text
