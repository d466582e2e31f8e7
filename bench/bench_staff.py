"""Sales workspace (issue 6): lead list with one filter plus a search (p95), dashboard
(stored daily counts; one day recounted; a whole year counted from nothing), CSV export
of 100,000 leads (time and peak memory growth).

PostgreSQL (DATABASE_URL): 200,000 seeded leads, 400,000 wizard sessions, exactly 100,000
of the leads English, so ``?language=en`` exports exactly 100,000 rows. SQLite: 20,000
leads (10,000 exported) and the metric names end in ``_sqlite20k`` to say so.
Server time is measured in-process through Django's test client (no network)."""

from __future__ import annotations

import datetime as dt
import gc
import statistics
import time
import tracemalloc

from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.utils import timezone

from selector.staff import rollup
from selector.staff.demo import seed
from selector.staff.permissions import MANAGERS_GROUP
from selector.staff.queries import dashboard_cache_key

# One filter plus one search term each (terms of 2+ characters, as staff type them).
# 1-2 character terms match the start of name/company; 3+ anywhere (see queries.py).
QUERIES = [
    "status=new&q=智算科技", "score=hot&q=Nimbus", "recommendation=infiniband&q=user12",
    "owner=none&q=138123", "scale=64-511&q=北京", "language=en&q=Chen",
    "source=baidu&q=数据科技", "created_from=2026-06-01&q=example.cn", "status=won&q=王伟",
    "score=cold&q=Labs", "language=zh-hans&q=云计算", "scale=1024%2B&q=Apex",
    "source=wechat&q=James", "status=contacted&q=+86186", "owner=mine&q=张",
    "recommendation=roce-v2-400g&q=Orbit",
]


def _p95(values):
    values = sorted(values)
    return values[max(0, round(0.95 * len(values)) - 1)]


def run():
    postgres = connection.vendor == "postgresql"
    leads = 200_000 if postgres else 20_000
    suffix = "" if postgres else "_sqlite20k"
    started = time.perf_counter()
    seed(leads=leads, sessions=2 * leads, months=12, seed=6, en_every=2)
    yield f"staff_seed_{leads // 1000}k_s", time.perf_counter() - started, "s"

    user = User.objects.create_user("bench-manager")
    user.groups.add(Group.objects.get(name=MANAGERS_GROUP))
    client = Client()
    client.force_login(user)

    timings = []
    for _round in range(3):
        for query in QUERIES:
            t = time.perf_counter()
            response = client.get(f"/staff/?{query}")
            timings.append((time.perf_counter() - t) * 1000)
            assert response.status_code == 200, (query, response.status_code)
    yield f"staff_list_filter_search_p95{suffix}", _p95(timings[len(QUERIES):]), "ms"
    t = time.perf_counter()
    client.get("/staff/")
    yield f"staff_list_unfiltered_ms{suffix}", (time.perf_counter() - t) * 1000, "ms"

    # Cold: the figures' cache entry is dropped before each request, so every one folds the
    # stored daily counts and counts today live (selector.staff.rollup; seed() stored the
    # past days). Cached: the same page within the minute the figures are kept.
    end = timezone.localdate()
    key = dashboard_cache_key(end - dt.timedelta(days=364), end, "")
    cold, cached = [], []
    for _ in range(4):
        cache.delete(key)
        t = time.perf_counter()
        response = client.get("/staff/dashboard/?period=365")
        cold.append((time.perf_counter() - t) * 1000)
        assert response.status_code == 200
        t = time.perf_counter()
        response = client.get("/staff/dashboard/?period=365")
        cached.append((time.perf_counter() - t) * 1000)
        assert response.status_code == 200
    yield f"staff_dashboard_ms{suffix}", statistics.median(cold[1:]), "ms"
    yield f"staff_dashboard_cached_ms{suffix}", statistics.median(cached[1:]), "ms"

    def uncached_ms() -> float:
        cache.delete(key)
        t = time.perf_counter()
        assert client.get("/staff/dashboard/?period=365").status_code == 200
        return (time.perf_counter() - t) * 1000

    # A past day changed (a lead deleted, a session finished after midnight): that day is
    # counted again on the next request.
    rollup.invalidate(end - dt.timedelta(days=1))
    yield f"staff_dashboard_one_day_recount_ms{suffix}", uncached_ms(), "ms"
    # Nothing stored (a bulk load without warm()): the request counts and stores a year.
    rollup.reset()
    yield f"staff_dashboard_first_year_ms{suffix}", uncached_ms(), "ms"

    rows_label = "100k" if postgres else "10k_sqlite20k"
    t = time.perf_counter()
    rows = _export(client)
    yield f"staff_csv_export_{rows_label}_s", time.perf_counter() - t, "s"
    assert rows == leads // 2 + 1, rows  # + header
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    _export(client)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    yield f"staff_csv_export_peak_mem_mb{suffix}", (peak - base) / 2**20, "MB"


def _export(client) -> int:
    response = client.get("/staff/leads/export.csv?language=en")
    lines = 0
    for chunk in response.streaming_content:
        lines += chunk.count(b"\r\n")
    response.close()
    return lines
