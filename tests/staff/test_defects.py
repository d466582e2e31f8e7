"""One test per defect found using the workspace (issue 14), each failing before its fix."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from selector.leads.models import Lead, LeadEvent
from selector.staff.models import ExportLog, LeadDeletion
from selector.staff.services import lead_delete_on_request
from tests.conftest import make_lead

from .conftest import edit, login

LIST = "/staff/leads/"


def names(response):
    return [lead.name for lead in response.context["page"].object_list]


@pytest.mark.parametrize(("prefix", "text", "other"), [
    ("", "没有符合筛选条件的线索", "No leads match these filters."),
    ("/en", "No leads match these filters.", "没有符合筛选条件的线索"),
])
def test_zero_results_say_so_with_a_clear_filters_link(client, sales, prefix, text, other):
    make_lead(name="Alice")
    url = prefix + LIST
    page = login(client, sales).get(url, {"q": "nobody-like-this"}).content.decode()
    empty = page.split('class="empty-state"')[1]
    assert text in empty and other not in page and "Alice" not in page
    assert f'href="{url}"' in empty
    partial = client.get(url, {"q": "nobody-like-this"}, headers={"HX-Request": "true"})
    assert b"empty-state" in partial.content and text.encode() in partial.content


@pytest.mark.parametrize("sort,expected", [
    ("score", ["hot", "hot", "warm", "cold"]),
    ("-score", ["cold", "warm", "hot", "hot"]),
])
def test_score_sorts_hot_warm_cold_both_ways(client, sales, sort, expected):
    for score in ("warm", "cold", "hot", "hot"):
        make_lead(score=score)
    response = login(client, sales).get(LIST, {"sort": sort})
    assert response.status_code == 200
    assert [x.score for x in response.context["page"].object_list] == expected


@pytest.mark.parametrize("sort", ["status", "-status"])
def test_status_sorts_in_pipeline_order_both_ways(client, sales, sort):
    for status in ("lost", "won", "new", "proposal", "contacted", "qualified"):
        make_lead(status=status)
    response = login(client, sales).get(LIST, {"sort": sort})
    got = [x.status for x in response.context["page"].object_list]
    pipeline = ["new", "contacted", "qualified", "proposal", "won", "lost"]
    assert got == (pipeline if sort == "status" else pipeline[::-1])


def test_sort_headers_toggle_direction_and_say_it(client, sales):
    make_lead()
    page = login(client, sales).get(LIST, {"sort": "score"}).content.decode()
    assert 'aria-sort="ascending"><a href="?sort=-score"' in page
    page = client.get(LIST, {"sort": "-score"}).content.decode()
    assert 'aria-sort="descending"><a href="?sort=score"' in page


def test_an_expired_session_sends_htmx_to_the_login_page(client, sales, settings):
    make_lead()
    login(client, sales)
    session = client.session
    now = int(timezone.now().timestamp())
    session["staff_login_at"] = now - settings.STAFF_IDLE_TIMEOUT - 10
    session["staff_last_seen"] = now - settings.STAFF_IDLE_TIMEOUT - 5
    session.save()
    response = client.get(LIST, {"status": "new"}, headers={
        "HX-Request": "true", "HX-Current-URL": "http://testserver/staff/leads/?status=won"})
    assert response.status_code == 200  # htmx acts on HX-Redirect only for 2xx
    assert response["HX-Redirect"] == "/staff/login/?next=/staff/leads/%3Fstatus%3Dwon"
    assert b"lead-table" not in response.content
    # Signed out entirely (no session): the same.
    client.logout()
    response = client.get(LIST, headers={"HX-Request": "true"})
    assert response["HX-Redirect"].startswith("/staff/login/?next=")
    # Without htmx: the usual redirect.
    assert client.get(LIST).status_code == 302


def test_the_search_help_is_visible(client, sales):
    page = login(client, sales).get("/en/staff/leads/").content.decode()
    assert "3 or more match anywhere in name, company, phone, e-mail, WeChat ID or report" \
        in page


def test_report_number_and_wechat_are_searchable(client, sales):
    target = make_lead(name="Target", wechat="wx_needle42", owner=sales)
    make_lead(name="Other")
    login(client, sales)
    assert names(client.get(LIST, {"q": target.report_number})) == ["Target"]
    assert names(client.get(LIST, {"q": target.report_number.lower()})) == ["Target"]
    assert names(client.get(LIST, {"q": target.report_number[-6:]})) == ["Target"]
    assert names(client.get(LIST, {"q": "needle42"})) == ["Target"]


def test_exports_are_logged_with_filters_and_row_count(client, manager):
    make_lead(status="won")
    make_lead(status="won")
    make_lead(status="new")
    login(client, manager)
    for fmt, url in (("csv", "staff:export_csv"), ("xlsx", "staff:export_xlsx")):
        response = client.get(reverse(url), {"status": "won"})
        b"".join(response.streaming_content)
        log = ExportLog.objects.get(format=fmt)
        assert (log.actor, log.filters, log.row_count, log.finished) == (
            manager, {"status": "won"}, 2, True)
    page = client.get(reverse("staff:audit")).content.decode()
    assert "status=won" in page and "XLSX" in page and "CSV" in page


def test_xlsx_streams_instead_of_building_the_file_first(client, manager):
    for _ in range(3):
        make_lead()
    response = login(client, manager).get(reverse("staff:export_xlsx"))
    assert response.streaming
    first = next(iter(response.streaming_content))
    assert first.startswith(b"PK\x03\x04")  # the ZIP's first entry, before any lead row
    log = ExportLog.objects.get()
    assert log.row_count is None  # nothing counted yet: the rows are still to come
    rest = b"".join(response.streaming_content)
    assert rest and ExportLog.objects.get().row_count == 3


def test_managers_see_the_anonymous_deletion_records(client, manager, sales):
    lead = make_lead(name="秘密客户", utm_source="baidu")
    lead_delete_on_request(lead=lead, actor=manager, reason="客户邮件要求删除")
    page = login(client, manager).get(reverse("staff:audit")).content.decode()
    assert "客户邮件要求删除" in page and "baidu" in page and "秘密客户" not in page
    assert LeadDeletion.objects.count() == 1
    assert login(client, sales).get(reverse("staff:audit")).status_code == 403


def test_a_second_rep_taking_a_lead_is_told_who_has_it(client, sales, sales2):
    sales2.first_name, sales2.last_name = "Sue", "Chen"
    sales2.save()
    lead = make_lead(owner=sales2)
    response = login(client, sales).post(reverse("staff:lead_take", args=[lead.public_id]),
                                         follow=True)
    page = response.content.decode()
    assert "该线索已被 Sue Chen 接手。" in page
    assert "拒绝访问" not in page
    lead.refresh_from_db()
    assert lead.owner == sales2


def test_lost_needs_a_reason_and_won_takes_a_deal_value(client, sales):
    lead = make_lead(owner=sales)
    url = reverse("staff:lead_status", args=[lead.public_id])
    login(client, sales)
    assert client.post(url, edit(lead, {"status": "lost"})).status_code == 400
    assert client.post(url, edit(lead, {"status": "lost", "lost_reason": "other"})) \
        .status_code == 400
    lead.refresh_from_db()
    assert lead.status == "new"
    client.post(url, edit(lead, {"status": "lost", "lost_reason": "competitor",
                                 "note": "选了友商"}))
    lead.refresh_from_db()
    assert (lead.status, lead.lost_reason) == ("lost", "competitor")
    event = lead.events.get(kind="status_changed")
    assert event.data == {"from": "new", "to": "lost", "reason": "competitor",
                          "note": "选了友商"}
    client.post(url, edit(lead, {"status": "won", "deal_value": "1250000.50"}))
    lead.refresh_from_db()
    assert (lead.status, str(lead.deal_value), lead.lost_reason) == ("won", "1250000.50", "")
    assert client.post(url, edit(lead, {"status": "won", "deal_value": "-5"})).status_code == 400


def test_the_list_shows_overdue_and_duplicate_flags(client, sales):
    late = make_lead(name="Late", owner=sales, next_action_kind="call",
                     next_action_due=timezone.now() - dt.timedelta(hours=2))
    make_lead(name="Fine", owner=sales, next_action_kind="call",
              next_action_due=timezone.now() + dt.timedelta(hours=2))
    response = login(client, sales).get(LIST, {"follow_up": "overdue"})
    assert names(response) == ["Late"]
    assert response.context["page"].object_list[0].overdue
    assert 'class="lead-row is-overdue"' in response.content.decode()
    assert late.pk


def test_merged_leads_leave_the_list_and_point_to_the_survivor(client, manager):
    from selector.staff.services import leads_merge

    a, b = make_lead(name="Keep"), make_lead(name="Gone")
    leads_merge(survivor=a, other=b, actor=manager)
    login(client, manager)
    assert names(client.get(LIST)) == ["Keep"]
    response = client.get(reverse("staff:lead_detail", args=[b.public_id]))
    assert response.status_code == 302
    assert response["Location"] == reverse("staff:lead_detail", args=[a.public_id])
    assert Lead.objects.get(pk=b.pk).merged_into == a
    assert LeadEvent.objects.filter(lead=a, kind="merged").exists()


def test_a_post_after_the_session_ended_returns_to_the_page_after_login(client, sales):
    lead = make_lead()
    page = f"/staff/leads/{lead.public_id}/"
    response = client.post(reverse("staff:lead_take", args=[lead.public_id]),
                           headers={"Referer": f"http://testserver{page}"})
    assert response["Location"] == f"/staff/login/?next={page}"
    response = client.post(reverse("staff:lead_take", args=[lead.public_id]),
                           headers={"Referer": "http://evil.example/staff/leads/"})
    assert response["Location"] == "/staff/login/?next=/staff/"
