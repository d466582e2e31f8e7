import datetime as dt

from django.utils import timezone

from selector.domain import Answers
from selector.leads.queries import Funnel, funnel, funnel_by_day
from selector.leads.services import lead_create
from selector.wizard.models import WizardSession

from .conftest import ANSWERS, contact_data, make_session

CONTACT = {k: v for k, v in contact_data(phone="+8613812345678").items()
           if k not in {"consent", "website", "started"}}
TZ = timezone.get_current_timezone()
DAY1, DAY2 = dt.date(2026, 11, 2), dt.date(2026, 11, 3)


def _session(day, furthest, *, result=False, lead=False, source="baidu", hour=10):
    ws = make_session(furthest_step=furthest, utm_source=source,
                      result_at=timezone.now() if result else None)
    created = dt.datetime.combine(day, dt.time(hour), tzinfo=TZ)
    WizardSession.objects.filter(pk=ws.pk).update(created_at=created)
    if lead:
        lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS), contact=CONTACT,
                    language="zh-hans")
    return ws


def _seed():
    _session(DAY1, 1)
    _session(DAY1, 3)
    _session(DAY1, 6, result=True)
    _session(DAY1, 6, result=True, lead=True)
    _session(DAY1, 2, source="")
    _session(DAY2, 6, result=True, lead=True, source="wechat")
    _session(DAY2, 4, source="wechat", hour=23)  # 23:00 Shanghai time still counts as DAY2
    _session(DAY2 + dt.timedelta(days=1), 6, result=True, lead=True, hour=0)  # out of range


def test_it_counts_started_each_step_result_and_lead(db, content):
    _seed()
    assert funnel(DAY1, DAY2) == Funnel(
        started=7, steps={1: 7, 2: 6, 3: 5, 4: 4, 5: 3, 6: 3}, results=3, leads=2)


def test_it_filters_by_source(db, content):
    _seed()
    assert funnel(DAY1, DAY2, source="baidu") == Funnel(
        started=4, steps={1: 4, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}, results=2, leads=1)
    assert funnel(DAY1, DAY2, source="").started == 1
    assert funnel(DAY1, DAY2, source="nobody") == Funnel()


def test_it_counts_per_day(db, content):
    _seed()
    days = funnel_by_day(DAY1, DAY2)
    assert list(days) == [DAY1, DAY2]
    assert days[DAY1] == Funnel(started=5, steps={1: 5, 2: 4, 3: 3, 4: 2, 5: 2, 6: 2},
                                results=2, leads=1)
    assert days[DAY2] == Funnel(started=2, steps={1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1},
                                results=1, leads=1)
    assert funnel_by_day(DAY1, DAY2, source="wechat") == {DAY2: days[DAY2]}


def test_an_empty_period_is_all_zero(db):
    assert funnel(DAY1, DAY1) == Funnel(started=0, steps={}, results=0, leads=0)
