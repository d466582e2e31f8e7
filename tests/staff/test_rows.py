"""The lead rows of the list and of My day are drawn by Jinja2 (selector.staff.rows). They
must be the markup the template language drew before: the references below are those
templates as they were when the rows moved, in tests/staff/reference/ (a deliberate change
to the rows changes both).
Compared after folding the white space between tags, the entities' spelling (&#34; for
&quot;) and the CSRF token's random mask."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import time_machine
from django.template import Context, RequestContext, Template
from django.test import RequestFactory
from django.utils import translation

from selector.leads.models import Lead
from selector.staff import rows
from selector.staff.views import lead_list as views
from tests.conftest import make_lead

HOSTILE = "<script>alert('x')</script> & \"quoted\" 王伟"
NOW = dt.datetime(2026, 12, 1, 3, 4, 5, tzinfo=dt.UTC)

# The template-language rows as they were when the rows moved to Jinja2 (the list's loop
# and templates/staff/_lead_rows.html).
REFERENCE = Path(__file__).parent / "reference"
REFERENCE_TABLE = (REFERENCE / "table_rows.html").read_text()
REFERENCE_DAY = (REFERENCE / "day_rows.html").read_text()


def normalised(html: str) -> str:
    html = re.sub(r">\s+<", "><", str(html).strip())
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", html)
    return html.replace("&quot;", "&#34;").replace("&#x27;", "&#39;")


@pytest.fixture
def labelled(db, sales):
    """Rows of every kind: overdue, due later, no next action, a possible duplicate, a
    missed SLA, with and without owner, source and campaign, hostile text."""
    with time_machine.travel(NOW, tick=False):
        specs = [
            {"name": HOSTILE, "company": HOSTILE, "utm_source": HOSTILE,
             "utm_campaign": HOSTILE, "owner": sales, "next_action_kind": "call",
             "next_action_due": NOW - dt.timedelta(hours=3), "possible_duplicate": True},
            {"next_action_kind": "visit", "next_action_due": NOW + dt.timedelta(days=2),
             "utm_source": "baidu", "score": "cold", "status": "contacted"},
            {"sla_due": NOW - dt.timedelta(hours=1), "score": "warm", "gpus": 2048},
            {"status": "won", "owner": sales, "utm_campaign": "only-campaign"},
        ]
        leads = [make_lead(**spec) for spec in specs]
        Lead.objects.filter(pk=leads[0].pk).update(created_at=NOW - dt.timedelta(days=40))
        found = list(Lead.objects.filter(pk__in=[lead.pk for lead in leads])
                     .select_related("owner").order_by("pk"))
        yield found


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("bulk", [True, False])
def test_the_lists_rows_are_the_template_languages_markup(labelled, language, bulk):
    with time_machine.travel(NOW, tick=False), translation.override(language):
        views._label_rows(labelled)
        drawn = rows.table_rows(labelled, bulk=bulk)
        expected = Template(REFERENCE_TABLE).render(Context({
            "page": {"object_list": labelled}, "bulk_form": bulk}))
    assert normalised(drawn) == normalised(expected)
    assert drawn.count("<tr") == 4 and ("checkbox" in drawn) == bulk
    assert "<script>" not in drawn and "&lt;script&gt;" in drawn


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("take", [True, False])
def test_my_days_rows_are_the_template_languages_markup(labelled, language, take):
    request = RequestFactory().get("/staff/?a=<b>&c=1")
    for leads in (labelled, []):
        with time_machine.travel(NOW, tick=False), translation.override(language):
            views._label_rows(leads)
            empty = translation.gettext("Nothing overdue.")
            drawn = rows.day_rows(request, leads, empty=empty, take=take)
            expected = Template(REFERENCE_DAY).render(RequestContext(request, {
                "leads": leads, "empty": empty, "take": take}))
        assert normalised(drawn) == normalised(expected)
        assert "<script>" not in drawn
    assert ("csrfmiddlewaretoken" in drawn) is False  # the empty list has no forms


def test_the_pages_use_the_jinja2_rows(client, sales, labelled):
    """The list and My day draw their rows through selector.staff.rows, in both
    languages (the words translated)."""
    from .conftest import login

    login(client, sales)
    for prefix, word in (("", "疑似重复"), ("/en", "Possible duplicate")):
        listing = client.get(prefix + "/staff/leads/").content.decode()
        day = client.get(prefix + "/staff/").content.decode()
        assert listing.count('<tr class="lead-row') == 4 and word in listing
        assert 'class="day-item' in day and word in day
        assert "<script>alert" not in listing + day
