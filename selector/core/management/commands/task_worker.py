"""``manage.py task_worker``: one background-task worker that waits out database outages
and re-runs the tasks of workers that died (selector.core.worker). Run several under
``manage.py task_supervisor`` (docs/background-work.md)."""

from __future__ import annotations

import logging

from django.core.management.base import BaseCommand, CommandParser
from django.tasks import DEFAULT_TASK_QUEUE_NAME

from selector.core import worker


class Command(BaseCommand):
    help = "Run a background-task worker that survives database outages"
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--queue-name", default=DEFAULT_TASK_QUEUE_NAME,
                            help="queues to process, comma-separated; '*' for all")
        parser.add_argument("--interval", type=float, default=1.0,
                            help="seconds between looks at an empty queue")
        parser.add_argument("--batch", type=int, default=50,
                            help="tasks per pass before looking for stuck tasks again")
        parser.add_argument("--worker-id", default="",
                            help="unique among the workers (default: host name + random)")

    def handle(self, *args: object, queue_name: str, interval: float, batch: int, worker_id: str,
               **options: object) -> None:
        # Logs go to the root logger's console handler (settings.LOGGING). Each pass
        # starts and ends a django-tasks-db worker, which it logs at INFO: only its
        # warnings here (the tasks themselves are logged by django.tasks).
        logging.getLogger("django_tasks_db").setLevel(logging.WARNING)
        worker_id = worker_id or worker.default_worker_id()
        self.stderr.write(f"task worker {worker_id} started")
        worker.run(worker_id=worker_id, queue_names=queue_name.split(","),
                   interval=interval, batch=batch)
