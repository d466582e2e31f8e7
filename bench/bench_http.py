"""Landing page throughput through gunicorn against a hello-world page (issue 26), same run.

One gunicorn with the production configuration (deploy/gunicorn.conf.py) and one sync
worker (so the figures are per core) serves the site with production settings on the
bench's own test database and a Redis of this run's own, plus one hello-world view
(bench/http_settings.py): the same worker, settings and middleware. A second gunicorn
serves the bare WSGI hello (``tests.hello_wsgi:app``), for scale. The landing page is
measured as a visitor without it gets it (kept by the server, selector.content.httpcache)
and, for the same run's cost of a render, with a query string (never kept). wrk (Debian's package,
installed by ``make install-dev``) loads each URL in turn with one thread and four
connections, alternating, three rounds; the medians are printed and the ratio. Budget: the
landing page at >= 40 % of the hello-world page's requests/s.

The landing page is what a first visitor gets: ``GET /`` in Chinese, no cookie. A response
that is not a 200 with the page's HTML fails the bench, so a redirect or an error page
cannot pass for speed. Run alone with ``.venv/bin/python bench/run.py http``.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from django.db import connection

from bench.load import Redis
from devtools.ports import free_ports

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
BUDGET_RATIO = 0.40
ROUNDS = int(os.environ.get("BENCH_HTTP_ROUNDS", "3"))
SECONDS = int(os.environ.get("BENCH_HTTP_SECONDS", "4"))
HEADERS = {"X-Forwarded-Proto": "https", "Accept-Language": "zh-hans"}


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor != "postgresql":
        raise SystemExit("bench_http needs the PostgreSQL bench database (BENCH_DATABASE_URL)")
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _env(port: int, redis_port: int) -> dict[str, str]:
    # Not the bench process's own database settings (`make bench` turns the pool off for
    # its in-process figures): the server runs with production's connection pool.
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("DJANGO_", "TEST_", "DB_POOL"))}
    return {**keep, "DJANGO_SETTINGS_MODULE": "bench.http_settings", "DEBUG": "0",
            "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1", "GUNICORN_ACCESS_LOG": "",
            "SITE_URL": f"https://127.0.0.1:{port}", "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": _database_url(), "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
            "CACHE_KEY_PREFIX": f"benchhttp{port}", "SECRET_KEY": "bench-only-" + "x" * 50,
            "LOG_LEVEL": "WARNING",
            # Loopback only: the start-up check refuses the shipped profile (no company
            # channels) and the default sender, which a bench does not need.
            "SILENCED_SYSTEM_CHECKS": "content.E001,leads.E001,mail.E001"}


def _get(url: str) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=HEADERS)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 (loopback)
            return response.status, response.read()
    except OSError:
        return 0, b""


def _serve(stack: ExitStack, app: str, port: int, env: dict[str, str]) -> str:
    process = subprocess.Popen([GUNICORN, "-c", "deploy/gunicorn.conf.py", app], cwd=ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stack.callback(_stop, process)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn {app} exited: {process.stderr.read().decode()[-2000:]}"
                             if process.stderr else f"gunicorn {app} exited")
        if _get(url)[0]:
            return url
        time.sleep(0.2)
    raise SystemExit(f"gunicorn {app} did not answer on port {port}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _wrk(url: str) -> float:
    command = ["wrk", "-t1", "-c4", f"-d{SECONDS}s", "--timeout", "10s"]
    for name, value in HEADERS.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors", out)
    if errors:
        raise SystemExit(f"wrk saw failed responses on {url}:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]


def run():
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: run `make install-dev`")
    app_port, hello_port, redis_port = free_ports(3)
    with ExitStack() as stack:
        redis = Redis(redis_port)
        stack.callback(redis.stop)
        site = _serve(stack, "selector.wsgi:application", app_port, _env(app_port, redis_port))
        wsgi = _serve(stack, "tests.hello_wsgi:app", hello_port, _env(hello_port, redis_port))
        hello = site + "__hello__"
        status, body = _get(site)
        if status != 200 or b"<html" not in body or b'lang="zh-hans"' not in body.lower():
            raise SystemExit(f"the landing page answered {status}, not the Chinese page")
        if _get(hello) != (200, b"hello"):
            raise SystemExit("the hello-world page did not answer hello")
        urls = {"hello": hello, "landing": site, "rendered": site + "?bench=1", "wsgi": wsgi}
        rounds: dict[str, list[float]] = {name: [] for name in urls}
        for _ in range(ROUNDS):
            for name, url in urls.items():
                rounds[name].append(_wrk(url))
    landing, hello_rps, rendered, wsgi_rps = (statistics.median(rounds[k]) for k in
                                              ("landing", "hello", "rendered", "wsgi"))
    yield "http_landing_rps_per_core", landing, "req/s"
    yield "http_landing_rendered_rps_per_core", rendered, "req/s (with a query string: not kept)"
    yield "http_hello_world_page_rps_per_core", hello_rps, "req/s (Django view, same worker)"
    yield "http_bare_wsgi_rps_per_core", wsgi_rps, "req/s (no Django, for scale)"
    yield "http_landing_vs_hello_world", landing / hello_rps, f"x (budget >= {BUDGET_RATIO})"
