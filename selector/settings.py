"""The one settings module. Everything that differs between machines is read from
environment variables through the typed helpers in ``selector.env``; see README.md
("Configuration") for the list.
"""

import hashlib
from pathlib import Path
from typing import Any, Literal

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from selector.env import env_bool, env_int, env_list, env_str, parse_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # DEBUG only (never reached in production, see above).
    SECRET_KEY = "django-insecure-development-only-key-never-used-in-production"  # noqa: S105

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Public base URL used in canonical links, JSON-LD, sitemaps, e-mails and the PDF.
# Required in production. In DEBUG it may stay unset: absolute URLs then follow the host
# and port the request came to (selector.core.siteurl), so `PORT=9000 make run` works.
SITE_URL = (env_str("SITE_URL", "") or "").rstrip("/")
if not SITE_URL and not DEBUG:
    raise ImproperlyConfigured(
        "SITE_URL must be set when DEBUG is off (e.g. https://selector.example.com)")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    # PostgreSQL index expressions with operator classes (OpClass in Lead.Meta.indexes:
    # trigram and prefix indexes). Harmless on SQLite.
    "django.contrib.postgres",
    "django_htmx",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "django_tasks_db",
    "selector.core",
    "selector.content",
    "selector.planner",
    "selector.documents",
    "selector.api",
    "selector.public",
    "selector.wizard",
    "selector.leads",
    "selector.staff",
    "selector.quotes",
]
# Development tools (devtools/: the demo data and `manage.py seed_demo`, the demo account of
# `make run`), outside the package production runs; on by default only with DEBUG.
if env_bool("DEVTOOLS", DEBUG):
    INSTALLED_APPS.append("devtools")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "selector.core.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, pre-compressed
    # HTML and JSON gzipped (with Django's BREACH mitigation, see the class); below
    # WhiteNoise, whose static responses never reach it.
    "selector.core.middleware.CompressionMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "selector.core.attribution.VisitAttributionMiddleware",
    "selector.core.middleware.LocaleMiddleware",
    "selector.core.siteurl.SiteUrlMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "selector.staff.middleware.StaffSessionMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "selector.public.errors.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "selector.urls"
WSGI_APPLICATION = "selector.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "selector.content.context_processors.site",
            ],
        },
    },
]

# Database: SQLite file by default (git-ignored), PostgreSQL when DATABASE_URL says so.
DATABASE_URL = env_str("DATABASE_URL") or "sqlite:///db.sqlite3"
_db = parse_database_url(DATABASE_URL, base_dir=BASE_DIR)
if _db["ENGINE"] == "django.db.backends.postgresql":
    # psycopg 3 connection pool managed by Django (Django 5.1+); CONN_MAX_AGE must stay 0.
    if env_bool("DB_POOL", True):
        _db["OPTIONS"]["pool"] = {
            "min_size": env_int("DB_POOL_MIN", 1, minimum=0),
            "max_size": env_int("DB_POOL_MAX", 10, minimum=1),
            "timeout": env_int("DB_POOL_TIMEOUT", 10, minimum=1),
        }
    _db["OPTIONS"].setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5, minimum=1))
    _db["CONN_HEALTH_CHECKS"] = True
_db["TEST"] = {"NAME": env_str("TEST_DATABASE_NAME")} if env_str("TEST_DATABASE_NAME") else {}
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Covering columns (Index.include) are a PostgreSQL optimisation of selector.leads' indexes;
# SQLite (development) builds the same indexes without them, which is all it needs.
# SILENCED_SYSTEM_CHECKS (comma-separated ids) adds to it: only for a loopback stand-in of
# production (the load and scale tests) that no customer uses, never for a deployment.
SILENCED_SYSTEM_CHECKS = ["models.W040", *env_list("SILENCED_SYSTEM_CHECKS", [])]

# Cache (rate limits, login throttle, pre-rendered PDFs, dashboard): shared by every process.
# Redis when REDIS_URL is set; otherwise, in production, the database cache (table
# selector_cache, created by a migration); local memory only with DEBUG on (one runserver
# process). With DEBUG off a process-local cache refuses to start (selector.core.apps).
REDIS_URL = env_str("REDIS_URL")
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    # Redis down is a cache miss, not an error (selector.core.cache.ResilientRedisCache);
    # the timeouts (seconds) keep a Redis that hangs from holding requests (redis-py's
    # connection options, which Django's Redis backend passes on).
    _redis_timeout = env_int("REDIS_TIMEOUT", 2, minimum=1)
    CACHES = {"default": {"BACKEND": "selector.core.cache.ResilientRedisCache",
                          "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": _redis_timeout,
                                      "socket_timeout": _redis_timeout}}}
elif DEBUG:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    # Django's default of 300 entries would cull live rate-limit counters and PDFs.
    CACHES = {"default": {"BACKEND": "selector.core.cache.DatabaseCache",
                          "LOCATION": "selector_cache",
                          "OPTIONS": {"MAX_ENTRIES": 50_000, "CULL_FREQUENCY": 10}}}
# Every key carries the deployment, so two deployments sharing one Redis (production and
# staging, two customers' sites) never read each other's rate limits, figures or PDFs.
# Default: a digest of the database the deployment uses (same database, same data, same keys).
CACHE_KEY_PREFIX = env_str("CACHE_KEY_PREFIX") or hashlib.blake2b(
    f"{_db.get('HOST', '')}:{_db.get('PORT', '')}/{_db.get('NAME', '')}".encode(),
    digest_size=6).hexdigest()
for _cache in CACHES.values():
    _cache["KEY_PREFIX"] = CACHE_KEY_PREFIX

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalisation: Simplified Chinese first, English second, everywhere.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "selector" / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE: Literal["Lax"] = "Lax"  # typed as set_cookie() takes it

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or env_bool("STATIC_PLAIN", False)
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
WHITENOISE_USE_FINDERS = DEBUG

# Security. Production defaults; DEBUG relaxes only what a laptop cannot do (HTTPS).
# No page has an inline script (every script is a file of ours; JSON-LD is a data block,
# never executed), so script-src needs no per-response nonce: a page's bytes and headers
# are the same for every visitor, which is what lets it be cached (selector.content.httpcache).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Browser features no page of the site uses, refused for the page and every frame
# (selector.core.middleware.PermissionsPolicyMiddleware); feature -> allowed origins.
PERMISSIONS_POLICY: dict[str, list[str]] = {feature: [] for feature in (
    "accelerometer", "autoplay", "browsing-topics", "camera", "display-capture",
    "geolocation", "gyroscope", "hid", "magnetometer", "microphone", "midi", "payment",
    "publickey-credentials-get", "screen-wake-lock", "serial", "usb", "xr-spatial-tracking",
)}
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
# Preload-ready by default in production (the site is HTTPS-only on its whole domain);
# set SECURE_HSTS_PRELOAD=0 if a subdomain must still serve plain HTTP.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Reverse proxies whose X-Forwarded-For we believe (exact IPs); empty means use REMOTE_ADDR.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])

SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 60 * 60 * 24 * 30, minimum=60)

# Outgoing mail (Django 6.1 MAILERS). The environment variables keep their familiar names;
# EMAIL_BACKEND also takes the short names file / console / smtp / locmem. With
# EMAIL_BACKEND=file (development, tests) every message is written to a file in
# EMAIL_FILE_PATH (default: mail/ in the project, git-ignored) instead of being sent.
_mail_backend = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
_mail_backend = {
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
}.get(_mail_backend, _mail_backend)
_mail_options = {}
if _mail_backend.endswith("smtp.EmailBackend"):
    _mail_options = {
        "host": env_str("EMAIL_HOST", "localhost"),
        "port": env_int("EMAIL_PORT", 25, minimum=1, maximum=65535),
        "username": env_str("EMAIL_HOST_USER", ""),
        "password": env_str("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", False),
        "timeout": env_int("EMAIL_TIMEOUT", 10, minimum=1),
    }
elif _mail_backend.endswith("filebased.EmailBackend"):
    _mail_options = {"file_path": env_str("EMAIL_FILE_PATH", "") or str(BASE_DIR / "mail")}
MAILERS = {"default": {"BACKEND": _mail_backend, "OPTIONS": _mail_options}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "selector@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LOGIN_URL = "/staff/login/"
# Where a log-in without a usable "next" lands (the staff login view picks the admin index
# instead for admin editors without a sales role); never Django's /accounts/profile/.
LOGIN_REDIRECT_URL = "staff:my_day"
# One backend: a failed log-in checks the password once (the throttle lives in the login
# form, selector.staff.lockout, not in a second backend).
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
# Staff log-in throttle (selector.staff.lockout): free failures per (username, address), per
# address and per account (all addresses; browsers known for the user are throttled only by
# their own failures), then a wait that starts at the delay and doubles up to the maximum;
# failures are forgotten after the window without one.
STAFF_LOGIN_USER_IP_FAILURES = env_int("STAFF_LOGIN_USER_IP_FAILURES", 5, minimum=1)
STAFF_LOGIN_IP_FAILURES = env_int("STAFF_LOGIN_IP_FAILURES", 30, minimum=1)
STAFF_LOGIN_USER_FAILURES = env_int("STAFF_LOGIN_USER_FAILURES", 10, minimum=1)
STAFF_LOGIN_DELAY_SECONDS = env_int("STAFF_LOGIN_DELAY_SECONDS", 30, minimum=1)
STAFF_LOGIN_MAX_DELAY_SECONDS = env_int("STAFF_LOGIN_MAX_DELAY_SECONDS", 15 * 60, minimum=1)
STAFF_LOGIN_WINDOW_SECONDS = env_int("STAFF_LOGIN_WINDOW_SECONDS", 24 * 3600, minimum=60)
# Every request of a logged-in (staff) user: idle timeout and absolute session lifetime
# (selector.staff.middleware).
# Two-factor log-in (selector.staff.mfa, django-otp TOTP + recovery codes): required for
# every account in production; in DEBUG (make run's demo account) each user may turn it on.
STAFF_MFA_REQUIRED = env_bool("STAFF_MFA_REQUIRED", not DEBUG)
OTP_TOTP_ISSUER = "Shenhua Tiancheng"  # the name authenticator apps show (ASCII: any app)
OTP_TOTP_THROTTLE_FACTOR = 1  # django-otp: 1, 2, 4, ... s after each wrong code
STAFF_IDLE_TIMEOUT = env_int("STAFF_IDLE_TIMEOUT", 30 * 60, minimum=60)
STAFF_SESSION_MAX_AGE = env_int("STAFF_SESSION_MAX_AGE", 12 * 3600, minimum=300)
CSRF_FAILURE_VIEW = "selector.public.errors.csrf_failure"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    # Secrets in URLs (report, share, hand-off and password-reset links) never reach the
    # logs (selector.core.logredact): the filter is on the handler, so it sees the records
    # of every logger; gunicorn's access log uses the same rule (deploy/gunicorn.conf.py).
    "filters": {"url_secrets": {"()": "selector.core.logredact.RedactTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain",
                             "filters": ["url_secrets"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own handlers for these (DEFAULT_LOGGING: an unfiltered console, mail to
        # ADMINS) go; their records reach the console above, through the filter.
        "django": {"handlers": [], "propagate": True},
        "django.server": {"handlers": [], "propagate": True},
        "django.db.backends": {"level": "WARNING"},
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

# PDF reports (selector.leads.report): customer link lifetime, render time bound, PDF cache.
REPORT_LINK_MAX_AGE = env_int("REPORT_LINK_MAX_AGE", 30 * 24 * 3600, minimum=60)
REPORT_RENDER_TIMEOUT = env_int("REPORT_RENDER_TIMEOUT", 20, minimum=1)
REPORT_CACHE_SECONDS = env_int("REPORT_CACHE_SECONDS", 30 * 24 * 3600, minimum=60)
# A download that finds its PDF being rendered (by the pre-render or another request)
# waits this long for it, then answers a "preparing your report" page that refreshes.
REPORT_WAIT_SECONDS = env_int("REPORT_WAIT_SECONDS", 5, minimum=0)
REPORT_PRERENDER = env_bool("REPORT_PRERENDER", True)  # render the PDF when a lead is created
# The customer's report e-mail (selector.leads.report.delivery): sent when they give an address,
# with the PDF attached up to this size (a download link instead above it).
REPORT_EMAIL_ENABLED = env_bool("REPORT_EMAIL_ENABLED", True)
REPORT_EMAIL_ATTACH_MAX_BYTES = env_int("REPORT_EMAIL_ATTACH_MAX_BYTES", 5_000_000, minimum=0)

# Background tasks (Django 6 django.tasks). "immediate" runs a task inside the request
# (development, tests); "database" stores it for the workers of `manage.py task_supervisor`
# (production; selector.core.worker, docs/background-work.md).
TASKS_BACKEND = env_str("TASKS_BACKEND", "immediate")
if TASKS_BACKEND not in {"immediate", "database"}:
    raise ImproperlyConfigured("TASKS_BACKEND must be 'immediate' or 'database'")
TASKS = {"default": {"BACKEND": {
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
    "database": "django_tasks_db.DatabaseBackend",
}[TASKS_BACKEND]}}
# How many `manage.py task_worker` processes `manage.py task_supervisor` keeps running.
TASK_WORKERS = env_int("TASK_WORKERS", 2, minimum=1)
# A task "running" for longer than this is taken to have lost its worker and is run again
# (30 x the longest task: a report e-mail, at most a 20 s render plus an SMTP exchange).
TASK_STUCK_SECONDS = env_int("TASK_STUCK_SECONDS", 600, minimum=1)
# Claims of one task (first run included) before a task that never finishes is failed.
TASK_MAX_ATTEMPTS = env_int("TASK_MAX_ATTEMPTS", 3, minimum=1)

# Leads (selector.leads): who is told about a new lead, how long it is kept, abuse limits.
SALES_NOTIFY_EMAILS = env_list("SALES_NOTIFY_EMAILS", [])
LEAD_WEBHOOK_URL = env_str("LEAD_WEBHOOK_URL", "")
LEAD_WEBHOOK_KIND = env_str("LEAD_WEBHOOK_KIND", "")  # wecom|dingtalk|feishu; "" = by host
LEAD_WEBHOOK_TIMEOUT = env_int("LEAD_WEBHOOK_TIMEOUT", 5, minimum=1)
# The robot's signing secret (DingTalk 加签 "SEC…", Feishu 签名校验); "" = not signed.
LEAD_WEBHOOK_SECRET = env_str("LEAD_WEBHOOK_SECRET", "")
# The group robot's language, whatever the lead's: a robot with a keyword (DingTalk, Feishu
# 自定义关键词) refuses a message without it, so every message carries the same words.
LEAD_WEBHOOK_LANGUAGE = env_str("LEAD_WEBHOOK_LANGUAGE", LANGUAGE_CODE)
if LEAD_WEBHOOK_LANGUAGE not in dict(LANGUAGES):
    raise ImproperlyConfigured("LEAD_WEBHOOK_LANGUAGE must be one of "
                               + ", ".join(code for code, _name in LANGUAGES))
LEAD_NOTIFY_MAX_ATTEMPTS = env_int("LEAD_NOTIFY_MAX_ATTEMPTS", 5, minimum=1)
LEAD_NOTIFY_BACKOFF_SECONDS = env_int("LEAD_NOTIFY_BACKOFF_SECONDS", 30, minimum=0)
LEAD_RETENTION_DAYS = env_int("LEAD_RETENTION_DAYS", 730, minimum=1)
# `manage.py purge`: wizard sessions that never became a lead (kept past the dashboard's
# longest period, 365 days, so its funnel stays whole) and finished task results.
WIZARD_SESSION_RETENTION_DAYS = env_int("WIZARD_SESSION_RETENTION_DAYS", 400, minimum=1)
TASK_RESULT_RETENTION_DAYS = env_int("TASK_RESULT_RETENTION_DAYS", 30, minimum=1)
LEAD_MIN_FILL_SECONDS = env_int("LEAD_MIN_FILL_SECONDS", 3, minimum=0)
# The public API (selector.api.throttle): requests per window per client address; 0 = off.
API_RATE_LIMIT = env_int("API_RATE_LIMIT", 120, minimum=0)
API_RATE_WINDOW_SECONDS = env_int("API_RATE_WINDOW_SECONDS", 60, minimum=1)
LEAD_RATE_LIMIT = env_int("LEAD_RATE_LIMIT", 10, minimum=0)  # submissions per window; 0 = off
LEAD_RATE_WINDOW_SECONDS = env_int("LEAD_RATE_WINDOW_SECONDS", 3600, minimum=1)

# Sales workspace (selector.staff): the working calendar of the first-contact SLA
# (selector.leads.worktime), reminders and digests.
WORK_HOURS = env_str("WORK_HOURS", "09:00-12:00,13:30-18:00")
WORK_DAYS = [int(d) if d.isdigit() else 0 for d in env_list("WORK_DAYS", ["1", "2", "3", "4", "5"])]
if not WORK_DAYS or any(d not in range(1, 8) for d in WORK_DAYS):
    raise ImproperlyConfigured("WORK_DAYS must list ISO weekdays 1 (Monday) to 7")
WORK_HOLIDAYS = env_list("WORK_HOLIDAYS", [])  # 2026-10-01..2026-10-08,2027-01-01
WORK_EXTRA_DAYS = env_list("WORK_EXTRA_DAYS", [])  # weekend days worked (调休)
LEAD_SLA = env_str("LEAD_SLA", "hot=1h,warm=1d,cold=3d")
# Daily digest (local time) for each rep (due and overdue follow-ups) and the managers.
STAFF_DIGEST_TIME = env_str("STAFF_DIGEST_TIME", "08:30")
# Open leads with no activity for this many days are "stale" in the manager's view.
STAFF_STALE_DAYS = env_int("STAFF_STALE_DAYS", 14, minimum=1)
