"""Login throttling that slows an attacker down without locking the owner out.

Following OWASP's authentication guidance (throttle, don't lock accounts) and Django's own
advice (rate-limit per client, not per account):

* Failures are counted per (username, client address) and per client address, in the
  database every app server shares (``LoginThrottle``). A count is forgotten once no failure
  has come for STAFF_LOGIN_WINDOW_SECONDS.
* Past STAFF_LOGIN_USER_IP_FAILURES failures for one username from one address, or
  STAFF_LOGIN_IP_FAILURES for all usernames from one address, that address waits before
  its next attempt: STAFF_LOGIN_DELAY_SECONDS, doubling with each further failure, at most
  STAFF_LOGIN_MAX_DELAY_SECONDS. A refused attempt is not counted (waiting never grows
  while the attacker keeps knocking).
* There is no per-account lock: failures from other addresses never refuse a log-in, so
  nobody can keep the owner out from elsewhere. A browser that has logged in as the user
  before carries a signed "known device" cookie, and is not held back by the address-wide
  count (colleagues behind the same office NAT as a careless or hostile one).
* One failed attempt checks the password once (one authentication backend).

The staff login form and the admin login (the same view) call ``wait_seconds`` before the
password is checked and ``record_failure`` / ``record_success`` after. Managers lift a
throttle in the workspace (/staff/security/), admins in the admin.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Sum
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from selector.core.request import client_ip
from selector.staff.models import LoginThrottle

logger = logging.getLogger(__name__)

DEVICE_COOKIE = "staff_device"
DEVICE_SALT = "selector.staff.known-device"
DEVICE_MAX_AGE = 90 * 24 * 3600
DEVICE_USERS_MAX = 5


def normalise(username: str | None) -> str:
    return (username or "").strip().casefold()[:150]


def _delay(failures: int, free: int) -> int:
    """Seconds to wait after ``failures`` failures of which ``free`` cost nothing."""
    if failures < free:
        return 0
    doublings = min(failures - free, 16)
    return min(settings.STAFF_LOGIN_DELAY_SECONDS * 2 ** doublings,
               settings.STAFF_LOGIN_MAX_DELAY_SECONDS)


def _cutoff(now: dt.datetime) -> dt.datetime:
    return now - dt.timedelta(seconds=settings.STAFF_LOGIN_WINDOW_SECONDS)


def wait_seconds(request: HttpRequest, username: str | None) -> int:
    """How long this client must wait before it may try ``username`` (0: go ahead)."""
    name, ip, now = normalise(username), client_ip(request), timezone.now()
    recent = LoginThrottle.objects.filter(ip=ip, last_failed_at__gte=_cutoff(now))
    waits = [0.0]
    pair = recent.filter(username=name).values_list("failures", "last_failed_at").first()
    if pair:
        delay = _delay(pair[0], settings.STAFF_LOGIN_USER_IP_FAILURES)
        waits.append(delay - (now - pair[1]).total_seconds())
    if not is_known_device(request, name):
        total = recent.aggregate(n=Sum("failures"), last=Max("last_failed_at"))
        if total["n"]:
            delay = _delay(total["n"], settings.STAFF_LOGIN_IP_FAILURES)
            waits.append(delay - (now - total["last"]).total_seconds())
    return max(0, int(max(waits) + 0.999))


def record_failure(request: HttpRequest, username: str | None) -> None:
    name, ip, now = normalise(username), client_ip(request), timezone.now()
    with transaction.atomic():
        stale = LoginThrottle.objects.filter(username=name, ip=ip,
                                             last_failed_at__lt=_cutoff(now))
        stale.update(failures=0, first_failed_at=now)
        updated = LoginThrottle.objects.filter(username=name, ip=ip).update(
            failures=F("failures") + 1, last_failed_at=now)
        if not updated:
            try:
                with transaction.atomic():
                    LoginThrottle.objects.create(username=name, ip=ip, failures=1,
                                                 first_failed_at=now, last_failed_at=now)
            except IntegrityError:  # a concurrent failure created it first
                LoginThrottle.objects.filter(username=name, ip=ip).update(
                    failures=F("failures") + 1, last_failed_at=now)
    # The address is logged (the attacker's), never the username (a typo may be a password).
    logger.info("staff login failed (ip %s)", ip)


def forgive(request: HttpRequest, username: str) -> None:
    """The right password from this address: its failures for the user are forgiven."""
    LoginThrottle.objects.filter(username=normalise(username), ip=client_ip(request)).delete()


def record_success(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Forgive this address's failures for the user and remember the browser."""
    name = normalise(username)
    forgive(request, name)
    known = [n for n in _known_users(request) if n != name][-(DEVICE_USERS_MAX - 1):]
    response.set_cookie(
        DEVICE_COOKIE, signing.dumps([*known, name], salt=DEVICE_SALT, compress=True),
        max_age=DEVICE_MAX_AGE, secure=settings.SESSION_COOKIE_SECURE, httponly=True,
        samesite="Lax")


def _known_users(request: HttpRequest) -> list[str]:
    raw = request.COOKIES.get(DEVICE_COOKIE, "")
    if not raw or len(raw) > 2000:
        return []
    try:
        value = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return []
    return [n for n in value if isinstance(n, str)] if isinstance(value, list) else []


def is_known_device(request: HttpRequest, name: str) -> bool:
    return bool(name) and name in _known_users(request)


def unlock(username: str) -> int:
    """Lift every throttle on ``username`` and on the addresses it failed from; returns
    how many rows went."""
    name = normalise(username)
    ips = LoginThrottle.objects.filter(username=name).values("ip")
    deleted, _ = LoginThrottle.objects.filter(ip__in=ips).delete()
    return deleted


def active(now: dt.datetime | None = None):
    """Throttle rows still counting, newest first (the managers' security page)."""
    return LoginThrottle.objects.filter(last_failed_at__gte=_cutoff(now or timezone.now()))


def summary(now: dt.datetime | None = None) -> list[dict]:
    """One row per username with throttles in force: addresses, failures, last failure and
    how long its worst address still waits."""
    now = now or timezone.now()
    rows: dict[str, dict] = {}
    for throttle in active(now).order_by("username", "-last_failed_at")[:500]:
        row = rows.setdefault(throttle.username, {
            "username": throttle.username, "addresses": [], "failures": 0,
            "last_failed_at": throttle.last_failed_at, "wait": 0})
        row["addresses"].append(throttle.ip)
        row["failures"] += throttle.failures
        delay = _delay(throttle.failures, settings.STAFF_LOGIN_USER_IP_FAILURES)
        left = int(delay - (now - throttle.last_failed_at).total_seconds())
        row["wait"] = max(row["wait"], left, 0)
    return sorted(rows.values(), key=lambda r: r["last_failed_at"], reverse=True)


def purge(*, dry_run: bool = False, now: dt.datetime | None = None) -> int:
    """Throttle rows past the window (they count for nothing any more)."""
    stale = LoginThrottle.objects.filter(last_failed_at__lt=_cutoff(now or timezone.now()))
    return stale.count() if dry_run else stale.delete()[0]
