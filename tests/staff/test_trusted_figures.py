"""Issue 24, finding 6: figures a manager can defend. Money grouped with its currency
(one helper, selector.core.money.yuan_text); the digest's SLA line separates the last 24
hours from the backlog; dates in robot messages carry the year when it is not this one;
partial weeks marked on the dashboard; the pipeline's owner x stage table said to be a
snapshot; exports with deal value, lost reason, next action and first contact
(formula-safe); first-response time in working minutes like the SLA."""

import csv
import datetime as dt
import io
from decimal import Decimal
from zoneinfo import ZoneInfo

import time_machine
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from selector.core.money import yuan_text
from selector.leads import worktime
from selector.leads.models import Lead
from selector.staff import messaging, queries, services, sweeps
from tests.conftest import make_lead

from .conftest import edit, login

SH = ZoneInfo("Asia/Shanghai")


@given(st.decimals(min_value=0, max_value=Decimal("999999999999.99"), places=2))
def test_money_reads_grouped_with_its_currency(amount):
    text = yuan_text(amount)
    assert text.startswith("¥")
    whole, cents = text[1:].split(".")
    groups = whole.split(",")
    assert all(len(g) == 3 for g in groups[1:]) and 1 <= len(groups[0]) <= 3
    assert Decimal(text[1:].replace(",", "")) == amount and len(cents) == 2
    assert yuan_text(amount, cents=False) == f"¥{amount.quantize(Decimal(1), 'ROUND_HALF_UP'):,}"


def test_the_pipeline_groups_money_and_says_it_is_a_snapshot(client, manager, sales):
    make_lead(status="won", deal_value=Decimal("415920000"), owner=sales)
    url = reverse("staff:manager")
    for path, words in ((url, "不受上方所选时段影响"), ("/en" + url, "whatever the period")):
        body = login(client, manager).get(path).content.decode()
        assert "¥415,920,000" in body and "415920000" not in body
        assert 'data-testid="pipeline-snapshot"' in body and words in body


def test_partial_first_and_last_weeks_are_marked():
    # Period Wednesday 2026-11-04 .. Wednesday 2026-12-02 (today, a week under way).
    figures = {"weeks": [(dt.date(2026, 11, 2), 5), (dt.date(2026, 11, 9), 40),
                         (dt.date(2026, 11, 30), 12)]}
    weeks = queries.leads_per_week(figures, dt.date(2026, 11, 4), dt.date(2026, 12, 2))
    assert [(w["label"], w["days"], w["partial"]) for w in weeks] == [
        ("2026-11-02", 5, True), ("2026-11-09", 7, False), ("2026-11-30", 3, True)]


def test_the_dashboard_marks_the_week_under_way(client, sales):
    with time_machine.travel(dt.datetime(2026, 12, 2, 15, 0, tzinfo=SH), tick=False):
        make_lead()
        body = login(client, sales).get(reverse("staff:dashboard") + "?period=30"
                                        ).content.decode()
    assert 'data-testid="partial-week"' in body
    assert "7 天中的 3 天" in body  # Monday to Wednesday


def test_dates_in_robot_messages_carry_the_year_when_not_this_one():
    now = dt.datetime(2027, 1, 4, 10, 0, tzinfo=SH)
    assert messaging.when_text(dt.datetime(2027, 1, 2, 9, 5, tzinfo=SH), now) == "01-02 09:05"
    assert messaging.when_text(dt.datetime(2026, 12, 28, 9, 5, tzinfo=SH), now) == \
        "2026-12-28 09:05"
    assert messaging.when_text(dt.datetime(2026, 12, 28, 9, 5, tzinfo=SH), now,
                           with_time=False) == "2026-12-28"


def test_an_sla_message_about_last_years_lead_says_the_year(manager):
    now = dt.datetime(2027, 1, 4, 10, 0, tzinfo=SH)
    lead = make_lead(sla_due=dt.datetime(2026, 12, 31, 17, 0, tzinfo=SH))
    message = sweeps._sla_message(lead, [manager], now)
    assert "2026-12-31 17:00" in message.title


def test_the_digest_separates_todays_breaches_from_the_backlog(manager):
    now = dt.datetime(2026, 12, 2, 10, 0, tzinfo=SH)
    for hours in (2, 5):  # missed in the last 24 hours
        make_lead(sla_due=now - dt.timedelta(hours=hours))
    for days in (3, 40, 90):  # missed long ago, still never contacted
        make_lead(sla_due=now - dt.timedelta(days=days))
    make_lead(sla_due=now - dt.timedelta(hours=1), first_contact_at=now)  # contacted
    figures = sweeps.manager_digest(now)
    assert (figures["breaches"], figures["backlog"]) == (2, 3)
    with time_machine.travel(now, tick=False):
        message = sweeps._digest_message(manager, now)
    assert message is not None
    assert "过去 24 小时首次联系超时：2；更早超时且仍未联系：3" in message.lines


def test_exports_carry_value_reason_next_action_and_first_contact(client, manager):
    contacted = dt.datetime(2026, 12, 1, 9, 30, tzinfo=SH)
    won = make_lead(status="won", deal_value=Decimal("1200000"), first_contact_at=contacted)
    lost = make_lead(status="lost", lost_reason="price")
    follow = make_lead(next_action_kind="call",
                       next_action_due=dt.datetime(2026, 12, 4, 10, 0, tzinfo=SH),
                       next_action_note="=HYPERLINK(\"http://x\")")
    text = b"".join(login(client, manager).get(reverse("staff:export_csv"))
                    .streaming_content).decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    head = table[0]
    rows = {row[0]: dict(zip(head, row, strict=True)) for row in table[1:]}
    assert {"成交金额", "丢单原因", "下一步行动", "首次联系时间"} <= set(head)
    assert rows[won.report_number]["成交金额"] == "¥1,200,000.00"
    assert rows[won.report_number]["首次联系时间"] == "2026-12-01 09:30"
    assert rows[lost.report_number]["丢单原因"] not in ("", "price")  # the label
    next_action = rows[follow.report_number]["下一步行动"]
    assert "2026-12-04 10:00" in next_action and "=HYPERLINK" in next_action
    assert not next_action.startswith(("=", "+", "-", "@"))  # a label first: no formula


def test_first_response_is_counted_in_working_minutes(client, sales):
    # Created Friday 17:30, first call Monday 09:30: 30 + 30 working minutes (09:00-12:00,
    # 13:30-18:00), not 64 hours of clock.
    with time_machine.travel(dt.datetime(2026, 11, 27, 17, 30, tzinfo=SH), tick=False):
        lead = make_lead(owner=sales)
    with time_machine.travel(dt.datetime(2026, 11, 30, 9, 30, tzinfo=SH), tick=False):
        services.lead_log_activity(lead=lead, actor=sales, kind="call", outcome="reached",
                                   version=edit(lead, {})["version"])
    lead = Lead.objects.get(pk=lead.pk)
    assert lead.first_response_minutes == 60
    assert lead.first_response_minutes == worktime.calendar().between(
        lead.created_at, lead.first_contact_at)
    day = dt.date(2026, 11, 27)
    (row,) = queries.first_response_by_rep(day, day)
    assert row["avg_minutes"] == 60 and row["count"] == 1
