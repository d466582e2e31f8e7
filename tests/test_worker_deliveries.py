"""The customer's report e-mail with real worker processes on a PostgreSQL server of the
test's own: a worker killed (SIGKILL) while it renders the PDF leaves the e-mail waiting;
another worker runs the task again once TASK_STUCK_SECONDS have passed and the customer
gets exactly one e-mail (counted in the file backend's folder), and a second run of the same
task sends nothing (selector.core.worker, selector.leads.deliveries)."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from devtools.pgcluster import Cluster, private_cluster
from tests.test_worker import ROOT, TABLE, _env, _start, _stop, _wait

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="needs PostgreSQL's server")


@pytest.fixture(scope="module")
def site_db() -> Iterator[Cluster]:
    with private_cluster(database="worker_site") as server:
        for command in (["migrate", "--noinput", "-v0"], ["load_content", "-v0"]):
            done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT,
                                  env=_env(server), capture_output=True, text=True,
                                  timeout=300)
            assert done.returncode == 0, done.stderr
        yield server


def _successful(cluster: Cluster) -> str:
    return cluster.psql(f"SELECT count(*) FROM {TABLE} WHERE status = 'SUCCESSFUL'")  # noqa: S608


def _mails(folder: Path) -> list[str]:
    return [p.read_text(errors="replace") for p in folder.glob("*.log")] if folder.exists() \
        else []


def test_a_worker_killed_while_rendering_the_report_is_replaced_and_mails_once(site_db,
                                                                                 tmp_path):
    folder = tmp_path / "mail"
    mail_env = {"EMAIL_BACKEND": "file", "EMAIL_FILE_PATH": str(folder),
                "REPORT_EMAIL_ENABLED": "1"}
    lead_id = subprocess.run([sys.executable, "-m", "tests.worker_tasks", "report-email"],
                             cwd=ROOT, env=_env(site_db, **mail_env), capture_output=True,
                             text=True, check=True, timeout=120).stdout.split()[-1]
    lead_id = str(uuid.UUID(lead_id))  # ours, and only a UUID goes into the SQL below
    delivery = ("SELECT d.status FROM leads_delivery d JOIN leads_lead l ON l.id = d.lead_id "  # noqa: S608
                f"WHERE l.public_id = '{lead_id}' AND d.kind = 'report_email'")
    assert site_db.psql(delivery) == "pending"  # waiting before any worker ran

    log = tmp_path / "workers.log"
    marker = tmp_path / "rendering"
    out = log.open("ab")
    victim = subprocess.Popen([sys.executable, "-m", "tests.worker_tasks",
                               "slow-render-worker", str(marker)], cwd=ROOT,
                              env=_env(site_db, **mail_env), stdout=out,
                              stderr=subprocess.STDOUT)
    _wait(marker.exists, 90, "the worker to start rendering")
    victim.kill()  # SIGKILL in the middle of the render
    victim.wait()
    assert site_db.psql(f"SELECT status FROM {TABLE}") == "RUNNING"  # noqa: S608
    assert site_db.psql(delivery) == "pending" and _mails(folder) == []

    started = time.monotonic()
    rescuer = _start(site_db, log, "task_worker", "--interval", "0.2",
                     TASK_STUCK_SECONDS="3", **mail_env)
    try:
        _wait(lambda: site_db.psql(delivery) == "sent", 120, "the e-mail after the re-run")
        assert time.monotonic() - started < 60
        mails = _mails(folder)
        assert len(mails) == 1 and "kunde@example.cn" in mails[0]
        assert _successful(site_db) == "1"
        # The same task once more (a second copy in the queue): nothing is sent again.
        subprocess.run([sys.executable, "-m", "tests.worker_tasks", "report-email-again",
                        lead_id], cwd=ROOT, env=_env(site_db, **mail_env), check=True,
                       capture_output=True, timeout=120)
        _wait(lambda: _successful(site_db) == "2", 60, "the second copy to run")
        assert len(_mails(folder)) == 1
        events = site_db.psql(
            "SELECT count(*) FROM leads_leadevent e JOIN leads_lead l ON l.id = e.lead_id "  # noqa: S608
            f"WHERE l.public_id = '{lead_id}' AND e.kind = 'report_emailed'")
        assert events == "1"
    finally:
        assert _stop(rescuer) == 0, log.read_text()
