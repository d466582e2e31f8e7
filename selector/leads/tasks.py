"""Background deliveries for a lead (Django 6 tasks): sales notifications here; the
customer's report e-mail (selector.leads.report.tasks.email_report) uses the same ``deliver``.

One task run per (lead, channel), so a failing webhook never re-sends the e-mail. A failed
attempt is recorded as a ``notification_failed`` LeadEvent and retried with exponential
backoff, LEAD_NOTIFY_MAX_ATTEMPTS times in all: on a backend that can defer (the
django-tasks-db worker) the retry is re-enqueued with ``run_after``; on the immediate
backend (development, tests) it is retried in place after a short sleep (at most
INLINE_BACKOFF_CAP seconds, so a request is never held for long). A ``notified`` event is
written on success, and a channel that already has one is not sent again (a worker that
crashed after sending and ran the task twice does not duplicate the message).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.tasks import task, task_backends
from django.utils import timezone

from selector.leads import notify
from selector.leads.models import Lead, LeadEvent

logger = logging.getLogger(__name__)

CHANNELS = {"email": notify.send_email, "webhook": notify.post_webhook}
INLINE_BACKOFF_CAP = 1.0


def backoff_seconds(attempt: int) -> float:
    """Delay before attempt ``attempt + 1``: base, 2×base, 4×base, ..."""
    return settings.LEAD_NOTIFY_BACKOFF_SECONDS * 2 ** (attempt - 1)


def deliver(task_obj, args: tuple, *, lead_public_id: str, attempt: int, send,
             done_kind: str, failed_kind: str, key: dict) -> str:
    """One delivery with retries (see the module doc). ``key`` identifies the delivery in
    the events' data (e.g. ``{"channel": "email"}``); a delivery that already has a
    ``done_kind`` event with that key is not sent again."""
    max_attempts = settings.LEAD_NOTIFY_MAX_ATTEMPTS
    while True:
        lead = Lead.objects.filter(public_id=lead_public_id).first()
        if lead is None:
            return "gone"  # purged or rolled back meanwhile
        done = lead.events.filter(kind=done_kind, **{f"data__{k}": v for k, v in key.items()})
        if done.exists():
            return "already-sent"
        try:
            send(lead)
        except Exception as exc:  # any failure of the mail server / webhook is retried
            final = attempt >= max_attempts
            LeadEvent.objects.create(
                lead=lead, kind=failed_kind,
                data={**key, "attempt": attempt, "final": final, "error": type(exc).__name__})
            logger.warning("lead %s: %s attempt %d failed (%s)%s", lead.report_number,
                           "/".join(map(str, key.values())) or failed_kind, attempt,
                           type(exc).__name__, " - giving up" if final else "")
            if final:
                return "failed"
            delay = backoff_seconds(attempt)
            attempt += 1
            backend = task_backends[task_obj.backend]
            if backend.supports_defer:
                task_obj.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue(
                    *args, attempt)
                return "retry-scheduled"
            time.sleep(min(delay, INLINE_BACKOFF_CAP))
            continue
        LeadEvent.objects.create(lead=lead, kind=done_kind, data={**key, "attempt": attempt})
        logger.info("lead %s: %s sent", lead.report_number,
                    "/".join(map(str, key.values())) or done_kind)
        return "sent"


@task
def notify_lead(lead_public_id: str, channel: str, attempt: int = 1) -> str:
    """Tell sales about a new lead on one channel (e-mail or group-robot webhook)."""
    return deliver(notify_lead, (lead_public_id, channel), lead_public_id=lead_public_id,
                   attempt=attempt, send=CHANNELS[channel],
                   done_kind=LeadEvent.Kind.NOTIFIED,
                   failed_kind=LeadEvent.Kind.NOTIFICATION_FAILED, key={"channel": channel})

