"""Redis down (the shared cache of production): every page answers the 503 page, with the
contact channels and Retry-After, or keeps working; never the 500 page (issue 21, M6).

A redis-server of the test's own on a free port (devtools.ports), stopped mid-test: the
machine's Redis is never touched."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest
from django.core.cache import cache

from devtools.ports import free_port
from selector.content.models import CompanyProfile
from tests.leads.conftest import contact_data

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


@pytest.fixture
def redis(settings) -> Iterator[Redis]:
    server = Redis()
    server.start()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": server.url}}
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
def test_with_redis_stopped_the_result_page_and_the_contact_form_never_answer_500(
        redis, client, content):
    from tests.leads.conftest import attach, make_session

    CompanyProfile.objects.update(**CHANNELS)
    client.raise_request_exception = False  # see the page a visitor would get
    attach(client, make_session())
    assert client.get("/wizard/result/").status_code == 200
    cache.set("probe", 1)
    redis.stop()
    for path in ("/wizard/result/", "/en/wizard/result/", "/", "/contact/"):
        _outage_ok(client.get(path), {200})
    _outage_ok(client.post("/contact/", contact_data(client)), {302})
    _outage_ok(client.get("/staff/login/"), {200})
