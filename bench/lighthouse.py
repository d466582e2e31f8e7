#!/usr/bin/env python
"""`make lighthouse`: Lighthouse's mobile audit (its default: an emulated mid-range phone on
a throttled network) of the public journey served as production serves it, on this run's
own database, Redis and gunicorn (two workers, collected static files).

Pages: the landing page, step 1, a result (a shared result link: the same page without a
session), /faq/, /compare/, in both languages. Prints performance and accessibility per
page and exits 1 when a page is under the budget: performance >= 95 (issue 26), and
accessibility 100.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

LIGHTHOUSE = ROOT / ".venv" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
BUDGET = {"performance": 95, "accessibility": 100}


def audit(url: str, out: Path) -> dict[str, int]:
    subprocess.run(
        [str(LIGHTHOUSE), url, "--quiet", "--only-categories=performance,accessibility",
         "--output=json", f"--output-path={out}",
         "--chrome-flags=--headless=new --no-sandbox"],
        env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"}, check=True,
        capture_output=True)
    report = json.loads(out.read_text())
    return {name: round(category["score"] * 100)
            for name, category in report["categories"].items()}


def main() -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import override_settings
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    from bench.bench_http import _env, _serve
    from bench.load import Redis
    from devtools.ports import free_ports
    from selector.core.sharing import share_token
    from selector.domain import Answers

    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse is missing: run `make lighthouse`")
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    failed = []
    try:
        call_command("load_content", force=True, verbosity=0)
        app_port, redis_port = free_ports(2)
        env = {**_env(app_port, redis_port), "WEB_CONCURRENCY": "2",
               "SECURE_SSL_REDIRECT": "0", "SITE_URL": f"http://127.0.0.1:{app_port}"}
        with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
            redis = Redis(redis_port)
            stack.callback(redis.stop)
            subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                           cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "selector.settings"},
                           check=True)
            site = _serve(stack, "selector.wsgi:application", app_port, env)
            with override_settings(SECRET_KEY=env["SECRET_KEY"]):  # the server's links
                token = share_token(Answers(gpus=64))
            for prefix in ("", "en/"):
                for page in ("", "wizard/scale/", f"wizard/r/{token}/", "faq/", "compare/"):
                    scores = audit(site + prefix + page, Path(tmp) / "report.json")
                    name = "/" + prefix + ("wizard/r/…/" if token in page else page)
                    print(f"{name:<22} " + "  ".join(f"{k} {v}" for k, v in scores.items()),
                          flush=True)
                    failed += [f"{name} {k} {scores[k]} < {v}" for k, v in BUDGET.items()
                               if scores[k] < v]
    finally:
        teardown_databases(old, verbosity=0)
    for line in failed:
        print("under budget:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
