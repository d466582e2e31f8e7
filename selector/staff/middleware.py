"""Lifetime of a staff session, enforced on every request of a logged-in user.

Only staff log in (visitors have no accounts), so every authenticated request is a staff
request: the workspace (/staff/, its report downloads included), the admin (/admin/),
and the public pages a salesperson may open in the same browser. A session ends when it
has been idle for STAFF_IDLE_TIMEOUT seconds, is older than STAFF_SESSION_MAX_AGE since
the log-in, or should have passed the second log-in step (selector.staff.mfa) and has not.
The request then goes on as anonymous; on a staff-scoped path it is sent to the log-in
page with a message saying why.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.utils.translation import gettext_lazy as _lazy

from selector.staff import mfa
from selector.staff.access import login_redirect

LAST_SEEN_KEY = "staff_last_seen"
LOGIN_AT_KEY = "staff_login_at"
# Write the timestamp at most this often, so most requests don't rewrite the session.
TOUCH_EVERY = 30
# Paths (after the optional language prefix) that only staff use.
STAFF_PREFIXES = ("staff/", "admin/")


def start(request) -> None:
    """A fresh staff session (called at log-in): its clocks, and a cookie and database row
    that expire with the absolute lifetime (so `manage.py purge` removes the row)."""
    now = int(time.time())
    request.session[LOGIN_AT_KEY] = now
    request.session[LAST_SEEN_KEY] = now
    request.session.set_expiry(settings.STAFF_SESSION_MAX_AGE)


def expired(request) -> str | None:
    """"idle", "lifetime" or None; records the activity of a live session."""
    session, now = request.session, int(time.time())
    login_at, last = session.get(LOGIN_AT_KEY), session.get(LAST_SEEN_KEY)
    if not isinstance(login_at, int):  # logged in before these clocks existed
        start(request)
        return None
    if now - login_at > settings.STAFF_SESSION_MAX_AGE:
        return "lifetime"
    if isinstance(last, int) and now - last > settings.STAFF_IDLE_TIMEOUT:
        return "idle"
    if not isinstance(last, int) or now - last >= TOUCH_EVERY:
        session[LAST_SEEN_KEY] = now
    return None


def _unprefixed(path: str) -> str:
    """The path without its leading slash and language prefix ("/en/staff/" -> "staff/")."""
    head, _sep, rest = path.lstrip("/").partition("/")
    if head in {code for code, _name in settings.LANGUAGES}:
        return rest
    return path.lstrip("/")


def is_staff_path(path: str) -> bool:
    return _unprefixed(path).startswith(STAFF_PREFIXES)


def is_login_path(path: str) -> bool:
    return _unprefixed(path) in {"staff/login/", "admin/login/"}


def unverified(request) -> bool:
    """A session that should have passed the second log-in step and has not (started
    before the user enrolled or before STAFF_MFA_REQUIRED was turned on, or by other means
    than the log-in page). django-otp's OTPMiddleware runs first."""
    user = request.user
    if user.is_verified():
        return False
    if settings.STAFF_MFA_REQUIRED:
        return True
    if request.session.get(mfa.CHECKED_KEY):
        return False
    if mfa.required(user):
        return True
    request.session[mfa.CHECKED_KEY] = True  # asked once per session
    return False


MESSAGES = {
    "idle": _lazy("Your session ended after a period of inactivity. Please log in again."),
    "lifetime": _lazy("Your session reached its maximum length. Please log in again."),
    "mfa": _lazy("Your account uses two-factor log-in. Please log in again."),
}


class StaffSessionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Without a session cookie nobody is logged in: the session is not read, so a
        # visitor's public page varies on no cookie (selector.content.httpcache).
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            why = expired(request) or ("mfa" if unverified(request) else None)
            if why:
                logout(request)
                if is_staff_path(request.path_info) and not is_login_path(request.path_info):
                    messages.info(request, MESSAGES[why])
                    return login_redirect(request)
        return self.get_response(request)
