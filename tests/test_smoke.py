"""The smoke set: what `make run` does on its embedded SQLite database, end to end. `make
test` runs this module twice: with the whole suite on PostgreSQL, then alone on SQLite
(``DATABASE_URL=sqlite:///...``, SMOKE_DATABASE_VENDOR=sqlite), so the development default
keeps working while the suite proves PostgreSQL's guarantees.

On SQLite the test database is the database `make run` makes: the run migrates it from
nothing, and the first test checks what the migrations built there."""

import os
import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from selector.leads.models import Lead, LeadEvent
from tests.leads.conftest import contact_data
from tests.reports.conftest import pdf_text, squash
from tests.test_migrations import POSTGRES_ONLY


@pytest.mark.django_db
def test_the_database_is_the_one_this_run_was_started_for():
    expected = os.environ.get("SMOKE_DATABASE_VENDOR")
    if not expected:
        pytest.skip("SMOKE_DATABASE_VENDOR names the vendor only in `make test`'s smoke run")
    assert connection.vendor == expected


@pytest.mark.django_db
def test_the_migrations_built_sqlite_every_index_but_the_postgresql_only_ones():
    if connection.vendor != "sqlite":
        pytest.skip("`make run`'s database (test_migrations checks PostgreSQL's)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'index' "
                       "AND tbl_name IN ('leads_lead', 'wizard_wizardsession')")
        names = {row[0] for row in cursor.fetchall()}
    assert POSTGRES_ONLY and not names & POSTGRES_ONLY
    assert {"lead_created_cover_idx", "wizsession_created_cover_idx",
            "lead_stale_idx"} <= names


@pytest.mark.django_db
def test_load_content_walk_the_wizard_submit_a_lead_and_download_its_pdf(settings):
    settings.LEAD_MIN_FILL_SECONDS = 0  # a person takes seconds; this test does not wait
    call_command("load_content", verbosity=0)
    call_command("load_content", verbosity=0)  # twice, as every `make run` does
    client = Client()
    assert "RoCE" in client.get("/en/").content.decode()
    steps = [("scale", {"gpus": "256", "gpus_per_server": "8"}),
             ("workload", {"workload": "training", "throughput_limited": "true"}),
             ("budget", {"budget": "balanced"}),
             ("determinism", {"determinism": "standard"}),
             ("nic-speed", {"nic_speed": "400"})]
    assert client.get("/en/wizard/").status_code in (200, 302)
    for step, answers in steps:
        page = client.get(f"/en/wizard/{step}/")
        assert page.status_code == 200, step
        response = client.post(f"/en/wizard/{step}/", answers)
        assert response.status_code == 302, (step, response.content[:500])
    result = client.get("/en/wizard/result/").content.decode()
    assert "RoCE v2" in result and "256" in result

    contact = client.get("/en/contact/").content.decode()
    started = re.search(r'name="started" value="([^"]+)"', contact)
    assert started, "the contact form carries its start stamp"
    response = client.post("/en/contact/", contact_data(started=started.group(1),
                                                        name="Smoke Tester"))
    assert response.status_code == 302 and response["Location"] == "/en/contact/thanks/"
    lead = Lead.objects.get()
    assert (lead.name, lead.answers["gpus"], lead.language) == ("Smoke Tester", 256, "en")
    assert LeadEvent.objects.filter(lead=lead, kind=LeadEvent.Kind.CREATED).exists()

    thanks = client.get(response["Location"]).content.decode()
    link = re.search(r'href="([^"]+)" data-testid="report-link"', thanks)
    assert link and lead.report_number in thanks
    pdf = client.get(link.group(1).replace("&amp;", "&"))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = squash(pdf_text(pdf.content))
    assert squash(lead.report_number) in text and "SmokeTester" in text
