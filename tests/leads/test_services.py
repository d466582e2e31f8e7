import re

import pytest
from django.core import mail
from django.db import transaction

from selector.domain import Answers
from selector.leads.models import Lead, LeadEvent
from selector.leads.services import lead_create, new_report_number

from .conftest import ANSWERS, contact_data, make_session

CONTACT = {k: v for k, v in contact_data(phone="+8613812345678").items()
           if k not in {"consent", "website", "started"}}


def _create(ws, **kwargs):
    return lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS),
                       contact=dict(CONTACT, **kwargs.pop("contact", {})),
                       language=kwargs.pop("language", "zh-hans"), user_agent="UA", **kwargs)


def test_report_numbers_are_readable_and_not_sequential():
    numbers = {new_report_number() for _ in range(200)}
    assert len(numbers) == 200
    for number in numbers:
        assert re.fullmatch(r"NS-\d{8}-[2-9A-HJKMNP-Z]{6}", number)


def test_it_creates_one_lead_with_its_snapshot(ws, content):
    lead, created = _create(ws)
    assert created
    assert lead.wizard_session == ws and ws.lead == lead
    # The frozen recommendation: versioned, and read back as the same object.
    from selector.domain import Recommendation
    assert lead.frozen_recommendation["snapshot_version"] == 1
    rec = Recommendation.from_dict(lead.frozen_recommendation)
    assert rec.answers.to_dict() == lead.answers
    assert rec.decision.rule == lead.rule and rec.engine_version == lead.engine_version
    assert rec.catalogue_version and rec.recommended.plan is not None
    assert rec.recommended.plan.switch.model in {"Spectrum-4 SN5600", "7060X6-64PE"}
    assert lead.landing_url == "/?utm_source=baidu" and lead.utm_campaign == "roce-2026"
    assert lead.consent_user_agent == "UA"
    assert lead.events.get().kind == LeadEvent.Kind.CREATED


def test_a_second_call_returns_the_existing_lead(ws, content):
    first, _ = _create(ws)
    second, created = _create(ws, contact={"name": "Other"})
    assert not created and second.pk == first.pk
    assert Lead.objects.count() == 1 and LeadEvent.objects.count() == 1


def test_the_lead_survives_its_wizard_session(ws, content):
    lead, _ = _create(ws)
    ws.delete()
    lead.refresh_from_db()
    assert lead.wizard_session is None and lead.utm_source == "baidu"


def test_bad_contact_data_is_refused_by_full_clean(ws, content):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        _create(ws, contact={"email": "not-an-email"})
    assert Lead.objects.count() == 0


def test_notifications_are_sent_on_commit(ws, content, settings,
                                          django_capture_on_commit_callbacks):
    settings.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        lead, _ = _create(ws)
    assert len(callbacks) == 1 and mail.outbox == []  # nothing before the commit
    callbacks[0]()
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["sales@example.com"]
    assert lead.report_number in mail.outbox[0].subject
    assert lead.events.filter(kind="notified", data__channel="email").count() == 1


def test_nothing_is_scheduled_for_an_existing_lead(ws, content, settings,
                                                   django_capture_on_commit_callbacks):
    settings.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    with django_capture_on_commit_callbacks(execute=True):
        _create(ws)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        _create(ws)
    assert callbacks == [] and len(mail.outbox) == 1


def test_a_rolled_back_lead_schedules_nothing(ws, content, settings,
                                              django_capture_on_commit_callbacks):
    settings.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    with (django_capture_on_commit_callbacks(execute=True) as callbacks,
          pytest.raises(RuntimeError), transaction.atomic()):
        _create(ws)
        raise RuntimeError("the caller fails after lead_create")
    assert callbacks == [] and mail.outbox == [] and Lead.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_with_real_transactions_commit_notifies_and_rollback_does_not(settings):
    from django.core.management import call_command

    call_command("load_content", force=True, verbosity=0)
    settings.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    ws = make_session()
    with pytest.raises(RuntimeError), transaction.atomic():
        _create(ws)
        raise RuntimeError("rolled back")
    assert mail.outbox == [] and Lead.objects.count() == 0

    lead, created = _create(ws)
    assert created and len(mail.outbox) == 1
    assert LeadEvent.objects.filter(lead=lead, kind="notified").count() == 1
