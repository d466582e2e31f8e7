"""The scale-out test (`make scale-test`, bench/scale_test.py) as `make bench` figures: two
app servers behind HAProxy on one PostgreSQL and one Redis. It runs as its own process
(about two minutes: one of them waits out the idle timeout). Skipped with BENCH_SCALE=0,
and by default whenever BENCH_LOAD=0 (it uses its own ports, database and Redis database:
SCALE_PORT, SCALE_APP_PORTS, SCALE_DATABASE, SCALE_REDIS_URL)."""

import os

from bench.bench_load import _figures


def run():
    if os.environ.get("BENCH_SCALE", os.environ.get("BENCH_LOAD", "1")) == "0":
        return
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TEST_DATABASE_NAME")}
    yield from _figures("scale_test.py", env)
