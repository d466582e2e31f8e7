"""No lost updates (issue 24): every edit on the lead page carries the version it was made
on; an edit made on an older version changes nothing, and the page shows the lead as it is
now, the refused edit, and one click that applies it to the current version.

The story of the issue with two signed-in sessions (two browsers, the Django test client):
tab A marks the lead won at ¥1,200,000; tab B, still showing "qualified", picks "proposal".
And a real race on PostgreSQL: two connections edit the same version at the same moment,
exactly one wins."""

import datetime as dt
import threading
import time
from html.parser import HTMLParser

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from selector.leads.models import Lead, LeadEvent
from selector.staff import services
from tests.conftest import make_lead

from .conftest import login


class _Forms(HTMLParser):
    """The fields each <form> of a page posts, by its action URL (what a browser sends:
    inputs with their values, checked boxes, each select's selected option, textareas)."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._select = self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append((a.get("action", ""), []))
        elif not self.forms:
            return
        elif tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            if a.get("type") == "submit":
                return
            self.forms[-1][1].append((a["name"], a.get("value") or ""))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self.forms[-1][1].append((self._select, a.get("value", "")))
        elif tag == "textarea":
            self._textarea = a.get("name")
            self.forms[-1][1].append((self._textarea, ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea and self.forms:
            name, value = self.forms[-1][1][-1]
            self.forms[-1][1][-1] = (name, value + data)


def form_fields(html: str, action: str, index: int = 0) -> dict[str, str]:
    parser = _Forms()
    parser.feed(html)
    matches = [dict(fields) for url, fields in parser.forms if url == action]
    assert len(matches) > index, (action, [url for url, _fields in parser.forms])
    return matches[index]


def page(client, lead) -> str:
    response = client.get(reverse("staff:lead_detail", args=[lead.public_id]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def deal(sales):
    """A qualified lead of the rep's with a next action (as in the issue)."""
    return make_lead(owner=sales, status="qualified", next_action_kind="call",
                     next_action_due=timezone.now() + dt.timedelta(days=1),
                     next_action_note="报价前确认机柜")


def test_a_stale_tab_cannot_undo_a_won_deal_and_can_apply_its_change_anyway(sales, deal):
    status_url = reverse("staff:lead_status", args=[deal.public_id])
    tab_a, tab_b = login(Client(), sales), login(Client(), sales)
    form_a = form_fields(page(tab_a, deal), status_url)
    form_b = form_fields(page(tab_b, deal), status_url)
    assert form_a["version"] == form_b["version"] == "1"  # the page carries its version

    # Tab A: won at ¥1,200,000 (closing clears the next action).
    response = tab_a.post(status_url, {**form_a, "status": "won", "deal_value": "1200000"})
    assert response.status_code == 302
    won = Lead.objects.get(pk=deal.pk)
    assert (won.status, won.deal_value, won.next_action_due, won.version) == (
        "won", 1200000, None, 2)

    # Tab B, drawn before that: "proposal" is refused, nothing changes.
    response = tab_b.post(status_url, {**form_b, "status": "proposal"})
    assert response.status_code == 303
    assert response["Location"] == reverse("staff:lead_detail", args=[deal.public_id]) + \
        "#conflict"
    after = Lead.objects.get(pk=deal.pk)
    assert (after.status, after.deal_value, after.version) == ("won", 1200000, 2)
    assert deal.events.filter(kind=LeadEvent.Kind.STATUS_CHANGED).count() == 1

    # Tab B's page now: the lead as it is, what changed, the refused edit, apply anyway.
    html = page(tab_b, deal)
    assert 'data-testid="conflict"' in html
    assert "未保存：您打开页面后，此线索已被修改" in html
    current = html.split('data-testid="conflict-current"')[1].split("</dl>")[0]
    assert "成交 · ¥1,200,000.00" in current and "下一步行动" in current
    assert "状态：已报方案" in html.split('data-testid="conflict-yours"')[1].split("</p>")[0]
    assert "状态由 已确认需求 改为 成交" in html.split('class="conflict-last"')[1].split("</p>")[0]
    again = form_fields(html, status_url)  # the first form with that action: apply anyway
    assert again["status"] == "proposal" and again["version"] == "2"
    # Read once: a reload shows the plain page.
    assert 'data-testid="conflict"' not in page(tab_b, deal)

    # "Apply my change anyway": one click, on the current version; the value it clears is
    # kept in the timeline, not silently lost.
    assert tab_b.post(status_url, again).status_code == 302
    applied = Lead.objects.get(pk=deal.pk)
    assert (applied.status, applied.deal_value, applied.version) == ("proposal", None, 3)
    event = deal.events.filter(kind=LeadEvent.Kind.STATUS_CHANGED).latest("pk")
    assert event.data == {"from": "won", "to": "proposal",
                          "cleared_deal_value": "1200000.00"}
    assert "成交金额 ¥1,200,000.00 已清除" in page(tab_b, deal)


def test_an_htmx_request_is_refused_the_same_way(client, sales, deal):
    services.lead_add_note(lead=deal, text="客户改了预算", actor=sales)  # version 2
    login(client, sales)
    url = reverse("staff:lead_status", args=[deal.public_id])
    response = client.post(url, {"status": "lost", "lost_reason": "no_budget", "version": 1},
                           HTTP_HX_REQUEST="true")
    # htmx follows the redirect and swaps the page it lands on, the conflict shown.
    assert response.status_code == 303 and response["Location"].endswith("#conflict")
    assert Lead.objects.get(pk=deal.pk).status == "qualified"
    html = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "状态：丢单 · 没有预算" in html
    assert "客户改了预算" in html.split('class="conflict-last"')[1].split("</p>")[0]


def _tomorrow() -> str:
    return (timezone.localtime() + dt.timedelta(days=2)).strftime("%Y-%m-%dT10:00")


EDITS = {
    # edit: (url name, posted fields, what the conflict box says the change was)
    "note": ("staff:lead_note", {"text": "客户下周出差"}, "备注：客户下周出差"),
    "activity": ("staff:lead_activity", {"kind": "call", "outcome": "reached"},
                 "电话 · 已接通"),
    "next_action": ("staff:lead_next_action", {"kind": "visit", "due": _tomorrow()},
                    "下一步行动：拜访 · "),
    "owner": ("staff:lead_assign", {"owner": ""}, "负责人：未分配"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_every_edit_made_on_an_older_version_changes_nothing(client, sales, deal, edit):
    name, data, said = EDITS[edit]
    services.lead_change_status(lead=deal, status="proposal", actor=sales)  # version 2
    before = Lead.objects.get(pk=deal.pk)
    events = list(deal.events.values_list("pk", flat=True))
    login(client, sales)
    url = reverse(name, args=[deal.public_id])
    response = client.post(url, {**data, "version": 1})
    assert response.status_code == 303
    after = Lead.objects.get(pk=deal.pk)
    for field in ("status", "owner_id", "next_action_kind", "next_action_due",
                  "last_activity_at", "first_contact_at", "version"):
        assert getattr(after, field) == getattr(before, field), field
    assert list(deal.events.values_list("pk", flat=True)) == events
    html = page(client, deal)
    assert said in html.split('data-testid="conflict-yours"')[1].split("</p>")[0]
    fields = form_fields(html, url)
    assert fields["version"] == "2"
    assert client.post(url, fields).status_code == 302  # applied anyway
    assert Lead.objects.get(pk=deal.pk).version == 3


def test_an_edit_without_a_version_is_refused_not_applied_blind(client, sales, deal):
    login(client, sales)
    response = client.post(reverse("staff:lead_status", args=[deal.public_id]),
                           {"status": "lost", "lost_reason": "no_budget"})
    assert response.status_code == 303
    assert Lead.objects.get(pk=deal.pk).status == "qualified"


def test_a_merge_made_on_an_older_version_is_refused(client, manager, sales):
    keep, gone = make_lead(name="保留"), make_lead(name="合并")
    services.lead_add_note(lead=keep, text="已报价", actor=manager)  # version 2
    login(client, manager)
    url = reverse("staff:lead_merge", args=[keep.public_id])
    data = {"other": gone.report_number, "keep": "this", "confirm": "on"}
    assert client.post(url, {**data, "version": 1}).status_code == 303
    assert Lead.objects.get(pk=gone.pk).merged_into is None
    html = page(client, keep)
    assert f"与 {gone.report_number} 合并" in html
    assert client.post(url, form_fields(html, url)).status_code == 302
    assert Lead.objects.get(pk=gone.pk).merged_into_id == keep.pk


def test_a_refusal_by_role_does_not_depend_on_the_version(client, sales, sales2):
    lead = make_lead(owner=sales2)
    services.lead_add_note(lead=lead, text="x", actor=sales2)
    with pytest.raises(services.PermissionDenied):
        services.lead_change_status(lead=lead, status="won", actor=sales, version=1)


def _lock_waits() -> int:
    """How many other sessions of this database wait for a lock now."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                       "current_database() AND pid <> pg_backend_pid() "
                       "AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="needs PostgreSQL row locks and concurrent connections")
@pytest.mark.django_db(transaction=True)
def test_two_sessions_editing_the_same_version_at_once_one_wins(sales):
    """Two connections, both with version 1, inside the edit at the same moment: this
    connection holds the lead's row lock until both wait for it, then lets go. The row lock
    serialises them; the second reads version 2 under the lock and is refused, so the
    first one's change stands and only one status event is written."""
    lead = make_lead(owner=sales, status="qualified")
    outcomes: dict[str, object] = {}

    def edit(label, **change):
        try:
            services.lead_change_status(lead=lead, actor=sales, version=1, **change)
            outcomes[label] = "applied"
        except services.StaleLead as stale:
            outcomes[label] = ("stale", stale.lead.version)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=edit, args=("won",),
                                kwargs={"status": "won", "deal_value": 1200000}),
               threading.Thread(target=edit, args=("proposal",),
                                kwargs={"status": "proposal"})]
    with transaction.atomic():
        Lead.objects.select_for_update().get(pk=lead.pk)
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while _lock_waits() < 2:
            assert time.monotonic() < deadline, "the editors never reached the row lock"
            time.sleep(0.02)
    for t in threads:
        t.join(timeout=30)
    assert sorted(map(str, outcomes.values())) == ["('stale', 2)", "applied"], outcomes
    final = Lead.objects.get(pk=lead.pk)
    assert final.version == 2
    assert final.events.filter(kind=LeadEvent.Kind.STATUS_CHANGED).count() == 1
    winner = "won" if outcomes["won"] == "applied" else "proposal"
    assert final.status == winner
    if winner == "won":
        assert final.deal_value == 1200000
