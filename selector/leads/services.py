"""Writes for leads. Views call these; nothing else creates or deletes a Lead."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from selector.core.siteurl import site_url as default_site_url
from selector.domain import Answers
from selector.leads import duplicates, worktime
from selector.leads.models import Lead, LeadEvent
from selector.leads.privacy import PRIVACY_NOTICE_VERSION
from selector.leads.scoring import score_lead
from selector.leads.tasks import email_report
from selector.planner.services import freeze, fresh
from selector.wizard.models import WizardSession

logger = logging.getLogger(__name__)

# Crockford-style alphabet without 0/O, 1/I/L: safe to read out on the phone.
_REPORT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
_SOURCE_FIELDS = ("landing_url", "referrer", "utm_source", "utm_medium", "utm_campaign",
                  "utm_term", "utm_content")

# Test seam for the concurrency tests: called between "is there a lead?" and the INSERT.
_before_insert_hook: Callable[[], None] | None = None

# Functions called with the lead inside lead_delete's transaction, before the row goes.
# Other apps append here in AppConfig.ready() to delete what they stored for a lead
# (e.g. selector.reports: generated PDF files — delete files in transaction.on_commit).
LEAD_DELETE_HOOKS: list[Callable[[Lead], None]] = []


def new_report_number(now=None) -> str:
    """"NS-20261130-7KQ2XW": the date plus 6 random characters (31**6 ≈ 8.9e8 per day)."""
    day = timezone.localdate(now or timezone.now()).strftime("%Y%m%d")
    suffix = "".join(secrets.choice(_REPORT_ALPHABET) for _ in range(6))
    return f"NS-{day}-{suffix}"


def lead_create(
    *,
    wizard_session: WizardSession,
    answers: Answers,
    contact: dict,
    language: str,
    user_agent: str = "",
    site_url: str = "",
    _guard: bool = True,
) -> tuple[Lead, bool]:
    """Create the lead for a completed wizard session, or return the one it already has.

    ``contact`` holds the cleaned ContactForm fields (name, company, phone, email, role,
    timeline, wechat, message); consent is implied by calling this (the form requires it).
    Returns ``(lead, created)``. One transaction; notifications and the customer's report
    e-mail are scheduled on commit, so a rolled-back lead notifies nobody. ``site_url`` is
    the base of the links in the e-mail (the view passes selector.core.siteurl's).

    Exactly one lead per wizard session, also under concurrent submits: the session row is
    locked (SELECT ... FOR UPDATE) before the check, and the unique wizard_session column
    catches whatever gets past (databases without row locks). ``_guard=False`` skips both
    the lock and the IntegrityError fallback; only the concurrency control test uses it.
    """
    with transaction.atomic():
        if _guard:
            # Serialises submits for one session; a second waits here, then finds the lead.
            WizardSession.objects.select_for_update().filter(pk=wizard_session.pk).first()
        existing = Lead.objects.filter(wizard_session_id=wizard_session.pk).first()
        if existing is not None:
            return existing, False
        rec = fresh(answers)
        decision = rec.decision
        now = timezone.now()
        score = score_lead(answers, contact["timeline"])
        lead = Lead(
            wizard_session_id=wizard_session.pk,
            report_number=new_report_number(now),
            language=language,
            answers=answers.to_dict(),
            recommendation=decision.recommendation.value,
            rule=decision.rule,
            engine_version=decision.engine_version,
            sizing=freeze(rec),
            score=score,
            sla_due=worktime.sla_due(score, now),
            company_key=duplicates.company_key(contact.get("company", "")),
            consent_given_at=now,
            consent_notice_version=PRIVACY_NOTICE_VERSION,
            consent_user_agent=(user_agent or "")[:500],
            **{k: contact.get(k, "") for k in ("name", "company", "phone", "email", "role",
                                              "timeline", "wechat", "message")},
            **{k: (getattr(wizard_session, k) or "")[:Lead._meta.get_field(k).max_length]
               for k in _SOURCE_FIELDS},
        )
        # validate_unique is left to the database (the constraint is the guard).
        lead.full_clean(validate_unique=False)
        if _before_insert_hook is not None:
            _before_insert_hook()
        if _guard:
            try:
                with transaction.atomic():
                    lead.save(force_insert=True)
            except IntegrityError:
                existing = Lead.objects.filter(wizard_session_id=wizard_session.pk).first()
                if existing is None:
                    raise  # e.g. a report_number collision: let the caller retry
                return existing, False
        else:
            lead.save(force_insert=True)
        LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.CREATED,
                                 data={"score": lead.score, "language": language})
        duplicates.flag(lead)
        public_id = str(lead.public_id)
        base_url = site_url or default_site_url()
        transaction.on_commit(lambda: _after_commit(public_id, base_url), robust=True)
    logger.info("lead created %s (%s)", lead.report_number, lead.public_id)
    return lead, True


def schedule_notifications(lead_public_id: str) -> None:
    """Enqueue one notification task per configured channel (after the lead committed)."""
    from selector.leads.tasks import notify_lead

    channels = []
    if settings.SALES_NOTIFY_EMAILS:
        channels.append("email")
    if settings.LEAD_WEBHOOK_URL:
        channels.append("webhook")
    for channel in channels:
        notify_lead.enqueue(lead_public_id, channel)


def _after_commit(lead_public_id: str, base_url: str) -> None:
    """A new lead's side effects: sales notifications, the report pre-render, then the
    customer's report e-mail (which finds the pre-rendered PDF in the cache)."""
    try:
        schedule_notifications(lead_public_id)
    finally:
        try:
            schedule_report_prerender(lead_public_id)
        finally:
            schedule_report_email(lead_public_id, base_url)


def schedule_report_email(lead_public_id: str, base_url: str) -> None:
    """Enqueue the customer's report e-mail when they gave an address; never raises."""
    if not settings.REPORT_EMAIL_ENABLED:
        return
    if not Lead.objects.filter(public_id=lead_public_id).exclude(email="").exists():
        return
    try:
        email_report.enqueue(lead_public_id, base_url)
    except Exception as exc:
        logger.error("report e-mail not scheduled: %s (lead %s)", type(exc).__name__,
                     lead_public_id)


def schedule_report_prerender(lead_public_id: str) -> None:
    """Render the lead's PDF into the report cache in the background (selector.reports)."""
    from selector.reports.tasks import schedule_prerender

    schedule_prerender(lead_public_id)


def lead_delete(*, lead: Lead) -> None:
    """Delete a lead and everything stored about it: its events (cascade), its wizard
    session (answers, UTM tags, landing URL), the background task results that name it,
    and what other apps stored (LEAD_DELETE_HOOKS, e.g. cached reports). The visitor's
    browser session then points at nothing: no thank-you page, no report link."""
    with transaction.atomic():
        for hook in LEAD_DELETE_HOOKS:
            hook(lead)
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


def leads_purge(*, dry_run: bool = False, now=None) -> int:
    """Delete every lead older than LEAD_RETENTION_DAYS; returns how many (would) go."""
    expired = leads_past_retention(now).order_by("pk")
    if dry_run:
        return expired.count()
    deleted = 0
    for lead in expired.iterator(chunk_size=200):
        lead_delete(lead=lead)
        deleted += 1
    return deleted
