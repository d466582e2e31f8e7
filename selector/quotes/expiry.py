"""Quote expiry on the task worker: sent quotes past their validity date become "expired"
(their links already stop working on that date; this puts the status right for the lists
and the dashboard).

``expire_tick`` runs every EXPIRE_TICK_SECONDS: it re-enqueues itself (``run_after``) unless
another tick is already waiting. ``manage.py quotes_expire --schedule`` starts the chain
(deploy/serve-prod.sh does); ``manage.py quotes_expire`` runs it once (for cron, or a task
backend that cannot defer). The same pattern as the sales workspace's tick
(selector.staff.tasks).
"""

from __future__ import annotations

from datetime import timedelta

from django.tasks import task, task_backends
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

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
    if not task_backends[expire_tick.backend].supports_defer:
        return False
    if DBTaskResult.objects.filter(task_path=expire_tick.module_path, status="READY").exists():
        return True
    expire_tick.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue()
    return True
