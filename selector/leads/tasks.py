"""Background notification of sales (Django 6 tasks).

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


@task
def notify_lead(lead_public_id: str, channel: str, attempt: int = 1) -> str:
    send = CHANNELS[channel]
    max_attempts = settings.LEAD_NOTIFY_MAX_ATTEMPTS
    while True:
        lead = Lead.objects.filter(public_id=lead_public_id).first()
        if lead is None:
            return "gone"  # purged or rolled back meanwhile
        if lead.events.filter(kind=LeadEvent.Kind.NOTIFIED, data__channel=channel).exists():
            return "already-sent"
        try:
            send(lead)
        except Exception as exc:  # any failure of the mail server / webhook is retried
            final = attempt >= max_attempts
            LeadEvent.objects.create(
                lead=lead, kind=LeadEvent.Kind.NOTIFICATION_FAILED,
                data={"channel": channel, "attempt": attempt, "final": final,
                      "error": type(exc).__name__})
            logger.warning("lead %s: %s notification attempt %d failed (%s)%s",
                           lead.report_number, channel, attempt, type(exc).__name__,
                           " - giving up" if final else "")
            if final:
                return "failed"
            delay = backoff_seconds(attempt)
            attempt += 1
            backend = task_backends[notify_lead.backend]
            if backend.supports_defer:
                notify_lead.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue(
                    lead_public_id, channel, attempt)
                return "retry-scheduled"
            time.sleep(min(delay, INLINE_BACKOFF_CAP))
            continue
        LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.NOTIFIED,
                                 data={"channel": channel, "attempt": attempt})
        logger.info("lead %s: %s notification sent", lead.report_number, channel)
        return "sent"
