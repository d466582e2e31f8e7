"""Background work of the sales workspace, on the task worker (django-tasks-db):

- **Reminders**: setting a next action enqueues ``remind`` with ``run_after`` = the due
  time. When it runs it re-reads the lead and sends only if that very action is still due
  and no reminder went out for it (a changed or cleared action makes the task a no-op).
- **Assignment**: the new owner is told with an @mention (``assigned``).
- **The tick** (``tick``, every TICK_SECONDS): returns untouched leads to the pool
  (``return_to_pool``, the routing rule's time), escalates first-contact SLA breaches to the
  managers once per lead, and sends each team member's daily digest once a day after
  STAFF_DIGEST_TIME. It re-enqueues itself (``run_after``) unless another tick is already
  waiting; ``manage.py staff_tick --schedule`` starts the chain (serve-prod does), and
  ``manage.py staff_tick`` runs one tick (for cron, or a backend that cannot defer).

Every message goes to the group robot (LEAD_WEBHOOK_URL, @mentioning the mobile number in
the person's staff profile where the platform can) and by e-mail to the person. Failures
are logged and recorded on the lead's timeline; the reminder and escalation events are
written only after a send succeeded on at least one channel.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from selector.core.siteurl import site_url
from selector.core.ticks import can_defer, enqueue_unless_waiting
from selector.leads import deliveries, notify, people, worktime
from selector.leads.callback import callback_requested
from selector.leads.models import OPEN_STATUSES, Delivery, Lead, LeadEvent
from selector.staff import permissions
from selector.staff.messaging import (
    email,
    later_task,
    lead_line,
    profile,
    record,
    send_about,
)
from selector.staff.models import Handover
from selector.staff.sweeps import digest_due, escalate_sla, return_to_pool, send_digests

TICK_SECONDS = 300


# --- reminders ----------------------------------------------------------------------

def schedule_reminder(lead_public_id: str, due_iso: str) -> None:
    if can_defer(remind):
        remind.using(run_after=dt.datetime.fromisoformat(due_iso)).enqueue(
            lead_public_id, due_iso)


@task
def remind(lead_public_id: str, due_iso: str) -> str:
    lead = Lead.objects.select_related("owner").filter(public_id=lead_public_id).first()
    if lead is None or lead.next_action_due is None:
        return "gone"
    if lead.next_action_due != dt.datetime.fromisoformat(due_iso):  # aware: any offset
        return "changed"
    owner = lead.owner
    language = profile(owner).language if owner else settings.LANGUAGE_CODE
    with translation.override(language):
        mention = people.mentions([owner] if owner else [])
        kind = lead.get_next_action_kind_display()
        due = timezone.localtime(lead.next_action_due)
        message = notify.Message(
            title=str(_("Reminder: %(action)s %(number)s due at %(time)s") % {
                "action": kind, "number": lead.report_number,
                "time": f"{due:%Y-%m-%d %H:%M}"}),
            lines=(lead_line(lead),
                   *([notify._plain(lead.next_action_note, 200)] if lead.next_action_note
                     else [])),
            link=notify.staff_url(lead), link_text=str(_("Open the lead")),
            **mention, event="lead.reminder",
            facts={"report_number": lead.report_number, "due": due_iso})
        sent = send_about(lead, owner, message, message.title,
                           robot_kind=Delivery.Kind.REMINDER_ROBOT,
                           email_kind=Delivery.Kind.REMINDER_EMAIL, key=due_iso,
                           later=later_task(remind, lead_public_id, due_iso))
    if not sent:
        return "failed"
    if lead.events.filter(kind=LeadEvent.Kind.REMINDED, data__due=due_iso).exists():
        return "already-sent"
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.REMINDED,
                             data={"due": due_iso, "to": owner.get_username() if owner
                                   else None})
    return "sent"


# --- assignment ---------------------------------------------------------------------

def schedule_assigned(lead_public_id: str, owner_pk: int, event_pk: int | None = None) -> None:
    assigned.enqueue(lead_public_id, owner_pk, event_pk)


@task
def assigned(lead_public_id: str, owner_pk: int, event_pk: int | None = None) -> str:
    """The @mention to the new owner, once per assignment (its owner_changed event)."""
    lead = Lead.objects.select_related("owner").filter(public_id=lead_public_id).first()
    if lead is None or lead.owner_id != owner_pk:
        return "changed"
    if event_pk is None:  # a task queued before assignments were keyed
        event_pk = (lead.events.filter(kind=LeadEvent.Kind.OWNER_CHANGED)
                    .values_list("pk", flat=True).last())
    owner = lead.owner
    with translation.override(profile(owner).language):
        mention = people.mentions([owner])
        message = notify.Message(
            title=str(_("Lead %(number)s assigned to %(name)s") % {
                "number": lead.report_number, "name": mention["names"][0]}),
            lines=(lead_line(lead),), link=notify.staff_url(lead),
            link_text=str(_("Open the lead")), **mention,
            event="lead.assigned", facts={"report_number": lead.report_number})
        return "sent" if send_about(
            lead, owner, message, message.title, robot_kind=Delivery.Kind.ASSIGNED_ROBOT,
            email_kind=Delivery.Kind.ASSIGNED_EMAIL, key=str(event_pk or ""),
            later=later_task(assigned, lead_public_id, owner_pk, event_pk)) else "failed"


# --- account security notices ------------------------------------------------------

# What happened to the user's second factor (issue 21, M4): each is mailed to the user, so
# an owner learns of a change they did not make.
NOTICES = {
    "mfa_enrolled": _lazy("Two-factor log-in was turned on for your account"),
    "mfa_replaced": _lazy("A new authenticator app was set up for your account"),
    "recovery_codes": _lazy("New recovery codes were made for your account"),
    "mfa_off": _lazy("Two-factor log-in was turned off for your account"),
    "mfa_reset": _lazy("A manager reset the two-factor log-in of your account"),
}


def schedule_account_notice(user, kind: str, ip: str, actor: str = "") -> None:
    """Mail ``user`` about ``kind`` once the change is committed (nothing is said of a
    change that rolled back); ``actor`` names who made it when it was someone else."""
    assert kind in NOTICES
    when, pk = timezone.now().isoformat(), user.pk
    transaction.on_commit(lambda: account_notice.enqueue(pk, kind, ip, when, actor),
                          robust=True)


@task
def account_notice(user_pk: int, kind: str, ip: str, when_iso: str, actor: str = "") -> str:
    """The e-mail only (never the group robot: it is the user's own business)."""
    user = get_user_model().objects.filter(pk=user_pk).first()
    if user is None or not user.email or kind not in NOTICES:
        return "no-address"
    with translation.override(profile(user).language):
        title = str(NOTICES[kind])
        when = timezone.localtime(dt.datetime.fromisoformat(when_iso))
        lines = (
            *([str(_("By: %(name)s.") % {"name": actor})] if actor else []),
            str(_("When: %(time)s, from the address %(ip)s.") % {
                "time": f"{when:%Y-%m-%d %H:%M}", "ip": ip}),
            str(_("If this was not you, tell a manager at once (they can reset your "
                  "two-factor log-in) and change your password.")),
        )
        message = notify.Message(title=title, lines=lines,
                                 link=site_url() + reverse("staff:mfa"),
                                 link_text=str(_("Open your two-factor log-in page")),
                                 event="staff.account", facts={"kind": kind})
        mail = EmailMultiAlternatives(subject=title, to=[user.email], body="\n".join(
            [title, *lines, "", message.link]))
        mail.attach_alternative(render_to_string("staff/email/message.html",
                                                 {"message": message}), "text/html")
    mail.send()  # a failure fails the task (its result says so), no silent loss
    return "sent"


def schedule_assigned_many(owner_pk: int, lead_public_ids: list[str], event_pk: int) -> None:
    assigned_many.enqueue(owner_pk, lead_public_ids, event_pk)


@task
def assigned_many(owner_pk: int, lead_public_ids: list[str], event_pk: int) -> str:
    """One message to the new owner of many leads at once (a bulk change): the first ten
    and how many more, once (its deliveries hang on the first lead still theirs, keyed by
    the change's first owner_changed event)."""
    leads = list(Lead.objects.select_related("owner")
                 .filter(public_id__in=lead_public_ids, owner_id=owner_pk)
                 .order_by("-score_rank", "created_at"))
    if not leads:
        return "changed"
    owner = leads[0].owner
    anchor = min(leads, key=lambda lead: lead_public_ids.index(str(lead.public_id)))
    with translation.override(profile(owner).language):
        mention = people.mentions([owner])
        lines = [lead_line(lead) for lead in leads[:10]]
        if len(leads) > 10:
            lines.append(str(_("… and %(count)s more.") % {"count": len(leads) - 10}))
        with translation.override(settings.LANGUAGE_CODE):
            link = site_url() + reverse("staff:lead_list") + "?owner=mine"
        message = notify.Message(
            title=str(_("%(count)s leads assigned to %(name)s") % {
                "count": len(leads), "name": mention["names"][0]}),
            lines=tuple(lines), link=link, link_text=str(_("Open the lead list")),
            **mention, event="lead.assigned.many",
            facts={"count": len(leads)})
        return "sent" if send_about(
            anchor, owner, message, message.title, robot_kind=Delivery.Kind.ASSIGNED_ROBOT,
            email_kind=Delivery.Kind.ASSIGNED_EMAIL, key=f"bulk:{event_pk}",
            later=later_task(assigned_many, owner_pk, lead_public_ids, event_pk)) else "failed"


# --- hand-over: all open leads of one person to another -----------------------------

HANDOVER_BATCH = 200


def schedule_handover(handover_pk: int) -> None:
    handover.enqueue(handover_pk)


@task
def handover(handover_pk: int) -> str:
    return run_handover(handover_pk)


def run_handover(handover_pk: int) -> str:
    """Move the open leads of the hand-over's person to its new owner, HANDOVER_BATCH a
    transaction (each lead: owner, version +1, an owner_changed event marked with the
    hand-over), counting ``done`` as it goes, then one summary message to the new owner.
    Safe to run twice (the task worker may): a second run finds nothing left to move and
    the summary's deliveries go out once (staff.tasks.assigned_many)."""
    job = Handover.objects.select_related("from_user", "to_user", "actor").filter(
        pk=handover_pk).first()
    if job is None:
        return "gone"
    if job.status == Handover.Status.DONE:
        return "done"
    old, new, actor = job.from_user, job.to_user, job.actor
    if old is None or new is None or not permissions.is_staff_member(new):
        Handover.objects.filter(pk=job.pk).update(status=Handover.Status.FAILED,
                                                  finished_at=timezone.now())
        return "failed"
    Handover.objects.filter(pk=job.pk).update(status=Handover.Status.RUNNING)
    leads = Lead.objects.filter(owner=old, status__in=OPEN_STATUSES, merged_into__isnull=True)
    while True:
        with transaction.atomic():
            batch = list(leads.select_for_update(of=("self",)).order_by("pk")
                         .values_list("pk", flat=True)[:HANDOVER_BATCH])
            if not batch:
                break
            Lead.objects.filter(pk__in=batch).update(owner=new, version=F("version") + 1,
                                                     updated_at=timezone.now())
            LeadEvent.objects.bulk_create([
                LeadEvent(lead_id=pk, kind=LeadEvent.Kind.OWNER_CHANGED, actor=actor,
                          data={"from": old.get_username(), "to": new.get_username(),
                                "handover": job.pk}) for pk in batch])
            Handover.objects.filter(pk=job.pk).update(done=F("done") + len(batch))
    Handover.objects.filter(pk=job.pk).update(status=Handover.Status.DONE,
                                              finished_at=timezone.now())
    moved = list(LeadEvent.objects.filter(kind=LeadEvent.Kind.OWNER_CHANGED,
                                          data__handover=job.pk)
                 .order_by("pk").values_list("pk", "lead__public_id"))
    if moved and (actor is None or new.pk != actor.pk):
        schedule_assigned_many(new.pk, [str(public_id) for _pk, public_id in moved],
                               moved[0][0])
    return "done"


def run_tick(now=None) -> dict:
    """SLA messages and digests go out on working days only (the team's calendar,
    selector.leads.worktime, holidays and 调休 included): on a day off the tick posts
    nothing, and what came due then goes out at the first tick of the next working day."""
    if not worktime.calendar().is_working_day(timezone.localdate(now or timezone.now())):
        return {"sla_escalated": 0, "digests": 0, "working_day": False}
    returned = return_to_pool(now)
    breaches = escalate_sla(now)
    digests = send_digests(now) if digest_due(now) else 0
    return {"sla_escalated": breaches, "digests": digests, "returned_to_pool": returned}


@task
def tick() -> dict:
    try:
        return run_tick()
    finally:
        schedule_tick(delay=TICK_SECONDS)


def schedule_tick(delay: int = 0) -> bool:
    """Enqueue the next tick unless one is already waiting; False on a backend that
    cannot defer (run ``manage.py staff_tick`` from cron there)."""
    return enqueue_unless_waiting(tick, delay=delay)


# --- call-back requests (selector.leads.callback) -----------------------------------------

def on_callback_requested(sender, *, lead_public_id: str, event_pk: int, due_iso: str,
                          next_action: bool, **kwargs) -> None:
    """selector.leads.callback.callback_requested: tell sales now, and remind the owner at
    the customer's time when the request became the lead's next action."""
    callback.enqueue(lead_public_id, event_pk)
    if next_action:
        schedule_reminder(lead_public_id, due_iso)


def callback_message(lead: Lead, event: LeadEvent) -> notify.Message:
    """The group robot's message about a call-back request, in the robot's language. No
    personal data (the module doc of selector.leads.notify): the customer's note goes only
    in the e-mail."""
    owner = lead.owner
    with translation.override(settings.LEAD_WEBHOOK_LANGUAGE):
        mention = people.mentions([owner] if owner else [])
        due = dt.datetime.fromisoformat(str(event.data.get("due")))
        return notify.Message(
            title=str(_("Call-back requested: %(number)s at %(time)s") % {
                "number": lead.report_number,
                "time": f"{timezone.localtime(due):%Y-%m-%d %H:%M}"}),
            lines=(lead_line(lead),),
            link=notify.staff_url(lead), link_text=str(_("Open the lead")),
            **mention, event="lead.callback_requested",
            facts={"report_number": lead.report_number, "due": due.isoformat()})


@task
def callback(lead_public_id: str, event_pk: int) -> str:
    """A call-back request to the group robot (@mentioning the owner) and by e-mail to the
    owner, or to SALES_NOTIFY_EMAILS while the lead has none; once each per request."""
    lead = Lead.objects.select_related("owner").filter(public_id=lead_public_id).first()
    event = LeadEvent.objects.filter(pk=event_pk, kind=LeadEvent.Kind.CALLBACK_REQUESTED,
                                     lead=lead).first() if lead else None
    if lead is None or event is None:
        return "gone"
    message = callback_message(lead, event)
    note = str(event.data.get("note") or "")
    # The e-mail may carry the customer's words (plain: no link to click in them).
    mail_message = notify.Message(
        title=message.title, lines=(*message.lines, *([notify._plain(note, 200)] if note
                                                      else [])),
        link=message.link, link_text=message.link_text)
    key = str(event_pk)
    sent = send_about(lead, lead.owner, message, message.title,
                       robot_kind=Delivery.Kind.CALLBACK_ROBOT,
                       email_kind=Delivery.Kind.CALLBACK_EMAIL, key=key,
                       later=later_task(callback, lead_public_id, event_pk),
                       mail_message=mail_message)
    if lead.owner is None and settings.SALES_NOTIFY_EMAILS:
        mail = email(None, mail_message, message.title, to=list(settings.SALES_NOTIFY_EMAILS))
        outcome = deliveries.send_once(lead, Delivery.Kind.CALLBACK_EMAIL, key, mail.send)
        record(lead, Delivery.Kind.CALLBACK_EMAIL, key, outcome, None)
        sent = sent or outcome in ("sent", "already-sent")
    return "sent" if sent else "failed"


callback_requested.connect(on_callback_requested, dispatch_uid="staff-callback")
