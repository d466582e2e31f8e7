#!/usr/bin/env python
"""`make scale-test`: two app servers behind a real load balancer, proven to share state.

Starts, on loopback only and bounded in time:

* two gunicorn app servers (separate processes on free ports, or SCALE_APP_PORTS;
  production settings from deploy/gunicorn.conf.py), the supervised task workers
  (`manage.py task_supervisor`);
* a PostgreSQL server of its own (devtools.pgcluster: initdb in a temporary folder, a free
  port, removed afterwards; the machine's PostgreSQL is never touched) and a Redis of its
  own: a redis-server it starts on a free port and stops at the end, or, with
  SCALE_REDIS_URL, that database (host, port and number: the only one it flushes, so give
  it one nobody else uses);
* HAProxy from Debian's package in front (a free port or SCALE_PORT; round-robin, health
  checks on /healthz, X-Forwarded-For set to the client address; the app servers'
  TRUSTED_PROXIES is the balancer). Its configuration is written to
  artifacts/scale/<time>-<port>/haproxy.cfg, with the logs (a folder per run).

Then, through the balancer only, it shows that the lead rate limit, the log-in throttle,
sessions (and the two-factor step), the idle timeout, the pre-rendered PDF cache and the
dashboard cache are shared by both servers, and that with one app server killed mid-run no
acknowledged lead is lost and the balancer keeps serving. Clients use their own loopback
source addresses (127.0.0.x) so that the per-address limits see distinct customers.

Prints a pass/fail table and `METRIC name value unit` lines (for `make bench`, see
bench/bench_scale.py); exits 1 when a check fails.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
HOST = "127.0.0.1"
sys.path.insert(0, str(ROOT))
from devtools.pgcluster import Cluster, private_cluster  # noqa: E402 (after the path)
from devtools.ports import free_port, free_ports  # noqa: E402

# Free ports unless given: two runs on one machine never meet.
_PORTS = free_ports(3)
BALANCER_PORT = int(os.environ.get("SCALE_PORT", "0")) or _PORTS[0]
APP_PORTS = (tuple(int(p) for p in os.environ["SCALE_APP_PORTS"].split(","))
             if os.environ.get("SCALE_APP_PORTS") else (_PORTS[1], _PORTS[2]))
DB_NAME = "selector_scale"
CLUSTER: Cluster | None = None  # the run's own PostgreSQL server, set by main()

GIVEN_REDIS = os.environ.get("SCALE_REDIS_URL", "")
_redis = urllib.parse.urlsplit(GIVEN_REDIS or f"redis://{HOST}:{free_port()}/0")
REDIS_HOST, REDIS_PORT = _redis.hostname or HOST, str(_redis.port or 6379)
REDIS_DB = (_redis.path.strip("/") or "0")
REDIS_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}"
RATE_LIMIT = 4
IDLE_TIMEOUT = 60  # the smallest STAFF_IDLE_TIMEOUT the settings accept
LOAD_USERS = int(os.environ.get("SCALE_LOAD_USERS", "8"))
LOAD_SECONDS = int(os.environ.get("SCALE_LOAD_SECONDS", "24"))
# This run's files (balancer configuration, logs): a folder of its own, so a run next to
# another in the same checkout (`make bench` runs this too) never reads the other's
# haproxy.cfg, whose ports are the other run's app servers.
ART = ROOT / "artifacts" / "scale" / f"{time.strftime('%Y%m%d-%H%M%S')}-{BALANCER_PORT}"
PASSWORD = "scale-test-password-9"  # noqa: S105 (a throw-away account in a throw-away DB)

HAPROXY_CFG = f"""\
# The balancer configuration `make scale-test` runs (HAProxy {{version}}).
global
    maxconn 1024

defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    # A server that refuses the connection (killed, restarting) is skipped: the request
    # goes to the other one. Only connection failures are retried, never a request that
    # reached the application.
    retries 2
    option redispatch
    retry-on conn-failure

frontend selector
    bind {HOST}:{BALANCER_PORT}
    # The client address, replacing whatever the client claimed (the app servers believe
    # X-Forwarded-For only from TRUSTED_PROXIES, i.e. this balancer).
    http-request set-header X-Forwarded-For %[src]
    default_backend app

backend app
    balance roundrobin
    option httpchk
    http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host {HOST}
    http-check expect status 200
    # A refused connection marks a server down at the next check (1 s); a slow answer
    # (every worker busy) is not a dead server: it has 5 s.
    timeout check 5s
    default-server inter 1s fall 2 rise 2
    # Which server answered (for the scale test's evidence; drop it in production).
    http-response set-header X-Served-By %s
""" + "".join(f"    server app{i + 1} {HOST}:{port} check\n" for i, port in enumerate(APP_PORTS))

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
STARTED = re.compile(r'name="started" value="([^"]+)"')
REPORT_LINK = re.compile(r'href="(/report/[^"/]+/)"')
COMPUTED_AT = re.compile(r'data-computed-at="([^"]+)"')
PREFILL = ("/wizard/?gpus=256&gpus_per_server=8&workload=training&budget=balanced"
           "&determinism=standard&nic_speed=400")


def metric(name, value, unit):
    print(f"METRIC {name} {value} {unit}", flush=True)


# --- a browser ------------------------------------------------------------------------------

class Browser:
    """Cookies, a loopback source address of its own, and the server that answered."""

    def __init__(self, source_ip: str = "127.0.0.2", language: str = "zh-CN"):
        self.source_ip, self.language = source_ip, language
        self.cookies: dict[str, str] = {}
        self.served_by: list[str] = []

    def request(self, method: str, path: str, form: dict | None = None, *,
                timeout: float = 30) -> tuple[int, str, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection(HOST, BALANCER_PORT, timeout=timeout,
                                          source_address=(self.source_ip, 0))
        headers = {"Host": f"{HOST}:{BALANCER_PORT}", "Accept-Language": self.language,
                   "User-Agent": "selector-scale-test/1.0", "Connection": "close"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for key, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = morsel.value
        self.served_by.append(response.headers.get("X-Served-By", "?"))
        return response.status, data.decode("utf-8", "replace"), response

    def get(self, path: str):
        return self.request("GET", path)

    def post_form(self, path: str, fields: dict, page: str | None = None):
        """GET the form (for its CSRF token), then POST it."""
        if page is None:
            status, page, _r = self.get(path)
            if status != 200:
                return status, page, _r
        token = CSRF.search(page)
        return self.request("POST", path, {"csrfmiddlewaretoken": token.group(1) if token
                                           else "", **fields})

    @property
    def last_server(self) -> str:
        return self.served_by[-1] if self.served_by else "?"


def finished_wizard(browser: Browser) -> None:
    """A visitor who answered every question (the pre-fill link of a fresh session)."""
    status, _body, _r = browser.get(PREFILL)
    assert status == 302, status
    status, _body, _r = browser.get("/wizard/result/")
    assert status == 200, status


def submit_lead(browser: Browser, name: str) -> tuple[int, str]:
    """The contact form, as a person fills it; (status, Location)."""
    status, page, _r = browser.get("/contact/")
    if status != 200:
        return status, _r.headers.get("Location", "")
    started = STARTED.search(page)
    status, _body, response = browser.post_form("/contact/", {
        "started": started.group(1) if started else "", "website": "", "name": name,
        "company": "规模测试科技有限公司", "phone": "13800138000",
        "email": "scale@example.com", "role": "CTO", "timeline": "0-3m", "wechat": "",
        "message": "", "consent": "on"}, page=page)
    return status, response.headers.get("Location", "")


def log_in(browser: Browser, username: str, password: str = PASSWORD, url="/en/staff/login/"):
    return browser.post_form(url, {"username": username, "password": password})


# --- the stack ------------------------------------------------------------------------------

def run(*args, env=None, check=True, **kwargs):
    return subprocess.run(args, cwd=ROOT, env=env, check=check, capture_output=True,
                          text=True, **kwargs)


def redis_cli(*args: str, check: bool = True):
    """redis-cli against this test's Redis (never the machine's default 127.0.0.1:6379/0)."""
    return run("redis-cli", "-h", REDIS_HOST, "-p", REDIS_PORT, "-n", REDIS_DB, *args,
               check=check)


def start_own_redis() -> subprocess.Popen | None:
    """Without SCALE_REDIS_URL, a redis-server of this test's own (no persistence)."""
    if GIVEN_REDIS:
        return None
    server = subprocess.Popen(["redis-server", "--bind", REDIS_HOST, "--port", REDIS_PORT,
                               "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: redis_cli("ping", check=False).stdout.strip() == "PONG", 20,
               "the test's own redis-server")
    return server


def psql(sql: str) -> str:
    assert CLUSTER is not None
    return CLUSTER.psql(sql)


def base_env() -> dict:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "TEST_"))},
        "DEBUG": "0", "SECRET_KEY": "scale-test-only-" + "x" * 50,
        "DATABASE_URL": CLUSTER.url if CLUSTER else "", "DB_POOL_MAX": "4",
        "REDIS_URL": REDIS_URL,
        "ALLOWED_HOSTS": f"{HOST},localhost", "SITE_URL": f"http://{HOST}:{BALANCER_PORT}",
        "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0", "SECURE_HSTS_SECONDS": "0",
        "TASKS_BACKEND": "database", "TRUSTED_PROXIES": HOST,
        "LEAD_RATE_LIMIT": str(RATE_LIMIT), "LEAD_MIN_FILL_SECONDS": "0",
        "STAFF_IDLE_TIMEOUT": str(IDLE_TIMEOUT), "STAFF_MFA_REQUIRED": "0",
        "REPORT_EMAIL_ENABLED": "0", "REPORT_PRERENDER": "1", "STATIC_PLAIN": "0",
        "EMAIL_BACKEND": "console", "WEB_CONCURRENCY": "3", "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "selector.settings",
    }


SETUP_USERS = f"""
from django.contrib.auth.models import Group, User
from django_otp.plugins.otp_totp.models import TOTPDevice
for name, group in (("scale-sales", "sales"), ("scale-idle", "sales"),
                    ("scale-manager", "managers"), ("scale-mfa", "sales")):
    user = User.objects.create_user(name, password={PASSWORD!r})
    user.groups.add(Group.objects.get(name=group))
device = TOTPDevice.objects.create(user=User.objects.get(username="scale-mfa"),
                                   name="authenticator", confirmed=True)
print(device.key)
"""


def prepare(env: dict) -> str:
    run(PY, "manage.py", "migrate", "--noinput", "-v", "0", env=env)
    run(PY, "manage.py", "load_content", "-v", "0", env=env)
    run(PY, "manage.py", "collectstatic", "--noinput", "-v", "0", env=env)
    redis_cli("FLUSHDB")  # this test's own Redis database only
    return run(PY, "manage.py", "shell", "-c", SETUP_USERS, env=env).stdout.split()[-1]


class Stack:
    def __init__(self, env: dict):
        self.env = env
        self.procs: dict[str, subprocess.Popen] = {}
        ART.mkdir(parents=True, exist_ok=True)

    def start(self, name: str, args: list[str], env: dict | None = None):
        log = (ART / f"{name}.log").open("w")
        self.procs[name] = subprocess.Popen(args, cwd=ROOT, env=env or self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def start_app(self, index: int):
        port = APP_PORTS[index]
        self.start(f"app{index + 1}", [GUNICORN, "selector.wsgi:application", "-c",
                                       "deploy/gunicorn.conf.py"],
                   env={**self.env, "BIND": f"{HOST}:{port}",
                        "GUNICORN_ACCESS_LOG": str(ART / f"app{index + 1}-access.log")})

    def kill(self, name: str):
        """SIGKILL the whole process group: the master and its workers, no goodbye."""
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait(timeout=30)

    def stop(self):
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=30)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    os.killpg(proc.pid, signal.SIGKILL)


def wait_until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"timed out waiting for {what}")


def both_up() -> bool:
    browser = Browser()
    for _ in range(4):
        if browser.get("/healthz")[0] != 200:
            return False
    return set(browser.served_by) == {"app1", "app2"}


# --- the checks -----------------------------------------------------------------------------

class Checks:
    def __init__(self):
        self.rows: list[tuple[str, bool, str]] = []

    def add(self, name: str, ok: object, detail: str):
        """``ok``: any value, read as true or false (the checks chain `and`s)."""
        self.rows.append((name, bool(ok), detail))
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)

    def table(self) -> str:
        width = max(len(n) for n, _ok, _d in self.rows)
        lines = [f"| {'check':<{width}} | result | evidence |",
                 f"|{'-' * (width + 2)}|--------|----------|"]
        lines += [f"| {n:<{width}} | {'pass' if ok else 'FAIL':<6} | {d} |"
                  for n, ok, d in self.rows]
        return "\n".join(lines)


def check_round_robin(checks: Checks):
    browser = Browser()
    statuses = [browser.get("/healthz")[0] for _ in range(6)]
    seen = browser.served_by
    alternates = all(a != b for a, b in zip(seen, seen[1:], strict=False))
    checks.add("balancer round-robin", statuses == [200] * 6 and alternates,
               f"6 × /healthz answered by {' '.join(seen)}")


def check_sessions(checks: Checks) -> Browser:
    browser = Browser("127.0.0.20")
    status, _b, response = log_in(browser, "scale-sales")
    login_server = browser.last_server
    results = [browser.get("/en/staff/")[0] for _ in range(4)]
    servers = set(browser.served_by[-4:])
    checks.add("sessions shared", status == 302 and results == [200] * 4
               and servers == {"app1", "app2"},
               f"logged in on {login_server}, then 4 × /staff/ → {results} on "
               f"{' '.join(browser.served_by[-4:])}")
    return browser


def check_mfa(checks: Checks, key_hex: str):
    from binascii import unhexlify

    from django_otp.oath import totp

    browser = Browser("127.0.0.21")
    status, _b, response = log_in(browser, "scale-mfa")
    password_server = browser.last_server
    pending = status == 302 and response.headers["Location"].endswith("/staff/login/verify/")
    form_status, page, _r = browser.get("/en/staff/login/verify/")
    form_server = browser.last_server
    code = f"{totp(unhexlify(key_hex)):06d}"
    status, _b, response = browser.post_form("/en/staff/login/verify/", {"code": code},
                                             page=page)
    code_server = browser.last_server
    inside = browser.get("/en/staff/")[0]
    checks.add("two-factor step shared", pending and form_status == 200 and status == 302
               and inside == 200 and password_server != form_server,
               f"password on {password_server}; the code form on {form_server}; the code "
               f"on {code_server}; then /staff/ → {inside}")


def check_rate_limit(checks: Checks) -> list[tuple[Browser, str]]:
    statuses, accepted = [], []
    for i in range(RATE_LIMIT + 2):
        browser = Browser("127.0.0.3")
        finished_wizard(browser)
        if i % 2:
            browser.get("/healthz")  # (so that the submits alternate between the servers)
        status, location = submit_lead(browser, f"限速客户{i}")
        statuses.append((status, browser.last_server))
        if status == 302:
            accepted.append((browser, location))
    codes = [s for s, _server in statuses]
    refused_on = {server for s, server in statuses if s == 429}
    accepted_on = {server for s, server in statuses if s == 302}
    checks.add("lead rate limit shared",
               codes == [302] * RATE_LIMIT + [429, 429] and len(accepted_on | refused_on) == 2,
               f"limit {RATE_LIMIT}/h per address; {len(codes)} leads from 127.0.0.3 → "
               + " ".join(f"{s}@{server}" for s, server in statuses))
    return accepted


def check_lockout(checks: Checks):
    attacker = Browser("127.0.0.4", language="en")
    servers = []
    for i in range(5):
        if i % 2:
            attacker.get("/healthz")  # (so that the attempts alternate between the servers)
        attacker.post_form("/en/staff/login/", {"username": "scale-manager",
                                                 "password": "wrong-password"})
        servers.append(attacker.last_server)
    status, page, _r = log_in(attacker, "scale-manager")
    throttled = status == 200 and "Too many failed log-in attempts" in page
    again_server = attacker.last_server
    owner = Browser("127.0.0.5")
    owner_status, _p, _r = log_in(owner, "scale-manager")
    checks.add("log-in throttle shared",
               set(servers) == {"app1", "app2"} and throttled and owner_status == 302,
               f"5 wrong passwords from 127.0.0.4 on {' '.join(servers)}; the right one from "
               f"127.0.0.4 on {again_server} → throttled; the owner from 127.0.0.5 → "
               f"{owner_status} (logged in)")


def check_pdf_cache(checks: Checks, accepted: list[tuple[Browser, str]]):
    browser, _location = accepted[0]
    status, page, _r = browser.get("/contact/thanks/")
    link = REPORT_LINK.search(page)
    # The worker pre-renders every new lead's PDF into the shared store (leads.ReportPdf in
    # PostgreSQL since the PDFs left the cache).
    wait_until(lambda: int(psql(
        "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE task_path LIKE "
        "'%prerender_report' AND status = 'SUCCESSFUL'")) >= len(accepted), 120,
        "the worker's pre-renders")
    stored = int(psql("SELECT count(*) FROM leads_reportpdf WHERE content IS NOT NULL"))
    timings = []
    for _ in range(2):
        started = time.perf_counter()
        status_pdf, body, _r = browser.get(link.group(1)) if link else (0, "", None)
        timings.append(((time.perf_counter() - started) * 1000, status_pdf, browser.last_server,
                        body.startswith("%PDF")))
    # A PDF nobody pre-rendered (the English version for staff): the first request renders
    # it on one server, the second is the other server reading the shared cache.
    manager = Browser("127.0.0.22")
    log_in(manager, "scale-manager")
    public_id = psql("SELECT public_id FROM leads_lead ORDER BY id LIMIT 1")
    fresh = []
    for _ in range(2):
        started = time.perf_counter()
        status_pdf, body, _r = manager.get(f"/staff/leads/{public_id}/report/?lang=en")
        fresh.append(((time.perf_counter() - started) * 1000, status_pdf, manager.last_server))
    cached_ms = max(t for t, *_rest in timings)
    ok = (status == 200 and link and stored >= len(accepted)
          and all(s == 200 and pdf for _t, s, _server, pdf in timings)
          and {server for _t, _s, server, _pdf in timings} == {"app1", "app2"}
          and all(s == 200 for _t, s, _server in fresh)
          and fresh[0][2] != fresh[1][2] and fresh[1][0] < fresh[0][0] / 2
          and cached_ms < fresh[0][0] / 2)
    metric("scale_pdf_render_ms", f"{fresh[0][0]:.0f}", "ms")
    metric("scale_pdf_cached_other_server_ms", f"{fresh[1][0]:.0f}", "ms")
    metric("scale_pdf_prerendered_download_ms", f"{cached_ms:.0f}", "ms")
    checks.add("pre-rendered PDF cache shared", ok,
               f"{stored} PDFs stored; pre-rendered customer PDF "
               + ", ".join(f"{t:.0f} ms on {server}" for t, _s, server, _p in timings)
               + f"; a fresh render {fresh[0][0]:.0f} ms on {fresh[0][2]}, the same PDF "
               f"{fresh[1][0]:.0f} ms on {fresh[1][2]}")


def check_dashboard(checks: Checks):
    manager = Browser("127.0.0.23")
    log_in(manager, "scale-manager")
    stamps = []
    for _ in range(2):
        status, page, _r = manager.get("/en/staff/dashboard/")
        found = COMPUTED_AT.search(page)
        stamps.append((status, found.group(1) if found else None, manager.last_server))
    ok = (all(s == 200 for s, _c, _v in stamps) and stamps[0][1] and stamps[0][1] == stamps[1][1]
          and stamps[0][2] != stamps[1][2])
    checks.add("dashboard cache shared", ok,
               f"computed at {stamps[0][1]} on {stamps[0][2]}; {stamps[1][2]} shows figures "
               f"computed at {stamps[1][1]}")


def keep_using(browser: Browser, done: threading.Event):
    """A salesperson working meanwhile: a page every 20 s (well inside the idle timeout)."""
    while not done.wait(20):
        with contextlib.suppress(OSError):
            browser.get("/en/staff/")


def check_idle(checks: Checks, idle: Browser, idle_since: float, active: Browser):
    wait = IDLE_TIMEOUT + 2 - (time.monotonic() - idle_since)
    if wait > 0:
        print(f"waiting {wait:.0f} s for the idle timeout", flush=True)
        time.sleep(wait)
    results = []
    for _ in range(2):
        status, _p, response = idle.get("/en/staff/")
        results.append((status, response.headers.get("Location", ""), idle.last_server))
    ended = results[0][0] == 302 and "/staff/login/" in results[0][1] and results[1][0] == 302
    alive = active.get("/en/staff/")[0]
    checks.add("idle timeout shared", ended and alive == 200,
               f"idle {IDLE_TIMEOUT + 2} s: /staff/ → " + ", ".join(
                   f"{s} on {server}" for s, _l, server in results)
               + f"; a session in use meanwhile → {alive}")


def check_failover(checks: Checks, stack: Stack):
    """Customers submit leads for LOAD_SECONDS; app2 is SIGKILLed a third of the way in.
    A customer whose request fails does what a person does: reloads the contact page and
    sends the form again (the same browser session, so never a second lead)."""
    lock = threading.Lock()
    acked: list[str] = []
    unacked: list[str] = []
    errors: Counter[str] = Counter()
    after_kill: Counter[str] = Counter()
    killed_at: list[float | None] = [None]
    stop = time.monotonic() + LOAD_SECONDS
    address = iter(range(10_000))

    def customer(number: int):
        while time.monotonic() < stop:
            with lock:
                n = next(address)
            browser = Browser(f"127.0.{1 + n // 250}.{1 + n % 250}")
            name = f"故障切换客户{number}-{n}"
            try:
                finished_wizard(browser)
                for attempt in range(4):
                    try:
                        status, location = submit_lead(browser, name)
                    except (OSError, http.client.HTTPException) as exc:
                        status, location = 0, type(exc).__name__
                    with lock:
                        if killed_at[0]:
                            after_kill["ok" if status in (200, 302, 303) else "error"] += 1
                    if status == 302 and location.endswith("/contact/thanks/"):
                        with lock:
                            acked.append(name)
                        time.sleep(0.5)  # reading the thank-you page
                        break
                    with lock:
                        errors[f"contact {status or location}"] += 1
                    time.sleep(0.3 * (attempt + 1))
                else:
                    with lock:
                        unacked.append(name)
            except (OSError, http.client.HTTPException, AssertionError) as exc:
                with lock:
                    errors[f"wizard {type(exc).__name__}"] += 1
                    if killed_at[0]:
                        after_kill["error"] += 1
                time.sleep(1)  # a person waits a moment before trying again

    threads = [threading.Thread(target=customer, args=(i,), daemon=True)
               for i in range(LOAD_USERS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(LOAD_SECONDS / 3)
    stack.kill("app2")
    killed_at[0] = time.monotonic() - started
    print(f"killed app2 (SIGKILL) at {killed_at[0]:.1f} s", flush=True)
    for thread in threads:
        thread.join(timeout=LOAD_SECONDS + 120)
    names = set(psql("SELECT name FROM leads_lead WHERE name LIKE '故障切换客户%'").split("\n"))
    names.discard("")
    lost = [name for name in acked if name not in names]
    duplicates = int(psql("SELECT count(*) - count(DISTINCT wizard_session_id) FROM leads_lead"))
    extra = names - set(acked)
    probe = Browser()
    served = [probe.get("/healthz")[0] for _ in range(4)]
    ok = (acked and not lost and duplicates == 0 and extra <= set(unacked)
          and after_kill["ok"] > 0 and served == [200] * 4
          and set(probe.served_by) == {"app1"})
    metric("scale_failover_leads_acknowledged", len(acked), "leads")
    metric("scale_failover_leads_lost", len(lost), "leads")
    metric("scale_failover_requests_ok_after_kill", after_kill["ok"], "requests")
    metric("scale_failover_requests_failed_after_kill", after_kill["error"], "requests")
    checks.add("one app server killed mid-run", ok,
               f"{LOAD_USERS} customers for {LOAD_SECONDS} s, app2 killed at "
               f"{killed_at[0]:.0f} s: {len(acked)} leads acknowledged, {len(lost)} lost, "
               f"{duplicates} duplicates, {len(unacked)} given up; after the kill "
               f"{after_kill['ok']} contact answers ok, {after_kill['error']} failed "
               f"(retried); /healthz → {served} on {' '.join(probe.served_by)}"
               + (f"; errors {dict(errors)}" if errors else ""))


def main() -> int:
    haproxy = subprocess.run(["haproxy", "-v"], capture_output=True, text=True)
    if haproxy.returncode != 0:
        print("haproxy is not installed: run `make install` (DEB_PACKAGES)", file=sys.stderr)
        return 1
    version = haproxy.stdout.split()[2]
    global CLUSTER
    with private_cluster(database=DB_NAME, durable=True) as cluster:
        CLUSTER = cluster
        env = base_env()
        print(f"PostgreSQL (its own) on {HOST}:{cluster.port}, Redis {REDIS_URL}"
              f"{'' if GIVEN_REDIS else ' (its own)'}, balancer {HOST}:{BALANCER_PORT}, "
              f"app servers {APP_PORTS}")
        own_redis = start_own_redis()
        try:
            return _run(env, version)
        finally:
            if own_redis is not None:
                own_redis.terminate()
                own_redis.wait(timeout=10)


def _run(env: dict, version: str) -> int:
    key_hex = prepare(env)
    ART.mkdir(parents=True, exist_ok=True)
    (ART / "haproxy.cfg").write_text(HAPROXY_CFG.replace("{version}", version))
    stack = Stack(env)
    checks = Checks()
    ok = False
    try:
        stack.start_app(0)
        stack.start_app(1)
        stack.start("worker", [PY, "manage.py", "task_supervisor"])
        stack.start("haproxy", ["haproxy", "-db", "-f", str(ART / "haproxy.cfg")])
        wait_until(both_up, 120, "both app servers behind the balancer")
        # A staff session left idle from now on; another kept in use.
        idle = Browser("127.0.0.30")
        log_in(idle, "scale-idle")
        idle_since = time.monotonic()
        check_round_robin(checks)
        active = check_sessions(checks)
        in_use = threading.Event()
        threading.Thread(target=keep_using, args=(active, in_use), daemon=True).start()
        check_mfa(checks, key_hex)
        accepted = check_rate_limit(checks)
        check_lockout(checks)
        check_pdf_cache(checks, accepted)
        check_dashboard(checks)
        check_idle(checks, idle, idle_since, active)
        in_use.set()
        check_failover(checks, stack)
        ok = all(passed for _n, passed, _d in checks.rows)
    finally:
        stack.stop()
    print("\n" + checks.table())
    for name, passed, _d in checks.rows:
        metric("scale_" + re.sub(r"[^a-z]+", "_", name.lower()).strip("_") + "_pass",
               int(passed), "bool")
    print(f"\nbalancer configuration: {ART / 'haproxy.cfg'}; logs in {ART}/")
    print("\nRESULT", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
