"""Writes of the sales workspace. Every change to a lead made in /staff/ goes through one
of these keyword-only functions: each runs in one transaction, checks the role rules
(selector.staff.permissions) once more, and records a LeadEvent for the timeline.
Notifications (assignment, reminders) are enqueued after the transaction commits.

First contact (the SLA clock): the first logged activity of any type, or a move from
"new" to a later status, sets ``first_contact_at``/``first_contact_by`` once.

No lost updates: each edit takes ``version``, the ``Lead.version`` the person's page
showed; under the row lock, a lead whose version moved on since raises StaleLead (with the
current lead) and changes nothing. ``version=None`` skips the check (bulk edits, tasks).
Every applied edit increments the version.

Size: one module on purpose: it is the one write path of the workspace, so a reviewer
reads every rule a change to a lead obeys (lock, role, version, event) in one place."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from selector.leads import duplicates, worktime
from selector.leads.lifecycle import delete_lead
from selector.leads.models import (
    OPEN_STATUSES,
    DuplicateFlag,
    Lead,
    LeadEvent,
    LostReason,
    NextActionKind,
    Status,
)
from selector.staff import permissions, tasks
from selector.staff.models import Handover, LeadDeletion
from selector.staff.outcomes import ACTIVITY_OUTCOMES

logger = logging.getLogger(__name__)

NOTE_MAX_LENGTH = 2000
REASON_MAX_LENGTH = 300
DEAL_VALUE_MAX = Decimal("999999999999.99")


class AlreadyTaken(Exception):
    """A rep tried to take a lead a colleague owns (they are told who)."""

    def __init__(self, owner):
        super().__init__(owner.get_username())
        self.owner = owner


class StaleLead(Exception):
    """The edit was made on an older version of the lead: nothing was changed. ``lead`` is
    the current one (read under the row lock), for showing what changed meanwhile."""

    def __init__(self, lead: Lead, version: int | None):
        super().__init__(f"lead {lead.report_number} is at version {lead.version}, "
                         f"the edit was made on {version}")
        self.lead = lead
        self.version = version


def _locked(lead: Lead) -> Lead:
    """The lead re-read under a row lock, so two staff changing it at once serialise.

    After waiting for the lock, PostgreSQL re-reads the locked row but keeps the joined
    owner row of the version it first saw: a lead a colleague took meanwhile came back
    with the new ``owner_id`` and the old owner (none). The owner is then read again, so
    the second of two reps taking a pool lead at once is told who has it (AlreadyTaken),
    not refused (tests/staff/test_pool.py)."""
    locked = Lead.objects.select_for_update(of=("self",)).select_related("owner").get(
        pk=lead.pk)
    field = Lead._meta.get_field("owner")
    joined = field.get_cached_value(locked, default=None)
    if (joined.pk if joined is not None else None) != locked.owner_id:
        field.delete_cached_value(locked)
    return locked


def _unchanged_since(lead: Lead, version: int | None) -> None:
    """StaleLead unless the (locked) lead is still at ``version`` (None: not checked).
    Called after the role check, so a refusal by role never depends on the version."""
    if version is not None and lead.version != version:
        raise StaleLead(lead, version)


def _locked_for(lead: Lead, may: Callable[[Any, Lead], bool], actor,
                version: int | None = None) -> Lead:
    """The lead locked (``_locked``), if ``may(actor, lead)`` holds for its current state
    (else PermissionDenied) and the edit was made on its current version (else
    StaleLead)."""
    lead = _locked(lead)
    if not may(actor, lead):
        raise PermissionDenied
    _unchanged_since(lead, version)
    return lead


def _required_text(value: str | None, field: str, max_length: int, *, empty: str,
                   long: str) -> str:
    """``value`` stripped, or a ValidationError on ``field`` when empty or too long."""
    text = (value or "").strip()
    if not text:
        raise ValidationError({field: empty})
    if len(text) > max_length:
        raise ValidationError({field: long})
    return text


def _bump(lead: Lead) -> list[str]:
    """Count one applied edit (the caller saves the returned fields)."""
    lead.version += 1
    return ["version"]


def _mark_contacted(lead: Lead, actor, now) -> list[str]:
    return worktime.record_first_contact(lead, actor, now)


def lead_change_status(*, lead: Lead, status: str, actor, lost_reason: str = "",
                       note: str = "", deal_value: Decimal | None = None,
                       version: int | None = None, audit: dict | None = None) -> Lead:
    """Move a lead in the pipeline. "lost" needs a reason from LostReason (and a note when
    the reason is "other"); "won" takes an optional deal value in CNY. Closing a lead
    clears its next action. Leaving "won" clears the deal value; the event keeps it
    (``cleared_deal_value``), so the timeline says what was there."""
    if status not in Status.values:
        raise ValidationError({"status": "Unknown status."})
    note = (note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationError({"note": "The note is too long."})
    if status == Status.LOST:
        if lost_reason not in LostReason.values:
            raise ValidationError({"lost_reason": "Choose why the lead was lost."})
        if lost_reason == LostReason.OTHER and not note:
            raise ValidationError({"note": "Say why the lead was lost."})
    if deal_value is not None and not (Decimal(0) <= deal_value <= DEAL_VALUE_MAX):
        raise ValidationError({"deal_value": "The deal value is out of range."})
    with transaction.atomic():
        lead = _locked_for(lead, permissions.can_work_on, actor, version)
        old, old_value = lead.status, lead.deal_value
        if old == status and not (status == Status.WON and deal_value is not None):
            return lead
        now = timezone.now()
        fields = ["status", "lost_reason", "deal_value", "last_activity_at", "updated_at",
                  *_bump(lead)]
        lead.status = status
        lead.lost_reason = lost_reason if status == Status.LOST else ""
        if status == Status.WON:
            lead.deal_value = deal_value if deal_value is not None else lead.deal_value
        else:
            lead.deal_value = None
        lead.last_activity_at = now
        if old == Status.NEW:
            fields += _mark_contacted(lead, actor, now)
        if status in (Status.WON, Status.LOST) and lead.next_action_due:
            fields += _clear_next_action(lead, actor)
        lead.save(update_fields=fields)
        data = {"from": old, "to": status}
        if status == Status.LOST:
            data["reason"] = lost_reason
        if status == Status.WON and lead.deal_value is not None:
            data["deal_value"] = str(lead.deal_value)
        elif old_value is not None:
            data["cleared_deal_value"] = str(old_value)
        if note:
            data["note"] = note
        LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.STATUS_CHANGED, actor=actor,
                                 data={**data, **(audit or {})})
    return lead


def lead_log_activity(*, lead: Lead, actor, kind: str, outcome: str, note: str = "",
                      version: int | None = None) -> LeadEvent:
    """A call, WeChat, e-mail, visit or quote with its outcome, on the timeline."""
    if kind not in NextActionKind.values:
        raise ValidationError({"kind": "Unknown activity type."})
    if outcome not in ACTIVITY_OUTCOMES[NextActionKind(kind)]:
        raise ValidationError({"outcome": "This outcome does not fit the activity."})
    note = (note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationError({"note": "The note is too long."})
    with transaction.atomic():
        lead = _locked_for(lead, permissions.can_work_on, actor, version)
        now = timezone.now()
        lead.last_activity_at = now
        fields = ["last_activity_at", "updated_at", *_mark_contacted(lead, actor, now),
                  *_bump(lead)]
        lead.save(update_fields=fields)
        return LeadEvent.objects.create(
            lead=lead, kind=LeadEvent.Kind.ACTIVITY, actor=actor,
            data={"type": kind, "outcome": outcome, **({"note": note} if note else {})})


def _clear_next_action(lead: Lead, actor) -> list[str]:
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.NEXT_ACTION_CLEARED, actor=actor,
                             data={"type": lead.next_action_kind})
    lead.next_action_kind, lead.next_action_due, lead.next_action_note = "", None, ""
    return ["next_action_kind", "next_action_due", "next_action_note"]


def lead_set_next_action(*, lead: Lead, actor, kind: str, due, note: str = "",
                         version: int | None = None) -> Lead:
    """Set (or, with an empty kind, clear) the lead's next action. The owner is reminded
    at the due time (selector.staff.tasks.remind)."""
    note = (note or "").strip()
    if kind and kind not in NextActionKind.values:
        raise ValidationError({"kind": "Unknown action type."})
    if kind and due is None:
        raise ValidationError({"due": "Give a due date and time."})
    if len(note) > 300:
        raise ValidationError({"note": "The note is too long."})
    with transaction.atomic():
        lead = _locked_for(lead, permissions.can_work_on, actor, version)
        if not kind:
            if lead.next_action_due is None:
                return lead
            fields = _clear_next_action(lead, actor)
        else:
            lead.next_action_kind, lead.next_action_due, lead.next_action_note = \
                kind, due, note
            fields = ["next_action_kind", "next_action_due", "next_action_note"]
            LeadEvent.objects.create(
                lead=lead, kind=LeadEvent.Kind.NEXT_ACTION_SET, actor=actor,
                data={"type": kind, "due": due.isoformat(), **({"note": note} if note else {})})
            public_id, due_iso = str(lead.public_id), due.isoformat()
            transaction.on_commit(lambda: tasks.schedule_reminder(public_id, due_iso),
                                  robust=True)
        lead.save(update_fields=[*fields, "updated_at", *_bump(lead)])
    return lead


def lead_assign(*, lead: Lead, owner, actor, version: int | None = None,
                notify: bool = True, audit: dict | None = None) -> Lead:
    """Set the owner (None: unassigned). Owners must themselves be staff members. A rep
    taking a lead a colleague already owns gets AlreadyTaken (who has it), not a bare
    refusal. The new owner is told (group robot with an @mention, e-mail) unless they
    assigned it to themselves, or ``notify`` is False (a bulk change tells them once)."""
    if owner is not None and not permissions.is_staff_member(owner):
        raise ValidationError({"owner": "The owner must be a member of the sales team."})
    with transaction.atomic():
        lead = _locked(lead)
        if (not permissions.is_manager(actor) and owner is not None and owner.pk == actor.pk
                and lead.owner is not None and lead.owner_id != actor.pk):
            raise AlreadyTaken(lead.owner)
        if not permissions.can_assign(actor, lead, owner):
            raise PermissionDenied
        _unchanged_since(lead, version)
        old = lead.owner
        if (old.pk if old else None) == (owner.pk if owner else None):
            return lead
        lead.owner = owner
        lead.save(update_fields=["owner", "updated_at", *_bump(lead)])
        event = LeadEvent.objects.create(
            lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED, actor=actor,
            data={"from": old.get_username() if old else None,
                  "to": owner.get_username() if owner else None, **(audit or {})})
        if notify and owner is not None and owner.pk != actor.pk:
            public_id, owner_pk, event_pk = str(lead.public_id), owner.pk, event.pk
            transaction.on_commit(
                lambda: tasks.schedule_assigned(public_id, owner_pk, event_pk), robust=True)
    return lead


def lead_add_note(*, lead: Lead, text: str, actor, version: int | None = None) -> LeadEvent:
    text = _required_text(text, "text", NOTE_MAX_LENGTH, empty="A note cannot be empty.",
                          long="The note is too long.")
    with transaction.atomic():
        lead = _locked_for(lead, permissions.can_note, actor, version)
        event = LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.NOTE, actor=actor,
                                         data={"text": text})
        lead.last_activity_at = event.created_at
        lead.save(update_fields=["last_activity_at", "updated_at", *_bump(lead)])
    return event


def lead_reveal_contact(*, lead: Lead, actor) -> LeadEvent:
    """A rep who does not own the lead reads its phone, e-mail and WeChat ID: recorded on
    the lead's timeline (and the managers' audit page); it lasts
    permissions.CONTACT_REVEAL_MINUTES (selector.staff.access.contact_visible). Not an edit
    of the lead: its version and last activity stay as they are."""
    if not permissions.can_reveal_contact(actor, lead):
        raise PermissionDenied
    return LeadEvent.objects.create(
        lead=lead, kind=LeadEvent.Kind.CONTACT_REVEALED, actor=actor,
        data={"minutes": permissions.CONTACT_REVEAL_MINUTES})


def report_hash(report_number: str) -> str:
    """HMAC of a report number: lets staff check a number against LeadDeletion rows
    without the number itself being kept."""
    return hmac.new(settings.SECRET_KEY.encode(), report_number.strip().upper().encode(),
                    hashlib.sha256).hexdigest()


def lead_delete_on_request(*, lead: Lead, actor, reason: str) -> LeadDeletion:
    """Delete a lead on the customer's request: the row, its events and everything else
    stored for it (selector.leads.lifecycle.delete_lead, e.g. the cached PDF reports),
    keeping only an anonymous LeadDeletion record. Duplicates merged
    into it are the same customer's submissions: they go too."""
    reason = _required_text(reason, "reason", REASON_MAX_LENGTH, empty="Give a reason.",
                            long="The reason is too long.")
    with transaction.atomic():
        lead = _locked_for(lead, permissions.can_delete, actor)
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
        for pointer in Lead.objects.filter(merged_into=lead):
            delete_lead(lead=pointer)
        delete_lead(lead=lead)
    logger.info("lead deleted on request, deletion record %s", record.pk)
    return record


def lead_bulk_change(*, lead: Lead, actor, status: str | None = None, owner=None,
                     set_owner: bool = False, version: int | None = None,
                     audit: dict | None = None) -> tuple[bool, int | None]:
    """One lead of a bulk change: status (lead_change_status), then owner (lead_assign, no
    message: a bulk change tells each person once), in one transaction. ``audit``: more
    for the events' data. Returns (changed, the owner_changed event's pk if any)."""
    touched, event_pk = False, None
    with transaction.atomic():
        if status:
            before = lead.status
            lead = lead_change_status(lead=lead, status=status, actor=actor, version=version,
                                      audit=audit)
            touched = before != lead.status
        if set_owner:
            before_owner = lead.owner_id
            lead = lead_assign(lead=lead, owner=owner, actor=actor, notify=False,
                               version=None if version is None else lead.version, audit=audit)
            if before_owner != lead.owner_id:
                touched = True
                event_pk = (lead.events.filter(kind=LeadEvent.Kind.OWNER_CHANGED)
                            .values_list("pk", flat=True).last())
                assert event_pk is not None  # lead_assign just wrote it
    return touched, event_pk


def leads_bulk_update(*, leads, actor, status: str | None = None, owner=None,
                      set_owner: bool = False) -> int:
    """Status and/or owner of many leads, all or nothing (permissions.can_bulk_change; each
    lead checked by the services), one event per changed lead. Returns how many changed."""
    if not permissions.can_bulk_change(actor):
        raise PermissionDenied
    changed = 0
    assigned: list[tuple[str, int]] = []  # (public id, owner_changed event) newly the owner's
    with transaction.atomic():
        for lead in leads:
            touched, event_pk = lead_bulk_change(lead=lead, actor=actor, status=status,
                                                 owner=owner, set_owner=set_owner)
            if event_pk is not None:
                assigned.append((str(lead.public_id), event_pk))
            changed += touched
        if assigned and owner is not None and owner.pk != actor.pk:
            # One message to the new owner for the whole change, not one per lead.
            owner_pk = owner.pk
            if len(assigned) == 1:
                (public_id, event_pk), = assigned
                transaction.on_commit(
                    lambda: tasks.schedule_assigned(public_id, owner_pk, event_pk), robust=True)
            else:
                ids, first_event = [p for p, _e in assigned], assigned[0][1]
                transaction.on_commit(
                    lambda: tasks.schedule_assigned_many(owner_pk, ids, first_event),
                    robust=True)
    return changed


def handover_start(*, actor, from_user, to_user) -> Handover:
    """Managers: move every open lead of ``from_user`` (a rep who left, say) to ``to_user``
    in the background (staff.tasks.handover, run by the task worker in batches, with
    progress on the Handover row and one summary message to the new owner)."""
    if not permissions.can_bulk_edit(actor):
        raise PermissionDenied
    if from_user.pk == to_user.pk:
        raise ValidationError({"to_user": "Choose someone else to hand the leads to."})
    if not permissions.is_staff_member(to_user):
        raise ValidationError({"to_user": "The owner must be a member of the sales team."})
    with transaction.atomic():
        job = Handover.objects.create(actor=actor, from_user=from_user, to_user=to_user,
                                      total=handover_leads(from_user).count())
        pk = job.pk
        transaction.on_commit(lambda: tasks.schedule_handover(pk), robust=True)
    return job


def handover_leads(from_user):
    """The leads a hand-over moves: open, live, owned by ``from_user``."""
    return Lead.objects.filter(owner=from_user, status__in=OPEN_STATUSES,
                               merged_into__isnull=True)


# A search the export log may keep as typed: a report number (no personal data in it).
_REPORT_NUMBER = re.compile(r"NS-?[0-9]{0,8}-?[A-Z0-9]{0,6}", re.IGNORECASE)
SEARCH_MARK = "[search text]"


def logged_filters(cleaned: dict) -> dict[str, str]:
    """The export log's record of the filters: every filter as chosen, except the search
    text, which can be a person's name, phone number or e-mail (the export log outlives an
    erasure): kept only when it is a report number, otherwise a mark that a search was
    used."""
    filters = {k: str(v) for k, v in cleaned.items() if v not in (None, "")}
    q = filters.get("q")
    if q is not None and not _REPORT_NUMBER.fullmatch(q.strip()):
        filters["q"] = SEARCH_MARK
    return filters


def leads_merge(*, survivor: Lead, other: Lead, actor,
                versions: dict[int, int] | None = None) -> Lead:
    """Managers: merge ``other`` into ``survivor``. The other lead's timeline (downloads
    included) moves to the survivor, its consent is recorded there (when, which privacy
    notice, the browser), and it becomes a pointer (``merged_into``): out of the lists,
    its page redirects to the survivor, and its customer's report link keeps working.
    Leads already merged into ``other`` now point at the survivor. Both locked in pk
    order, so two managers merging the same pair cannot deadlock. ``versions`` (lead pk ->
    the version the manager's page showed): StaleLead for a lead that changed since."""
    if survivor.pk == other.pk:
        raise ValidationError({"other": "A lead cannot be merged into itself."})
    with transaction.atomic():
        first, second = sorted([survivor.pk, other.pk])
        locked = {lead.pk: lead for lead in Lead.objects.select_for_update(of=("self",))
                  .select_related("owner").filter(pk__in=[first, second]).order_by("pk")}
        if len(locked) != 2:
            raise ValidationError({"other": "The lead no longer exists."})
        survivor, other = locked[survivor.pk], locked[other.pk]
        if not permissions.can_merge(actor):
            raise PermissionDenied
        for pk, version in (versions or {}).items():
            if pk in locked:
                _unchanged_since(locked[pk], version)
        if survivor.merged_into_id or other.merged_into_id:
            raise ValidationError({"other": "One of the leads was already merged."})
        flagged = duplicates.counterparts(survivor, other)
        other.events.update(lead=survivor)
        Lead.objects.filter(merged_into=other).update(merged_into=survivor)
        DuplicateFlag.objects.filter(lead__in=[survivor, other], other__in=[survivor, other]
                                     ).delete()
        # A third lead flagged with both: the survivor's flag stays (one flag per pair;
        # moving the other's would collide with it).
        DuplicateFlag.objects.filter(lead=other, other__in=DuplicateFlag.objects.filter(
            lead=survivor).values("other")).delete()
        DuplicateFlag.objects.filter(other=other, lead__in=DuplicateFlag.objects.filter(
            other=survivor).values("lead")).delete()
        DuplicateFlag.objects.filter(lead=other).update(lead=survivor)
        DuplicateFlag.objects.filter(other=other).update(other=survivor)
        DuplicateFlag.objects.filter(lead=survivor, other=survivor).delete()
        duplicates.refresh({survivor.pk, other.pk, *flagged})
        LeadEvent.objects.create(
            lead=survivor, kind=LeadEvent.Kind.MERGED, actor=actor,
            # The merged lead by its report number only: its contact details stay on its own
            # row (a pointer), so erasing that lead erases them (issue 21, M5).
            data={"merged": {"report_number": other.report_number},
                  "consent": {"given_at": other.consent_given_at.isoformat(),
                              "notice_version": other.consent_notice_version,
                              "user_agent": other.consent_user_agent},
                  "source": {"utm_source": other.utm_source,
                             "utm_campaign": other.utm_campaign}})
        LeadEvent.objects.create(lead=other, kind=LeadEvent.Kind.MERGED, actor=actor,
                                 data={"into": survivor.report_number})
        other.merged_into = survivor
        other.next_action_kind, other.next_action_due, other.next_action_note = "", None, ""
        other.save(update_fields=["merged_into", "next_action_kind", "next_action_due",
                                  "next_action_note", "updated_at", *_bump(other)])
        fields = ["updated_at", *_bump(survivor)]
        for name in ("wechat", "message"):
            if not getattr(survivor, name) and getattr(other, name):
                setattr(survivor, name, getattr(other, name))
                fields.append(name)
        if survivor.first_contact_at is None and other.first_contact_at is not None:
            survivor.first_contact_at = other.first_contact_at
            survivor.first_contact_by_id = other.first_contact_by_id
            survivor.first_response_minutes = other.first_response_minutes
            fields += ["first_contact_at", "first_contact_by", "first_response_minutes"]
        survivor.save(update_fields=fields)
    logger.info("lead %s merged into %s", other.report_number, survivor.report_number)
    return survivor


def duplicate_dismiss(*, flag: DuplicateFlag, actor) -> None:
    """Not a duplicate after all (anyone who may work on the flagged lead, or a manager)."""
    with transaction.atomic():
        lead = _locked(flag.lead)
        if not (permissions.can_work_on(actor, lead) or permissions.can_merge(actor)):
            raise PermissionDenied
        DuplicateFlag.objects.filter(pk=flag.pk, dismissed_at__isnull=True).update(
            dismissed_at=timezone.now(), dismissed_by=actor)
        duplicates.refresh([flag.lead_id, flag.other_id])
