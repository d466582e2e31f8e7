"""Production settings (from the environment) plus one hello-world view, for
bench/bench_http.py: the baseline page goes through the same gunicorn worker, settings
and middleware as the landing page, so their ratio is what the landing page costs above
Django itself."""

from selector.settings import *  # noqa: F403

ROOT_URLCONF = "bench.http_urls"
