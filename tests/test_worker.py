"""The task workers survive what production throws at them (selector.core.worker,
selector.core.supervisor), tested with real processes on a PostgreSQL server of the test's
own (devtools.pgcluster: stopping it stops nobody else's):

- PostgreSQL stopped under an idle worker and under a worker in the middle of a task: the
  worker waits, reconnects and runs the task that was cut short and the ones enqueued
  after (django-tasks-db's own ``db_worker`` exits on the first connection error);
- a worker killed (SIGKILL) mid-task: its "running" row is run again by another worker
  after TASK_STUCK_SECONDS, and a task that keeps losing its workers is given up after
  TASK_MAX_ATTEMPTS claims;
- the supervisor restarts a worker that exits and stops them all on SIGTERM.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from devtools.pgcluster import Cluster, private_cluster
from selector.core.worker import LOST

ROOT = Path(__file__).resolve().parent.parent
TABLE = "django_tasks_database_dbtaskresult"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="needs PostgreSQL's server")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with private_cluster(database="worker_test") as server:
        done = subprocess.run([sys.executable, "manage.py", "migrate", "django_tasks_database",
                               "--noinput", "-v0"], cwd=ROOT, env=_env(server),
                              capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
        yield server


@pytest.fixture
def tasks_db(cluster: Cluster) -> Cluster:
    cluster.psql(f"DELETE FROM {TABLE}")  # noqa: S608 (our constant)
    return cluster


def _env(cluster: Cluster, **extra: str) -> dict[str, str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings",
           "DATABASE_URL": cluster.url, "TASKS_BACKEND": "database",
           "PYTHONUNBUFFERED": "1", "DB_CONNECT_TIMEOUT": "2", "DB_POOL_TIMEOUT": "2",
           **extra}
    env.pop("TEST_DATABASE_NAME", None)
    return env


def _enqueue(cluster: Cluster, path: Path, seconds: float = 0.0) -> str:
    done = subprocess.run([sys.executable, "-m", "tests.worker_tasks", str(path), str(seconds)],
                          cwd=ROOT, env=_env(cluster), capture_output=True, text=True,
                          check=True, timeout=60)
    return done.stdout.strip().splitlines()[-1]


def _column(cluster: Cluster, task_id: str, expression: str) -> str:
    """One column (or expression) of a task's row; the id is a UUID we made."""
    return cluster.psql(f"SELECT {expression} FROM {TABLE} "  # noqa: S608
                        f"WHERE id = '{uuid.UUID(task_id)}'")


def _status(cluster: Cluster, task_id: str) -> str:
    return _column(cluster, task_id, "status")


def _wait(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _lines(path: Path) -> list[str]:
    return path.read_text().split("\n")[:-1] if path.exists() else []


def _start(cluster: Cluster, log: Path, *args: str, **env: str) -> subprocess.Popen[bytes]:
    out = log.open("ab")
    return subprocess.Popen([sys.executable, "manage.py", *args], cwd=ROOT,
                            env=_env(cluster, **env), stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> int:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode


def _postgres_down(cluster: Cluster, seconds: float) -> None:
    cluster.stop()
    time.sleep(seconds)
    cluster.start()


def test_django_tasks_dbs_own_worker_exits_on_an_outage(tasks_db, tmp_path):
    """Why task_worker exists (django-tasks-db issue 49). When this fails, upstream's
    db_worker survives outages by itself and selector.core.worker can shrink."""
    log = tmp_path / "db_worker.log"
    worker = _start(tasks_db, log, "db_worker", "--interval", "0.2")
    _enqueue(tasks_db, tmp_path / "first")
    _wait(lambda: (tmp_path / "first").exists(), 60, "the first task")
    _postgres_down(tasks_db, 4)
    try:
        _wait(lambda: worker.poll() is not None, 60, "db_worker to exit")
        assert worker.returncode == 1
        assert "OperationalError" in log.read_text()
    finally:
        _stop(worker)


def test_an_idle_worker_waits_out_a_postgresql_outage(tasks_db, tmp_path):
    log = tmp_path / "worker.log"
    worker = _start(tasks_db, log, "task_worker", "--interval", "0.2")
    try:
        first = tmp_path / "first"
        _enqueue(tasks_db, first)
        _wait(lambda: _lines(first) != [], 60, "the first task")
        _postgres_down(tasks_db, 4)
        assert worker.poll() is None, log.read_text()  # still there after the outage
        after = tmp_path / "after"
        task_id = _enqueue(tasks_db, after)
        _wait(lambda: _status(tasks_db, task_id) == "SUCCESSFUL", 60,
              "a task enqueued after the outage")
        assert "database unavailable" in log.read_text()
        assert worker.poll() is None
    finally:
        assert _stop(worker) == 0, log.read_text()


def test_a_task_cut_short_by_an_outage_is_run_again_when_postgresql_is_back(tasks_db,
                                                                            tmp_path):
    log = tmp_path / "worker.log"
    worker = _start(tasks_db, log, "task_worker", "--interval", "0.2")
    try:
        marks = tmp_path / "marks"
        task_id = _enqueue(tasks_db, marks, seconds=3)
        _wait(lambda: len(_lines(marks)) == 1, 60, "the task to start")
        # The task finishes while the database is down: its result cannot be recorded.
        _postgres_down(tasks_db, 5)
        _wait(lambda: _status(tasks_db, task_id) == "SUCCESSFUL", 90,
              "the interrupted task to be run again")
        assert worker.poll() is None, log.read_text()
        assert [line.split()[0] for line in _lines(marks)] == ["start", "end", "start", "end"]
        assert {int(line.split()[1]) for line in _lines(marks)} == {worker.pid}
        assert "interrupted" in log.read_text()
    finally:
        assert _stop(worker) == 0, log.read_text()


def test_a_killed_workers_task_is_run_again_after_the_timeout(tasks_db, tmp_path):
    log = tmp_path / "worker.log"
    marks = tmp_path / "marks"
    Path(f"{marks}.hold").touch()  # the first run waits until it is killed
    victim = _start(tasks_db, log, "task_worker", "--interval", "0.2")
    task_id = _enqueue(tasks_db, marks)
    _wait(lambda: len(_lines(marks)) == 1, 60, "the task to start")
    victim.kill()  # SIGKILL: no chance to record anything
    victim.wait()
    assert _status(tasks_db, task_id) == "RUNNING"
    Path(f"{marks}.hold").unlink()
    # Another worker, with a timeout of 4 s so the test does not wait 10 minutes.
    rescuer = _start(tasks_db, log, "task_worker", "--interval", "0.2",
                     TASK_STUCK_SECONDS="4")
    try:
        _wait(lambda: _status(tasks_db, task_id) == "SUCCESSFUL", 60, "the re-run")
        runs = [line.split() for line in _lines(marks)]
        assert [(r[0], int(r[1])) for r in runs] == [
            ("start", victim.pid), ("start", rescuer.pid), ("end", rescuer.pid)]
        assert float(runs[1][2]) - float(runs[0][2]) >= 4  # not before the timeout
        assert _column(tasks_db, task_id, "jsonb_array_length(worker_ids)") == "2"
        assert "interrupted (attempt 1 of 3): run again" in log.read_text()
    finally:
        assert _stop(rescuer) == 0, log.read_text()


def test_a_task_that_keeps_losing_its_worker_is_given_up(tasks_db, tmp_path):
    log = tmp_path / "worker.log"
    marks = tmp_path / "marks"
    Path(f"{marks}.hold").touch()  # every run waits until it is killed
    task_id = _enqueue(tasks_db, marks)
    for attempt in (1, 2):
        victim = _start(tasks_db, log, "task_worker", "--interval", "0.2",
                        TASK_STUCK_SECONDS="1", TASK_MAX_ATTEMPTS="2")
        _wait(lambda n=attempt: len(_lines(marks)) == n, 60, f"run {attempt}")
        victim.kill()
        victim.wait()
    rescuer = _start(tasks_db, log, "task_worker", "--interval", "0.2",
                     TASK_STUCK_SECONDS="1", TASK_MAX_ATTEMPTS="2")
    try:
        _wait(lambda: _status(tasks_db, task_id) == "FAILED", 60, "the task to be given up")
        assert _column(tasks_db, task_id, "exception_class_path") == LOST
        assert len(_lines(marks)) == 2
    finally:
        assert _stop(rescuer) == 0, log.read_text()


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(x) for x in text}
    return found


def test_the_supervisor_restarts_a_worker_that_exits_and_stops_them_all(tasks_db, tmp_path):
    log = tmp_path / "supervisor.log"
    supervisor = _start(tasks_db, log, "task_supervisor", "--workers", "2", "--grace", "10")
    try:
        _wait(lambda: len(_children(supervisor.pid)) == 2, 60, "two workers")
        first = _children(supervisor.pid)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        _wait(lambda: len(_children(supervisor.pid)) == 2
              and victim not in _children(supervisor.pid), 60, "the replacement")
        assert len(first & _children(supervisor.pid)) == 1  # the other one kept running
        assert "exited with signal 9" in log.read_text()
        marks = tmp_path / "marks"
        task_id = _enqueue(tasks_db, marks)
        _wait(lambda: _status(tasks_db, task_id) == "SUCCESSFUL", 60, "a task run")
        workers = _children(supervisor.pid)
    finally:
        assert _stop(supervisor) == 0, log.read_text()
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or \
            "zombie" in Path(f"/proc/{pid}/status").read_text()
