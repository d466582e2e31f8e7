"""What every test may use: the content fixture, the one lead factory (``make_lead``), the
one cache-clearing fixture (``clear_cache``) and the one webhook test server
(``WebhookServer`` / ``webhook``)."""

import itertools
import json
import selectors
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, settings

from selector.content import snapshot
from selector.domain import Answers, Budget, Determinism, Workload, decide
from selector.leads.models import Lead, LeadEvent

# Property tests check behaviour, not speed: no per-example deadline, which a loaded
# 2-core CI machine would trip at random.
settings.register_profile("selector", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("selector")


@pytest.fixture
def content(db):
    """The marketing content from fixtures/content.json, as `make run` loads it."""
    call_command("load_content", force=True, verbosity=0)


@pytest.fixture(autouse=True)
def forget_kept_pages():
    """Each test starts with no kept page (selector.content.httpcache keeps rendered public
    pages per process, by ETag): a test that reads a response's templates or context gets a
    render, whatever an earlier test asked."""
    from selector.content import httpcache

    httpcache.forget_pages()
    yield


@pytest.fixture
def clear_cache():
    """An empty default cache before and after the test. The test database's cache rolls
    back with each test's transaction; a test needs this only when it changes content the
    pages cache outside that transaction, or reads the cache from another thread."""
    cache.clear()
    yield cache
    cache.clear()


def content_stamp_sql() -> list[str]:
    """The queries one check of the content snapshot runs (selector.content.snapshot): one
    read of the token on PostgreSQL, one read per content table on SQLite. A page that
    asks for the content once runs exactly these."""
    snapshot.current()  # the content of the current rows, kept
    with CaptureQueriesContext(connection) as queries:
        snapshot.current()
    return [q["sql"] for q in queries]


_numbers = itertools.count(1)


def make_lead(*, gpus: int = 256, snapshot: bool = False, **fields) -> Lead:
    """A stored lead with its "created" event, as lead_create would leave it, without the
    wizard session; ``fields`` override any column. ``answers`` (a dict) defaults to
    ``gpus`` GPUs of balanced training; the decision columns follow the answers.
    ``snapshot=True`` freezes the live recommendation into ``frozen_recommendation`` (needs
    the content fixture's catalogue); by default it is empty, as for a lead from before the
    snapshots."""
    answers = (Answers.from_dict(fields["answers"]) if "answers" in fields else
               Answers(gpus=gpus, workload=Workload.TRAINING, budget=Budget.BALANCED,
                       determinism=Determinism.STANDARD))
    decision = decide(answers)
    n = next(_numbers)
    data = {
        "report_number": f"NS-20261130-T{n:05d}",
        "name": f"张伟{n}", "company": "星云智算科技有限公司", "phone": "+8613800138000",
        "email": f"lead{n}@example.cn", "role": "CTO", "timeline": "0-3m",
        "language": "zh-hans", "answers": answers.to_dict(),
        "recommendation": decision.recommendation.value, "rule": decision.rule,
        "engine_version": decision.engine_version, "frozen_recommendation": {}, "score": "hot",
        "consent_given_at": timezone.now(), "consent_notice_version": "2026-11-30",
    }
    if snapshot:
        from selector.planner.services import freeze, fresh

        data["frozen_recommendation"] = freeze(fresh(answers))
    data.update(fields)
    lead = Lead.objects.create(**data)
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.CREATED)
    return lead


@pytest.fixture(name="make_lead")
def make_lead_with_content(db, content):
    """``make_lead`` for tests that render what a lead shows (reports, pages)."""
    return make_lead


class WebhookServer:
    """A group-robot webhook on 127.0.0.1: records each POSTed JSON body and answers the
    given statuses in turn (then 200), each after ``delay`` seconds (a robot that hangs).
    ``close()`` returns at once: the serving thread waits on the listening socket and a
    wake-up pipe, not on serve_forever()'s poll interval (half a second per test before)."""

    def __init__(self, statuses=(), body=b'{"errcode": 0, "errmsg": "ok"}', delay=0.0):
        self.statuses, self.body, self.requests = list(statuses), body, []
        self.paths: list[str] = []  # each request's path and query (a signed URL's sign)
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                with server.lock:
                    server.requests.append(json.loads(self.rfile.read(length)))
                    server.paths.append(self.path)
                    status = server.statuses.pop(0) if server.statuses else 200
                time.sleep(delay)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(server.body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/cgi-bin/webhook/send"
        self._wake_r, self._wake_w = socket.socketpair()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        with selectors.DefaultSelector() as selector:
            selector.register(self.server, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while True:
                ready = {key.fileobj for key, _events in selector.select()}
                if self._wake_r in ready:
                    return
                self.server.handle_request()  # readable: accepts without waiting

    def texts(self) -> list[str]:
        """The WeCom text messages' contents, in the order they came."""
        with self.lock:
            return [m["text"]["content"] for m in self.requests]

    def close(self):
        self._wake_w.send(b"x")
        self.thread.join(timeout=5)
        self.server.server_close()
        self._wake_r.close()
        self._wake_w.close()


@pytest.fixture
def webhook_factory():
    """``webhook_factory(statuses=(), body=...)``: a WebhookServer, closed after the test."""
    servers = []

    def make(*args, **kwargs):
        servers.append(WebhookServer(*args, **kwargs))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


@pytest.fixture
def webhook(webhook_factory, settings):
    """A WeCom group robot the site is configured to post to (LEAD_WEBHOOK_URL)."""
    server = webhook_factory()
    settings.LEAD_WEBHOOK_URL = server.url
    settings.LEAD_WEBHOOK_KIND = "wecom"
    return server
