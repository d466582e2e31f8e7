"""Retention of framework data that nothing else cleans up: expired Django sessions and
finished background-task results (django-tasks-db keeps every one). Called by
`manage.py purge`; each returns how many rows (would) go."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.sessions.models import Session
from django.utils import timezone
from django_tasks_db.models import DBTaskResult


def expired_sessions_purge(*, dry_run: bool = False, now: datetime | None = None) -> int:
    expired = Session.objects.filter(expire_date__lt=now or timezone.now())
    return expired.count() if dry_run else expired.delete()[0]


def task_results_purge(*, days: int, dry_run: bool = False, now: datetime | None = None
                       ) -> int:
    """Finished (successful or failed) task results older than ``days``; tasks waiting to
    run are kept whatever their age."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    old = DBTaskResult.objects.finished().filter(finished_at__lt=cutoff)
    return old.count() if dry_run else old.delete()[0]
