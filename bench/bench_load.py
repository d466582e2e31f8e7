"""The load/fault test and the PDF memory soak as `make bench` figures (issue 8). They
run as their own processes (`bench/load.py`, `bench/pdf_soak.py`); set BENCH_LOAD=0 to
skip them (about 10 minutes together)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _figures(script: str, env: dict):
    process = subprocess.Popen([sys.executable, str(ROOT / "bench" / script)], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None  # stdout=PIPE
    for line in process.stdout:
        print(line, end="", file=sys.stderr)  # the full report, for the reader
        parts = line.split()
        if line.startswith("METRIC ") and len(parts) == 4:
            yield parts[1], float(parts[2]), parts[3]
        elif script == "pdf_soak.py" and len(parts) == 3 and parts[0] in (
                "pdf_soak_renders", "pdf_soak_seconds", "pdf_soak_rss_growth_second_half"):
            yield parts[0], float(parts[1]), parts[2]
        elif line.startswith("RESULT "):
            yield f"{script.removesuffix('.py')}_pass", int(parts[1] == "PASS"), "bool"
    process.wait()


def run():
    if os.environ.get("BENCH_LOAD", "1") == "0":
        return
    from django.db import connections

    connections.close_all()  # the load test restarts PostgreSQL
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TEST_DATABASE_NAME")}
    yield from _figures("load.py", env)
    yield from _figures("pdf_soak.py", {**env, "DATABASE_URL": "sqlite:///:memory:"})
