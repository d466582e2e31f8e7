"""Pre-rendering on lead creation, deleting a lead's cached reports, and report links
kept out of the request logs."""

import logging

import pytest
from django.utils import timezone

from selector.core.logredact import REDACTED, RedactTokens, redact
from selector.domain import Answers
from selector.leads.lifecycle import delete_lead, submit_lead
from selector.leads.models import Lead, ReportPdf
from selector.leads.report import links, render, services, tasks
from selector.leads.report.samples import SAMPLE_ANSWERS
from selector.wizard.models import WizardSession

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db

CONTACT = {"name": "王建国", "company": "深圳星河智算科技有限公司", "phone": "+8613800138000",
           "email": "wang@example.com", "role": "CTO", "timeline": "0-3m", "wechat": "",
           "message": ""}


@pytest.fixture
def prerender(settings):
    settings.REPORT_PRERENDER = True
    return settings


def _create_lead(django_capture_on_commit_callbacks) -> Lead:
    ws = WizardSession.objects.create(answers=dict(SAMPLE_ANSWERS["roce"]), furthest_step="result",
                                      result_at=timezone.now(), language="zh-hans")
    with django_capture_on_commit_callbacks(execute=True):
        lead, created = submit_lead(wizard_session=ws, contact=dict(CONTACT),
                                    answers=Answers.from_dict(SAMPLE_ANSWERS["roce"]),
                                    language="zh-hans")
    assert created
    return lead


def _cached(lead) -> list[bytes]:
    """The lead's cached PDFs (rendered ones: claims under way have no content)."""
    return [bytes(row.content) for row in ReportPdf.objects.filter(lead=lead)
            if row.content is not None]


def test_it_caches_the_pdf_when_a_lead_is_created(content, prerender, client, monkeypatch,
                                                  django_capture_on_commit_callbacks):
    lead = _create_lead(django_capture_on_commit_callbacks)
    [pdf] = _cached(lead)
    assert pdf.startswith(b"%PDF") and "王建国" in squash(pdf_text(pdf))

    # The first download is served from the cache: rendering now would fail.
    def no_render(*args, **kwargs):
        raise AssertionError("rendered again")

    monkeypatch.setattr(services, "html_to_pdf", no_render)
    response = client.get(links.customer_report_path(lead))
    assert response.status_code == 200
    assert response.content == pdf


def test_it_does_not_prerender_when_turned_off(content, settings,
                                               django_capture_on_commit_callbacks):
    settings.REPORT_PRERENDER = False
    lead = _create_lead(django_capture_on_commit_callbacks)
    assert _cached(lead) == []


def test_a_failed_prerender_never_affects_the_lead(content, prerender, monkeypatch, caplog,
                                                   django_capture_on_commit_callbacks):
    def broken(*args, **kwargs):
        raise RuntimeError("王建国 secret details")

    monkeypatch.setattr(services, "html_to_pdf", broken)
    with caplog.at_level(logging.ERROR):
        lead = _create_lead(django_capture_on_commit_callbacks)
    assert Lead.objects.filter(pk=lead.pk, name="王建国").exists()
    assert lead.events.filter(kind="created").exists()
    assert _cached(lead) == []
    assert "report render failed: RuntimeError" in caplog.text
    assert "王建国" not in caplog.text and "secret" not in caplog.text


def test_a_failure_to_enqueue_never_affects_the_lead(content, prerender, monkeypatch,
                                                     django_capture_on_commit_callbacks):
    class Down:
        def enqueue(self, *args, **kwargs):
            raise ConnectionError("queue down")

    monkeypatch.setattr(tasks, "prerender_report", Down())
    lead = _create_lead(django_capture_on_commit_callbacks)
    assert Lead.objects.filter(pk=lead.pk).exists()


def test_the_task_skips_a_lead_that_is_gone(db):
    assert tasks.prerender_report.call("8a3c2a4e-3f3a-4a7e-9d57-2f0f9c8b1d11") == "gone"


def test_deleting_a_lead_deletes_its_cached_reports(make_lead, client,
                                                    django_capture_on_commit_callbacks):
    lead = make_lead()
    services.report_pdf(lead)
    services.report_pdf(lead, "en")
    assert len(_cached(lead)) == 2
    with django_capture_on_commit_callbacks(execute=True):
        delete_lead(lead=lead)
    assert not Lead.objects.filter(pk=lead.pk).exists()
    assert not ReportPdf.objects.filter(lead_id=lead.pk).exists()


def test_it_redacts_report_tokens_in_request_logs(make_lead, client, caplog):
    lead = make_lead()
    token = links.make_token(lead)
    bad = token[:-2] + "xx"
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get(f"/report/{bad}/").status_code == 404
        assert client.get(f"/en/report/{bad}/web/").status_code == 404
    messages = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert len(messages) == 2
    assert all(REDACTED in m for m in messages), messages
    assert bad not in caplog.text and token[:20] not in caplog.text
    assert "/en/report/[redacted]/web/" in caplog.text


def test_the_filter_redacts_every_language_and_keeps_staff_paths():
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "%s: %s",
                               ("Gone", "/report/eyJhIjoxfQ:1x:abc/"), None)
    RedactTokens().filter(record)
    assert record.getMessage() == f"Gone: /report/{REDACTED}/"
    assert (redact("GET /en/report/abc.def/web/?x=1 503")
            == f"GET /en/report/{REDACTED}/web/?x=1 503")
    staff = "/staff/leads/8a3c2a4e-3f3a-4a7e-9d57-2f0f9c8b1d11/report/"
    assert redact(staff) == staff


def test_the_report_version_changed_with_the_fonts():
    assert render.REPORT_VERSION != "2026-11-30.1"
