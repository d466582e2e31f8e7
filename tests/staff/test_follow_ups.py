"""Follow-ups, activities, the first-contact SLA, My day, reminders, digests."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as settings_
from hypothesis import strategies as st

from selector.leads import worktime
from selector.leads.models import Lead, LeadEvent
from selector.staff import services, sweeps, tasks
from selector.staff.models import StaffProfile
from tests.conftest import make_lead

from .conftest import edit, login

SH = ZoneInfo("Asia/Shanghai")


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=SH)


# --- the working calendar ------------------------------------------------------------

@pytest.fixture
def cal(settings):
    settings.WORK_HOURS = "09:00-12:00,13:30-18:00"
    settings.WORK_DAYS = [1, 2, 3, 4, 5]
    settings.WORK_HOLIDAYS = ["2026-10-01..2026-10-07"]
    settings.WORK_EXTRA_DAYS = ["2026-10-10"]  # a Saturday worked (调休)
    settings.LEAD_SLA = "hot=1h,warm=1d,cold=3d"
    return worktime.settings_calendar()


@pytest.mark.parametrize("start,minutes,expected", [
    (at(2026, 12, 1, 10, 0), 60, at(2026, 12, 1, 11, 0)),       # inside the morning
    (at(2026, 12, 1, 11, 30), 60, at(2026, 12, 1, 14, 0)),      # over the lunch break
    (at(2026, 12, 1, 17, 30), 60, at(2026, 12, 2, 9, 30)),      # into the next morning
    (at(2026, 12, 1, 20, 0), 60, at(2026, 12, 2, 10, 0)),       # after hours
    (at(2026, 12, 4, 17, 45), 60, at(2026, 12, 7, 9, 45)),      # Friday -> Monday
    (at(2026, 9, 30, 17, 0), 120, at(2026, 10, 8, 10, 0)),      # national holiday week
    (at(2026, 10, 9, 18, 0), 30, at(2026, 10, 10, 9, 30)),      # a make-up Saturday
    (at(2026, 12, 1, 9, 0), 450, at(2026, 12, 1, 18, 0)),       # one working day
    (at(2026, 12, 1, 9, 0), 451, at(2026, 12, 2, 9, 1)),
])
def test_working_time_skips_nights_lunch_weekends_and_holidays(cal, start, minutes, expected):
    assert cal.add(start, minutes) == expected
    assert cal.between(start, expected) == minutes


def _between_day_by_day(cal, start, end) -> int:
    """Working minutes as the calendar counted them before: every day walked."""
    if end < start:
        return -_between_day_by_day(cal, end, start)
    a, b = start.astimezone(cal.tz), end.astimezone(cal.tz)
    total, day = 0.0, a.date()
    while day <= b.date():
        if cal.is_working_day(day):
            for begin, finish in cal.hours:
                lo = max(dt.datetime.combine(day, begin, cal.tz), a)
                hi = min(dt.datetime.combine(day, finish, cal.tz), b)
                if hi > lo:
                    total += (hi - lo).total_seconds() / 60
        day += dt.timedelta(days=1)
    return round(total)


_MINUTE = st.integers(min_value=0, max_value=3 * 366 * 24 * 60)
_DAY = st.integers(min_value=0, max_value=3 * 366)


@settings_(max_examples=300, deadline=None)
@given(start=_MINUTE, length=_MINUTE, weekdays=st.sets(st.integers(1, 7)),
       hours=st.sampled_from(["09:00-12:00,13:30-18:00", "08:00-20:00", "00:00-23:59",
                              "09:00-09:01,22:00-23:00"]),
       holidays=st.sets(_DAY, max_size=40), extra=st.sets(_DAY, max_size=10))
def test_working_minutes_between_two_times_are_counted_without_walking_the_days(
        start, length, weekdays, hours, holidays, extra):
    """Whole working days are counted by weeks, holidays and make-up days: the same
    minutes as walking day by day, over up to three years, for any calendar."""
    base = at(2025, 1, 1)
    first = base.date()
    cal = worktime.Calendar(
        tz=SH, hours=worktime.parse_hours(hours), weekdays=frozenset(weekdays),
        holidays=frozenset(first + dt.timedelta(days=d) for d in holidays),
        extra_days=frozenset(first + dt.timedelta(days=d) for d in extra))
    a = base + dt.timedelta(minutes=start)
    b = a + dt.timedelta(minutes=length)
    assert cal.between(a, b) == _between_day_by_day(cal, a, b)
    assert cal.between(b, a) == -cal.between(a, b)
    last = b.date()
    assert cal.working_days(a.date(), last) == sum(
        cal.is_working_day(a.date() + dt.timedelta(days=n))
        for n in range((last - a.date()).days + 1))


def test_the_sla_follows_the_score(cal):
    created = at(2026, 12, 1, 17, 0)
    assert worktime.sla_due("hot", created, cal) == at(2026, 12, 1, 18, 0)
    assert worktime.sla_due("hot", at(2026, 12, 1, 17, 30), cal) == at(2026, 12, 2, 9, 30)
    assert worktime.sla_due("warm", created, cal) == at(2026, 12, 2, 17, 0)
    assert worktime.sla_due("cold", created, cal) == at(2026, 12, 4, 17, 0)


@pytest.mark.parametrize("name,value", [
    ("WORK_HOURS", "18:00-09:00"), ("WORK_HOURS", "nine to five"),
    ("WORK_HOLIDAYS", ["2026-13-01"]), ("LEAD_SLA", "hot=soon"),
])
def test_a_bad_calendar_setting_is_a_clear_error(settings, name, value):
    from django.core.exceptions import ImproperlyConfigured

    setattr(settings, name, value)
    with pytest.raises(ImproperlyConfigured, match=name):
        worktime.sla_due("hot", at(2026, 12, 1, 10, 0))


# --- activities, first contact and the SLA clock ---------------------------------------

def test_the_first_activity_is_the_first_contact(client, sales):
    lead = make_lead(owner=sales, sla_due=timezone.now() + dt.timedelta(hours=1))
    url = reverse("staff:lead_activity", args=[lead.public_id])
    login(client, sales)
    assert client.post(url, edit(lead, {"kind": "call", "outcome": "held"})).status_code == 400
    client.post(url, edit(lead, {"kind": "call", "outcome": "no_answer", "note": "关机"}))
    client.post(url, edit(lead, {"kind": "wechat", "outcome": "replied"}))
    lead.refresh_from_db()
    first = lead.events.filter(kind="activity").order_by("pk").first()
    assert first.data == {"type": "call", "outcome": "no_answer", "note": "关机"}
    assert abs(lead.first_contact_at - first.created_at) < dt.timedelta(seconds=1)
    assert lead.first_contact_by == sales
    page = client.get(reverse("staff:lead_detail", args=[lead.public_id])).content.decode()
    assert "电话 · 无人接听" in page and "微信 · 已回复" in page
    assert "sla-met" in page


def test_the_lead_page_shows_the_running_sla_clock(client, sales, cal):
    with time_machine.travel(at(2026, 12, 1, 10, 0), tick=False):
        lead = make_lead(owner=sales, score="hot", sla_due=at(2026, 12, 1, 11, 0))
        page = login(client, sales).get(
            reverse("staff:lead_detail", args=[lead.public_id])).content.decode()
        assert "sla-running" in page and "剩余 1 小时 0 分钟" in page
    with time_machine.travel(at(2026, 12, 1, 14, 0), tick=False):
        client.logout()
        response = login(client, sales).get(reverse("staff:lead_detail", args=[lead.public_id]))
        assert response.status_code == 200, response.get("Location")
        page = response.content.decode()
        # 11:00-12:00 and 13:30-14:00: 1 h 30 min of working time late.
        assert "sla-late" in page and "已超出 1 小时 30 分钟" in page


def test_next_action_is_set_shown_and_cleared(client, sales):
    lead = make_lead(owner=sales)
    url = reverse("staff:lead_next_action", args=[lead.public_id])
    login(client, sales)
    due = (timezone.localtime() + dt.timedelta(days=1)).replace(hour=10, minute=0, second=0,
                                                               microsecond=0)
    client.post(url, edit(lead, {"kind": "visit", "due": due.strftime("%Y-%m-%dT%H:%M"),
                                 "note": "带方案"}))
    lead.refresh_from_db()
    assert (lead.next_action_kind, lead.next_action_due, lead.next_action_note) == (
        "visit", due, "带方案")
    assert lead.events.get(kind="next_action_set").data["type"] == "visit"
    past = (timezone.localtime() - dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    assert client.post(url, edit(lead, {"kind": "call", "due": past})).status_code == 400
    client.post(url, edit(lead, {"kind": ""}))
    lead.refresh_from_db()
    assert lead.next_action_due is None and lead.events.filter(
        kind="next_action_cleared").exists()


def test_closing_a_lead_clears_its_next_action(sales):
    lead = make_lead(owner=sales, next_action_kind="call",
                     next_action_due=timezone.now() + dt.timedelta(hours=1))
    services.lead_change_status(lead=lead, status="won", actor=sales)
    lead.refresh_from_db()
    assert lead.next_action_due is None


# --- My day ------------------------------------------------------------------------------

def test_my_day_lists_overdue_today_hot_unassigned_and_my_open_leads(client, sales, sales2):
    now = timezone.now()
    make_lead(name="逾期", owner=sales, next_action_kind="call",
              next_action_due=now - dt.timedelta(hours=3))
    end_of_day = timezone.localtime(now).replace(hour=23, minute=58)
    if end_of_day > now:
        make_lead(name="今天", owner=sales, next_action_kind="wechat",
                  next_action_due=end_of_day)
    make_lead(name="热门未分配", score="hot")
    make_lead(name="冷门未分配", score="cold")
    make_lead(name="同事的", owner=sales2, score="hot", next_action_kind="call",
              next_action_due=now - dt.timedelta(hours=1))
    make_lead(name="已赢单", owner=sales, status="won")
    response = login(client, sales).get(reverse("staff:my_day"))
    ctx = response.context
    assert [x.name for x in ctx["overdue"]] == ["逾期"]
    assert [x.name for x in ctx["today"]] == (["今天"] if end_of_day > now else [])
    assert [x.name for x in ctx["hot_unassigned"]] == ["热门未分配"]
    assert {x.name for x in ctx["open"]} == {"逾期", "今天"} & {
        x.name for x in Lead.objects.filter(owner=sales, status="new")}
    page = response.content.decode()
    assert "同事的" not in page and "已赢单" not in page
    assert "我的今天" in page and "接手" in page


def test_my_day_open_leads_without_a_next_action_first_then_by_due_time(client, sales):
    now = timezone.now()
    older = make_lead(name="无跟进旧", owner=sales)
    Lead.objects.filter(pk=older.pk).update(created_at=now - dt.timedelta(days=3))
    make_lead(name="无跟进新", owner=sales)
    make_lead(name="后天", owner=sales, next_action_kind="call",
              next_action_due=now + dt.timedelta(days=2))
    sooner = make_lead(name="明天", owner=sales, next_action_kind="visit",
                       next_action_due=now + dt.timedelta(days=1))
    make_lead(name="已输单", owner=sales, status="lost")
    make_lead(name="已合并", owner=sales, merged_into=sooner)
    ctx = login(client, sales).get(reverse("staff:my_day")).context
    assert [x.name for x in ctx["open"]] == ["无跟进新", "无跟进旧", "明天", "后天"]
    assert ctx["open_count"] == 4


def test_my_day_sections_are_bounded_whatever_the_book_and_the_count_stays_exact(
        client, sales, monkeypatch):
    from selector.staff import queries

    monkeypatch.setattr(queries, "MY_DAY_LIMIT", 3)
    now = timezone.now()
    for n in range(4):
        make_lead(name=f"无跟进{n}", owner=sales)
    for n in range(4):
        make_lead(name=f"逾期{n}", owner=sales, next_action_kind="call",
                  next_action_due=now - dt.timedelta(hours=n + 1))
    response = login(client, sales).get(reverse("staff:my_day"))
    ctx = response.context
    assert [x.name for x in ctx["open"]] == ["无跟进3", "无跟进2", "无跟进1"]
    assert [x.name for x in ctx["overdue"]] == ["逾期3", "逾期2", "逾期1"]
    assert ctx["open_count"] == 8
    assert reverse("staff:lead_list") + "?owner=mine" in response.content.decode()


# --- reminders, assignment, SLA escalation, digests --------------------------------------

def test_the_reminder_mentions_the_owner_and_fires_once_for_the_current_action(webhook, sales):
    StaffProfile.objects.create(user=sales, mobile="13800138000")
    # As set from the form: local time (+08:00); the database gives it back in UTC.
    due = timezone.localtime(timezone.now() + dt.timedelta(hours=1))
    lead = make_lead(owner=sales, next_action_kind="call", next_action_due=due)
    assert tasks.remind.call(str(lead.public_id), due.isoformat()) == "sent"
    assert tasks.remind.call(str(lead.public_id), due.isoformat()) == "already-sent"
    assert tasks.remind.call(str(lead.public_id),
                             (due - dt.timedelta(hours=5)).isoformat()) == "changed"
    assert len(webhook.requests) == 1
    text = webhook.requests[0]["text"]
    assert text["mentioned_mobile_list"] == ["13800138000"]
    assert lead.report_number in text["content"]
    assert f"/staff/leads/{lead.public_id}/" in text["content"]
    assert mail.outbox[-1].to == ["sam@example.com"]
    assert lead.events.get(kind="reminded").data["to"] == "sam"


def test_setting_a_next_action_enqueues_the_reminder_at_the_due_time(sales, settings,
                                                                    django_capture_on_commit_callbacks):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    lead = make_lead(owner=sales)
    due = (timezone.now() + dt.timedelta(days=1)).replace(microsecond=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.lead_set_next_action(lead=lead, actor=sales, kind="call", due=due)
    queued = DBTaskResult.objects.get(task_path="selector.staff.tasks.remind")
    assert queued.run_after == due
    assert queued.args_kwargs["args"] == [str(lead.public_id), due.isoformat()]


def test_assignment_tells_the_new_owner_with_a_mention(webhook, manager, sales,
                                                      django_capture_on_commit_callbacks):
    StaffProfile.objects.create(user=sales, mobile="13900139000")
    lead = make_lead()
    with django_capture_on_commit_callbacks(execute=True):
        services.lead_assign(lead=lead, owner=sales, actor=manager)
    assert webhook.requests[0]["text"]["mentioned_mobile_list"] == ["13900139000"]
    assert lead.report_number in webhook.requests[0]["text"]["content"]
    # Taking a lead yourself notifies nobody.
    other = make_lead()
    with django_capture_on_commit_callbacks(execute=True):
        services.lead_assign(lead=other, owner=sales, actor=sales)
    assert len(webhook.requests) == 1


def test_sla_breaches_escalate_to_managers_once(webhook, manager, sales):
    StaffProfile.objects.create(user=manager, mobile="13700137000")
    late = make_lead(score="hot", sla_due=timezone.now() - dt.timedelta(minutes=5))
    make_lead(score="hot", sla_due=timezone.now() + dt.timedelta(minutes=30))
    make_lead(score="hot", sla_due=timezone.now() - dt.timedelta(minutes=5),
              first_contact_at=timezone.now())
    assert sweeps.escalate_sla() == 1
    assert sweeps.escalate_sla() == 0
    assert len(webhook.requests) == 1
    assert webhook.requests[0]["text"]["mentioned_mobile_list"] == ["13700137000"]
    assert late.report_number in webhook.requests[0]["text"]["content"]
    assert LeadEvent.objects.filter(kind="sla_breached").get().lead == late
    assert mail.outbox[-1].to == ["mia@example.com"]


def test_daily_digests_go_once_a_day_after_the_digest_time(webhook, manager, sales, settings):
    settings.STAFF_DIGEST_TIME = "08:30"
    make_lead(owner=sales, next_action_kind="call",
              next_action_due=at(2026, 12, 1, 7, 0), name="早上")
    make_lead(owner=sales, next_action_kind="visit",
              next_action_due=at(2026, 12, 1, 15, 0), name="下午")
    make_lead(score="hot")
    with time_machine.travel(at(2026, 12, 1, 8, 0), tick=False):
        assert tasks.run_tick()["digests"] == 0
    with time_machine.travel(at(2026, 12, 1, 9, 0), tick=False):
        assert tasks.run_tick()["digests"] == 2  # the rep and the manager
        assert tasks.run_tick()["digests"] == 0
    texts = [r["text"]["content"] for r in webhook.requests if "摘要" in r["text"]["content"]]
    rep = next(t for t in texts if "sam" in t.split("\n")[0])
    assert "1 条已逾期，1 条今天到期" in rep
    boss = next(t for t in texts if "mia" in t.split("\n")[0])
    assert "未分配的进行中线索：" in boss
    with time_machine.travel(at(2026, 12, 2, 9, 0), tick=False):
        assert tasks.run_tick()["digests"] == 2


# --- the working calendar in the admin (issue 24, finding 7) ------------------------------

def test_the_admins_calendar_days_win_over_the_settings_and_apply_at_once(db, settings):
    from selector.leads.models import CalendarDay

    settings.WORK_HOLIDAYS = ["2026-12-02"]  # a Wednesday, the default says holiday
    settings.WORK_EXTRA_DAYS = []
    wednesday, saturday = dt.date(2026, 12, 2), dt.date(2026, 12, 5)
    assert not worktime.calendar().is_working_day(wednesday)
    CalendarDay.objects.create(day=wednesday, kind="workday", name="调休")
    CalendarDay.objects.create(day=saturday, kind="workday", name="调休")
    cal = worktime.calendar()  # no wait for the cache: the edit cleared it
    assert cal.is_working_day(wednesday) and cal.is_working_day(saturday)
    CalendarDay.objects.filter(day=saturday).delete()
    CalendarDay.objects.filter(day=wednesday).update(kind="holiday")  # no signal: bulk
    worktime.calendar_changed()
    cal = worktime.calendar()
    assert not cal.is_working_day(saturday) and not cal.is_working_day(wednesday)


def test_no_digest_and_no_sla_message_on_a_day_off(webhook, manager, sales, settings):
    from selector.leads.models import CalendarDay

    settings.STAFF_DIGEST_TIME = "08:30"
    CalendarDay.objects.create(day=dt.date(2026, 12, 2), kind="holiday", name="测试假日")
    CalendarDay.objects.create(day=dt.date(2026, 12, 5), kind="workday", name="调休")
    make_lead(owner=sales, next_action_kind="call", next_action_due=at(2026, 12, 1, 7, 0))
    make_lead(score="hot", sla_due=at(2026, 12, 2, 8, 55))
    with time_machine.travel(at(2026, 12, 2, 9, 0), tick=False):  # the holiday (Wednesday)
        assert tasks.run_tick() == {"sla_escalated": 0, "digests": 0, "working_day": False}
    assert webhook.requests == []
    with time_machine.travel(at(2026, 12, 3, 9, 0), tick=False):  # Thursday: all of it
        result = tasks.run_tick()
    assert result["sla_escalated"] == 1 and result["digests"] == 2
    with time_machine.travel(at(2026, 12, 5, 9, 0), tick=False):  # Saturday, worked (调休)
        assert tasks.run_tick()["digests"] == 2
    with time_machine.travel(at(2026, 12, 6, 9, 0), tick=False):  # Sunday
        assert tasks.run_tick()["working_day"] is False


def test_the_calendar_is_edited_in_the_admin(admin_client):
    from selector.leads.models import CalendarDay

    response = admin_client.post("/admin/leads/calendarday/add/", {
        "day": "2027-02-06", "kind": "holiday", "name": "春节"})
    assert response.status_code == 302
    assert CalendarDay.objects.get().name == "春节"
    page = admin_client.get("/admin/leads/calendarday/").content.decode()
    assert "2027-02-06" in page or "2027年2月6日" in page
    bad = admin_client.post("/admin/leads/calendarday/add/", {
        "day": "2027-02-06", "kind": "holiday", "name": "重复"})
    assert bad.status_code == 200 and CalendarDay.objects.count() == 1  # one row per day
