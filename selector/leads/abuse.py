"""Spam protection without a third-party CAPTCHA: the client IP (proxy-aware), a per-IP
rate limit on the cache, and the signed form-start timestamp for the minimum fill time."""

import ipaddress
import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest

_STARTED_SALT = "selector.leads.contact.started"
# A contact form older than this is refused as stale (a fresh one is issued).
FORM_MAX_AGE_SECONDS = 24 * 60 * 60


def _ip(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The visitor's IP. X-Forwarded-For is believed only when the direct peer
    (REMOTE_ADDR) is one of settings.TRUSTED_PROXIES; then the right-most address that is
    not itself a trusted proxy is the client (anything left of it could be forged)."""
    remote = _ip(request.META.get("REMOTE_ADDR", "")) or "0.0.0.0"  # noqa: S104
    trusted = {_ip(p) for p in settings.TRUSTED_PROXIES} - {None}
    if remote not in trusted:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    client = remote
    for part in reversed(forwarded.split(",")):
        address = _ip(part)
        if address is None:
            break  # garbage in the chain: stop at the last hop we could trust
        client = address
        if address not in trusted:
            break
    return client


def rate_limited(request: HttpRequest, scope: str = "lead-submit") -> bool:
    """Count one hit for this client IP; True when it exceeds settings.LEAD_RATE_LIMIT in the
    current fixed window of LEAD_RATE_WINDOW_SECONDS. Works on Redis (shared) and locmem."""
    limit = settings.LEAD_RATE_LIMIT
    if limit <= 0:
        return False
    window = settings.LEAD_RATE_WINDOW_SECONDS
    bucket = int(time.time() // window)
    key = f"ratelimit:{scope}:{client_ip(request)}:{bucket}"
    cache.add(key, 0, timeout=window + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window + 5)
        count = 1
    return count > limit


def retry_after_seconds() -> int:
    window = settings.LEAD_RATE_WINDOW_SECONDS
    return max(1, int(window - time.time() % window))


def form_started_token() -> str:
    return signing.dumps(time.time(), salt=_STARTED_SALT)


def form_fill_seconds(token: str) -> float | None:
    """Seconds since the form carrying ``token`` was rendered; None if forged or stale."""
    if not token or len(token) > 200:
        return None
    try:
        started = signing.loads(token, salt=_STARTED_SALT, max_age=FORM_MAX_AGE_SECONDS)
    except signing.BadSignature:
        return None
    if not isinstance(started, int | float):
        return None
    elapsed = time.time() - started
    return elapsed if elapsed <= FORM_MAX_AGE_SECONDS else None
