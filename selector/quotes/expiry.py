"""Quote expiry on the task worker: sent quotes past their validity date become "expired"
(their links already stop working on that date; this puts the status right for the lists
and the dashboard).

``expire_tick`` runs every EXPIRE_TICK_SECONDS: it re-enqueues itself (``run_after``) unless
another tick is already waiting. ``manage.py quotes_expire --schedule`` starts the chain
(deploy/serve-prod.sh does); ``manage.py quotes_expire`` runs it once (for cron, or a task
backend that cannot defer). The rescheduling is selector.core.ticks', as for the sales
workspace's tick (selector.staff.tasks).
"""

from __future__ import annotations

from django.tasks import task

from selector.core.ticks import enqueue_unless_waiting
from selector.quotes.services import quotes_expire

EXPIRE_TICK_SECONDS = 3600


@task
def expire_tick() -> int:
    try:
        return quotes_expire()
    finally:
        schedule_expiry(delay=EXPIRE_TICK_SECONDS)


def schedule_expiry(delay: int = 0) -> bool:
    """Enqueue the next expiry tick unless one is already waiting; False on a backend that
    cannot defer (run ``manage.py quotes_expire`` from cron there)."""
    return enqueue_unless_waiting(expire_tick, delay=delay)
