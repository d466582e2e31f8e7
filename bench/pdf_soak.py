#!/usr/bin/env python
"""PDF worker memory over many consecutive renders (`make pdf-soak`, issue 8).

Renders the sample report RENDERS times through the renderer the download uses
(selector.leads.report.render.render_pdf_document, on selector.documents), and prints the
process RSS every STEP renders. Pass: the RSS growth over the second half of the run stays under
MAX_GROWTH_MB (after warm-up the caches are full, so steady growth would be a leak)."""

import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

RENDERS = int(os.environ.get("SOAK_RENDERS", "500"))
STEP = max(1, RENDERS // 10)
MAX_GROWTH_MB = float(os.environ.get("SOAK_MAX_GROWTH_MB", "30"))


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        call_command("load_content", force=True, verbosity=0)
        from selector.leads.report.render import render_pdf_document
        from selector.leads.report.samples import sample_report

        samples = [sample_report(lang, kind) for lang in ("zh-hans", "en")
                   for kind in ("roce", "infiniband")]
        readings = []
        started = time.perf_counter()
        for i in range(1, RENDERS + 1):
            render_pdf_document(samples[i % len(samples)])
            if i % STEP == 0:
                gc.collect()
                readings.append((i, rss_mb()))
                print(f"pdf_soak_rss_after_{i} {readings[-1][1]:.1f} MB", flush=True)
        elapsed = time.perf_counter() - started
        half = readings[len(readings) // 2 - 1][1]
        growth = readings[-1][1] - half
        print(f"pdf_soak_renders {RENDERS} renders")
        print(f"pdf_soak_seconds {elapsed:.0f} s")
        print(f"pdf_soak_rss_growth_second_half {growth:.1f} MB")
        ok = growth <= MAX_GROWTH_MB
        print("RESULT", "PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
