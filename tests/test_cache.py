"""The shared cache: production refuses a process-local one; the database cache counts
atomically and keeps a counter's expiry (rate limits and the login throttle rely on it)."""

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache, caches
from django.db import connection

from selector.core.cache import DatabaseCache, process_local_caches

ROOT = Path(__file__).resolve().parent.parent


def test_production_settings_use_the_database_cache_without_redis():
    assert settings.CACHES["default"]["BACKEND"] == "selector.core.cache.DatabaseCache"
    assert isinstance(caches["default"], DatabaseCache)
    assert process_local_caches(settings.CACHES) == []


@pytest.mark.parametrize("backend", [
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
    "django.core.cache.backends.filebased.FileBasedCache",
])
def test_process_local_backends_are_named(backend):
    caches_ = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache"},
               "other": {"BACKEND": backend}}
    assert process_local_caches(caches_) == ["other"]


def _start(tmp_path, caches_line: str, debug: str = "0"):
    (tmp_path / "local_settings.py").write_text(
        "from tests.settings import *  # noqa\n" + caches_line + "\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{tmp_path}:{ROOT}",
           "DJANGO_SETTINGS_MODULE": "local_settings", "DEBUG": debug,
           "SECRET_KEY": "x" * 60, "DATABASE_URL": "sqlite:///unused.sqlite3"}
    return subprocess.run([sys.executable, "-c", "import django; django.setup(); print('up')"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_a_production_process_refuses_a_process_local_cache(tmp_path):
    done = _start(tmp_path, 'CACHES = {"default": {"BACKEND": '
                            '"django.core.cache.backends.locmem.LocMemCache"}}')
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "CACHES['default'] uses django.core.cache.backends.locmem.LocMemCache" in done.stderr
    assert "REDIS_URL" in done.stderr
    assert "up" not in done.stdout


def test_the_same_process_starts_with_a_shared_cache(tmp_path):
    done = _start(tmp_path, "")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "up"


def test_debug_may_use_local_memory(tmp_path):
    done = _start(tmp_path, 'CACHES = {"default": {"BACKEND": '
                            '"django.core.cache.backends.locmem.LocMemCache"}}', debug="1")
    assert done.returncode == 0, done.stderr


def test_incr_keeps_the_expiry(db):
    cache.add("counter", 0, timeout=3600)
    before = connection.cursor().execute(
        "SELECT expires FROM selector_cache WHERE cache_key LIKE %s", ["%counter"]).fetchone()
    assert cache.incr("counter") == 1
    assert cache.incr("counter", 5) == 6
    after = connection.cursor().execute(
        "SELECT expires FROM selector_cache WHERE cache_key LIKE %s", ["%counter"]).fetchone()
    assert after == before  # Django's generic incr would reset it to the 300 s default
    assert cache.get("counter") == 6
    with pytest.raises(ValueError):
        cache.incr("missing")


def test_incr_of_an_expired_entry_is_missing(db):
    cache.set("old", 3, timeout=1)
    connection.cursor().execute(
        "UPDATE selector_cache SET expires = NOW() - INTERVAL '1 minute'"
        if connection.vendor == "postgresql" else
        "UPDATE selector_cache SET expires = '2000-01-01 00:00:00'")
    with pytest.raises(ValueError):
        cache.incr("old")


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_concurrent_incr_loses_no_hit(transactional_db):
    """Eight threads, 25 increments each, on their own connections: exactly 200."""
    shared = caches["default"]
    shared.add("hits", 0, timeout=600)
    errors = []

    def hit():
        try:
            for _ in range(25):
                shared.incr("hits")
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=hit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    assert shared.get("hits") == 200
