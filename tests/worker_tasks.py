"""Tasks for the worker tests (tests/test_worker.py), which run real worker processes:
each run appends one line to a file, so a test counts the runs from outside.

``python -m tests.worker_tasks PATH [SECONDS]`` enqueues ``touch(PATH, SECONDS)`` on the
database backend and prints the task id (the worker tests' processes use it)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from django.tasks import task


@task
def touch(path: str, seconds: float = 0.0) -> str:
    """Mark the start of a run ("start PID TIME"), wait ``seconds`` and then as long as
    the file PATH.hold exists (at most 120 s), mark its end ("end PID TIME")."""
    with Path(path).open("a") as out:
        out.write(f"start {os.getpid()} {time.time():.3f}\n")
    time.sleep(seconds)
    hold, deadline = Path(path + ".hold"), time.monotonic() + 120
    while hold.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    with Path(path).open("a") as out:
        out.write(f"end {os.getpid()} {time.time():.3f}\n")
    return "done"


if __name__ == "__main__":
    import django

    django.setup()
    from tests.worker_tasks import touch as task_  # by its module name, not __main__'s

    result = task_.enqueue(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
    print(result.id)
