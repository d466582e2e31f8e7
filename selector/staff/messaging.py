"""How the sales workspace reaches a team member: the group robot (with the @mention) and
the person's e-mail, once per lead and kind (leads.Delivery) for messages about a lead;
the words every message shares (a lead's line, a local date). The background tasks
(``selector.staff.tasks``) and the bulk changes (``selector.staff.bulk``) send through here.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone

from selector.core.ticks import can_defer
from selector.leads import deliveries, notify, pacing
from selector.leads.models import Delivery, Lead, LeadEvent
from selector.leads.tasks import backoff_seconds
from selector.staff.models import StaffProfile

logger = logging.getLogger(__name__)


def profile(user) -> StaffProfile:
    return StaffProfile.objects.get_or_create(user=user)[0]


def post_to_group(message: notify.Message, what: str) -> bool:
    """Post to the group robot, when one is configured; True when it took the message. A
    failure is logged (``what`` names the message), never raised: the e-mail still goes."""
    if not settings.LEAD_WEBHOOK_URL:
        return False
    try:
        notify.post_message(message)
    except Exception as exc:  # noqa: BLE001 - a robot failure must not stop the e-mail
        logger.warning("%s to the group robot failed (%s)", what, type(exc).__name__)
        return False
    return True


def send(user, message: notify.Message, subject: str) -> bool:
    """Group robot (with the @mention) and e-mail; True when at least one channel worked.
    (Messages about one lead go through ``_send_about``, once each.)"""
    sent = post_to_group(message, "staff message")
    if user is not None and user.email:
        try:
            email(user, message, subject).send()
            sent = True
        except Exception as exc:  # noqa: BLE001
            logger.warning("staff e-mail failed (%s)", type(exc).__name__)
    return sent


def email(user, message: notify.Message, subject: str, *,
           to: list[str] | None = None) -> EmailMultiAlternatives:
    text = "\n".join([message.title, *message.lines, "", message.link])
    html = render_to_string("staff/email/message.html", {"message": message})
    mail = EmailMultiAlternatives(subject=subject, body=text, to=to or [user.email])
    mail.attach_alternative(html, "text/html")
    return mail


def send_about(lead: Lead, user, message: notify.Message, subject: str, *, robot_kind: str,
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
        record(lead, robot_kind, key, outcome, later)
    if user is not None and user.email:
        outcome = deliveries.send_once(lead, email_kind, key,
                                       email(user, mail_message or message, subject).send)
        carried.append(outcome)
        record(lead, email_kind, key, outcome, None)
    return any(outcome in ("sent", "already-sent") for outcome in carried)


def record(lead: Lead, kind: str, key: str, outcome: str,
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


def later_task(task_obj, *args) -> Callable[[float], object] | None:
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


def lead_line(lead: Lead) -> str:
    words = notify.labels(lead)
    return f"{lead.report_number} · {notify._plain(lead.company)} · {words['score']}"
