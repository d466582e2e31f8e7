"""Keep N worker processes running: start them, restart one that exits, stop them all on
SIGTERM / SIGINT / SIGHUP (``manage.py task_supervisor``; docs/background-work.md).

A worker that exits is restarted after a pause: 1 s, doubling (up to BACKOFF_CAP) while it
keeps exiting within MIN_UPTIME of its start, so a worker that cannot start (a bad
setting) does not spin. On a stop signal every worker gets SIGTERM (it finishes the task
under way: django-tasks-db's graceful shutdown) and, after ``grace`` seconds, SIGKILL;
a task cut short that way is run again by the stuck-task recovery (selector.core.worker).

No Django here: the parent holds no database connection and survives anything the
workers go through.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

logger = logging.getLogger(__name__)

MIN_UPTIME = 10.0
BACKOFF_CAP = 30.0
POLL = 0.2


@dataclass
class Slot:
    number: int
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    quick_exits: int = 0
    restart_at: float = 0.0
    starts: int = 0


class Supervisor:
    def __init__(self, command: Callable[[int, int], Sequence[str]], count: int, *,
                 grace: float = 30.0, cwd: str | None = None):
        """``command(slot, start)`` is the argv of worker ``slot``'s ``start``-th start."""
        self.command = command
        self.slots = [Slot(n) for n in range(1, count + 1)]
        self.grace = grace
        self.cwd = cwd
        self.stopping = False

    def _stop(self, signum: int, frame: object) -> None:
        if not self.stopping:
            logger.warning("supervisor: %s, stopping the workers", signal.strsignal(signum))
        self.stopping = True

    def _start(self, slot: Slot) -> None:
        slot.starts += 1
        argv = list(self.command(slot.number, slot.starts))  # ours: no shell, no user input
        slot.process = subprocess.Popen(argv, cwd=self.cwd)  # noqa: S603
        slot.started = time.monotonic()
        logger.info("supervisor: worker %d started (pid %d)", slot.number, slot.process.pid)

    def _reap(self, slot: Slot, now: float) -> None:
        assert slot.process is not None
        code = slot.process.returncode
        lived = now - slot.started
        slot.quick_exits = slot.quick_exits + 1 if lived < MIN_UPTIME else 0
        delay = min(BACKOFF_CAP, 2.0 ** max(0, slot.quick_exits - 1))
        how = f"signal {-code}" if code < 0 else f"code {code}"
        logger.error("supervisor: worker %d (pid %d) exited with %s after %.0f s; "
                     "restarting in %.0f s", slot.number, slot.process.pid, how, lived, delay)
        slot.process = None
        slot.restart_at = now + delay

    def run(self) -> int:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._stop)
        try:
            for slot in self.slots:
                self._start(slot)
            while not self.stopping:
                now = time.monotonic()
                for slot in self.slots:
                    if slot.process is not None and slot.process.poll() is not None:
                        self._reap(slot, now)
                    if slot.process is None and now >= slot.restart_at and not self.stopping:
                        self._start(slot)
                time.sleep(POLL)
        finally:
            self._stop_all()
        return 0

    def _stop_all(self) -> None:
        running = [s.process for s in self.slots if s.process and s.process.poll() is None]
        for process in running:
            process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for process in running:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                logger.error("supervisor: worker pid %d did not stop within %.0f s; killed",
                             process.pid, self.grace)
                process.kill()
                process.wait()
        logger.info("supervisor: %d workers stopped", len(running))
