"""gunicorn's access log, from a real gunicorn run with the production configuration
(deploy/gunicorn.conf.py): a customer's report download, a share link, its hand-off and a
password-reset link leave no token in it (each is a working bearer link). Every token route
is covered: tests/security/test_log_redaction.py walks the URL configuration."""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from selector.core.sharing import share_token
from selector.domain import Answers
from selector.leads.report import links
from tests.conftest import make_lead

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                reason="gunicorn must reach the test database")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (loopback)
        return response.status, response.read()


@pytest.fixture
def gunicorn(transactional_db, tmp_path):
    from django.core.management import call_command

    call_command("load_content", force=True, verbosity=0)
    port = _free_port()
    settings_db = connection.settings_dict
    log = tmp_path / "access.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": (f"postgres://{settings_db['USER']}@{settings_db['HOST'] or '127.0.0.1'}"
                         f":{settings_db['PORT'] or 5432}/{settings_db['NAME']}"),
        "DB_POOL": "0", "ALLOWED_HOSTS": "127.0.0.1", "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1", "GUNICORN_ACCESS_LOG": str(log),
    }
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "selector.wsgi:application",
         "-c", "deploy/gunicorn.conf.py"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                _get(base + "/healthz")
                break
            except OSError:
                if process.poll() is not None:
                    pytest.fail(process.stderr.read().decode()[-2000:])
                time.sleep(0.1)
        yield base, log, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_access_log_redacts_report_and_share_tokens(gunicorn):
    base, log, process = gunicorn
    lead = make_lead(answers=Answers(gpus=64).to_dict() | {
        "workload": "training", "budget": "balanced", "determinism": "standard"})
    report = links.customer_report_path(lead)
    token = links.make_token(lead)
    status, pdf = _get(base + report)
    assert status == 200 and pdf.startswith(b"%PDF")
    assert _get(base + links.customer_report_path(lead, web=True))[0] == 200
    share = share_token(Answers(gpus=64))
    assert _get(f"{base}/en/wizard/r/{share}/")[0] == 200
    # The hand-off asked for by another site (no Sec-Fetch-Site: same-origin) answers a
    # page that asks to confirm with a POST; its address carries the token all the same.
    status, page = _get(f"{base}/en/wizard/r/{share}/continue/")
    assert status == 200 and f'action="/en/wizard/r/{share}/continue/"'.encode() in page
    reset = "/en/staff/password-reset/MQ/cbq6z8-0a1b2c3d4e5f60718293/"
    assert _get(base + reset)[0] == 200  # an unknown link says so
    process.terminate()
    process.wait(timeout=30)

    lines = log.read_text().splitlines()
    downloads = [line for line in lines if "/report/" in line or "/wizard/r/" in line
                 or "/password-reset/" in line]
    assert len(downloads) == 5, lines
    text = log.read_text()
    assert token not in text and share not in text and "cbq6z8" not in text
    assert text.count("/report/[redacted]") == 2
    assert "/en/wizard/r/[redacted]/ " in text.replace('"', " ")
    assert "/en/wizard/r/[redacted]/continue/" in text
    assert "/en/staff/password-reset/[redacted]/" in text
    assert " 200 " in downloads[0]
