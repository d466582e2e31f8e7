"""Background deliveries for a lead (Django 6 tasks): sales notifications here; the
customer's report e-mail (selector.leads.report.tasks.email_report) uses the same ``deliver``.

One task run per (lead, channel), so a failing webhook never re-sends the e-mail. Each
delivery goes out at most once, whatever the worker does (a leads.Delivery row written
before sending and claimed just before the send: selector.leads.deliveries). A failed
attempt is recorded as a ``notification_failed`` LeadEvent and retried with exponential
backoff, LEAD_NOTIFY_MAX_ATTEMPTS times in all: on a backend that can defer (the
django-tasks-db worker) the retry is re-enqueued with ``run_after``; on the immediate
backend (development, tests) it is retried in place after a short sleep (at most
INLINE_BACKOFF_CAP seconds, so a request is never held for long). A ``notified`` event is
written on success; the last failure's event says ``final``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.tasks import task, task_backends
from django.utils import timezone

from selector.leads import deliveries, notify, pacing
from selector.leads.models import Delivery, Lead, LeadEvent

logger = logging.getLogger(__name__)

# channel -> (the Delivery kind, "build the message; return the call that sends it")
CHANNELS: dict[str, tuple[str, Callable[[Lead], Callable[[], object]]]] = {
    "email": (Delivery.Kind.SALES_EMAIL, lambda lead: notify.sales_email(lead).send),
    "webhook": (Delivery.Kind.SALES_ROBOT,
                lambda lead: lambda: notify.post_message(notify.new_lead_message(lead))),
}
INLINE_BACKOFF_CAP = 1.0
# Posts to the group robot, paced under its rate on a deferring backend (selector.leads.pacing;
# the immediate backend of development and tests sends at once).
ROBOT_KINDS = {Delivery.Kind.SALES_ROBOT}


def backoff_seconds(attempt: int) -> float:
    """Delay before attempt ``attempt + 1``: base, 2×base, 4×base, ..."""
    return settings.LEAD_NOTIFY_BACKOFF_SECONDS * 2 ** (attempt - 1)


def deliver(task_obj, args: tuple, *, lead_public_id: str, attempt: int,
            prepare: Callable[[Lead], Callable[[], object]], kind: str, done_kind: str,
            failed_kind: str, key: dict, slot: float = 0.0) -> str:
    """One delivery with retries (see the module doc and selector.leads.deliveries).
    ``prepare(lead)`` builds the message and returns the call that sends it; ``key``
    identifies the delivery in the events' data (e.g. ``{"channel": "email"}``).
    ``attempt`` (the task's argument) is informational: the Delivery row counts. ``slot``:
    the robot slot booked for this run when it was paced (selector.leads.pacing)."""
    max_attempts = settings.LEAD_NOTIFY_MAX_ATTEMPTS
    label = "/".join(map(str, key.values())) or kind
    backend = task_backends[task_obj.backend]
    while True:
        lead = Lead.objects.filter(public_id=lead_public_id).first()
        if lead is None:
            return "gone"  # purged or rolled back meanwhile
        row = deliveries.expect(lead, kind)
        if row.status == Delivery.Status.PENDING and lead.events.filter(
                kind=done_kind, **{f"data__{k}": v for k, v in key.items()}).exists():
            # Sent before deliveries were recorded in their own rows.
            Delivery.objects.filter(pk=row.pk).update(status=Delivery.Status.SENT)
            return "already-sent"
        if row.status == Delivery.Status.SENT:
            return "already-sent"
        if row.status == Delivery.Status.FAILED:
            return "already-failed"
        if row.status == Delivery.Status.SENDING:
            if deliveries.is_stale(row):
                # Its run died in the middle of the send: it may have gone out.
                if deliveries.give_up(row, "interrupted"):
                    _failed(lead, failed_kind, key, row.attempts, "interrupted", final=True)
                return "interrupted"
            if backend.supports_defer and row.claimed_at is not None:
                task_obj.using(run_after=row.claimed_at + timedelta(
                    seconds=deliveries.SENDING_STALE_SECONDS + 1)).enqueue(*args, attempt)
            return "in-progress"  # another run is sending it now
        attempt = row.attempts + 1
        final = attempt >= max_attempts
        error = ""
        try:
            send = prepare(lead)
        except Exception as exc:  # building the message failed: nothing went out
            error = type(exc).__name__
            if final:
                deliveries.give_up(row, error)
            else:
                deliveries.attempt_failed(row, error)
        else:
            if (kind in ROBOT_KINDS and backend.supports_defer
                    and not pacing.booked_slot_is_due(slot)):
                wait = pacing.reserve(settings.LEAD_WEBHOOK_URL, book=True)
                if wait > 0:  # the robot's rate is used up: queued for its booked slot
                    task_obj.using(run_after=timezone.now() + timedelta(seconds=wait)).enqueue(
                        *args, attempt, time.time() + wait)
                    return "paced"
            slot = 0.0  # used: a retry books again
            if not deliveries.claim(row):
                continue  # another run claimed it meanwhile: see what it did
            try:
                send()
            except deliveries.Uncertain:
                # Handed over, no answer: it may have arrived; sending again could repeat it.
                deliveries.finish(row, Delivery.Status.FAILED, "uncertain")
                _failed(lead, failed_kind, key, attempt, "uncertain", final=True)
                logger.warning("lead %s: %s attempt %d got no answer - not repeated",
                               lead.report_number, label, attempt)
                return "uncertain"
            except Exception as exc:  # any failure of the mail server / webhook is retried
                error = type(exc).__name__
                deliveries.finish(row, Delivery.Status.FAILED if final
                                  else Delivery.Status.PENDING, error)
        if error:
            _failed(lead, failed_kind, key, attempt, error, final=final)
            logger.warning("lead %s: %s attempt %d failed (%s)%s", lead.report_number, label,
                           attempt, error, " - giving up" if final else "")
            if final:
                return "failed"
            delay = backoff_seconds(attempt)
            if backend.supports_defer:
                task_obj.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue(
                    *args, attempt + 1)
                return "retry-scheduled"
            time.sleep(min(delay, INLINE_BACKOFF_CAP))
            continue
        deliveries.finish(row, Delivery.Status.SENT)
        LeadEvent.objects.create(lead=lead, kind=done_kind, data={**key, "attempt": attempt})
        logger.info("lead %s: %s sent", lead.report_number, label)
        return "sent"


def _failed(lead: Lead, failed_kind: str, key: dict, attempt: int, error: str, *,
            final: bool) -> None:
    LeadEvent.objects.create(lead=lead, kind=failed_kind, data={
        **key, "attempt": attempt, "final": final, "error": error})


@task
def notify_lead(lead_public_id: str, channel: str, attempt: int = 1, slot: float = 0.0) -> str:
    """Tell sales about a new lead on one channel (e-mail or group-robot webhook); ``slot``:
    the robot's slot booked for this run (a paced re-run)."""
    kind, prepare = CHANNELS[channel]
    return deliver(notify_lead, (lead_public_id, channel), lead_public_id=lead_public_id,
                   attempt=attempt, prepare=prepare, kind=kind,
                   done_kind=LeadEvent.Kind.NOTIFIED,
                   failed_kind=LeadEvent.Kind.NOTIFICATION_FAILED, key={"channel": channel},
                   slot=slot)

