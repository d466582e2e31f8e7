"""The task worker that outlives database outages and recovers its dead colleagues' tasks.

``manage.py task_worker`` runs this loop around django-tasks-db's own worker (the
``Worker`` class its ``db_worker`` command runs, used as it is, not patched):

- **Outages.** django-tasks-db's worker loop re-raises any ``OperationalError`` that is not
  a locked SQLite file, so ``db_worker`` exits when PostgreSQL goes away (upstream issue
  "db_worker crashes on transient database connection errors",
  https://github.com/RealOrangeOne/django-tasks-db/issues/49, open when read on
  2026-12-02). Here a database error ends one pass of that loop, not the process: the
  connections are closed, the worker waits (1 s, doubling up to BACKOFF_CAP) and tries
  again. A task that was running when the database went away is put back to "ready" as
  soon as the database answers again (its row still says "running": the worker could not
  record the failure); one that failed *because* of a database error (the database came
  back quickly enough to record it) is run again too, both within TASK_MAX_ATTEMPTS.
- **Dead workers.** A worker killed mid-task (SIGKILL, OOM, a lost machine) leaves its row
  "running" for ever (upstream: https://github.com/RealOrangeOne/django-tasks/issues/46,
  open when read on 2026-12-02, where the maintainer names "a limit, after which tasks can
  be picked up again" as the standard way). Every pass, each worker puts back to "ready"
  the rows that have been "running" for longer than TASK_STUCK_SECONDS (default 600 s:
  30 times the longest task we run, a report e-mail of at most REPORT_RENDER_TIMEOUT
  20 s render plus an SMTP exchange), and marks failed a task that was claimed
  TASK_MAX_ATTEMPTS times (3) without finishing: a task that kills its worker is not
  retried for ever. Each re-run is logged.

So a task may run twice (after a kill, or when a slow task outlives the timeout): every
task of this project is written to be safe to run twice (selector.leads.deliveries).

``manage.py task_supervisor`` keeps TASK_WORKERS of these running and restarts one that
exits (docs/background-work.md).
"""

from __future__ import annotations

import contextlib
import logging
import random
import socket
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connections, transaction
from django.tasks import TaskResultStatus
from django.tasks.signals import task_finished, task_started
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

logger = logging.getLogger(__name__)

BACKOFF_CAP = 30.0
# How often a worker looks for stuck tasks (at most; also right after an outage).
RECOVER_EVERY = 30.0
# What a task failed with when the database, not the task, was at fault.
DATABASE_ERRORS = ("django.db.utils.OperationalError", "django.db.utils.InterfaceError")
LOST = "selector.core.worker.WorkerLost"


class WorkerLost(Exception):
    """Recorded as a task's error when it was claimed TASK_MAX_ATTEMPTS times and never
    finished (its workers died or it outlived the timeout each time)."""


def default_worker_id() -> str:
    return f"{socket.gethostname()[:40]}-{random.getrandbits(32):08x}"  # noqa: S311


@dataclass
class Recovered:
    reset: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def recover(now: datetime | None = None, *, interrupted: str | None = None) -> Recovered:
    """Put stuck tasks back to "ready" (see the module doc): rows "running" for longer
    than TASK_STUCK_SECONDS, rows that failed with a database error in the last
    TASK_STUCK_SECONDS, and ``interrupted`` (the id of the task this worker was running
    when the database went away). A task already claimed TASK_MAX_ATTEMPTS times is marked
    failed instead."""
    now = now or timezone.now()
    window = timedelta(seconds=settings.TASK_STUCK_SECONDS)
    stuck = (DBTaskResult.objects.running().filter(started_at__lt=now - window)
             | DBTaskResult.objects.failed().filter(exception_class_path__in=DATABASE_ERRORS,
                                                    finished_at__gte=now - window))
    if interrupted:
        stuck = stuck | DBTaskResult.objects.running().filter(pk=interrupted)
    done = Recovered()
    with transaction.atomic():
        # Another worker recovering at the same moment skips the rows this one holds.
        for row in stuck.select_for_update(skip_locked=True).order_by():
            claims = len(row.worker_ids or [])
            if claims >= settings.TASK_MAX_ATTEMPTS:
                row.status = TaskResultStatus.FAILED
                row.finished_at = now
                row.exception_class_path = LOST
                row.traceback = (f"WorkerLost: claimed {claims} times, never finished "
                                 f"(workers {', '.join(row.worker_ids)})")
                row.save(update_fields=["status", "finished_at", "exception_class_path",
                                        "traceback"])
                done.failed.append(str(row.pk))
                logger.error("task %s (%s) given up after %d attempts", row.pk,
                             row.task_path, claims)
                continue
            was = row.status
            row.status = TaskResultStatus.READY
            row.started_at = None
            row.finished_at = None
            row.exception_class_path = ""
            row.traceback = ""
            row.save(update_fields=["status", "started_at", "finished_at",
                                    "exception_class_path", "traceback"])
            done.reset.append(str(row.pk))
            logger.warning("task %s (%s) was %s (attempt %d of %d): run again", row.pk,
                           row.task_path, "interrupted" if was == TaskResultStatus.RUNNING
                           else "failed on a database error", claims,
                           settings.TASK_MAX_ATTEMPTS)
    return done


class _Current:
    """The task this process is running (from django.tasks' own started/finished signals),
    so a database outage in the middle of it can put it back when the database returns."""

    task_id: str | None = None

    def started(self, sender: object, task_result: Any, **kwargs: Any) -> None:
        self.task_id = str(task_result.id)

    def finished(self, sender: object, task_result: Any, **kwargs: Any) -> None:
        self.task_id = None


current = _Current()
task_started.connect(current.started, dispatch_uid="selector.core.worker.started")
task_finished.connect(current.finished, dispatch_uid="selector.core.worker.finished")


def _close_connections() -> None:
    """Drop every database connection (a broken one would be reused otherwise); closing a
    connection to a server that is gone may raise, which changes nothing."""
    for conn in connections.all(initialized_only=True):
        with contextlib.suppress(DatabaseError):
            conn.close()


def run(*, worker_id: str, queue_names: list[str], backend_name: str = "default",
        interval: float = 1.0, batch: int = 50, passes: int | None = None) -> None:
    """The loop of ``manage.py task_worker``; returns on SIGTERM/SIGINT (after the task
    under way), or after ``passes`` passes (tests)."""
    failures = 0
    interrupted: str | None = None
    done = 0
    every = min(RECOVER_EVERY, settings.TASK_STUCK_SECONDS / 4)
    recovered_at = -every
    while passes is None or done < passes:
        done += 1
        # A fresh django-tasks-db worker per pass: up to ``batch`` tasks, then back here
        # (recovery runs between passes even on a queue that never empties).
        worker = Worker(queue_names=queue_names, interval=0, batch=True,
                        backend_name=backend_name, startup_delay=False, max_tasks=batch,
                        worker_id=worker_id, excluded_queue_names=[])
        worker.configure_signals()
        try:
            if failures or interrupted or time.monotonic() - recovered_at >= every:
                recover(interrupted=interrupted)
                recovered_at = time.monotonic()
            if failures:
                logger.warning("database reachable again after %d failed tries", failures)
            interrupted = None
            failures = 0
            worker.run()
            if not worker.running:
                return  # asked to stop
            idle = not DBTaskResult.objects.ready().filter(backend_name=backend_name).exists()
        except (OperationalError, InterfaceError) as exc:
            interrupted = interrupted or current.task_id
            current.task_id = None
            failures += 1
            delay = min(BACKOFF_CAP, 2.0 ** (failures - 1))
            first_line = (str(exc).strip().splitlines() or [""])[0][:200]
            logger.warning("database unavailable (%s: %s); retrying in %.0f s",
                           type(exc).__name__, first_line, delay)
            _close_connections()
            time.sleep(delay)
            continue
        if idle and interval:
            time.sleep(interval)
