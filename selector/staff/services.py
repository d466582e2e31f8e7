"""Writes of the sales workspace. Every change to a lead made in /staff/ goes through one
of these keyword-only functions: each runs in one transaction, checks the role rules
(selector.staff.permissions) once more, and records a LeadEvent for the timeline."""

from __future__ import annotations

import hashlib
import hmac
import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from selector.leads.models import Lead, LeadEvent, Status
from selector.staff import permissions
from selector.staff.models import LeadDeletion

logger = logging.getLogger(__name__)

NOTE_MAX_LENGTH = 2000
REASON_MAX_LENGTH = 300


def _locked(lead: Lead) -> Lead:
    """The lead re-read under a row lock, so two staff changing it at once serialise."""
    return Lead.objects.select_for_update(of=("self",)).select_related("owner").get(pk=lead.pk)


def lead_change_status(*, lead: Lead, status: str, actor) -> Lead:
    if status not in Status.values:
        raise ValidationError({"status": "Unknown status."})
    with transaction.atomic():
        lead = _locked(lead)
        if not permissions.can_work_on(actor, lead):
            raise PermissionDenied
        old = lead.status
        if old == status:
            return lead
        lead.status = status
        lead.save(update_fields=["status", "updated_at"])
        LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.STATUS_CHANGED, actor=actor,
                                 data={"from": old, "to": status})
    return lead


def lead_assign(*, lead: Lead, owner, actor) -> Lead:
    """Set the owner (None: unassigned). Owners must themselves be staff members."""
    if owner is not None and not permissions.is_staff_member(owner):
        raise ValidationError({"owner": "The owner must be a member of the sales team."})
    with transaction.atomic():
        lead = _locked(lead)
        if not permissions.can_assign(actor, lead, owner):
            raise PermissionDenied
        old = lead.owner
        if (old.pk if old else None) == (owner.pk if owner else None):
            return lead
        lead.owner = owner
        lead.save(update_fields=["owner", "updated_at"])
        LeadEvent.objects.create(
            lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED, actor=actor,
            data={"from": old.get_username() if old else None,
                  "to": owner.get_username() if owner else None})
    return lead


def lead_add_note(*, lead: Lead, text: str, actor) -> LeadEvent:
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": "A note cannot be empty."})
    if len(text) > NOTE_MAX_LENGTH:
        raise ValidationError({"text": "The note is too long."})
    with transaction.atomic():
        lead = _locked(lead)
        if not permissions.can_work_on(actor, lead):
            raise PermissionDenied
        event = LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.NOTE, actor=actor,
                                         data={"text": text})
        lead.save(update_fields=["updated_at"])
    return event


def report_hash(report_number: str) -> str:
    """HMAC of a report number: lets staff check a number against LeadDeletion rows
    without the number itself being kept."""
    return hmac.new(settings.SECRET_KEY.encode(), report_number.strip().upper().encode(),
                    hashlib.sha256).hexdigest()


def lead_delete_on_request(*, lead: Lead, actor, reason: str) -> LeadDeletion:
    """Delete a lead on the customer's request: the row, its events and everything other
    apps stored for it (selector.leads.services.lead_delete runs LEAD_DELETE_HOOKS, e.g. the
    stored PDF report), keeping only an anonymous LeadDeletion record."""
    from selector.leads.services import lead_delete

    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Give a reason."})
    if len(reason) > REASON_MAX_LENGTH:
        raise ValidationError({"reason": "The reason is too long."})
    with transaction.atomic():
        lead = _locked(lead)
        if not permissions.can_delete(actor, lead):
            raise PermissionDenied
        record = LeadDeletion.objects.create(
            report_hash=report_hash(lead.report_number),
            lead_created_on=timezone.localdate(lead.created_at),
            recommendation=lead.recommendation,
            score=lead.score,
            status=lead.status,
            language=lead.language,
            utm_source=lead.utm_source,
            reason=reason,
            actor=actor,
        )
        lead_delete(lead=lead)
    logger.info("lead deleted on request, deletion record %s", record.pk)
    return record


def leads_bulk_update(*, leads, actor, status: str | None = None, owner=None,
                      set_owner: bool = False) -> int:
    """Managers: change status and/or owner of many leads, one event per changed lead.
    Returns how many leads changed."""
    if not permissions.can_bulk_edit(actor):
        raise PermissionDenied
    changed = 0
    with transaction.atomic():
        for lead in leads:
            touched = False
            if status:
                before = lead.status
                lead = lead_change_status(lead=lead, status=status, actor=actor)
                touched = before != lead.status
            if set_owner:
                before_owner = lead.owner_id
                lead = lead_assign(lead=lead, owner=owner, actor=actor)
                touched = touched or before_owner != lead.owner_id
            changed += touched
    return changed
