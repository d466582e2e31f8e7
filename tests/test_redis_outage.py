"""Redis down (the shared cache of production): every page keeps working where it can, or
answers the 503 page with the contact channels and Retry-After; never the 500 page (issue
21, M6). The cache production configures (REDIS_URL: selector.core.cache.ResilientRedisCache,
with timeouts) treats Redis being down as a miss, the lead rate limit lets a customer
through, and what needs a counter answers 503.

A redis-server of the test's own on a free port (devtools.ports), stopped mid-test: the
machine's Redis is never touched."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache

from devtools.ports import free_port
from selector.content.models import CompanyProfile
from selector.leads.models import Lead
from tests.leads.conftest import contact_data

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not shutil.which("redis-server"),
                                reason="redis-server is not installed (make install)")


class Redis:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ping = subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                                  capture_output=True, text=True)
            if ping.stdout.strip() == "PONG":
                return
            time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def production_caches(redis_url: str) -> dict:
    """settings.CACHES as production computes it for this REDIS_URL (a fresh interpreter)."""
    env = {**os.environ, "SECRET_KEY": "x" * 50, "DEBUG": "0", "REDIS_URL": redis_url}
    done = subprocess.run([sys.executable, "-c", "import json, selector.settings as s; "
                           "print(json.dumps(s.CACHES))"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_production_uses_the_resilient_redis_cache_with_timeouts():
    caches = production_caches("redis://127.0.0.1:6399/3")
    prefix = caches["default"].pop("KEY_PREFIX")  # the deployment's (tests/test_settings.py)
    assert prefix
    assert caches["default"] == {
        "BACKEND": "selector.core.cache.ResilientRedisCache",
        "LOCATION": "redis://127.0.0.1:6399/3",
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2}}


@pytest.fixture
def redis(settings) -> Iterator[Redis]:
    server = Redis()
    server.start()
    settings.CACHES = production_caches(server.url)
    try:
        yield server
    finally:
        server.stop()


CHANNELS = {"phone": "400-000-0000", "email": "sales@example.com"}


def _outage_ok(response, ok: set[int]) -> None:
    assert response.status_code in ok | {503}, response.status_code
    if response.status_code == 503:
        body = response.content.decode()
        assert response["Retry-After"]
        assert "400-000-0000" in body and "sales@example.com" in body  # how to reach us


@pytest.mark.django_db(transaction=True)
def test_with_redis_stopped_pages_keep_working_and_nothing_answers_500(
        redis, client, content):
    from tests.leads.conftest import attach, make_session

    CompanyProfile.objects.update(**CHANNELS)
    client.raise_request_exception = False  # see the page a visitor would get
    attach(client, make_session())
    assert client.get("/wizard/result/").status_code == 200
    cache.set("probe", 1)
    redis.stop()
    for path in ("/wizard/result/", "/en/wizard/result/", "/", "/contact/", "/staff/login/"):
        assert client.get(path).status_code == 200, path  # only cached: keeps working
    response = client.post("/contact/", contact_data(client))
    assert response.status_code == 302  # the customer's lead is taken
    assert Lead.objects.count() == 1
    assert client.get(response["Location"]).status_code == 200  # the thank-you page
    # What cannot go on without its counter (the password-reset brake) answers 503.
    _outage_ok(client.post("/staff/password-reset/", {"email": "someone@example.com"}),
               set())
