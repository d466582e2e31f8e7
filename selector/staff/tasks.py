"""Background work of the sales workspace, on the task worker (django-tasks-db):

- **Reminders**: setting a next action enqueues ``remind`` with ``run_after`` = the due
  time. When it runs it re-reads the lead and sends only if that very action is still due
  and no reminder went out for it (a changed or cleared action makes the task a no-op).
- **Assignment**: the new owner is told with an @mention (``assigned``).
- **The tick** (``tick``, every TICK_SECONDS): escalates first-contact SLA breaches to the
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
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.tasks import task, task_backends
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django_tasks_db.models import DBTaskResult

from selector.core.siteurl import site_url
from selector.leads import notify
from selector.leads.models import OPEN_STATUSES, Lead, LeadEvent, Score
from selector.staff import permissions
from selector.staff.models import StaffProfile

logger = logging.getLogger(__name__)

TICK_SECONDS = 300


def _can_defer(task_obj) -> bool:
    return task_backends[task_obj.backend].supports_defer


def profile(user) -> StaffProfile:
    return StaffProfile.objects.get_or_create(user=user)[0]


def _send(user, message: notify.Message, subject: str) -> bool:
    """Group robot (with the @mention) and e-mail; True when at least one channel worked."""
    sent = False
    if settings.LEAD_WEBHOOK_URL:
        try:
            notify.post_message(message)
            sent = True
        except Exception as exc:  # noqa: BLE001 - a robot failure must not stop the e-mail
            logger.warning("staff message to the group robot failed (%s)", type(exc).__name__)
    if user is not None and user.email:
        text = "\n".join([message.title, *message.lines, "", message.link])
        html = render_to_string("staff/email/message.html", {"message": message})
        mail = EmailMultiAlternatives(subject=subject, body=text, to=[user.email])
        mail.attach_alternative(html, "text/html")
        try:
            mail.send()
            sent = True
        except Exception as exc:  # noqa: BLE001
            logger.warning("staff e-mail failed (%s)", type(exc).__name__)
    return sent


def _mention(users) -> tuple[tuple[str, ...], tuple[str, ...]]:
    mobiles, names = [], []
    for user in users:
        names.append(permissions.display_name(user))
        mobile = profile(user).mobile
        if mobile:
            mobiles.append(mobile)
    return tuple(mobiles), tuple(names)


def _lead_line(lead: Lead) -> str:
    words = notify.labels(lead)
    return f"{lead.report_number} · {notify._plain(lead.company)} · {words['score']}"


# --- reminders ----------------------------------------------------------------------

def schedule_reminder(lead_public_id: str, due_iso: str) -> None:
    if _can_defer(remind):
        remind.using(run_after=dt.datetime.fromisoformat(due_iso)).enqueue(
            lead_public_id, due_iso)


@task
def remind(lead_public_id: str, due_iso: str) -> str:
    lead = Lead.objects.select_related("owner").filter(public_id=lead_public_id).first()
    if lead is None or lead.next_action_due is None:
        return "gone"
    if lead.next_action_due != dt.datetime.fromisoformat(due_iso):  # aware: any offset
        return "changed"
    if lead.events.filter(kind=LeadEvent.Kind.REMINDED, data__due=due_iso).exists():
        return "already-sent"
    owner = lead.owner
    language = profile(owner).language if owner else settings.LANGUAGE_CODE
    with translation.override(language):
        mobiles, names = _mention([owner] if owner else [])
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
            mobiles=mobiles, names=names, event="lead.reminder",
            facts={"report_number": lead.report_number, "due": due_iso})
        sent = _send(owner, message, message.title)
    if not sent:
        return "failed"
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.REMINDED,
                             data={"due": due_iso, "to": owner.get_username() if owner
                                   else None})
    return "sent"


# --- assignment ---------------------------------------------------------------------

def schedule_assigned(lead_public_id: str, owner_pk: int) -> None:
    assigned.enqueue(lead_public_id, owner_pk)


@task
def assigned(lead_public_id: str, owner_pk: int) -> str:
    lead = Lead.objects.select_related("owner").filter(public_id=lead_public_id).first()
    if lead is None or lead.owner_id != owner_pk:
        return "changed"
    owner = lead.owner
    with translation.override(profile(owner).language):
        mobiles, names = _mention([owner])
        message = notify.Message(
            title=str(_("Lead %(number)s assigned to %(name)s") % {
                "number": lead.report_number, "name": names[0]}),
            lines=(_lead_line(lead),), link=notify.staff_url(lead),
            link_text=str(_("Open the lead")), mobiles=mobiles, names=names,
            event="lead.assigned", facts={"report_number": lead.report_number})
        return "sent" if _send(owner, message, message.title) else "failed"


# --- account security notices ------------------------------------------------------

# What happened to the user's second factor (issue 21, M4): each is mailed to the user, so
# an owner learns of a change they did not make.
NOTICES = {
    "mfa_enrolled": _lazy("Two-factor log-in was turned on for your account"),
    "mfa_replaced": _lazy("A new authenticator app was set up for your account"),
    "recovery_codes": _lazy("New recovery codes were made for your account"),
    "mfa_off": _lazy("Two-factor log-in was turned off for your account"),
}


def schedule_account_notice(user, kind: str, ip: str) -> None:
    """Mail ``user`` about ``kind`` once the change is committed (nothing is said of a
    change that rolled back)."""
    assert kind in NOTICES
    when, pk = timezone.now().isoformat(), user.pk
    transaction.on_commit(lambda: account_notice.enqueue(pk, kind, ip, when), robust=True)


@task
def account_notice(user_pk: int, kind: str, ip: str, when_iso: str) -> str:
    """The e-mail only (never the group robot: it is the user's own business)."""
    user = get_user_model().objects.filter(pk=user_pk).first()
    if user is None or not user.email or kind not in NOTICES:
        return "no-address"
    with translation.override(profile(user).language):
        title = str(NOTICES[kind])
        when = timezone.localtime(dt.datetime.fromisoformat(when_iso))
        lines = (
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


def escalate_sla(now=None) -> int:
    """Tell the managers about each new SLA breach, once per lead."""
    count = 0
    boss = list(managers())
    for lead in sla_breaches(now).exclude(events__kind=LeadEvent.Kind.SLA_BREACHED)[:200]:
        with transaction.atomic():
            locked = Lead.objects.select_for_update().get(pk=lead.pk)
            if locked.events.filter(kind=LeadEvent.Kind.SLA_BREACHED).exists():
                continue
            assert locked.sla_due is not None  # sla_breaches() selects leads with a deadline
            LeadEvent.objects.create(lead=locked, kind=LeadEvent.Kind.SLA_BREACHED,
                                     data={"due": locked.sla_due.isoformat()})
        with translation.override(settings.LANGUAGE_CODE):
            mobiles, names = _mention(boss)
            due = timezone.localtime(lead.sla_due)
            message = notify.Message(
                title=str(_("First-contact SLA missed: %(number)s (due %(time)s)") % {
                    "number": lead.report_number, "time": f"{due:%m-%d %H:%M}"}),
                lines=(_lead_line(lead), str(_("Owner: %(owner)s") % {
                    "owner": lead.owner.get_username() if lead.owner else _("nobody")})),
                link=notify.staff_url(lead), link_text=str(_("Open the lead")),
                mobiles=mobiles, names=names, event="lead.sla_breached",
                facts={"report_number": lead.report_number})
            for index, manager in enumerate(boss):
                # One robot message (mentioning every manager), one e-mail each.
                _send_one(manager, message, robot=index == 0)
            if not boss:
                _send(None, message, message.title)
        count += 1
    return count


def _send_one(user, message, *, robot: bool) -> None:
    if robot:
        _send(user, message, message.title)
    elif user.email:
        mail = EmailMultiAlternatives(subject=message.title, to=[user.email], body="\n".join(
            [message.title, *message.lines, "", message.link]))
        mail.attach_alternative(render_to_string("staff/email/message.html",
                                                 {"message": message}), "text/html")
        try:
            mail.send()
        except Exception as exc:  # noqa: BLE001
            logger.warning("staff e-mail failed (%s)", type(exc).__name__)


def digest_due(now=None) -> bool:
    now = timezone.localtime(now or timezone.now())
    return now.time() >= dt.time.fromisoformat(settings.STAFF_DIGEST_TIME)


def rep_digest(user, now=None) -> dict:
    """What a rep's digest lists: follow-ups overdue and due today."""
    now = now or timezone.now()
    end = timezone.localtime(now).replace(hour=23, minute=59, second=59)
    mine = Lead.objects.filter(owner=user, merged_into__isnull=True,
                               next_action_due__isnull=False)
    return {"overdue": list(mine.filter(next_action_due__lt=now).order_by("next_action_due")),
            "today": list(mine.filter(next_action_due__gte=now, next_action_due__lte=end)
                          .order_by("next_action_due"))}


def manager_digest(now=None) -> dict:
    now = now or timezone.now()
    since = now - timedelta(days=1)
    live = Lead.objects.filter(merged_into__isnull=True)
    return {"new": live.filter(created_at__gte=since).count(),
            "unassigned": live.filter(owner__isnull=True, status__in=OPEN_STATUSES).count(),
            "unassigned_hot": live.filter(owner__isnull=True, status__in=OPEN_STATUSES,
                                          score=Score.HOT).count(),
            "breaches": sla_breaches(now).count()}


def send_digests(now=None) -> int:
    """Each member's digest, once per local day (claimed by a conditional UPDATE)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    sent = 0
    User = get_user_model()
    team = User.objects.filter(is_active=True).filter(
        Q(groups__name__in=[permissions.SALES_GROUP, permissions.MANAGERS_GROUP])
        | Q(is_superuser=True)).distinct()
    for user in team:
        member = profile(user)
        claimed = StaffProfile.objects.filter(pk=member.pk).filter(
            Q(digest_sent_on__isnull=True) | Q(digest_sent_on__lt=today)).update(
            digest_sent_on=today)
        if not claimed:
            continue
        with translation.override(member.language):
            message = _digest_message(user, now)
        if message is not None:
            _send(user, message, message.title)
            sent += 1
    return sent


def _digest_message(user, now) -> notify.Message | None:
    mobiles, names = _mention([user])
    lines = []
    mine = rep_digest(user, now)
    for lead in mine["overdue"][:10]:
        lines.append(str(_("Overdue: %(line)s") % {"line": _lead_line(lead)}))
    for lead in mine["today"][:10]:
        lines.append(str(_("Today %(time)s: %(line)s") % {
            "time": f"{timezone.localtime(lead.next_action_due):%H:%M}",
            "line": _lead_line(lead)}))
    if permissions.is_manager(user):
        figures = manager_digest(now)
        lines.append(str(_("New leads in the last 24 hours: %(new)s; unassigned open leads: "
                           "%(unassigned)s (hot: %(unassigned_hot)s); first-contact SLA "
                           "breaches: %(breaches)s") % figures))
    if not lines:
        return None
    return notify.Message(
        title=str(_("Daily digest for %(name)s: %(overdue)s overdue, %(today)s due today") % {
            "name": names[0], "overdue": len(mine["overdue"]), "today": len(mine["today"])}),
        lines=tuple(lines), link=site_url() + reverse("staff:my_day"),
        link_text=str(_("Open My day")), mobiles=mobiles, names=names, event="staff.digest",
        facts={"user": user.get_username()})


def run_tick(now=None) -> dict:
    breaches = escalate_sla(now)
    digests = send_digests(now) if digest_due(now) else 0
    return {"sla_escalated": breaches, "digests": digests}


@task
def tick() -> dict:
    try:
        return run_tick()
    finally:
        schedule_tick(delay=TICK_SECONDS)


def schedule_tick(delay: int = 0) -> bool:
    """Enqueue the next tick unless one is already waiting; False on a backend that
    cannot defer (run ``manage.py staff_tick`` from cron there)."""
    if not _can_defer(tick):
        return False
    waiting = DBTaskResult.objects.filter(task_path=tick.module_path, status="READY")
    if waiting.exists():
        return True
    tick.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue()
    return True
