"""Self-rescheduling periodic tasks ("ticks") on the task worker.

A tick re-enqueues itself when it ends; this is the one place that decides whether to: a
tick is enqueued unless one is already waiting (so a restart, a manual ``--schedule`` or
two workers finishing at once never make a chain of ticks into two). A backend that
cannot defer (the immediate backend of the tests, say) gets nothing and the caller is told
so: run the tick's management command from cron there.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.tasks import Task, task_backends
from django.utils import timezone
from django_tasks_db.models import DBTaskResult


def can_defer(task_obj: Task[..., Any]) -> bool:
    """Whether the task's backend can run a task later (``run_after``)."""
    return bool(task_backends[task_obj.backend].supports_defer)


def enqueue_unless_waiting(task_obj: Task[..., Any], *, delay: int = 0) -> bool:
    """Enqueue ``task_obj`` (no arguments) to run after ``delay`` seconds unless a run of it
    is already waiting; False on a backend that cannot defer."""
    if not can_defer(task_obj):
        return False
    waiting = DBTaskResult.objects.filter(task_path=task_obj.module_path, status="READY")
    if waiting.exists():
        return True
    task_obj.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue()
    return True
