"""Test settings: the production settings module with the environment a test run needs.
Only environment defaults are set here, so tests exercise the real settings code."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-used-anywhere-else-0123456789")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("STATIC_PLAIN", "1")
# Production requires SITE_URL; tests of request-following links override it with "".
os.environ.setdefault("SITE_URL", "http://testserver")
os.environ.setdefault("REPORT_PRERENDER", "0")  # tests/reports turn it on where needed
# The shared cache of production without REDIS_URL: the database cache, in the test
# database. Each test's cache writes roll back with its transaction (flushed after
# transactional tests), so tests never see each other's counters and no test needs to clear
# the cache, and parallel runs by several engineers cannot collide in one Redis.
os.environ["REDIS_URL"] = ""
# Two-factor log-in is required in production; the suite logs in with passwords and
# force_login, and tests/staff/test_mfa.py turns the requirement on where it is the subject.
os.environ.setdefault("STAFF_MFA_REQUIRED", "0")
# The customer report e-mail renders a PDF: on only in the tests about it.
os.environ.setdefault("REPORT_EMAIL_ENABLED", "0")
# The public API's rate limit (120 a minute per address in production) would refuse the
# suite's many requests from one test client; tests/api/test_rate_limit.py turns it on.
os.environ.setdefault("API_RATE_LIMIT", "0")
# The demo data (devtools.demo, `manage.py seed_demo`) for the tests and the bench.
os.environ.setdefault("DEVTOOLS", "1")

from selector.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
