"""Tasks and helpers for the worker tests (tests/test_worker*.py), which run real worker
processes: each run of ``touch`` appends one line to a file, so a test counts the runs
from outside.

``python -m tests.worker_tasks PATH [SECONDS]`` enqueues ``touch(PATH, SECONDS)`` on the
database backend and prints the task id.
``python -m tests.worker_tasks report-email`` makes a lead with an e-mail address and
schedules its report e-mail (as submitting the contact form does); prints the lead's id;
``report-email-again LEAD`` enqueues that task once more.
``python -m tests.worker_tasks slow-render-worker MARKER`` runs ``manage.py task_worker``
with the report's PDF render held: it writes MARKER, then waits (a worker to kill while it
renders)."""

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


def _report_email() -> None:
    from selector.leads.report.tasks import schedule_report_email
    from tests.conftest import make_lead

    lead = make_lead(email="kunde@example.cn")
    schedule_report_email(str(lead.public_id), "http://testserver")
    print(lead.public_id)


def _slow_render_worker(marker: str) -> None:
    from django.core.management import call_command

    from selector.leads.report import delivery

    def held(*args, **kwargs):
        Path(marker).write_text(str(os.getpid()))
        time.sleep(120)
        raise AssertionError("the test should have killed this worker")

    delivery.report_pdf = held  # our own module, in this throw-away process only
    call_command("task_worker", "--interval", "0.2")


if __name__ == "__main__":
    import django

    django.setup()
    if sys.argv[1] == "report-email":
        _report_email()
    elif sys.argv[1] == "report-email-again":  # a second copy of the task, for a lead
        from selector.leads.report.tasks import email_report

        print(email_report.enqueue(sys.argv[2], "http://testserver").id)
    elif sys.argv[1] == "slow-render-worker":
        _slow_render_worker(sys.argv[2])
    else:
        from tests.worker_tasks import touch as task_  # by its module name, not __main__'s

        result = task_.enqueue(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
        print(result.id)
