#!/usr/bin/env python
"""`make bench`: print every benchmark figure, one `name value unit` per line.

Each module in MODULES exposes ``run() -> Iterable[tuple[str, float | int, str]]`` and is
run inside a throw-away test database (SQLite by default, PostgreSQL when DATABASE_URL
says so) with the content fixture loaded. Ratios against a baseline are measured in the
same run, because these machines are noisy.
"""

import importlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

MODULES = [
    "bench.bench_core",
    "bench.bench_wizard",
    "bench.bench_public",
    "bench.bench_http",  # its own gunicorns and Redis, on the bench database
    "bench.bench_leads",
    "bench.bench_reports",
    "bench.bench_staff",
    "bench.bench_quotes",
    "bench.bench_build",
    "bench.bench_scale",  # its own processes, database and Redis database
    "bench.bench_load",  # last: it restarts PostgreSQL
]


def main() -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        call_command("load_content", force=True, verbosity=0)
        only = set(sys.argv[1:])
        for name in MODULES:
            if only and name.rsplit("_", 1)[-1] not in only:
                continue
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name == name:
                    continue  # area not built yet
                raise
            started = time.perf_counter()
            for metric, value, unit in module.run():
                if isinstance(value, float):
                    value = f"{value:.4g}" if abs(value) < 1000 else f"{value:.0f}"
                # One table for every issue's figures: name, value, unit, aligned.
                print(f"{metric:<44} {value:>12} {unit}", flush=True)
            print(f"# {name} took {time.perf_counter() - started:.1f} s", file=sys.stderr)
    finally:
        teardown_databases(old, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
