"""Leads (issue 4): contact-form submissions per second through the test client (form
validation, lead_create with its row lock, sizing snapshot and event, the redirect), and
the ratio of one submission's time to one plain page render (the privacy notice page)
measured in the same run.

The real figure is meant on PostgreSQL (DATABASE_URL=postgres://...; see bench/run.py):
on SQLite the row lock is a no-op and writes are serialised differently. The fill-time
and rate limits are switched off and notifications are not configured, so the figure is
the submission itself.
"""

import time

from django.test import Client, override_settings
from django.utils import timezone

from selector.leads import abuse
from selector.leads.models import Lead
from selector.wizard.models import WizardSession

ANSWERS = {"gpus": 512, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
           "determinism": "standard", "throughput_limited": False, "nic_speed": 400}
CONTACT = {"name": "张伟", "company": "深圳算力科技有限公司", "phone": "138 1234 5678",
           "email": "bench@example.com", "role": "网络架构师", "timeline": "0-3m",
           "wechat": "", "message": "", "consent": "on", "website": ""}
SECONDS = 3.0
PAGE_URL = "/privacy/"


def _visitor() -> Client:
    ws = WizardSession.objects.create(answers=ANSWERS, furthest_step="result",
                                      result_at=timezone.now(), utm_source="bench")
    client = Client()
    session = client.session
    session["wizard_session_id"] = str(ws.pk)
    session.save()
    return client


def _submit_rate() -> float:
    elapsed, done = 0.0, 0
    while elapsed < SECONDS:
        client = _visitor()  # setup, not timed
        data = dict(CONTACT, started=abuse.form_started_token(
            client.session["wizard_session_id"], now=time.time() - 10))
        started = time.perf_counter()
        response = client.post("/contact/", data)
        elapsed += time.perf_counter() - started
        assert response.status_code == 302, response.status_code
        done += 1
    return done / elapsed


def _page_rate() -> float:
    client = Client()
    elapsed, done = 0.0, 0
    while elapsed < SECONDS:
        started = time.perf_counter()
        response = client.get(PAGE_URL)
        elapsed += time.perf_counter() - started
        assert response.status_code == 200, response.status_code
        done += 1
    return done / elapsed


def run():
    with override_settings(LEAD_MIN_FILL_SECONDS=0, LEAD_RATE_LIMIT=0, SALES_NOTIFY_EMAILS=[],
                           LEAD_WEBHOOK_URL=""):
        _page_rate()  # warm-up: templates, translations, content cache
        warm = _visitor()
        warm.post("/contact/", dict(CONTACT, started=abuse.form_started_token(
            warm.session["wizard_session_id"])))
        page = _page_rate()
        submit = _submit_rate()
        Lead.objects.filter(utm_source="bench").delete()
    yield "lead_submit_per_s", submit, "1/s"
    yield "lead_submit_vs_page_render_ratio", page / submit, "x"
