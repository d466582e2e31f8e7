"""Issue 24 (hand-over section): the lead list's bulk change on "all N leads that match
this filter", not only the page's ticked rows: one background job on the hand-over's
machinery (selector.staff.bulk), run by the real task worker, with its progress page, each
lead changed by the services (audited, version-checked), cut to the leads the person may
change, and one message per person whose leads changed."""

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from selector.core import worker
from selector.leads.models import Lead, LeadEvent
from selector.staff import bulk
from selector.staff.models import Handover
from tests.conftest import make_lead

from .conftest import login

URL = reverse("staff:lead_list")
MATCHING = 120  # more than two pages of the list (PAGE_SIZE 50)


@pytest.fixture
def tasks_db(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.LEAD_WEBHOOK_URL = ""


def _worker():
    """The project's task worker (manage.py task_worker's loop), one pass."""
    worker.run(worker_id="test-worker", queue_names=["default"], passes=1)


def _all(data: dict, query: str, expected=None) -> dict:
    return {"scope": "all", "next_query": query, **data,
            **({"expected": expected} if expected is not None else {})}


def test_a_manager_changes_every_lead_the_filter_matches_across_pages(
        transactional_db, tasks_db, client, manager, sales, sales2, mailoutbox, monkeypatch):
    monkeypatch.setattr(bulk, "BATCH", 50)  # three batches
    theirs = [make_lead(utm_source="expo", owner=sales) for _ in range(20)]
    pool = [make_lead(utm_source="expo") for _ in range(MATCHING - 20)]
    others = [make_lead(utm_source="baidu") for _ in range(15)]
    login(client, manager)
    listing = client.get(URL, {"source": "expo"}).content.decode()
    assert f"筛选出的全部 {MATCHING} 条线索" in listing  # the exact N, beyond the page
    assert len(listing.split('<tr class="lead-row')) - 1 == 50

    response = client.post(reverse("staff:lead_bulk"), _all(
        {"status": "qualified", "owner": str(sales2.pk)}, "source=expo", MATCHING))
    job = Handover.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("staff:bulk_job", args=[job.pk])
    assert (job.kind, job.status, job.total, job.done) == ("bulk", "queued", MATCHING, 0)
    queued = client.get(response["Location"]).content.decode()
    assert f"已处理 0 / {MATCHING} 条线索" in queued and 'http-equiv="refresh"' in queued
    assert DBTaskResult.objects.filter(status="READY").count() == 1

    _worker()  # the bulk change, then the summary it enqueued
    _worker()
    job.refresh_from_db()
    assert (job.status, job.done, job.skipped) == ("done", MATCHING, 0)
    changed = Lead.objects.filter(status="qualified", owner=sales2)
    assert set(changed.values_list("pk", flat=True)) == {
        lead.pk for lead in theirs + pool}
    assert not Lead.objects.filter(pk__in=[lead.pk for lead in others]).exclude(
        status="new").exists()
    assert Lead.objects.filter(pk__in=[lead.pk for lead in others], owner__isnull=False
                               ).count() == 0
    # Through the services: each lead's status and owner events, marked with the job,
    # and the version moved on (a stale tab cannot undo it).
    events = LeadEvent.objects.filter(data__bulk_job=job.pk, actor=manager)
    assert events.filter(kind="status_changed").count() == MATCHING
    assert events.filter(kind="owner_changed").count() == MATCHING
    assert set(changed.values_list("version", flat=True)) == {3}
    # One message to the new owner about all of them, one to the rep who lost 20.
    to_new = [m for m in mailoutbox if sales2.email in m.to]
    assert len(to_new) == 1 and str(MATCHING) in to_new[0].subject
    to_old = [m for m in mailoutbox if sales.email in m.to]
    assert len(to_old) == 1 and "修改了您的 20 条线索" in to_old[0].subject
    assert "负责人：sue" in to_old[0].body
    assert not [m for m in mailoutbox if manager.email in m.to]
    done = client.get(response["Location"]).content.decode()
    assert f"已处理 {MATCHING} / {MATCHING} 条线索" in done
    assert 'http-equiv="refresh"' not in done

    # Run again (a worker may): nothing changes twice, no second message.
    assert bulk.run_bulk_job(Handover.objects.select_related("actor", "to_user").get()) \
        == "done"
    _worker()
    assert events.count() == 2 * MATCHING and len(mailoutbox) == 2


def test_a_rep_changes_only_his_own_leads_whatever_the_filter(
        transactional_db, tasks_db, client, sales, sales2, manager):
    mine = [make_lead(utm_source="expo", owner=sales) for _ in range(5)]
    colleague = [make_lead(utm_source="expo", owner=sales2) for _ in range(7)]
    unassigned = [make_lead(utm_source="expo") for _ in range(3)]
    login(client, sales)
    listing = client.get(URL, {"source": "expo"}).content.decode()
    assert "筛选出的您的全部 5 条线索" in listing
    # Another owner is not his to give; another's leads are not his to filter by owner.
    client.post(reverse("staff:lead_bulk"), _all({"owner": str(sales2.pk)}, "source=expo"))
    client.post(reverse("staff:lead_bulk"), _all({"status": "qualified"},
                                                 f"owner={sales2.pk}"))
    assert not Handover.objects.exists()

    response = client.post(reverse("staff:lead_bulk"), _all({"status": "qualified"},
                                                            "source=expo", 5))
    job = Handover.objects.get()
    assert job.total == 5
    _worker()
    job.refresh_from_db()
    assert (job.status, job.done) == ("done", 5)
    assert set(Lead.objects.filter(status="qualified").values_list("pk", flat=True)) == {
        lead.pk for lead in mine}
    assert all(lead.status == "new" for lead in Lead.objects.filter(
        pk__in=[lead.pk for lead in colleague + unassigned]))
    # His job's page is his (and the managers'); a colleague gets a 404.
    assert client.get(response["Location"]).status_code == 200
    assert login(client, sales2).get(response["Location"]).status_code == 404
    assert login(client, manager).get(response["Location"]).status_code == 200


def test_a_lead_that_left_the_reps_hands_meanwhile_is_left_alone(
        transactional_db, tasks_db, sales, sales2):
    mine = [make_lead(utm_source="expo", owner=sales) for _ in range(4)]
    job = bulk.bulk_job_start(actor=sales, filters={"source": ["expo"]}, status="qualified")
    Lead.objects.filter(pk=mine[0].pk).update(owner=sales2)  # reassigned before it ran
    assert bulk.run_bulk_job(Handover.objects.select_related("actor").get(pk=job.pk)) == "done"
    job.refresh_from_db()
    assert (job.total, job.done, job.status) == (4, 3, "done")
    assert Lead.objects.get(pk=mine[0].pk).status == "new"
    assert Lead.objects.filter(status="qualified").count() == 3


def test_a_count_that_moved_since_the_page_is_refused(client, manager, db):
    for _ in range(3):
        make_lead(utm_source="expo")
    response = login(client, manager).post(reverse("staff:lead_bulk"), _all(
        {"status": "qualified"}, "source=expo", 2))
    assert response.status_code == 302 and response["Location"] == f"{URL}?source=expo"
    assert not Handover.objects.exists()
    page = client.get(response["Location"]).content.decode()
    assert "筛选条件现在匹配 3 条线索，而不是 2 条" in page


def test_with_htmx_the_whole_page_goes_to_the_progress_which_polls(client, manager, db,
                                                                   tasks_db):
    make_lead(utm_source="expo")
    login(client, manager)
    response = client.post(reverse("staff:lead_bulk"), _all(
        {"status": "contacted"}, "source=expo", 1), headers={"HX-Request": "true"})
    job = Handover.objects.get()
    assert response["HX-Redirect"] == reverse("staff:bulk_job", args=[job.pk])
    partial = client.get(response["HX-Redirect"], headers={"HX-Request": "true"})
    body = partial.content.decode()
    assert body.strip().startswith('<section id="bulk-progress"')
    assert 'data-hx-trigger="every 2s"' in body and "<html" not in body
    english = client.get("/en" + response["HX-Redirect"]).content.decode()
    assert "0 of 1 leads done" in english and "Status: Contacted" in english


def test_the_bulk_form_posts_the_filter_it_was_drawn_with(client, manager, db):
    """The form is inside the list's results: an htmx filter change redraws it with the
    new query and count, so "all that match" never acts on a filter no longer shown."""
    make_lead(utm_source="expo")
    make_lead(utm_source="baidu")
    partial = login(client, manager).get(URL, {"source": "baidu"},
                                         headers={"HX-Request": "true"}).content.decode()
    assert 'name="next_query" value="source=baidu"' in partial
    assert 'name="expected" value="1"' in partial


@pytest.mark.parametrize("data", [
    {"scope": "all", "next_query": "status=bogus", "status": "won"},
    {"scope": "all", "next_query": "source=expo"},
    {"scope": "everything", "status": "won"},
    {"scope": "all", "next_query": "source=expo", "status": "lost"},
    {"scope": "all", "next_query": "source=expo", "status": "won", "expected": "-1"},
])
def test_bad_requests_queue_nothing(client, manager, db, data):
    make_lead(utm_source="expo")
    response = login(client, manager).post(reverse("staff:lead_bulk"), data)
    assert response.status_code == 302
    assert not Handover.objects.exists()
    assert Lead.objects.filter(status="new").count() == 1


def test_a_rep_ticks_and_changes_his_own_leads_on_the_page(client, sales, sales2, db):
    mine, colleagues = make_lead(owner=sales), make_lead(owner=sales2)
    login(client, sales)
    listing = client.get(URL).content.decode()
    assert f'name="leads" value="{mine.public_id}"' in listing
    assert f'name="leads" value="{colleagues.public_id}"' not in listing
    assert '<option value="none">' in listing and f'value="{sales2.pk}"' not in listing
    response = client.post(reverse("staff:lead_bulk"), {
        "leads": [str(mine.public_id)], "status": "qualified", "next_query": ""})
    assert response.status_code == 302
    assert Lead.objects.get(pk=mine.pk).status == "qualified"
    # A colleague's lead among them refuses the whole change.
    refused = client.post(reverse("staff:lead_bulk"), {
        "leads": [str(mine.public_id), str(colleagues.public_id)], "status": "won"})
    assert refused.status_code == 403
    assert [lead.status for lead in Lead.objects.order_by("pk")] == ["qualified", "new"]


def test_the_progress_page_shows_how_far_a_running_job_got(client, manager, db):
    job = Handover.objects.create(kind="bulk", actor=manager, status="running", total=120,
                                  done=50, skipped=2, new_status="qualified",
                                  filters={"source": ["expo"]})
    login(client, manager)
    page = client.get(reverse("staff:bulk_job", args=[job.pk])).content.decode()
    assert "已处理 50 / 120 条线索" in page and 'value="50"' in page
    assert "2 条线索未修改" in page and 'http-equiv="refresh"' in page
    assert "状态：已确认需求" in page
    assert 'href="/staff/leads/?source=expo"' in page
    # A hand-over's row is not a bulk job's page.
    other = Handover.objects.create(actor=manager, status="done")
    assert client.get(reverse("staff:bulk_job", args=[other.pk])).status_code == 404


def test_past_the_list_s_count_cap_the_form_offers_all_that_match_without_a_count_query(
        transactional_db, tasks_db, client, manager, monkeypatch):
    """At 200,000 leads an exact COUNT on every list page cost 100-250 ms: past the cap the
    form offers "all that match" without a number and the job counts them when queued."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from selector.staff.views import lead_list

    monkeypatch.setattr(lead_list, "COUNT_CAP", 5)
    [make_lead(utm_source="expo") for _ in range(8)]
    login(client, manager)
    with CaptureQueriesContext(connection) as queries:
        listing = client.get(URL, {"source": "expo"}).content.decode()
    assert "符合此筛选条件的全部线索（超过 5 条）" in listing
    assert 'name="expected" value=""' in listing
    assert not [q["sql"] for q in queries.captured_queries
                if "COUNT(" in q["sql"].upper() and '"leads_lead"' in q["sql"]]
    response = client.post(reverse("staff:lead_bulk"), {
        "scope": "all", "next_query": "source=expo", "status": "contacted", "owner": "",
        "expected": ""})
    job = Handover.objects.get()
    assert response["Location"] == reverse("staff:bulk_job", args=[job.pk])
    assert job.total == 8
    _worker()
    assert Lead.objects.filter(utm_source="expo", status="contacted").count() == 8
