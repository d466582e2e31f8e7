import datetime as dt
import re

import pytest
from django.core.management import call_command
from django.utils import timezone

from selector.domain import Fabric
from selector.leads.models import Lead
from selector.wizard.models import WizardSession
from selector.wizard.steps import RESULT
from tests.conftest import make_lead

from .conftest import login

URL = "/en/staff/dashboard/"


@pytest.fixture
def sessions(db):
    now = timezone.now()
    for step in ("scale", "scale", "workload", "budget", "determinism", "nic-speed"):
        WizardSession.objects.create(furthest_step=step, utm_source="baidu")
    results = [WizardSession.objects.create(furthest_step=RESULT, result_at=now,
                                            utm_source="wechat") for _ in range(4)]
    make_lead(wizard_session=results[0], utm_source="wechat", recommendation="infiniband")
    make_lead(wizard_session=results[1], utm_source="wechat")
    old = WizardSession.objects.create(furthest_step="scale")
    WizardSession.objects.filter(pk=old.pk).update(created_at=now - dt.timedelta(days=200))
    return results


def test_it_shows_the_funnel_with_drop_off(client, sales, sessions):
    response = login(client, sales).get(URL)
    assert response.status_code == 200
    stages = response.context["stages"]
    counts = [s["count"] for s in stages]
    # started, reached step 2..5, result, lead (the 200-day-old session is outside 90 days)
    assert counts == [10, 8, 7, 6, 5, 4, 2]
    assert [s["drop"] for s in stages] == [None, 2, 1, 1, 1, 1, 2]
    assert stages[-1]["drop_pct"] == 50.0
    body = response.content.decode()
    assert body.count("<svg") == 4 and "<table" in body
    assert "style=" not in body  # CSP: no inline styles


def test_it_filters_by_source_and_period(client, sales, sessions):
    login(client, sales)
    stages = client.get(URL + "?source=wechat").context["stages"]
    assert [s["count"] for s in stages] == [4, 4, 4, 4, 4, 4, 2]
    stages = client.get(URL + "?period=365").context["stages"]
    assert stages[0]["count"] == 11


def test_it_shows_leads_per_week_mix_and_conversion(client, sales, sessions):
    response = login(client, sales).get(URL)
    assert sum(w["count"] for w in response.context["weeks"]) == 2
    assert {m["key"] for m in response.context["mix"]} == {
        "infiniband", Lead.objects.exclude(recommendation="infiniband").get().recommendation}
    wechat = next(s for s in response.context["sources"] if s["source"] == "wechat")
    assert (wechat["sessions"], wechat["results"], wechat["leads"], wechat["rate"]) == (
        4, 4, 2, 50.0)


@pytest.mark.parametrize("query", ["period=7", "period=abc", "source=" + "x" * 101])
def test_bad_dashboard_parameters_are_a_400(client, sales, query):
    response = login(client, sales).get(f"{URL}?{query}")
    assert response.status_code == 400


def test_seed_demo_creates_bilingual_leads_and_sessions(db, content):
    call_command("seed_demo", leads=60, sessions=150, seed=1, verbosity=0)
    assert Lead.objects.count() == 60
    assert WizardSession.objects.count() == 150
    assert Lead.objects.filter(language="en").exists()
    assert Lead.objects.filter(language="zh-hans").exists()
    assert Lead.objects.exclude(utm_source="").exists()
    assert Lead.objects.filter(wizard_session__isnull=False).count() == 60
    assert all(lead.events.filter(kind="created").count() == 1 for lead in Lead.objects.all())
    months = {d.month for d in Lead.objects.values_list("created_at", flat=True)}
    assert len(months) > 3
    lead = Lead.objects.first()
    frozen = lead.frozen_recommendation
    assert frozen.get("recommended") or frozen.get("recommended_error") is not None \
        or lead.recommendation == Fabric.STANDARD  # no fabric to size


@pytest.mark.parametrize("owners", [False, True])
def test_seed_demo_leads_past_new_were_contacted(db, content, sales, owners):
    """As the services keep it: a lead moved past "new" has its first contact, so a won or
    lost demo lead shows no running SLA clock; unassigned ones too (released leads)."""
    from devtools.demo import seed
    from selector.staff.views.lead_page import sla_clock

    seed(leads=80, sessions=0, seed=3, owners=[sales.pk] if owners else [])
    past_new = Lead.objects.exclude(status="new")
    assert past_new.exists() and past_new.filter(owner__isnull=True).exists() != owners
    assert not past_new.filter(first_contact_at__isnull=True).exists()
    for lead in past_new:
        assert lead.first_contact_at >= lead.created_at
        clock = sla_clock(lead)
        assert clock is None or clock["done"]


def test_seed_demo_leads_store_what_lead_create_would(db, content):
    """The demo rows come from lead_create's builder: the frozen recommendation, report
    number, score, deadline, company key, consent and source are what a visitor's
    submission with the same answers and contact would store."""
    from selector.domain import Answers
    from selector.leads.builder import REPORT_ALPHABET, lead_values

    call_command("seed_demo", leads=40, sessions=40, seed=2, verbosity=0)
    number = re.compile(rf"NS-\d{{8}}-[{REPORT_ALPHABET}]{{6}}")
    checked = 0
    for lead in Lead.objects.select_related("wizard_session"):
        assert number.fullmatch(lead.report_number)
        assert lead.report_number[3:11] == timezone.localtime(lead.created_at).strftime(
            "%Y%m%d")
        ws = lead.wizard_session
        expected = lead_values(
            answers=Answers.from_dict(lead.answers), language=lead.language,
            now=lead.consent_given_at,
            contact={k: getattr(lead, k) for k in ("name", "company", "phone", "email",
                                                   "role", "timeline", "wechat", "message")},
            source={k: getattr(ws, k) for k in ("landing_url", "referrer", "utm_source",
                                                "utm_medium", "utm_campaign", "utm_term",
                                                "utm_content")},
            user_agent=lead.consent_user_agent)
        stored = {name: getattr(lead, name) for name in expected}
        assert stored == expected
        assert stored["frozen_recommendation"]["snapshot_version"]
        checked += 1
    assert checked == 40
