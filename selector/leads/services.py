"""Writes for leads: the lead's own rows (lead, events, duplicate flags, wizard session,
task results) and the sales notifications.

What a lead's report adds on creation and deletion (the pre-render, the customer's
e-mail, the cached PDFs) is ``leads.report``'s: callers create and delete leads through
``selector.leads.lifecycle`` (submit_lead, delete_lead, purge_leads), which call these.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from selector.domain import Answers
from selector.leads import deliveries, duplicates, routing
from selector.leads.builder import SOURCE_FIELDS, lead_values, new_report_number
from selector.leads.models import Lead, LeadEvent
from selector.leads.tasks import CHANNELS, notify_lead
from selector.wizard.models import WizardSession

logger = logging.getLogger(__name__)

def lead_create(
    *,
    wizard_session: WizardSession,
    answers: Answers,
    contact: dict,
    language: str,
    user_agent: str = "",
) -> tuple[Lead, bool]:
    """Create the lead for a completed wizard session, or return the one it already has.

    ``contact`` holds the cleaned ContactForm fields (name, company, phone, email, role,
    timeline, wechat, message); consent is implied by calling this (the form requires it).
    Returns ``(lead, created)``. One transaction; the sales notifications are scheduled on
    commit, so a rolled-back lead notifies nobody.

    Exactly one lead per wizard session, also under concurrent submits: the session row is
    locked (SELECT ... FOR UPDATE) before the check, and the unique wizard_session column
    catches whatever gets past (databases without row locks); tests/leads/test_concurrency.py
    races real PostgreSQL connections against both.
    """
    with transaction.atomic():
        # Serialises submits for one session; a second waits here, then finds the lead.
        WizardSession.objects.select_for_update().filter(pk=wizard_session.pk).first()
        existing = Lead.objects.filter(wizard_session_id=wizard_session.pk).first()
        if existing is not None:
            return existing, False
        now = timezone.now()
        lead = Lead(
            wizard_session_id=wizard_session.pk,
            report_number=new_report_number(now),
            **lead_values(answers=answers, contact=contact, language=language, now=now,
                          user_agent=user_agent,
                          source={k: getattr(wizard_session, k) for k in SOURCE_FIELDS}),
        )
        # validate_unique is left to the database (the constraint is the guard).
        lead.full_clean(validate_unique=False)
        try:
            with transaction.atomic():
                lead.save(force_insert=True)
        except IntegrityError:
            existing = Lead.objects.filter(wizard_session_id=wizard_session.pk).first()
            if existing is None:
                raise  # e.g. a report_number collision: let the caller retry
            return existing, False
        LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.CREATED,
                                 data={"score": lead.score, "language": language})
        routing.route_new_lead(lead)  # the owner by the manager's rule, or the pool
        duplicates.flag(lead)
        public_id = str(lead.public_id)
        transaction.on_commit(lambda: schedule_notifications(public_id), robust=True)
    logger.info("lead created %s (%s)", lead.report_number, lead.public_id)
    return lead, True


def schedule_notifications(lead_public_id: str) -> None:
    """Enqueue one notification task per configured channel (after the lead committed)."""
    channels = []
    if settings.SALES_NOTIFY_EMAILS:
        channels.append("email")
    if settings.LEAD_WEBHOOK_URL:
        channels.append("webhook")
    lead = Lead.objects.filter(public_id=lead_public_id).first()
    for channel in channels:
        if lead is not None:
            deliveries.expect(lead, CHANNELS[channel][0])  # "waiting" from now on
        notify_lead.enqueue(lead_public_id, channel)


def lead_delete(*, lead: Lead) -> None:
    """Delete a lead and what this app stored about it: its events (cascade), its wizard
    session (answers, UTM tags, landing URL), the background task results that name it.
    The visitor's browser session then points at nothing: no thank-you page, no report
    link. Its cached PDFs are ``leads.report``'s: delete through
    ``selector.leads.lifecycle.delete_lead``, which calls this."""
    with transaction.atomic():
        report_number, public_id = lead.report_number, str(lead.public_id)
        wizard_session_id = lead.wizard_session_id
        flagged = duplicates.counterparts(lead)
        lead.delete()
        duplicates.refresh(flagged)  # its flags went with it
        if wizard_session_id is not None:
            WizardSession.objects.filter(pk=wizard_session_id).delete()
        # Every task of ours takes the lead's public id as its first argument.
        DBTaskResult.objects.filter(
            Q(args_kwargs__args__0=public_id)
            | Q(args_kwargs__kwargs__lead_public_id=public_id)).delete()
    logger.info("lead deleted %s", report_number)


def leads_past_retention(now=None):
    cutoff = (now or timezone.now()) - timedelta(days=settings.LEAD_RETENTION_DAYS)
    return Lead.objects.filter(created_at__lt=cutoff)
