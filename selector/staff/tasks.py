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
import logging
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from selector.core.siteurl import site_url
from selector.core.ticks import can_defer, enqueue_unless_waiting
from selector.leads import deliveries, notify, pacing, people, routing, worktime
from selector.leads.callback import callback_requested
from selector.leads.models import OPEN_STATUSES, Delivery, Lead, LeadEvent
from selector.leads.tasks import backoff_seconds
from selector.staff import permissions, queries
from selector.staff.models import Handover, StaffProfile

logger = logging.getLogger(__name__)

TICK_SECONDS = 300


def profile(user) -> StaffProfile:
    return StaffProfile.objects.get_or_create(user=user)[0]


def _send(user, message: notify.Message, subject: str) -> bool:
    """Group robot (with the @mention) and e-mail; True when at least one channel worked.
    (Messages about one lead go through ``_send_about``, once each.)"""
    sent = False
    if settings.LEAD_WEBHOOK_URL:
        try:
            notify.post_message(message)
            sent = True
        except Exception as exc:  # noqa: BLE001 - a robot failure must not stop the e-mail
            logger.warning("staff message to the group robot failed (%s)", type(exc).__name__)
    if user is not None and user.email:
        try:
            _email(user, message, subject).send()
            sent = True
        except Exception as exc:  # noqa: BLE001
            logger.warning("staff e-mail failed (%s)", type(exc).__name__)
    return sent


def _email(user, message: notify.Message, subject: str, *,
           to: list[str] | None = None) -> EmailMultiAlternatives:
    text = "\n".join([message.title, *message.lines, "", message.link])
    html = render_to_string("staff/email/message.html", {"message": message})
    mail = EmailMultiAlternatives(subject=subject, body=text, to=to or [user.email])
    mail.attach_alternative(html, "text/html")
    return mail


def _send_about(lead: Lead, user, message: notify.Message, subject: str, *, robot_kind: str,
                email_kind: str, key: str, later: Callable[[float], object] | None,
                mail_message: notify.Message | None = None) -> bool:
    """A message about ``lead`` to the group robot and to ``user``'s e-mail, each a
    leads.Delivery: sent at most once per (lead, kind, key) however often the task runs.
    With ``later`` (re-enqueue this task after so many seconds; a deferring backend) the
    robot post waits for a free slot under the robot's rate (selector.leads.pacing) and a
    refused post is retried with backoff, LEAD_NOTIFY_MAX_ATTEMPTS in all. Each failed
    attempt is a notification_failed event on the lead's timeline, the last one final.
    ``mail_message``: what the e-mail says, when it may say more than the group (personal
    data). True when a channel has (now or before) carried the message."""
    carried = []
    if settings.LEAD_WEBHOOK_URL:
        outcome = deliveries.send_once(
            lead, robot_kind, key, lambda: notify.post_message(message),
            pace=lambda: pacing.reserve(settings.LEAD_WEBHOOK_URL), later=later,
            max_attempts=settings.LEAD_NOTIFY_MAX_ATTEMPTS)
        carried.append(outcome)
        _record(lead, robot_kind, key, outcome, later)
    if user is not None and user.email:
        outcome = deliveries.send_once(lead, email_kind, key,
                                       _email(user, mail_message or message, subject).send)
        carried.append(outcome)
        _record(lead, email_kind, key, outcome, None)
    return any(outcome in ("sent", "already-sent") for outcome in carried)


def _record(lead: Lead, kind: str, key: str, outcome: str,
            later: Callable[[float], object] | None) -> None:
    if outcome not in ("retry", "failed", "uncertain", "interrupted"):
        return
    row = Delivery.objects.get(lead=lead, kind=kind, key=key)
    final = outcome != "retry"
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.NOTIFICATION_FAILED,
                             data={"channel": kind, "attempt": row.attempts, "final": final,
                                   "error": row.error})
    logger.warning("lead %s: %s attempt %d failed (%s)%s", lead.report_number, kind,
                   row.attempts, row.error, "" if not final else " - giving up")
    if outcome == "retry" and later is not None:
        later(backoff_seconds(row.attempts))


def _later(task_obj, *args) -> Callable[[float], object] | None:
    """Re-enqueue ``task_obj(*args)`` after so many seconds, on a backend that can defer."""
    if not can_defer(task_obj):
        return None
    return lambda seconds: task_obj.using(
        run_after=timezone.now() + timedelta(seconds=seconds)).enqueue(*args)



def when_text(moment: dt.datetime, now: dt.datetime | None = None, *,
              with_time: bool = True) -> str:
    """A local date (and time) as robot messages and digests give it: "12-03 14:30" this
    year, "2025-12-03 14:30" in another, so an old deadline does not read like next week's."""
    local = timezone.localtime(moment)
    this_year = timezone.localtime(now or timezone.now()).year == local.year
    day = f"{local:%m-%d}" if this_year else f"{local:%Y-%m-%d}"
    return f"{day} {local:%H:%M}" if with_time else day


def _lead_line(lead: Lead) -> str:
    words = notify.labels(lead)
    return f"{lead.report_number} · {notify._plain(lead.company)} · {words['score']}"


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
            lines=(_lead_line(lead),
                   *([notify._plain(lead.next_action_note, 200)] if lead.next_action_note
                     else [])),
            link=notify.staff_url(lead), link_text=str(_("Open the lead")),
            **mention, event="lead.reminder",
            facts={"report_number": lead.report_number, "due": due_iso})
        sent = _send_about(lead, owner, message, message.title,
                           robot_kind=Delivery.Kind.REMINDER_ROBOT,
                           email_kind=Delivery.Kind.REMINDER_EMAIL, key=due_iso,
                           later=_later(remind, lead_public_id, due_iso))
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
            lines=(_lead_line(lead),), link=notify.staff_url(lead),
            link_text=str(_("Open the lead")), **mention,
            event="lead.assigned", facts={"report_number": lead.report_number})
        return "sent" if _send_about(
            lead, owner, message, message.title, robot_kind=Delivery.Kind.ASSIGNED_ROBOT,
            email_kind=Delivery.Kind.ASSIGNED_EMAIL, key=str(event_pk or ""),
            later=_later(assigned, lead_public_id, owner_pk, event_pk)) else "failed"


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
        lines = [_lead_line(lead) for lead in leads[:10]]
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
        return "sent" if _send_about(
            anchor, owner, message, message.title, robot_kind=Delivery.Kind.ASSIGNED_ROBOT,
            email_kind=Delivery.Kind.ASSIGNED_EMAIL, key=f"bulk:{event_pk}",
            later=_later(assigned_many, owner_pk, lead_public_ids, event_pk)) else "failed"


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


# --- SLA and digests ----------------------------------------------------------------

def managers():
    User = get_user_model()
    return (User.objects.filter(is_active=True)
            .filter(Q(groups__name=permissions.MANAGERS_GROUP) | Q(is_superuser=True))
            .distinct().order_by("username"))


def sla_breaches(now=None):
    """Open, never-contacted leads past their first-contact deadline (not merged)."""
    now = now or timezone.now()
    return (Lead.objects.filter(first_contact_at__isnull=True, sla_due__lte=now,
                                merged_into__isnull=True, status__in=OPEN_STATUSES)
            .order_by("sla_due"))


# Breaches at most this old get a message each; older ones (an imported book, a worker
# that was down) are told in one summary instead of hours of messages.
SLA_FRESH_SECONDS = 3600
SLA_BATCH = 50


def escalate_sla(now=None) -> int:
    """Tell the managers about SLA breaches, each once: a message per breach of the last
    SLA_FRESH_SECONDS (at most SLA_BATCH a tick), one summary for the older ones. Posts
    take the robot's slots (selector.leads.pacing): when none is free the rest waits for
    the next tick. Each message is a leads.Delivery (robot, and an e-mail per manager),
    sent at most once; a lead is marked escalated (its sla_breached event) only after a
    channel carried the message, and a refused one is tried again at the next tick,
    LEAD_NOTIFY_MAX_ATTEMPTS times. Returns how many leads were escalated."""
    now = now or timezone.now()
    boss = list(managers())
    waiting = (sla_breaches(now).exclude(events__kind=LeadEvent.Kind.SLA_BREACHED)
               .select_related("owner"))
    cutoff = now - timedelta(seconds=SLA_FRESH_SECONDS)
    count = 0
    for lead in waiting.filter(sla_due__gt=cutoff)[:SLA_BATCH]:
        assert lead.sla_due is not None  # sla_breaches() selects leads with a deadline
        with translation.override(settings.LANGUAGE_CODE):
            message = _sla_message(lead, boss, now)
        outcome = _escalate(lead, boss, message, key=lead.sla_due.isoformat())
        if outcome == "paced":
            break  # the robot's minute is full: the rest at the next tick
        if outcome in ("sent", "failed"):
            LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.SLA_BREACHED, data={
                "due": lead.sla_due.isoformat(), **({"failed": True} if outcome == "failed"
                                                    else {})})
            count += outcome == "sent"
    else:
        count += _escalate_backlog(waiting.filter(sla_due__lte=cutoff), boss, now)
    return count


def _escalate(lead: Lead, boss: list, message: notify.Message, *, key: str) -> str:
    """The robot post and each manager's e-mail about ``lead``: "sent" (a channel carried
    it, now or before), "paced" (no robot slot: nothing sent), "retry" (to be tried at the
    next tick) or "failed" (every channel gave up)."""
    if settings.LEAD_WEBHOOK_URL:
        robot = deliveries.expect(lead, Delivery.Kind.SLA_ROBOT, key)
        if robot.status == Delivery.Status.PENDING and pacing.reserve(
                settings.LEAD_WEBHOOK_URL) > 0:
            return "paced"
    outcomes = []
    again = lambda seconds: None  # noqa: E731 - the next tick is the retry
    if settings.LEAD_WEBHOOK_URL:
        outcome = deliveries.send_once(lead, Delivery.Kind.SLA_ROBOT, key,
                                       lambda: notify.post_message(message), later=again,
                                       max_attempts=settings.LEAD_NOTIFY_MAX_ATTEMPTS)
        _record(lead, Delivery.Kind.SLA_ROBOT, key, outcome, None)
        outcomes.append(outcome)
    for manager in boss:
        if manager.email:
            outcome = deliveries.send_once(lead, Delivery.Kind.SLA_EMAIL, f"{key}:{manager.pk}",
                                           _email(manager, message, message.title).send,
                                           later=again,
                                           max_attempts=settings.LEAD_NOTIFY_MAX_ATTEMPTS)
            _record(lead, Delivery.Kind.SLA_EMAIL, f"{key}:{manager.pk}", outcome, None)
            outcomes.append(outcome)
    if any(o in ("sent", "already-sent") for o in outcomes):
        return "sent"
    if any(o in ("retry", "in-progress") for o in outcomes):
        return "retry"
    return "failed" if outcomes else "sent"  # nobody to tell: nothing to wait for


def _sla_message(lead: Lead, boss: list, now=None) -> notify.Message:
    mention = people.mentions(boss)
    assert lead.sla_due is not None
    return notify.Message(
        title=str(_("First-contact SLA missed: %(number)s (due %(time)s)") % {
            "number": lead.report_number, "time": when_text(lead.sla_due, now)}),
        lines=(_lead_line(lead), str(_("Owner: %(owner)s") % {
            "owner": lead.owner.get_username() if lead.owner else _("nobody")})),
        link=notify.staff_url(lead), link_text=str(_("Open the lead")),
        **mention, event="lead.sla_breached",
        facts={"report_number": lead.report_number})


def _escalate_backlog(backlog, boss: list, now=None) -> int:
    """One summary of the older breaches, carried on the oldest lead's delivery rows
    (keyed by the backlog's size, so a re-run of the same tick does not post it twice);
    afterwards every lead in it is marked escalated."""
    leads = list(backlog.select_related(None).only("pk", "report_number", "sla_due"))
    if not leads:
        return 0
    oldest = leads[0]
    with translation.override(settings.LANGUAGE_CODE):
        mention = people.mentions(boss)
        numbers = ", ".join(lead.report_number for lead in leads[:10])
        more = len(leads) - 10
        lines = [str(_("Still without a first contact, oldest first: %(numbers)s") % {
            "numbers": numbers})]
        if more > 0:
            lines.append(str(_("… and %(count)s more.") % {"count": more}))
        link = site_url() + reverse("staff:lead_list")
        message = notify.Message(
            title=str(_("First-contact SLA missed earlier by %(count)s leads "
                        "(the oldest due %(time)s)") % {
                "count": len(leads),
                "time": when_text(oldest.sla_due, now, with_time=False) if oldest.sla_due
                else ""}),
            lines=tuple(lines), link=link, link_text=str(_("Open the lead list")),
            **mention, event="lead.sla_breached.summary",
            facts={"count": len(leads)})
    outcome = _escalate(oldest, boss, message, key=f"summary:{len(leads)}")
    if outcome not in ("sent", "failed"):
        return 0
    LeadEvent.objects.bulk_create(
        [LeadEvent(lead_id=lead.pk, kind=LeadEvent.Kind.SLA_BREACHED,
                   data={"due": lead.sla_due.isoformat() if lead.sla_due else None,
                         "summary": True, **({"failed": True} if outcome == "failed" else {})})
         for lead in leads], batch_size=1000)
    return len(leads) if outcome == "sent" else 0


def digest_due(now=None) -> bool:
    now = timezone.localtime(now or timezone.now())
    return now.time() >= dt.time.fromisoformat(settings.STAFF_DIGEST_TIME)


# A digest lists this many leads of each set; the rest is "N more", linked to the list.
DIGEST_LINES = 10


def rep_digest(user, now=None) -> dict:
    """What a rep's digest lists: follow-ups overdue and due today, the same sets as My
    day (staff.queries.DAY_SETS): the first DIGEST_LINES of each and the exact counts."""
    now = now or timezone.now()
    overdue, n_overdue = queries.capped(
        queries.day_set("overdue", user, now).order_by("next_action_due", "pk"), DIGEST_LINES)
    today, n_today = queries.capped(
        queries.day_set("today", user, now).order_by("next_action_due", "pk"), DIGEST_LINES)
    return {"overdue": overdue, "today": today,
            "counts": {"overdue": n_overdue, "today": n_today}}


def manager_digest(now=None) -> dict:
    now = now or timezone.now()
    since = now - timedelta(days=1)
    live = Lead.objects.filter(merged_into__isnull=True)
    breaches = sla_breaches(now).aggregate(
        recent=Count("pk", filter=Q(sla_due__gt=since)), older=Count("pk", filter=Q(
            sla_due__lte=since)))
    return {"new": live.filter(created_at__gte=since).count(),
            "unassigned": queries.day_set("unassigned", None, now).count(),
            "unassigned_hot": queries.day_set("hot_unassigned", None, now).count(),
            # The last 24 hours' misses apart from the backlog (still never contacted).
            "breaches": breaches["recent"], "backlog": breaches["older"]}


def send_digests(now=None) -> int:
    """Each member's digest, once per local day (claimed by a conditional UPDATE). Each
    digest with something to say takes a robot slot first (selector.leads.pacing): when
    the robot's minute is full, the rest of the team gets theirs at the next tick."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    sent = 0
    User = get_user_model()
    team = User.objects.filter(is_active=True).filter(
        Q(groups__name__in=[permissions.SALES_GROUP, permissions.MANAGERS_GROUP])
        | Q(is_superuser=True)).distinct().order_by("pk")
    due = Q(digest_sent_on__isnull=True) | Q(digest_sent_on__lt=today)
    for user in team:
        member = profile(user)
        if not StaffProfile.objects.filter(pk=member.pk).filter(due).exists():
            continue
        with translation.override(member.language):
            message = _digest_message(user, now)
        if message is not None and settings.LEAD_WEBHOOK_URL and pacing.reserve(
                settings.LEAD_WEBHOOK_URL) > 0:
            break  # the robot's minute is full: the others at the next tick
        claimed = StaffProfile.objects.filter(pk=member.pk).filter(due).update(
            digest_sent_on=today)
        if claimed and message is not None:
            _send(user, message, message.title)
            sent += 1
    return sent


def _digest_message(user, now) -> notify.Message | None:
    mention = people.mentions([user])
    lines = []
    mine = rep_digest(user, now)
    counts = mine["counts"]
    for lead in mine["overdue"]:
        assert lead.next_action_due is not None  # the overdue set has a due time
        lines.append(str(_("Overdue since %(time)s: %(line)s") % {
            "time": when_text(lead.next_action_due, now), "line": _lead_line(lead)}))
    if counts["overdue"] > len(mine["overdue"]):
        lines.append(str(_("%(more)s more overdue: %(url)s") % {
            "more": counts["overdue"] - len(mine["overdue"]), "url": _list_url("overdue")}))
    for lead in mine["today"]:
        lines.append(str(_("Today %(time)s: %(line)s") % {
            "time": f"{timezone.localtime(lead.next_action_due):%H:%M}",
            "line": _lead_line(lead)}))
    if counts["today"] > len(mine["today"]):
        lines.append(str(_("%(more)s more due today: %(url)s") % {
            "more": counts["today"] - len(mine["today"]), "url": _list_url("today")}))
    if permissions.is_manager(user):
        figures = manager_digest(now)
        lines.append(str(_("New leads in the last 24 hours: %(new)s; unassigned open leads: "
                           "%(unassigned)s (hot: %(unassigned_hot)s)") % figures))
        lines.append(str(_("First-contact SLA missed in the last 24 hours: %(breaches)s; "
                           "missed earlier and still not contacted: %(backlog)s") % figures))
    if not lines:
        return None
    return notify.Message(
        title=str(_("Daily digest for %(name)s: %(overdue)s overdue, %(today)s due today") % {
            "name": mention["names"][0], "overdue": counts["overdue"],
            "today": counts["today"]}),
        lines=tuple(lines), link=site_url() + reverse("staff:my_day"),
        link_text=str(_("Open My day")), **mention, event="staff.digest",
        facts={"user": user.get_username()})


def _list_url(name: str) -> str:
    return site_url() + queries.day_set_url(name)


# --- the pool (公海): untouched leads go back ---------------------------------------

# At most this many leads return a tick (the rest at the next one).
POOL_RETURN_BATCH = 500


def untouched_leads(hours: int, now=None):
    """Open, owned leads their owner may not have worked on for ``hours``: no activity,
    note or status change (``last_activity_at``; the creation time before any) and no
    change of owner (an owner_changed event: taken, assigned, handed over) for that many
    clock hours, a superset of the working hours ``return_to_pool`` counts (working time
    never runs faster than the clock). ``touched``: the later of the two, oldest first."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=hours)
    owner_events = LeadEvent.objects.filter(lead=OuterRef("pk"),
                                            kind=LeadEvent.Kind.OWNER_CHANGED)
    last_owner_change = owner_events.order_by("-created_at").values("created_at")[:1]
    return (Lead.objects.filter(status__in=OPEN_STATUSES, merged_into__isnull=True,
                                owner__isnull=False)
            .annotate(seen=Coalesce("last_activity_at", "created_at"))
            .filter(seen__lt=cutoff)
            .filter(~Exists(owner_events.filter(created_at__gte=cutoff)))
            .annotate(touched=Greatest("seen", Coalesce(Subquery(last_owner_change),
                                                        "created_at")))
            .order_by("touched", "pk"))


def return_to_pool(now=None) -> int:
    """The active routing rule's return time (RoutingRule.return_after_hours, in working
    hours of the team's calendar, selector.leads.worktime: a weekend or a holiday does not
    count): each open lead its owner has not worked on for that long loses its owner (an
    owner_changed event on the timeline, no actor, ``returned_to_pool``), and each rep who
    lost leads gets one summary message. A lead is moved by one conditional UPDATE on the
    owner and version the tick read, so an edit or a claim that lands meanwhile keeps it
    where it is. At most POOL_RETURN_BATCH leads a tick. Returns how many went back."""
    rule = routing.active_rule()
    if rule is None or not rule.return_after_hours:
        return 0
    now = now or timezone.now()
    hours = rule.return_after_hours
    cal = worktime.calendar()
    returned: dict[int, list[Lead]] = {}
    owners = {}
    for lead in untouched_leads(hours, now).select_related("owner")[:POOL_RETURN_BATCH]:
        if cal.between(lead.touched, now) < hours * 60:
            break  # oldest first: the later ones are not due either
        owner = lead.owner
        assert owner is not None  # untouched_leads() selects owned leads
        with transaction.atomic():
            moved = Lead.objects.filter(pk=lead.pk, owner_id=owner.pk,
                                        version=lead.version).update(
                owner=None, version=F("version") + 1, updated_at=now)
            if not moved:
                continue
            LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED, data={
                "from": owner.get_username(), "to": None, "returned_to_pool": True,
                "hours": hours})
        owners[owner.pk] = owner
        returned.setdefault(owner.pk, []).append(lead)
    for pk, leads in returned.items():
        owner = owners[pk]
        with translation.override(profile(owner).language):
            message = _pool_message(owner, leads, hours)
        _send(owner, message, message.title)
    return sum(len(leads) for leads in returned.values())


def _pool_message(owner, leads: list[Lead], hours: int) -> notify.Message:
    mention = people.mentions([owner])
    lines = [str(_("Not worked on for %(hours)s working hours: any rep may claim them "
                   "now.") % {
        "hours": hours})]
    lines += [_lead_line(lead) for lead in leads[:10]]
    if len(leads) > 10:
        lines.append(str(_("… and %(count)s more.") % {"count": len(leads) - 10}))
    return notify.Message(
        title=str(_("%(count)s leads of %(name)s returned to the pool") % {
            "count": len(leads), "name": mention["names"][0]}),
        lines=tuple(lines), link=_list_url("unassigned"),
        link_text=str(_("Open the lead list")), **mention,
        event="lead.returned_to_pool", facts={"count": len(leads)})


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
            lines=(_lead_line(lead),),
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
    sent = _send_about(lead, lead.owner, message, message.title,
                       robot_kind=Delivery.Kind.CALLBACK_ROBOT,
                       email_kind=Delivery.Kind.CALLBACK_EMAIL, key=key,
                       later=_later(callback, lead_public_id, event_pk),
                       mail_message=mail_message)
    if lead.owner is None and settings.SALES_NOTIFY_EMAILS:
        mail = _email(None, mail_message, message.title, to=list(settings.SALES_NOTIFY_EMAILS))
        outcome = deliveries.send_once(lead, Delivery.Kind.CALLBACK_EMAIL, key, mail.send)
        _record(lead, Delivery.Kind.CALLBACK_EMAIL, key, outcome, None)
        sent = sent or outcome in ("sent", "already-sent")
    return "sent" if sent else "failed"


callback_requested.connect(on_callback_requested, dispatch_uid="staff-callback")
