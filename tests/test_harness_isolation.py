"""The harnesses touch only what they were given or started (issue 21, M7): `make
scale-test` flushes only its own Redis (the host, port and database of SCALE_REDIS_URL, or a
redis-server it starts on a free port), and `make bench` takes its test database name from
the environment, else one of its own run. (gunicorn's control socket:
tests/test_gunicorn_control.py.)"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
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


def _load(monkeypatch, **env: str):
    for key in ("LOAD_PORT", "LOAD_FAULTS"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    spec = importlib.util.spec_from_file_location("load_harness", ROOT / "bench/load.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "load_harness", module)  # its dataclasses need it
    spec.loader.exec_module(module)
    return module


def test_load_runs_on_servers_and_ports_of_its_own(monkeypatch, tmp_path):
    """The stack `make load` starts names only this run's PostgreSQL, Redis, robot, mail
    folder and cache prefix, whatever the caller's environment says (here the test
    settings' own: a test database name, REDIS_URL="", the e-mails off)."""
    monkeypatch.setenv("TEST_DATABASE_NAME", "test_someone_else")
    monkeypatch.setenv("CACHE_KEY_PREFIX", "shared")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("REPORT_EMAIL_ENABLED", "0")
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "tests.settings")
    first, second = _load(monkeypatch), _load(monkeypatch)
    assert first.CLUSTER is None  # main() starts a private cluster
    assert first.PORT != second.PORT  # a free port each
    env = first.server_env(os.environ, database_url="postgres://postgres@127.0.0.1:5999/x",
                           redis_port=6999, robot_url="http://127.0.0.1:7999/r",
                           mail_dir=tmp_path)
    assert "TEST_DATABASE_NAME" not in env
    assert env["DJANGO_SETTINGS_MODULE"] == "selector.settings"  # production, not tests
    assert env["DATABASE_URL"].endswith(":5999/x")
    assert env["REDIS_URL"] == "redis://127.0.0.1:6999/0"
    assert env["CACHE_KEY_PREFIX"] == f"load{first.PORT}"
    assert env["LEAD_WEBHOOK_URL"] == "http://127.0.0.1:7999/r"
    assert env["EMAIL_FILE_PATH"] == str(tmp_path)
    assert env["REPORT_EMAIL_ENABLED"] == "1" and env["SECRET_KEY"].startswith("load-test")
    source = (ROOT / "bench/load.py").read_text()
    assert ":5432" not in source and ":6379" not in source


def test_two_load_runs_keep_their_files_apart(monkeypatch):
    load = _load(monkeypatch)
    first, second = load.run_folder(), load.run_folder()
    try:
        assert first != second and first.parent == second.parent == ROOT / "artifacts"
    finally:
        first.rmdir()
        second.rmdir()


def test_load_faults_selects_faults_by_name(monkeypatch):
    load = _load(monkeypatch)
    assert load.selected_faults(None) == list(load.FAULTS)
    assert load.selected_faults("robot") == ["robot"]
    assert load.selected_faults("webhook, postgres") == ["webhook", "postgres"]
    assert load.selected_faults("none") == []
    with pytest.raises(SystemExit, match="unknown pg"):
        load.selected_faults("pg")


def test_scale_test_keeps_its_files_apart_from_another_run(monkeypatch):
    first, second = _scale_test(monkeypatch, None), _scale_test(monkeypatch, None)
    assert first.ART != second.ART  # each haproxy.cfg names its own app servers
    assert first.REDIS_PORT != second.REDIS_PORT


def test_the_harnesses_name_distinct_databases_and_caches(monkeypatch):
    """`make load`, `make scale-test` and `make bench` side by side: each its own database
    (two private clusters on their own ports; the bench's test database of its run) and its
    own Redis server on its own port (the bench's test settings use none: REDIS_URL="")."""
    from django.conf import settings

    scale, load = _scale_test(monkeypatch, None), _load(monkeypatch)
    assert scale.DB_NAME != load.DB_NAME
    assert len({int(scale.REDIS_PORT), scale.BALANCER_PORT, *scale.APP_PORTS, load.PORT}) == 5
    assert not settings.REDIS_URL  # the bench's settings (tests.settings): no Redis at all
    assert settings.CACHES["default"]["BACKEND"] == "selector.core.cache.DatabaseCache"
