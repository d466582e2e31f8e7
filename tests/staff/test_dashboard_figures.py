"""Dashboard figures (selector.staff.queries, two GROUP BY passes over the base tables) equal
a count of the rows in Python, for any period and source, and after every kind of write
that changes a past day."""

import datetime as dt
import random
from collections import Counter, defaultdict

import pytest
from django.core.management import call_command
from django.utils import timezone

from selector.leads.models import Lead
from selector.leads.services import lead_delete
from selector.staff import queries
from selector.wizard.models import WizardSession
from selector.wizard.services import wizard_session_reach
from selector.wizard.steps import RESULT, STAGES, STEPS, stage_rank
from tests.conftest import make_lead

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
            furthest_step=rng.choice(STAGES), utm_source=rng.choice(SOURCES))
        if ws.furthest_step == RESULT:
            ws.result_at = timezone.now()
            ws.save(update_fields=["result_at"])
        _backdate(ws, _at(rng.randint(0, 20), rng.choice([0, 12, 23])))
        if ws.furthest_step == RESULT and rng.random() < 0.6:
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
    funnel = [len(sessions), *(sum(stage_rank(s.furthest_step) >= i for s in sessions)
                               for i in range(1, len(STEPS))),
              sum(s.result_at is not None for s in sessions), len(leads)]
    weeks: Counter[dt.date] = Counter()
    for lead in leads:
        day = timezone.localdate(lead.created_at)
        weeks[day - dt.timedelta(days=day.weekday())] += 1
    per_source: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for s in sessions:
        per_source[s.utm_source][0] += 1
        per_source[s.utm_source][1] += s.result_at is not None
    for lead in leads:
        per_source[lead.utm_source][2] += 1
    sources = sorted(((k, v[0], v[1], v[2]) for k, v in per_source.items() if v[0]),
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


def test_a_session_finishing_after_midnight_updates_the_day_it_started(
        django_capture_on_commit_callbacks):
    ws = WizardSession.objects.create(furthest_step="workload", utm_source="baidu")
    _backdate(ws, _at(1, 23))
    end = timezone.localdate()
    start = end - dt.timedelta(days=7)
    assert figures(start, end)["funnel"][-2] == 0
    with django_capture_on_commit_callbacks(execute=True):
        wizard_session_reach(ws=ws, stage=RESULT)
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


def test_figures_of_seeded_demo_data_equal_a_direct_count(content):
    call_command("seed_demo", leads=40, sessions=90, months=2, seed=3, verbosity=0)
    end = timezone.localdate()
    start = end - dt.timedelta(days=62)
    assert figures(start, end) == expected(start, end)
