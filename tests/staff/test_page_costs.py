"""What the workspace's pages cost, in the units that do not depend on the machine: the
queries they run and the work done per row. The texts made once per page (selector.staff.
views.lead_list._label_rows) must be exactly what the template filters made per row before."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.timesince import timesince

from selector.leads.models import Lead
from selector.staff.views import lead_list as views
from tests.conftest import content_stamp_sql, make_lead

from .conftest import login

NOW = dt.datetime(2026, 12, 1, 3, 4, 5, 678901, tzinfo=dt.UTC)
# Ages from "0 minutes" to years, over month ends, leap days and each unit's plural.
AGES = [dt.timedelta(seconds=s) for s in (0, 59, 60, 61, 3599, 3600, 7322, 86399, 86400,
                                          90061, 6 * 86400, 7 * 86400, 8 * 86400 + 3600,
                                          30 * 86400, 31 * 86400, 59 * 86400, 365 * 86400,
                                          366 * 86400, 800 * 86400 + 7200)]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_pages_time_strings_give_timesinces_own_text(language):
    with translation.override(language):
        units = views.page_time_strings()
        for age in AGES:
            for then in (NOW - age, NOW - age - dt.timedelta(days=17)):
                assert timesince(then, NOW, time_strings=units) == timesince(then, NOW)
        # Each unit's number is translated once, then reused.
        assert all(len(unit.done) <= len(AGES) * 2 for unit in units.values())


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_row_texts_are_what_the_template_and_timesince_made_per_row(db, language):
    filters = Template("{{ created|date:'c' }}|{{ created|date:'Y-m-d H:i' }}|"
                       "{{ due|date:'c' }}|{{ due|date:'m-d H:i' }}")
    with time_machine.travel(NOW, tick=False):
        leads = [make_lead(next_action_kind="call", next_action_due=NOW + dt.timedelta(hours=h))
                 for h in (-30, 1, 700)] + [make_lead()]
        for lead, age in zip(leads, (dt.timedelta(days=400), dt.timedelta(minutes=3),
                                     dt.timedelta(days=31, hours=2), dt.timedelta(0)),
                             strict=True):
            Lead.objects.filter(pk=lead.pk).update(created_at=NOW - age)
        rows = list(Lead.objects.filter(pk__in=[lead.pk for lead in leads]).order_by("pk"))
        with translation.override(language):
            views._label_rows(rows)
            for lead in rows:
                expected = filters.render(Context({"created": lead.created_at,
                                                   "due": lead.next_action_due})).split("|")
                due = [lead.due_iso, lead.due_text] if lead.next_action_due else ["", ""]
                assert [lead.created_iso, lead.created_at_text, *due] == expected
                age = timesince(lead.created_at, NOW)
                assert lead.age_text == translation.gettext("%(age)s ago") % {"age": age}
                assert lead.created_text == translation.gettext(
                    "created %(age)s ago") % {"age": age}
    assert {lead.due_text for lead in rows} == {"", "11-30 05:04", "12-01 12:04", "12-30 15:04"}


def test_the_lead_page_reads_the_company_profile_once_and_runs_a_bounded_set(client,
                                                                              manager):
    lead = make_lead(owner=manager)
    login(client, manager)
    url = reverse("staff:lead_detail", args=[lead.public_id])
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        body = client.get(url).content.decode()
    sql = [q["sql"] for q in ctx.captured_queries]
    # The company comes from the content snapshot the process keeps: its one check is the
    # only content query.
    assert [q for q in sql if re.search(r'(FROM|JOIN) "content_', q)] == content_stamp_sql()
    # Session, user, two permission reads, the lead, its events, the duplicate flags, the
    # team for the owner choice, the cached plan block, the lead's quotes (selector.quotes'
    # card); and the content snapshot's check (one query on PostgreSQL, one per content
    # table on SQLite), which gives the company.
    assert len(sql) <= 10 + len(content_stamp_sql()), "\n".join(sql)
    assert lead.report_number in body and "深华天成" in body


def test_the_sla_clock_of_a_deadline_missed_long_ago_counts_without_walking_each_day(
        client, sales, monkeypatch):
    """A lead nobody contacted for a year: the clock says how much working time has
    passed, counted by weeks (the calendar's own test compares it with a day-by-day
    walk)."""
    from selector.leads import worktime

    calls = []
    original = worktime.Calendar.is_working_day
    lead = make_lead(owner=sales, sla_due=timezone.now() - dt.timedelta(days=365))

    def counting(self, day):
        calls.append(day)
        return original(self, day)

    monkeypatch.setattr(worktime.Calendar, "is_working_day", counting)
    response = login(client, sales).get(reverse("staff:lead_detail", args=[lead.public_id]))
    assert response.context["sla"]["overdue"] and response.context["sla"]["hours"] > 1000
    assert len(calls) <= 10
