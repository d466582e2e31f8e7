"""The dashboard's funnel (selector.staff.queries.dashboard_figures) on a small, explicit
history: sessions started per local day, how far they got, results and leads, per source.
(Moved here from the test of selector.leads.queries.funnel, which only tests used.)"""

import datetime as dt

import pytest
from django.utils import timezone

from selector.leads.models import Lead
from selector.staff import queries
from selector.wizard.models import WizardSession
from selector.wizard.steps import STEPS
from tests.conftest import make_lead

pytestmark = pytest.mark.django_db
TZ = timezone.get_current_timezone()
DAY1, DAY2 = dt.date(2026, 11, 2), dt.date(2026, 11, 3)


def _session(day, furthest, *, result=False, lead=False, source="baidu", hour=10):
    ws = WizardSession.objects.create(furthest_step=furthest, utm_source=source,
                                      result_at=timezone.now() if result else None)
    created = dt.datetime.combine(day, dt.time(hour), tzinfo=TZ)
    WizardSession.objects.filter(pk=ws.pk).update(created_at=created)
    if lead:
        made = make_lead(wizard_session=ws, utm_source=source)
        Lead.objects.filter(pk=made.pk).update(created_at=created)
    return ws


@pytest.fixture
def history():
    _session(DAY1, "scale")
    _session(DAY1, "budget")
    _session(DAY1, "result", result=True)
    _session(DAY1, "result", result=True, lead=True)
    _session(DAY1, "workload", source="")
    _session(DAY2, "result", result=True, lead=True, source="wechat")
    # 23:00 Shanghai time still counts as DAY2.
    _session(DAY2, "determinism", source="wechat", hour=23)
    _session(DAY2 + dt.timedelta(days=1), "result", result=True, lead=True, hour=0)  # out of range


def funnel(start, end, source=""):
    """[started, reached question 2, ..., reached the last question, results, leads]."""
    return queries.dashboard_figures(start, end, source, use_cache=False)["funnel"]


def test_five_question_steps():
    assert len(STEPS) == 5  # the lists below have one entry per step 2..5


def test_it_counts_started_each_step_result_and_lead(history):
    assert funnel(DAY1, DAY2) == [7, 6, 5, 4, 3, 3, 2]


def test_it_filters_by_source(history):
    assert funnel(DAY1, DAY2, "baidu") == [4, 3, 3, 2, 2, 2, 1]
    assert funnel(DAY1, DAY2, "wechat") == [2, 2, 2, 2, 1, 1, 1]
    assert funnel(DAY1, DAY2, "nobody") == [0, 0, 0, 0, 0, 0, 0]


def test_it_counts_per_day(history):
    assert funnel(DAY1, DAY1) == [5, 4, 3, 2, 2, 2, 1]
    assert funnel(DAY2, DAY2) == [2, 2, 2, 2, 1, 1, 1]
    assert funnel(DAY2, DAY2, "wechat") == funnel(DAY2, DAY2)


def test_an_empty_period_is_all_zero():
    assert funnel(DAY1, DAY1) == [0, 0, 0, 0, 0, 0, 0]


def test_it_counts_by_step_identifier_and_a_retired_one_only_as_started(history):
    # A stage no step has any more (a renamed or removed step): the session started, and
    # reached no counted stage; the others keep their counts.
    _session(DAY1, "retired-step")
    assert funnel(DAY1, DAY2) == [8, 6, 5, 4, 3, 3, 2]
