"""gunicorn settings for production (`make serve-prod` uses them too).

Workers: (2 x CPUs) + 1 sync workers by default — the classic gunicorn starting point for a
request/response app that waits on PostgreSQL; override with WEB_CONCURRENCY."""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then so a slow leak (e.g. in a native PDF library) stays bounded.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = 200
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None  # "" turns it off
# No query strings in the access log: they can carry answers or UTM tags, never PII, but
# keep the log lean and predictable.
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(B)s %(M)sms'
# Report, share, hand-off and password-reset links carry secrets: the logger writes them
# as /report/[redacted]/ (selector.core.logredact.SECRET_PATHS).
logger_class = "selector.core.logredact.GunicornLogger"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn >= 25.1 opens a control socket for `gunicornc` by default, one path per user
# ($XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl: gunicorn/config.py,
# ControlSocket), so two gunicorns of one user (a test next to serve-prod, two app
# servers) fight over it. We do not use gunicornc: none, unless GUNICORN_CONTROL_SOCKET
# names a path of this server's own.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True
