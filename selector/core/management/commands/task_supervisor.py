"""``manage.py task_supervisor``: TASK_WORKERS (default 2) ``manage.py task_worker``
processes, each restarted when it exits (selector.core.supervisor). This is what
`make serve-prod` runs and what the deployment runs as a service
(docs/background-work.md)."""

from __future__ import annotations

import os
import socket
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from selector.core.supervisor import Supervisor


class Command(BaseCommand):
    help = "Keep several background-task workers running; restart one that exits"
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=int, default=None,
                            help="how many workers (default: TASK_WORKERS)")
        parser.add_argument("--grace", type=float, default=30.0,
                            help="seconds a worker gets to finish its task when stopping")
        parser.add_argument("--queue-name", default="",
                            help="passed on to each task_worker")

    def handle(self, *args: object, workers: int | None, grace: float, queue_name: str,
               **options: object) -> None:
        count = workers or settings.TASK_WORKERS
        host = f"{socket.gethostname()[:32]}-{os.getpid()}"

        def command(slot: int, start: int) -> list[str]:
            # `python -m django` with this process's settings (DJANGO_SETTINGS_MODULE is
            # inherited): the same code and environment as the supervisor.
            argv = [sys.executable, "-m", "django", "task_worker",
                    "--worker-id", f"{host}-w{slot}-{start}"]
            return argv + (["--queue-name", queue_name] if queue_name else [])

        code = Supervisor(command, count, grace=grace, cwd=str(settings.BASE_DIR)).run()
        sys.exit(code)
