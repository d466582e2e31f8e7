"""Messages about a lead that go out once (leads.Delivery), whatever the task worker does.

A task may run twice: the worker re-runs a task whose worker died, or one that outlived
TASK_STUCK_SECONDS (selector.core.worker). So every send follows the same steps:

1. ``expect`` writes the Delivery row ("pending") when the task is scheduled, before
   anything is sent (and again, idempotently, when the task runs);
2. the message is built (the report's PDF rendered...): nothing is sent yet, a failure
   here is an ordinary failed attempt;
3. ``claim`` turns "pending" into "sending" with one conditional UPDATE: of two runs of
   the same task only one gets it, and from here on the message counts as on its way;
4. the send; then "sent", or back to "pending" for a retry (an error that proves nothing
   went out: refused connection, HTTP error, robot error code), or "failed" after the
   last attempt.

A run that finds the row "sending" for longer than SENDING_STALE_SECONDS (its worker
died in the middle of the send) cannot know whether the message went out: it marks the
delivery "failed" with the error "interrupted" rather than risk sending it twice; so does
a send that got no answer (``Uncertain``: the request went out, the reply timed out).
Every delivery thus ends "sent" or "failed", and the lead's timeline says which
(the ``done_kind`` / ``failed_kind`` events of selector.leads.tasks.deliver). Managers
see what is waiting or failed at /staff/deliveries/.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from selector.leads.models import Delivery, Lead

# A send is bounded by its timeouts (LEAD_WEBHOOK_TIMEOUT 5 s, EMAIL_TIMEOUT 10 s per SMTP
# operation); a claim this old belongs to a run that died.
SENDING_STALE_SECONDS = 120
# The managers' panel counts a delivery as late once it has waited this long.
LATE_AFTER = timedelta(minutes=15)


class Uncertain(Exception):
    """The message was handed over but no answer came (a read timeout): it may have been
    delivered. Not retried: the delivery ends failed ("uncertain") for a person to check."""


def expect(lead: Lead, kind: str, key: str = "") -> Delivery:
    """The delivery's row, created "pending" if it is not there yet (race-safe)."""
    found = Delivery.objects.filter(lead=lead, kind=kind, key=key).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Delivery.objects.create(lead=lead, kind=kind, key=key)
    except IntegrityError:  # created by a concurrent run meanwhile
        return Delivery.objects.get(lead=lead, kind=kind, key=key)


def claim(delivery: Delivery) -> bool:
    """"pending" -> "sending" (one more attempt); False when another run got there first
    or the delivery is no longer pending."""
    now = timezone.now()
    won = Delivery.objects.filter(pk=delivery.pk, status=Delivery.Status.PENDING).update(
        status=Delivery.Status.SENDING, attempts=F("attempts") + 1, claimed_at=now,
        updated_at=now)
    if won:
        delivery.refresh_from_db()
    return bool(won)


def is_stale(delivery: Delivery, now=None) -> bool:
    now = now or timezone.now()
    return (delivery.status == Delivery.Status.SENDING and delivery.claimed_at is not None
            and delivery.claimed_at < now - timedelta(seconds=SENDING_STALE_SECONDS))


def attempt_failed(delivery: Delivery, error: str) -> None:
    """A failed attempt before anything was sent (building the message): counted, the
    delivery stays pending for the retry."""
    Delivery.objects.filter(pk=delivery.pk, status=Delivery.Status.PENDING).update(
        attempts=F("attempts") + 1, error=error[:100], updated_at=timezone.now())
    delivery.refresh_from_db()


def finish(delivery: Delivery, status: str, error: str = "") -> bool:
    """"sending" -> ``status`` ("sent", "failed", or "pending" again for a retry)."""
    updated = Delivery.objects.filter(pk=delivery.pk, status=Delivery.Status.SENDING).update(
        status=status, error=error[:100], updated_at=timezone.now())
    delivery.refresh_from_db()
    return bool(updated)


def give_up(delivery: Delivery, error: str) -> bool:
    """Any unfinished state -> "failed" (the last attempt failed before sending, or a run
    found a stale "sending")."""
    updated = (Delivery.objects.filter(pk=delivery.pk)
               .exclude(status__in=[Delivery.Status.SENT, Delivery.Status.FAILED])
               .update(status=Delivery.Status.FAILED, error=error[:100],
                       updated_at=timezone.now()))
    delivery.refresh_from_db()
    return bool(updated)


def send_once(lead: Lead, kind: str, key: str, send: Callable[[], object], *,
              pace: Callable[[], float] | None = None,
              later: Callable[[float], object] | None = None,
              max_attempts: int = 1) -> str:
    """One message of the workspace: "sent", or why not ("already-sent", "already-failed",
    "in-progress", "interrupted", "uncertain", "failed", and with ``later`` also "paced"
    and "retry"). ``pace()`` gives the seconds to wait for the robot's next free slot
    (selector.leads.pacing); ``later(seconds)`` re-enqueues the caller's task: used when
    the robot has no slot now (nothing counted) and after a failed attempt while fewer than
    ``max_attempts`` were made. The caller records a failure on the timeline
    (``row.error`` says why, ``row.attempts`` which)."""
    row = expect(lead, kind, key)
    if row.status == Delivery.Status.SENDING and is_stale(row):
        return "interrupted" if give_up(row, "interrupted") else "already-failed"
    if row.status != Delivery.Status.PENDING:
        done: dict[str, str] = {Delivery.Status.SENT: "already-sent",
                                Delivery.Status.FAILED: "already-failed"}
        return done.get(row.status, "in-progress")
    if pace is not None and later is not None:
        wait = pace()
        if wait > 0:
            later(wait)
            return "paced"
    if not claim(row):
        return send_once(lead, kind, key, send)  # another run got it: report its state
    try:
        send()
    except Uncertain:
        finish(row, Delivery.Status.FAILED, "uncertain")
        return "uncertain"
    except Exception as exc:  # noqa: BLE001 - recorded; the caller decides what follows
        if later is not None and row.attempts < max_attempts:
            finish(row, Delivery.Status.PENDING, type(exc).__name__)
            return "retry"
        finish(row, Delivery.Status.FAILED, type(exc).__name__)
        return "failed"
    finish(row, Delivery.Status.SENT)
    return "sent"


ERRORS = {
    "interrupted": _("Interrupted while sending: it may have arrived"),
    "uncertain": _("No answer from the receiving server: it may have arrived"),
}


def error_label(error: str) -> str:
    """The last error in words: the two "may have arrived" cases, else the error's name."""
    return str(ERRORS.get(error, error))


def open_deliveries() -> QuerySet[Delivery]:
    """What the managers' panel lists: waiting (pending or sending) and failed, newest
    first (a failed delivery stays listed until its lead goes)."""
    return (Delivery.objects.filter(~Q(status=Delivery.Status.SENT))
            .select_related("lead").order_by("-created_at"))
