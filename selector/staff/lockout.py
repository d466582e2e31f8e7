"""Login brute-force protection, on the cache (Redis in production, so every app server
sees the same counters).

Failures are counted per username and per client IP within a sliding window
(STAFF_LOCKOUT_WINDOW_SECONDS); past STAFF_LOCKOUT_USER_FAILURES for a username or
STAFF_LOCKOUT_IP_FAILURES for an IP, logins are refused until the window has passed since
the last failure. Hand-written rather than django-axes: the whole rule is these ~60 lines
on the cache we already run, with no extra tables, middleware or settings to keep in
sync. ``LockoutModelBackend`` (AUTHENTICATION_BACKENDS) applies the same lock to every
login form, the Django admin's included; the staff login form shows the clear message.
"""

from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver

from selector.leads.abuse import client_ip

logger = logging.getLogger(__name__)


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def window() -> int:
    return _setting("STAFF_LOCKOUT_WINDOW_SECONDS", 15 * 60)


def _keys(request, username: str | None) -> list[tuple[str, int]]:
    keys = []
    if username:
        digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
        keys.append((f"staff-lockout:user:{digest}", _setting("STAFF_LOCKOUT_USER_FAILURES", 5)))
    if request is not None:
        keys.append((f"staff-lockout:ip:{client_ip(request)}",
                     _setting("STAFF_LOCKOUT_IP_FAILURES", 20)))
    return keys


def is_locked(request, username: str | None) -> bool:
    return any((cache.get(key) or 0) >= limit for key, limit in _keys(request, username))


def record_failure(request, username: str | None) -> None:
    for key, _limit in _keys(request, username):
        cache.add(key, 0, window())
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, window())
        cache.touch(key, window())  # sliding: the lock lasts `window` after the last failure
    logger.info("staff login failed (ip %s)", client_ip(request) if request else "-")


def clear_user(username: str | None) -> None:
    """A successful login forgives the username's failures (not the IP's)."""
    for key, _limit in _keys(None, username):
        cache.delete(key)


class LockoutModelBackend(ModelBackend):
    """Django's ModelBackend that refuses (PermissionDenied) while the username or the IP
    is locked out, before the password is even checked."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if is_locked(request, username or kwargs.get("username")):
            raise PermissionDenied
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed)
def _on_login_failed(sender, credentials, request=None, **kwargs):
    if request is None:
        return
    username = credentials.get("username")
    if is_locked(request, username):
        return  # refused while locked: don't extend the lock with every retry
    record_failure(request, username)


@receiver(user_logged_in)
def _on_logged_in(sender, request, user, **kwargs):
    clear_user(user.get_username())
