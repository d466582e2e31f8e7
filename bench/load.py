#!/usr/bin/env python
"""Load and fault test of the production stack (`make load`), loopback only, bounded in time.

1. Starts `deploy/serve-prod.sh` (gunicorn + the supervised task workers, production
   settings) on a PostgreSQL server of its own (devtools.pgcluster: initdb in a temporary
   folder, a free port, PostgreSQL's durable defaults), a redis-server of its own and a fake
   WeCom group robot of its own (each on a free port), on a free HTTP port (or LOAD_PORT);
   e-mails go to a folder of this run (the file backend). Nothing of the machine's
   PostgreSQL or Redis is touched, so two people can run it at once (and next to
   `make scale-test` and `make bench`: tests/test_harness_isolation.py).
2. Load: LOAD_USERS simulated customers run the whole wizard and submit a lead, for
   LOAD_SECONDS, each pausing LOAD_THINK_SECONDS before a page (0 = flat out). Report:
   requests per second, p50/p95/p99 per step, errors.
3. One fault scenario per fault in LOAD_FAULTS (default: all, in this order), each with the
   same customers for FAULT_SECONDS and the fault in the middle:

   - ``postgres``: this run's PostgreSQL stopped for OUTAGE_SECONDS;
   - ``redis``: this run's Redis stopped for OUTAGE_SECONDS (a fresh, empty one after);
   - ``worker``: a task worker SIGKILLed in the middle of a task, twice; the supervisor
     starts a new one and the stuck task is run again after TASK_STUCK_SECONDS;
   - ``robot``: the group robot answers "too many requests" (WeCom's errcode 45009) for
     OUTAGE_SECONDS; it refuses with the same code whenever more than 20 messages reach it
     within a minute (WeCom's documented limit), so pacing is checked throughout;
   - ``webhook``: the robot accepts connections and never answers, for OUTAGE_SECONDS; the
     webhook timeout (LEAD_WEBHOOK_TIMEOUT) must bound each post.

   After each, the work is drained (every task done, every delivery sent or failed; at
   most DRAIN_SECONDS) and one table row is printed: leads acknowledged (contact POST
   answered with a redirect) and stored, report e-mails sent and leads with an address
   (each address must receive exactly one mail), new-lead robot messages accepted by the
   robot (each lead at most once), tasks or deliveries stuck afterwards, 500s, and the
   recovery time: from the fault's end until the site answered again / until all the
   scenario's work was done. Pass: acknowledged <= stored <= acknowledged + unanswered
   POSTs, report e-mails = leads with an address, every robot message once (or ended
   "uncertain" on the timeline when the hung robot may have it), 0 stuck, 0 500s, no
   stack trace, no half-written lead.
4. The PDF after the thank-you page (issue 26): for each number in LOAD_PDF_CUSTOMERS
   (default 10,25), that many customers through the wizard and the contact form, then the
   report link from the thank-you page as a browser follows it at once (through any
   "preparing your report" page, after its Retry-After): concurrent (each going round
   again for LOAD_PDF_SECONDS, default 30) and in a burst (all released together, once).
   One table: time from the thank-you page to the PDF's first byte (p50, p95, max),
   customers without a PDF within PDF_WAIT_SECONDS and 5xx answers. Pass: every customer
   gets a PDF, no 5xx. Budget (printed, not asserted): p95 <= 1 s at 10 concurrent.
"""

from __future__ import annotations

import contextlib
import html
import http.client
import http.server
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from devtools.pgcluster import Cluster, private_cluster  # noqa: E402 (after the path)
from devtools.ports import free_port  # noqa: E402

HOST, PORT = "127.0.0.1", int(os.environ.get("LOAD_PORT", "0")) or free_port()
USERS = int(os.environ.get("LOAD_USERS", "3"))
LOAD_SECONDS = int(os.environ.get("LOAD_SECONDS", "20"))
FAULT_SECONDS = int(os.environ.get("FAULT_SECONDS", "30"))
OUTAGE_SECONDS = int(os.environ.get("OUTAGE_SECONDS", "10"))
DRAIN_SECONDS = int(os.environ.get("DRAIN_SECONDS", "300"))
# A customer's pause before each page (0 = flat out). With the default a customer submits a
# lead every 7 s or so: a scenario's leads fit the robot's 20 messages a minute in about a
# minute, so a run of every fault takes about 6 minutes on the 2-core machine.
THINK_SECONDS = float(os.environ.get("LOAD_THINK_SECONDS", "0.5"))
FAULTS = ("postgres", "redis", "worker", "robot", "webhook")
# The stuck-task timeout of this run (the production default is 600 s): a killed worker's
# task is run again within this plus the workers' recovery interval (30 s).
STUCK_SECONDS = int(os.environ.get("LOAD_TASK_STUCK_SECONDS", "45"))
DB_NAME = "selector_load"
CLUSTER: Cluster | None = None  # the private server, set by main()


def selected_faults(value: str | None) -> list[str]:
    """LOAD_FAULTS: comma-separated fault names, in the order given; unset = all; "none"
    = the load step only."""
    if value is None or not value.strip():
        return list(FAULTS)
    names = [n.strip() for n in value.split(",") if n.strip()]
    if names == ["none"]:
        return []
    unknown = [n for n in names if n not in FAULTS]
    if unknown:
        raise SystemExit(f"LOAD_FAULTS: unknown {', '.join(unknown)} (known: "
                         f"{', '.join(FAULTS)}, or none)")
    return names


CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
REPORT_LINK = re.compile(r'href="([^"]+)" data-testid="report-link"')
# Customers at once in the PDF phase (time from the thank-you page to the PDF's first
# byte); LOAD_PDF_CUSTOMERS= (empty) skips it.
PDF_CUSTOMERS = [int(n) for n in os.environ.get("LOAD_PDF_CUSTOMERS", "10,25").split(",") if n]
PDF_WAIT_SECONDS = 60
PDF_SECONDS = int(os.environ.get("LOAD_PDF_SECONDS", "30"))
STARTED_INPUT = re.compile(r'name="started" value="([^"]+)"')
# The new-lead message's title ("新线索 NS-20261203-7KQ2XW（...）" / "New lead NS-...").
NEW_LEAD = re.compile(r"(?:新线索|New lead) (NS-\d{8}-[0-9A-Z]{6})")


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: dict[int, int] = defaultdict(int)
        self.errors: dict[str, int] = defaultdict(int)
        self.thanks = 0
        # Contact POSTs answered with a redirect (the lead committed, the customer was
        # told) and those sent without one (5xx or a broken connection: the lead may or
        # may not have committed before the failure).
        self.acknowledged = 0
        self.unacknowledged = 0
        self.stack_traces = 0
        self.requests = 0

    def record(self, step: str, seconds: float, status: int, body: bytes):
        with self.lock:
            self.requests += 1
            self.latency[step].append(seconds)
            self.status[status] += 1
            if b"Traceback" in body or b"Exception Value" in body:
                self.stack_traces += 1


class Customer:
    """One browser: its own cookies, a keep-alive connection, the wizard then the lead."""

    def __init__(self, stats: Stats, number: int):
        self.stats, self.number = stats, number
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None
        self.thanks_page = b""

    def request(self, step, method, path, form=None):
        headers = {"Host": f"{HOST}:{PORT}", "User-Agent": "selector-load/1.0",
                   "Accept-Language": "zh-CN,zh;q=0.9"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{HOST}:{PORT}{path}"
        if THINK_SECONDS:
            time.sleep(THINK_SECONDS)
        started = time.perf_counter()
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (OSError, http.client.HTTPException):
                self.conn = None
                if attempt:
                    self.stats.errors["connection"] += 1
                    return 0, b"", {}
        elapsed = time.perf_counter() - started
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie(header)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value
        self.stats.record(step, elapsed, response.status, data)
        return response.status, data, response.headers

    def follow(self, step, status, headers):
        if status in (301, 302, 303):
            location = urllib.parse.urlsplit(headers["Location"])
            return self.request(step, "GET", location.path + (
                "?" + location.query if location.query else ""))
        return status, b"", headers

    def post_step(self, step, path, fields):
        status, page, _h = self.request(step, "GET", path)
        if status != 200:
            return False
        token = CSRF_INPUT.search(page.decode("utf-8", "replace"))
        if not token:
            self.stats.errors["no csrf token on " + step] += 1
            return False
        status, _b, headers = self.request(step + " POST", "POST", path,
                                           {"csrfmiddlewaretoken": token.group(1), **fields})
        if status not in (302, 303):
            if status < 500:
                self.stats.errors[f"{step} answered {status}"] += 1
            return False
        return True

    def run_once(self) -> bool:
        self.cookies = {}
        status, _b, headers = self.request("start", "GET",
                                           "/wizard/?utm_source=load&utm_medium=bench")
        if status not in (200, 302):
            return False
        gpus = random.choice([16, 64, 256, 1024, 2048])
        steps = [
            ("scale", {"gpus": gpus, "gpus_per_server": 8}),
            ("workload", {"workload": random.choice(["training", "inference", "mixed"]),
                          "throughput_limited": "true"}),
            ("budget", {"budget": random.choice(["sensitive", "balanced", "performance"])}),
            ("determinism", {"determinism": "standard"}),
            ("nic-speed", {"nic_speed": random.choice(["400", "800", "unsure"])}),
        ]
        for identifier, fields in steps:
            if not self.post_step(identifier, f"/wizard/{identifier}/", fields):
                return False
        status, _b, _h = self.request("result", "GET", "/wizard/result/")
        if status != 200:
            return False
        status, page, _h = self.request("contact", "GET", "/contact/")
        if status != 200:
            return False
        text = page.decode("utf-8", "replace")
        token, started = CSRF_INPUT.search(text), STARTED_INPUT.search(text)
        if not token or not started:
            self.stats.errors["contact form fields missing"] += 1
            return False
        n = f"{self.number}{random.randint(0, 10**6)}"
        try:
            status, _b, headers = self.request("contact POST", "POST", "/contact/", {
                "csrfmiddlewaretoken": token.group(1), "started": started.group(1),
                "website": "", "name": f"压测用户{n}", "company": f"深圳测试科技{n}",
                "phone": "13800138000", "email": f"load{n}@example.com", "role": "CTO",
                "timeline": "0-3m", "wechat": "", "message": "", "consent": "on",
            })
        except Exception:
            with self.stats.lock:
                self.stats.unacknowledged += 1
            raise
        if status not in (302, 303):
            if status < 500:
                self.stats.errors[f"contact answered {status}"] += 1
            else:
                with self.stats.lock:
                    self.stats.unacknowledged += 1
            return False
        with self.stats.lock:
            self.stats.acknowledged += 1
        status, page, _h = self.follow("thanks", status, headers)
        if status == 200:
            with self.stats.lock:
                self.stats.thanks += 1
            self.thanks_page = page
            return True
        return False

    def first_pdf_byte(self) -> tuple[float | None, list[int]]:
        """After the thank-you page, the report link as a browser follows it: seconds from
        the thank-you page to the PDF's first byte (the answer's headers), through any
        "preparing your report" pages (202, reloaded after Retry-After), and the statuses
        seen; None when no PDF came within PDF_WAIT_SECONDS."""
        link = REPORT_LINK.search(self.thanks_page.decode("utf-8", "replace"))
        if link is None:
            self.stats.errors["no report link on the thank-you page"] += 1
            return None, []
        path = html.unescape(link.group(1))
        started, statuses = time.perf_counter(), list[int]()
        while time.perf_counter() - started < PDF_WAIT_SECONDS:
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
                self.conn.request("GET", path, headers={
                    "Host": f"{HOST}:{PORT}", "User-Agent": "selector-load/1.0",
                    "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())})
                response = self.conn.getresponse()
                first_byte = time.perf_counter() - started
                response.read()
            except (OSError, http.client.HTTPException):
                self.conn = None
                statuses.append(0)
                continue
            statuses.append(response.status)
            if response.status == 200 and response.headers.get(
                    "Content-Type", "").startswith("application/pdf"):
                return first_byte, statuses
            if response.status != 202:
                return None, statuses
            time.sleep(float(response.headers.get("Retry-After", "2")))
        return None, statuses




def drive(stats: Stats, seconds: float, during=None) -> float:
    stop = time.monotonic() + seconds
    def worker(number):
        customer = Customer(stats, number)
        while time.monotonic() < stop:
            try:
                customer.run_once()
            except Exception as exc:  # noqa: BLE001 - count and go on
                stats.errors[type(exc).__name__] += 1
                time.sleep(0.2)
    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(USERS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    if during:
        during()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    return time.monotonic() - started


class FakeRobot:
    """A WeCom group robot on loopback (the peer, not a mock: real HTTP on its own port).

    It answers like WeCom: HTTP 200 with ``{"errcode": 0}``, or ``{"errcode": 45009,
    "errmsg": "api freq out of limit"}`` when more than LIMIT messages came in the last
    minute (WeCom's documented rate; DingTalk answers 130101 "send too fast") or while
    ``mode`` is "throttled". With ``mode`` "hang" it accepts the connection, reads the
    request and never answers (until the run ends)."""

    LIMIT, WINDOW = 20, 60.0

    def __init__(self) -> None:
        self.mode = "ok"
        self.lock = threading.Lock()
        self.accepted: list[tuple[float, str]] = []  # when, and the lead's report number
        self.refused: Counter[str] = Counter()  # why: "throttled", "over the limit"
        self.hung: list[str] = []
        self.release = threading.Event()
        robot = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                text = self.rfile.read(length).decode("utf-8", "replace")
                try:
                    content = json.loads(text)["text"]["content"]
                except (ValueError, KeyError, TypeError):
                    content = text
                found = NEW_LEAD.search(content)
                number = found.group(1) if found else ""
                code = robot.answer(number)
                if code is None:
                    robot.release.wait()  # accepted, never answered
                    self.close_connection = True
                    return
                body = json.dumps({"errcode": code, "errmsg": "ok" if code == 0 else
                                   "api freq out of limit"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format, *args):  # noqa: A002 - quiet
                pass

        self.server = http.server.ThreadingHTTPServer((HOST, 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://{HOST}:{self.port}/cgi-bin/webhook/send?key=load-test"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, number: str) -> int | None:
        with self.lock:
            if self.mode == "hang":
                self.hung.append(number)
                return None
            if self.mode == "throttled":
                self.refused["throttled"] += 1
                return 45009
            now = time.monotonic()
            if sum(1 for t, _n in self.accepted if t > now - self.WINDOW) >= self.LIMIT:
                self.refused["over the limit"] += 1
                return 45009
            self.accepted.append((now, number))
            return 0

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class Redis:
    """This run's own redis-server (no persistence), stopped and started on its port."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", HOST, "--port", str(self.port), "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ping = subprocess.run(["redis-cli", "-h", HOST, "-p", str(self.port), "ping"],
                                  capture_output=True, text=True)
            if ping.stdout.strip() == "PONG":
                return
            time.sleep(0.1)
        raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def psql(sql: str) -> str:
    assert CLUSTER is not None
    return CLUSTER.psql(sql)


def rows(sql: str) -> list[list[str]]:
    return [line.split("|") for line in psql(sql).splitlines() if line]


@dataclass
class Stack:
    """What a fault may touch: only what this run started."""

    cluster: Cluster
    redis: Redis
    robot: FakeRobot
    server: subprocess.Popen  # serve-prod.sh, the leader of its own session
    mail_dir: Path
    killed: list[str] = field(default_factory=list)  # task ids whose worker was killed

    def workers(self) -> dict[str, int]:
        """worker id -> pid of this run's task workers (its session only)."""
        found = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
                if b"task_worker" in argv and os.getsid(int(entry.name)) == self.server.pid:
                    found[argv[argv.index(b"--worker-id") + 1].decode()] = int(entry.name)
            except (OSError, ValueError, IndexError):
                continue
        return found


TASKS = "django_tasks_database_dbtaskresult"


def kill_worker_mid_task(stack: Stack) -> bool:
    """SIGKILL the worker of a running task (a report e-mail if one is running)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        running = rows(f"SELECT id, worker_ids->>-1, task_path FROM {TASKS} WHERE status = "
                       "'RUNNING' ORDER BY (task_path LIKE '%email_report') DESC, "
                       "started_at DESC")
        workers = stack.workers()
        for task_id, worker_id, path in running:
            pid = workers.get(worker_id)
            if pid and task_id not in stack.killed:
                os.kill(pid, signal.SIGKILL)
                stack.killed.append(task_id)
                print(f"killed task worker {worker_id} (pid {pid}) in the middle of "
                      f"{path.rsplit('.', 1)[-1]} {task_id}", flush=True)
                return True
        time.sleep(0.1)
    print("no running task to kill its worker", flush=True)
    return False


def fault_action(name: str, stack: Stack) -> Callable[[], float]:
    """The fault, run in the middle of the scenario; returns when it ended (monotonic)."""
    def action() -> float:
        time.sleep(max(0.0, FAULT_SECONDS / 2 - OUTAGE_SECONDS / 2))
        if name == "postgres":
            print(f"stopping PostgreSQL (this run's own) for {OUTAGE_SECONDS} s", flush=True)
            stack.cluster.stop()
            time.sleep(OUTAGE_SECONDS)
            stack.cluster.start()
        elif name == "redis":
            print(f"stopping Redis (this run's own) for {OUTAGE_SECONDS} s", flush=True)
            stack.redis.stop()
            time.sleep(OUTAGE_SECONDS)
            stack.redis.start()
        elif name == "worker":
            kill_worker_mid_task(stack)
            time.sleep(OUTAGE_SECONDS / 2)
            kill_worker_mid_task(stack)
        else:
            mode = {"robot": "throttled", "webhook": "hang"}[name]
            print(f"the robot is {mode} for {OUTAGE_SECONDS} s", flush=True)
            stack.robot.mode = mode
            time.sleep(OUTAGE_SECONDS)
            stack.robot.mode = "ok"
        print(f"{name} fault over", flush=True)
        return time.monotonic()
    return action


def site_answers() -> bool:
    try:
        conn = http.client.HTTPConnection(HOST, PORT, timeout=10)
        conn.request("GET", "/wizard/", headers={"Host": f"{HOST}:{PORT}"})
        status = conn.getresponse().status
        conn.close()
        return status in (200, 302)
    except (OSError, http.client.HTTPException):
        return False


# Running, or ready to run now (the tick waiting for its next turn does not count).
DUE = (f"SELECT count(*) FROM {TASKS} WHERE status = 'RUNNING' OR (status = 'READY' AND "
       "(run_after <= now() + interval '1 second' OR run_after >= '9999-01-01'))")
UNFINISHED = "SELECT count(*) FROM leads_delivery WHERE status IN ('pending', 'sending')"


def wait_for_work(deadline: float) -> tuple[int, int]:
    """Wait until no task is due or running and every delivery has ended; what is left."""
    while time.monotonic() < deadline:
        with contextlib.suppress(subprocess.CalledProcessError):
            if int(psql(DUE)) == 0 and int(psql(UNFINISHED)) == 0:
                break
        time.sleep(1)
    return int(psql(DUE)), int(psql(UNFINISHED))


def mails_by_address(mail_dir: Path) -> Counter[str]:
    """How many mails each address received (the file backend's folder)."""
    found: Counter[str] = Counter()
    for path in mail_dir.glob("*.log"):
        for line in path.read_text("utf-8", "replace").splitlines():
            if line.startswith("To: "):
                found[line[4:].strip()] += 1
    return found


@dataclass
class Row:
    fault: str
    acknowledged: int = 0
    unanswered: int = 0
    stored: int = 0
    report_emails: int = 0
    with_address: int = 0
    robot_once: int = 0
    robot_twice: int = 0
    robot_uncertain: int = 0
    stuck: int = 0
    five_hundreds: int = 0
    app_back: float = 0.0
    work_done: float = 0.0
    ok: bool = False
    notes: list[str] = field(default_factory=list)


def scenario(name: str, stack: Stack, seconds: float) -> Row:
    """Customers for ``seconds`` with the fault ``name`` (or none) in the middle; then the
    work drained and the row measured for the leads of this scenario only."""
    before = int(psql("SELECT coalesce(max(id), 0) FROM leads_lead"))
    stats = Stats()
    ended, back = [0.0], [0.0]

    def during():
        if name == "none":
            return
        ended[0] = fault_action(name, stack)()
        while not site_answers() and time.monotonic() < ended[0] + 120:
            time.sleep(0.25)
        back[0] = time.monotonic() - ended[0]
    elapsed = drive(stats, seconds, during=during)
    fault_end = ended[0] or time.monotonic()
    report(f"{name}" if name != "none" else "Load", stats, elapsed,
           prefix="load" if name == "none" else f"fault_{name}")
    row = Row(name, acknowledged=stats.acknowledged, unanswered=stats.unacknowledged,
              five_hundreds=stats.status.get(500, 0))
    row.app_back = back[0]
    due, unfinished = wait_for_work(time.monotonic() + DRAIN_SECONDS)
    row.work_done = time.monotonic() - fault_end
    row.stuck = due + unfinished
    leads = rows(f"SELECT id, email, report_number FROM leads_lead WHERE id > {before}")
    row.stored = len(leads)
    addresses = [email for _id, email, _n in leads if email]
    row.with_address = len(addresses)
    row.report_emails = int(psql(
        f"SELECT count(*) FROM leads_delivery WHERE lead_id > {before} AND kind = "
        "'report_email' AND status = 'sent'"))
    received = mails_by_address(stack.mail_dir)
    not_once = [a for a in addresses if received[a] != 1]
    accepted = Counter(n for _t, n in stack.robot.accepted)
    numbers = [n for _id, _e, n in leads]
    row.robot_once = sum(1 for n in numbers if accepted[n] == 1)
    row.robot_twice = sum(1 for n in numbers if accepted[n] > 1)
    robot_rows = rows(f"SELECT status, error, count(*) FROM leads_delivery WHERE lead_id > "
                      f"{before} AND kind = 'sales_robot' GROUP BY 1, 2")
    robot = {(status, error): int(count) for status, error, count in robot_rows}
    row.robot_uncertain = robot.get(("failed", "uncertain"), 0)
    failed = rows(f"SELECT kind, error, count(*) FROM leads_delivery WHERE lead_id > {before} "
                  "AND status = 'failed' GROUP BY 1, 2")
    orphans = int(psql(f"SELECT count(*) FROM leads_lead WHERE id > {before} AND "
                       "(wizard_session_id IS NULL OR frozen_recommendation::text = '{}' OR "
                       "answers::text = '{}')"))
    # A lead can commit and its answer still fail (the redirect lost in an outage): not
    # lost (a retry finds the same lead); only an unanswered POST accounts for an extra one.
    row.ok = (row.acknowledged <= row.stored <= row.acknowledged + row.unanswered
              and row.stored > 0 and row.report_emails == row.with_address and not not_once
              and row.robot_twice == 0
              and row.robot_once + row.robot_uncertain == row.stored
              and (row.robot_uncertain == 0 or name == "webhook")
              and row.stuck == 0 and row.five_hundreds == 0 and stats.stack_traces == 0
              and orphans == 0
              and all(e == "uncertain" and name == "webhook" for _k, e, _c in failed))
    if not_once:
        row.notes.append(f"{len(not_once)} addresses without exactly one mail")
    if failed:
        row.notes.append("failed deliveries " + ", ".join(f"{k} {e or '-'} {c}"
                                                           for k, e, c in failed))
    if orphans:
        row.notes.append(f"{orphans} half-written leads")
    if stats.stack_traces:
        row.notes.append(f"{stats.stack_traces} stack traces")
    row.notes.append(f"503s {stats.status.get(503, 0)}")
    if name == "worker":
        recovered = rows(f"SELECT status, jsonb_array_length(worker_ids) FROM {TASKS} WHERE "
                         f"id IN ({', '.join(repr(t) for t in stack.killed) or 'NULL'})")
        row.notes.append("killed tasks " + (", ".join(f"{s} after {n} claims"
                                                      for s, n in recovered) or "none"))
        row.ok &= len(stack.killed) == 2 and all(s == "SUCCESSFUL" for s, _n in recovered)
        workers = len(stack.workers())
        row.notes.append(f"workers running {workers}")
        row.ok &= workers == int(os.environ.get("TASK_WORKERS", "2"))
    refused = dict(stack.robot.refused)
    if refused:
        row.notes.append("robot refused " + ", ".join(f"{k} {v}" for k, v in refused.items()))
        row.ok &= "over the limit" not in refused  # the product paced every post
        stack.robot.refused.clear()
    if stack.robot.hung:
        row.notes.append(f"robot left {len(stack.robot.hung)} posts unanswered")
        stack.robot.hung.clear()
    prefix = "load" if name == "none" else f"fault_{name}"
    for key, value, unit in (
            ("leads_acknowledged", row.acknowledged, "leads"), ("leads_stored", row.stored,
             "leads"), ("report_emails_minus_leads_with_address",
                        row.report_emails - row.with_address, "mails"),
            ("robot_messages_not_once", row.stored - row.robot_once, "messages"),
            ("stuck", row.stuck, "tasks"), ("500s", row.five_hundreds, "responses"),
            ("recovery_app", f"{row.app_back:.0f}", "s"),
            ("recovery_work", f"{row.work_done:.0f}", "s"), ("pass", int(row.ok), "bool")):
        metric(f"{prefix}_{key}", value, unit)
    print(f"row: {table_row(row)}  {'; '.join(row.notes)}", flush=True)
    return row


TABLE_HEAD = ("| fault | leads acknowledged / stored | report e-mails / leads with an "
              "address | robot messages sent once | stuck | 500s | recovery: site / work |\n"
              "|---|---|---|---|---|---|---|")


def table_row(row: Row) -> str:
    robot = f"{row.robot_once} of {row.stored}"
    if row.robot_uncertain:
        robot += f" ({row.robot_uncertain} uncertain)"
    if row.robot_twice:
        robot += f", {row.robot_twice} twice"
    label = {"none": "none (load)", "postgres": f"PostgreSQL down {OUTAGE_SECONDS} s",
             "redis": f"Redis down {OUTAGE_SECONDS} s", "worker": "worker killed twice mid-task",
             "robot": f"robot: too many requests for {OUTAGE_SECONDS} s",
             "webhook": f"webhook hangs for {OUTAGE_SECONDS} s"}[row.fault]
    return (f"| {label} | {row.acknowledged} / {row.stored} | {row.report_emails} / "
            f"{row.with_address} | {robot} | {row.stuck} | {row.five_hundreds} | "
            f"{row.app_back:.0f} s / {row.work_done:.0f} s |")


def wait_for_port(timeout=300):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex((HOST, PORT)) == 0:
                return
        time.sleep(0.5)
    raise SystemExit("the server did not start")


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))] * 1000


def metric(name, value, unit):
    """A machine-readable figure for `make bench` (bench/bench_load.py collects them)."""
    print(f"METRIC {name} {value} {unit}", flush=True)


def report(title, stats: Stats, elapsed: float, prefix: str = "load"):
    metric(f"{prefix}_rps", f"{stats.requests / elapsed:.1f}", "1/s")
    for step in ("scale POST", "workload POST", "result", "contact POST", "thanks"):
        values = stats.latency.get(step)
        if values:
            key = step.replace(" POST", "_post").replace("-", "_")
            metric(f"{prefix}_{key}_p95", f"{percentile(values, 95):.0f}", "ms")
            metric(f"{prefix}_{key}_p99", f"{percentile(values, 99):.0f}", "ms")
    print(f"\n## {title}: {USERS} users, {elapsed:.0f} s")
    print(f"requests {stats.requests}  rps {stats.requests / elapsed:.1f}  "
          f"thank-you pages {stats.thanks}  statuses {dict(sorted(stats.status.items()))}")
    print(f"{'step':<18}{'n':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for step, values in stats.latency.items():
        print(f"{step:<18}{len(values):>7}{percentile(values, 50):>9.0f}"
              f"{percentile(values, 95):>9.0f}{percentile(values, 99):>9.0f}")
    if stats.errors:
        print("errors:", dict(stats.errors))


def main() -> int:
    global CLUSTER
    faults = selected_faults(os.environ.get("LOAD_FAULTS"))
    with contextlib.ExitStack() as stack:
        CLUSTER = cluster = stack.enter_context(private_cluster(database=DB_NAME,
                                                                durable=True))
        redis = Redis(free_port())
        stack.callback(redis.stop)
        robot = FakeRobot()
        stack.callback(robot.close)
        return run(cluster, redis, robot, run_folder(), faults)
    return 1


def server_env(environ, *, database_url: str, redis_port: int, robot_url: str,
               mail_dir: Path) -> dict[str, str]:
    """The stack's environment: the caller's, without what would point it elsewhere (a
    test database name, a settings module, what the test settings put in the environment
    when `make bench` runs this), with this run's own servers and production's settings."""
    keep = {k: v for k, v in environ.items() if not k.startswith(("DJANGO_", "TEST_"))}
    return {**keep, "DJANGO_SETTINGS_MODULE": "selector.settings",
            "DEBUG": "0", "STATIC_PLAIN": "0", "SITE_URL": f"http://{HOST}:{PORT}",
            "DATABASE_URL": database_url, "PORT": str(PORT),
            "REDIS_URL": f"redis://{HOST}:{redis_port}/0", "CACHE_KEY_PREFIX": f"load{PORT}",
            "SECRET_KEY": "load-test-only-" + "x" * 50,  # not the checkout's .secret_key
            "REPORT_EMAIL_ENABLED": "1", "REPORT_PRERENDER": "1",
            "EMAIL_BACKEND": "file", "EMAIL_FILE_PATH": str(mail_dir),
            "LEAD_WEBHOOK_URL": robot_url, "LEAD_WEBHOOK_KIND": "wecom",
            "LEAD_NOTIFY_BACKOFF_SECONDS": environ.get("LEAD_NOTIFY_BACKOFF_SECONDS", "5"),
            "TASK_STUCK_SECONDS": str(STUCK_SECONDS),
            "LEAD_RATE_LIMIT": "0", "LEAD_MIN_FILL_SECONDS": "0", "GUNICORN_ACCESS_LOG": "",
            "DB_POOL_MAX": "4", "DB_POOL_TIMEOUT": "5", "LOG_LEVEL": "WARNING",
            # A loopback stand-in no customer uses: serve-prod's start-up check would refuse
            # the shipped profile (no company channels), the default sender and the file
            # e-mail backend.
            "SILENCED_SYSTEM_CHECKS": "content.E001,leads.E001,mail.E001"}


def run_folder() -> Path:
    """This run's files (mails, the server's log): a folder of its own, kept for reading
    (two runs in one checkout, e.g. `make load` next to `make bench`, never mix mails)."""
    parent = ROOT / "artifacts"
    parent.mkdir(exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"load-{time.strftime('%Y%m%d-%H%M%S')}-",
                                 dir=parent))


@dataclass
class PdfRow:
    customers: int
    mode: str  # "burst": all at once, once; "concurrent": each in a loop for PDF_SECONDS
    times: list[float]
    failed: int
    server_errors: int

    @property
    def ok(self) -> bool:
        return not self.failed and not self.server_errors


def pdf_phase(customers: int, mode: str) -> PdfRow:
    """``customers`` customers through the wizard and the contact form, then the report link
    from the thank-you page as a browser follows it, at once: ``burst``, all released
    together, once each (the worst case: every render queued at the same moment);
    ``concurrent``, each going round again at once for PDF_SECONDS (N people on the site at
    any moment, the usual meaning of concurrent users)."""
    stats = Stats()
    barrier = threading.Barrier(customers)
    times: list[float] = []
    failed, server_errors = 0, 0
    lock = threading.Lock()
    stop = time.monotonic() + PDF_SECONDS

    def one(number: int) -> None:
        nonlocal failed, server_errors
        customer = Customer(stats, 10_000 + number)
        barrier.wait()
        while True:
            seconds, statuses = (customer.first_pdf_byte() if customer.run_once()
                                 else (None, []))
            with lock:
                server_errors += sum(1 for status in statuses if status >= 500)
                if seconds is None:
                    failed += 1
                else:
                    times.append(seconds)
            if mode == "burst" or time.monotonic() >= stop:
                return

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(customers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PDF_SECONDS + PDF_WAIT_SECONDS + 300)
    server_errors += sum(n for status, n in stats.status.items() if status >= 500)
    return PdfRow(customers, mode, times, failed, server_errors)


def pdf_table(rows: list[PdfRow]) -> None:
    print(f"\n## The PDF after the thank-you page: time to the PDF's first byte "
          f"({time.strftime('%Y-%m-%d %H:%M')})\n")
    print("| customers | how | PDFs | p50 | p95 | max | failed | 5xx |\n"
          "|---|---|---|---|---|---|---|---|")
    for row in rows:
        cells = ([f"{percentile(row.times, q):.0f} ms" for q in (50, 95, 100)] if row.times
                 else ["-"] * 3)
        how = ("all at once, once" if row.mode == "burst"
               else f"concurrent, {PDF_SECONDS} s")
        print(f"| {row.customers} | {how} | {len(row.times)} | " + " | ".join(cells)
              + f" | {row.failed} | {row.server_errors} |")
        name = f"{row.mode}_{row.customers}"
        if row.times:
            metric(f"load_pdf_first_byte_p95_{name}", round(percentile(row.times, 95)), "ms")
        metric(f"load_pdf_errors_{name}", row.failed + row.server_errors, "count")


def run(cluster: Cluster, redis: Redis, robot: FakeRobot, out: Path, faults: list[str]) -> int:
    mail_dir = out / "mail"
    print(f"PostgreSQL (its own) on 127.0.0.1:{cluster.port}, Redis (its own) on "
          f"{HOST}:{redis.port}, robot (its own) on {HOST}:{robot.port}, site on "
          f"{HOST}:{PORT}; faults: {', '.join(faults) or 'none'}")
    env = server_env(os.environ, database_url=cluster.url, redis_port=redis.port,
                     robot_url=robot.url, mail_dir=mail_dir)
    log_path = out / "server.log"
    server_log = log_path.open("w")
    print(f"server log: {log_path}; mails: {mail_dir}")
    server = subprocess.Popen([str(ROOT / "deploy" / "serve-prod.sh")], cwd=ROOT, env=env,
                              stdout=server_log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    stack = Stack(cluster, redis, robot, server, mail_dir)
    results: list[Row] = []
    pdf_rows: list[PdfRow] = []
    try:
        wait_for_port()
        results.append(scenario("none", stack, LOAD_SECONDS))
        for name in faults:
            results.append(scenario(name, stack, FAULT_SECONDS))
        # Last: its leads' robot messages (paced) would slow the scenarios' drains.
        for customers in PDF_CUSTOMERS:
            for mode in ("concurrent", "burst"):
                pdf_rows.append(pdf_phase(customers, mode))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        server_log.close()

    print(f"\n## Faults: {USERS} users, {FAULT_SECONDS} s each, fault in the middle "
          f"({time.strftime('%Y-%m-%d %H:%M')})\n")
    print(TABLE_HEAD)
    for row in results:
        print(table_row(row))
    for row in results:
        if not row.ok:
            print(f"FAILED: {row.fault}: {'; '.join(row.notes)}")
    if pdf_rows:
        pdf_table(pdf_rows)
    for pdf_row in pdf_rows:
        if not pdf_row.ok:
            print(f"FAILED: PDF at {pdf_row.customers} customers ({pdf_row.mode}): "
                  f"{pdf_row.failed} without a PDF, {pdf_row.server_errors} server errors")
    ok = all(row.ok for row in results) and all(row.ok for row in pdf_rows)
    print("\nRESULT", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
