"""The harnesses touch only what they were given or started (issue 21, M7): `make
scale-test` flushes only its own Redis (the host, port and database of SCALE_REDIS_URL, or a
redis-server it starts on a free port), and `make bench` takes its test database name from
the environment, else one of its own run. (gunicorn's control socket:
tests/test_gunicorn_control.py.)"""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _scale_test(monkeypatch, url: str | None):
    if url is None:
        monkeypatch.delenv("SCALE_REDIS_URL", raising=False)
    else:
        monkeypatch.setenv("SCALE_REDIS_URL", url)
    spec = importlib.util.spec_from_file_location("scale_test", ROOT / "bench/scale_test.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("url", "expected"), [
    ("redis://10.1.2.3:6390/7", ["-h", "10.1.2.3", "-p", "6390", "-n", "7", "FLUSHDB"]),
    ("redis://127.0.0.1:6379/5", ["-h", "127.0.0.1", "-p", "6379", "-n", "5", "FLUSHDB"]),
])
def test_scale_test_flushes_only_the_redis_database_it_was_given(monkeypatch, url, expected):
    scale = _scale_test(monkeypatch, url)
    calls = []
    monkeypatch.setattr(scale, "run", lambda *args, **kwargs: calls.append(list(args)))
    scale.redis_cli("FLUSHDB")
    assert calls == [["redis-cli", *expected]]
    assert scale.start_own_redis() is None  # given one: it starts none


def test_without_a_redis_url_scale_test_uses_a_redis_server_of_its_own(monkeypatch):
    scale = _scale_test(monkeypatch, None)
    assert scale.REDIS_PORT != "6379"  # a free port, not the machine's Redis
    assert scale.base_env()["REDIS_URL"] == scale.REDIS_URL


def _bench_command(**env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "TEST_DATABASE_NAME"}
    done = subprocess.run(["make", "-n", "--no-print-directory", "bench"], cwd=ROOT,
                          env={**environ, **env}, capture_output=True, text=True, check=True)
    command = next(line for line in done.stdout.splitlines() if "bench/run.py" in line
                   or "TEST_DATABASE_NAME" in line)
    shell = subprocess.run(["bash", "-c", "echo " + command.split("TEST_DATABASE_NAME=", 1)[1]
                            .split()[0]], env={**environ, **env}, capture_output=True,
                           text=True, check=True)
    return shell.stdout.strip()


def test_bench_takes_its_test_database_name_from_the_environment():
    assert _bench_command(TEST_DATABASE_NAME="test_mine") == "test_mine"
    first, second = _bench_command(), _bench_command()
    assert first.startswith("test_selector_bench_") and first != second  # one per run


def test_scale_test_runs_on_a_postgresql_and_ports_of_its_own(monkeypatch):
    """Two people can run it at once: it names no database of the machine's PostgreSQL."""
    scale = _scale_test(monkeypatch, None)
    assert scale.CLUSTER is None  # main() starts a private cluster
    assert ":5432" not in (ROOT / "bench/scale_test.py").read_text()
