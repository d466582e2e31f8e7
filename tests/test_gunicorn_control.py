"""Two gunicorns with the production configuration side by side (two app servers, a test
next to serve-prod) do not share a control socket: by default there is none, and
GUNICORN_CONTROL_SOCKET gives a server one of its own (issue 21, M7)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from devtools.ports import free_ports

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


def _start(port: int, home: Path, **env: str) -> subprocess.Popen[bytes]:
    environ = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    environ.update({"HOME": str(home), "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1",
                    "GUNICORN_ACCESS_LOG": "", "DJANGO_SETTINGS_MODULE": "tests.settings",
                    **env})
    return subprocess.Popen([GUNICORN, "-c", "deploy/gunicorn.conf.py", "tests.hello_wsgi:app"],
                            cwd=ROOT, env=environ, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _answers(port: int, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                return r.read() == b"hello"
        except OSError:
            time.sleep(0.2)
    return False


def test_two_gunicorns_of_one_user_each_run_without_a_shared_control_socket(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    own = tmp_path / "own.ctl"
    first_port, second_port = free_ports(2)
    first = _start(first_port, home)
    second = _start(second_port, home, GUNICORN_CONTROL_SOCKET=str(own))
    try:
        assert _answers(first_port) and _answers(second_port)
        assert not (home / ".gunicorn").exists()  # the per-user default path: not used
        deadline = time.monotonic() + 10
        while not own.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert own.is_socket()  # the one that asked for a socket has its own
    finally:
        for process in (first, second):
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
