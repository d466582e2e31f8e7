"""Dashboard figures from stored daily counts (selector.staff.rollup) equal a direct count
of the base tables, before and after every kind of write that can change a past day."""

import datetime as dt
import random
from collections import Counter, defaultdict

import pytest
from django.core.management import call_command
from django.utils import timezone

from selector.leads.models import Lead
from selector.leads.services import lead_delete
from selector.staff import queries, rollup
from selector.staff.models import DashboardDay, DashboardFigures
from selector.wizard.models import WizardSession
from selector.wizard.services import wizard_session_reach
from selector.wizard.steps import RESULT_INDEX, STEPS

from .conftest import make_lead

pytestmark = pytest.mark.django_db
SOURCES = ["", "baidu", "wechat"]
FABRICS = ["roce-v2-400g", "infiniband", "standard"]


def _at(days_ago: int, hour: int) -> dt.datetime:
    day = timezone.localdate() - dt.timedelta(days=days_ago)
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 30)))


def _backdate(obj, when: dt.datetime) -> None:
    type(obj).objects.filter(pk=obj.pk).update(created_at=when)  # no signal, like a bulk load
    obj.created_at = when


@pytest.fixture
def history():
    """Sessions and leads over the last 20 days, today included, at both ends of days."""
    rng = random.Random(7)
    for _ in range(120):
        ws = WizardSession.objects.create(
            furthest_step=rng.randint(1, RESULT_INDEX), utm_source=rng.choice(SOURCES))
        if ws.furthest_step == RESULT_INDEX:
            ws.result_at = timezone.now()
            ws.save(update_fields=["result_at"])
        _backdate(ws, _at(rng.randint(0, 20), rng.choice([0, 12, 23])))
        if ws.furthest_step == RESULT_INDEX and rng.random() < 0.6:
            lead = make_lead(wizard_session=ws, utm_source=ws.utm_source,
                             recommendation=rng.choice(FABRICS))
            _backdate(lead, ws.created_at)


def expected(start: dt.date, end: dt.date, source: str = "") -> dict:
    """The figures counted row by row in Python."""
    def within(obj):
        day = timezone.localdate(obj.created_at)
        return start <= day <= end and (not source or obj.utm_source == source)

    sessions = [s for s in WizardSession.objects.all() if within(s)]
    leads = [lead for lead in Lead.objects.all() if within(lead)]
    funnel = [len(sessions), *(sum(s.furthest_step >= i for s in sessions)
                               for i in range(2, len(STEPS) + 1)),
              sum(s.result_at is not None for s in sessions), len(leads)]
    weeks = Counter()
    for lead in leads:
        day = timezone.localdate(lead.created_at)
        weeks[day - dt.timedelta(days=day.weekday())] += 1
    per_source = defaultdict(lambda: [0, 0, 0])
    for s in sessions:
        per_source[s.utm_source][0] += 1
        per_source[s.utm_source][1] += s.result_at is not None
    for lead in leads:
        per_source[lead.utm_source][2] += 1
    sources = sorted(((k, *v) for k, v in per_source.items() if v[0]),
                     key=lambda r: (-r[1], r[0]))
    mix = Counter(lead.recommendation for lead in leads)
    return {"funnel": funnel, "weeks": sorted(weeks.items()),
            "mix": sorted(mix.items(), key=lambda kv: (-kv[1], kv[0])), "sources": sources}


def figures(start, end, source=""):
    got = queries.dashboard_figures(start, end, source, use_cache=False)
    return {k: got[k] for k in ("funnel", "weeks", "mix", "sources")}


@pytest.mark.parametrize("span,source", [(14, ""), (30, ""), (30, "wechat"), (3, "baidu"),
                                         (0, "")])
def test_figures_equal_a_direct_count(history, span, source):
    end = timezone.localdate()
    start = end - dt.timedelta(days=span)
    assert figures(start, end, source) == expected(start, end, source)
    # Second time from the stored days: the same.
    assert DashboardDay.objects.filter(ready=True).exists() or span == 0
    assert figures(start, end, source) == expected(start, end, source)


def test_past_days_are_stored_and_today_is_live(history):
    end = timezone.localdate()
    figures(end - dt.timedelta(days=30), end)
    days = set(DashboardDay.objects.filter(ready=True).values_list("day", flat=True))
    assert days == {end - dt.timedelta(days=n) for n in range(1, 31)}
    assert not DashboardFigures.objects.filter(day=end).exists()
    # A write that bypasses model signals is not seen for a stored day (proof that the
    # figures come from the stored counts), but is for today, which is counted live.
    period = (end - dt.timedelta(days=30), end)
    before = figures(*period)
    past = WizardSession.objects.filter(created_at__lt=rollup.day_start(end))
    WizardSession.objects.filter(pk__in=past.values("pk")[:5]).update(furthest_step=1)
    assert figures(*period) == before
    today = WizardSession.objects.create(furthest_step=1)
    assert figures(*period)["funnel"][0] == before["funnel"][0] + 1
    assert today.pk


def test_a_session_finishing_after_midnight_updates_the_day_it_started(
        django_capture_on_commit_callbacks):
    ws = WizardSession.objects.create(furthest_step=2, utm_source="baidu")
    _backdate(ws, _at(1, 23))
    end = timezone.localdate()
    start = end - dt.timedelta(days=7)
    assert figures(start, end)["funnel"][-2] == 0
    with django_capture_on_commit_callbacks(execute=True):
        wizard_session_reach(ws=ws, index=RESULT_INDEX)
    assert figures(start, end) == expected(start, end)
    assert figures(start, end)["funnel"][-2] == 1


def test_deleting_or_editing_a_past_lead_updates_its_day(
        history, django_capture_on_commit_callbacks):
    end = timezone.localdate()
    start = end - dt.timedelta(days=30)
    figures(start, end)
    old = Lead.objects.filter(created_at__lt=timezone.now() - dt.timedelta(days=2))
    with django_capture_on_commit_callbacks(execute=True):
        lead_delete(lead=old.first())
    assert figures(start, end) == expected(start, end)
    lead = old.first()
    with django_capture_on_commit_callbacks(execute=True):
        lead.utm_source = "admin-edit"  # the admin saves every field
        lead.save()
    assert figures(start, end) == expected(start, end)
    # A status change (update_fields without a counted field) keeps the stored day.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        lead.status = "won"
        lead.save(update_fields=["status", "updated_at"])
    assert callbacks == []


def test_a_write_during_materialisation_leaves_no_stale_day(history, monkeypatch):
    """The race the protocol is for: a past day changes (and its writer invalidates it)
    after the counting read its snapshot but before the counts are stored."""
    end = timezone.localdate()
    start = end - dt.timedelta(days=10)
    victim = WizardSession.objects.filter(
        created_at__gte=rollup.day_start(start),
        created_at__lt=rollup.day_start(end)).first()
    day = timezone.localdate(victim.created_at)
    count_days = rollup.count_days

    def racing(*args, **kwargs):
        counted = count_days(*args, **kwargs)
        WizardSession.objects.filter(pk=victim.pk).delete()  # commits, then invalidates:
        rollup.invalidate(day)
        return counted

    monkeypatch.setattr(rollup, "count_days", racing)
    figures(start, end)
    monkeypatch.setattr(rollup, "count_days", count_days)
    assert not DashboardDay.objects.filter(day=day).exists()  # not stored stale
    assert DashboardDay.objects.filter(ready=True).count() == 9
    assert figures(start, end) == expected(start, end)


def test_a_day_claimed_by_another_request_is_counted_live(history):
    end = timezone.localdate()
    start = end - dt.timedelta(days=5)
    busy = end - dt.timedelta(days=2)
    DashboardDay.objects.create(day=busy, token="00000000-0000-4000-8000-000000000000",
                                version=rollup.version())
    assert figures(start, end) == expected(start, end)
    assert not DashboardDay.objects.get(day=busy).ready
    # Abandoned for longer than PENDING_TIMEOUT: taken over.
    DashboardDay.objects.filter(day=busy).update(
        created_at=timezone.now() - rollup.PENDING_TIMEOUT - dt.timedelta(seconds=1))
    assert figures(start, end) == expected(start, end)
    assert DashboardDay.objects.get(day=busy).ready


def test_counts_of_another_version_are_recounted(history, settings):
    end = timezone.localdate()
    start = end - dt.timedelta(days=5)
    figures(start, end)
    DashboardFigures.objects.update(started=999)
    DashboardDay.objects.update(version="steps=1;tz=UTC")
    assert figures(start, end) == expected(start, end)
    assert set(DashboardDay.objects.values_list("version", flat=True)) == {rollup.version()}


def test_seed_demo_resets_and_warms_the_stored_days(content):
    DashboardDay.objects.create(day=dt.date(2020, 1, 1), token="00000000-0000-4000-8000-"
                                "000000000001", version="old", ready=True)
    call_command("seed_demo", leads=40, sessions=90, months=2, seed=3, verbosity=0)
    assert not DashboardDay.objects.filter(day=dt.date(2020, 1, 1)).exists()
    assert DashboardDay.objects.filter(ready=True).count() == 31 * 2 + 1
    end = timezone.localdate()
    start = end - dt.timedelta(days=62)
    assert figures(start, end) == expected(start, end)


def test_missing_days_are_counted_in_runs_of_consecutive_days(history, monkeypatch):
    end = timezone.localdate()
    start = end - dt.timedelta(days=20)
    figures(start, end)
    gaps = [end - dt.timedelta(days=n) for n in (1, 2, 3, 15)]
    rollup.invalidate(*gaps)
    spans = []
    count_days = rollup.count_days
    monkeypatch.setattr(rollup, "count_days",
                        lambda first, last, *a: spans.append((first, last)) or count_days(
                            first, last, *a))
    assert figures(start, end) == expected(start, end)
    live = [(end, end)]  # today is always counted live
    assert sorted(spans) == sorted([(gaps[2], gaps[0]), (gaps[3], gaps[3]), *live])


def test_a_quiet_day_is_stored_once_as_zeros(monkeypatch):
    """Every stored day has a row, so a day without sessions or leads is not counted again
    on every request (the rows are how a request sees which days are ready)."""
    end = timezone.localdate()
    start = end - dt.timedelta(days=3)
    assert figures(start, end)["funnel"][0] == 0
    assert DashboardFigures.objects.filter(started=0, utm_source="").count() == 3
    calls = []
    count_days = rollup.count_days
    monkeypatch.setattr(rollup, "count_days",
                        lambda first, last, *a: calls.append(first) or count_days(
                            first, last, *a))
    figures(start, end)
    assert calls == [end]  # today only
