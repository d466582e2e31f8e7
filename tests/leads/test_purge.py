from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from selector.domain import Answers
from selector.leads import lifecycle, services
from selector.leads.models import Lead, LeadEvent, ReportPdf

from .conftest import ANSWERS, contact_data, make_session

CONTACT = {k: v for k, v in contact_data(phone="+8613812345678").items()
           if k not in {"consent", "website", "started"}}


def _lead(age_days: float) -> Lead:
    lead, _ = services.lead_create(wizard_session=make_session(),
                                   answers=Answers.from_dict(ANSWERS), contact=CONTACT,
                                   language="zh-hans")
    Lead.objects.filter(pk=lead.pk).update(created_at=timezone.now() - timedelta(days=age_days))
    return lead


def _purge(*args) -> str:
    """The leads line of `manage.py purge`."""
    out = StringIO()
    call_command("purge", *args, stdout=out)
    return next(line for line in out.getvalue().splitlines() if line.startswith("leads"))


@pytest.fixture
def leads(content):
    return {"old": _lead(731), "older": _lead(2000), "edge": _lead(729.9), "new": _lead(0)}


def test_it_deletes_leads_past_the_retention_period(leads):
    output = _purge()
    assert output.strip() == "leads older than 730 days: 2 deleted"
    assert set(Lead.objects.values_list("pk", flat=True)) == {leads["edge"].pk, leads["new"].pk}
    assert not LeadEvent.objects.filter(lead_id__in=[leads["old"].pk, leads["older"].pk])


def test_dry_run_counts_and_deletes_nothing(leads):
    output = _purge("--dry-run")
    assert output.strip() == "leads older than 730 days: 2 would be deleted"
    assert Lead.objects.count() == 4


def test_the_output_has_no_personal_data(leads):
    output = _purge() + _purge("--dry-run")
    for value in ("张伟", "+8613812345678", "zhang.wei@example.com", leads["old"].report_number):
        assert value not in output


def test_the_retention_is_a_setting(leads, settings):
    settings.LEAD_RETENTION_DAYS = 1
    assert _purge().strip() == "leads older than 1 days: 3 deleted"
    assert list(Lead.objects.all()) == [leads["new"]]


def test_it_is_safe_to_run_again(leads):
    _purge()
    assert _purge().endswith(": 0 deleted")


def _cache_a_report(lead, *, rendered_at=None) -> int:
    """A cached PDF of ``lead`` as report_pdf stores it."""
    now = timezone.now()
    return ReportPdf.objects.create(lead=lead, language="zh-hans", version="test",
                                    claimed_at=rendered_at or now,
                                    rendered_at=rendered_at or now,
                                    content=b"%PDF- with the customer's name").pk


def test_the_purge_deletes_the_leads_cached_reports(leads):
    rows = {name: _cache_a_report(lead) for name, lead in leads.items()}
    _purge()
    assert set(ReportPdf.objects.values_list("pk", flat=True)) == {rows["edge"], rows["new"]}


def test_the_purge_deletes_cached_reports_past_their_time(leads, settings):
    settings.REPORT_CACHE_SECONDS = 3600
    stale = _cache_a_report(leads["new"],
                            rendered_at=timezone.now() - timedelta(seconds=3601))
    kept = _cache_a_report(leads["edge"])
    _purge()
    assert not ReportPdf.objects.filter(pk=stale).exists()
    assert ReportPdf.objects.filter(pk=kept).exists()


def test_a_failure_deleting_cached_reports_keeps_the_lead(leads, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("database trouble")

    monkeypatch.setattr(lifecycle, "delete_cached_reports", broken)
    with pytest.raises(OSError):
        _purge()
    assert Lead.objects.count() == 4


def test_the_wizard_session_goes_with_the_lead(leads):
    """Its answers, UTM tags and landing URL leave with the lead."""
    from selector.wizard.models import WizardSession

    gone = [leads["old"].wizard_session_id, leads["older"].wizard_session_id]
    _purge()
    assert not WizardSession.objects.filter(pk__in=gone).exists()
    assert WizardSession.objects.filter(pk=leads["new"].wizard_session_id).exists()
