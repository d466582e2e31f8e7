"""Login throttling that slows an attacker down without locking the owner out.

After OWASP's "Slow Down Online Guessing Attacks with Device Cookies" (owasp.org/
www-community, read 2026-12-02): known browsers are throttled one by one, all other
browsers share the brakes, and nothing is a hard lock. Counts live in the database every
app server shares (``LoginThrottle``, one row per username, address and device); a count is
forgotten once no failure has come for STAFF_LOGIN_WINDOW_SECONDS.

* **A known browser** (it has logged in as that user before: the signed "known device"
  cookie, with a random id per browser) is held back only by its own failures for that
  user: STAFF_LOGIN_USER_IP_FAILURES free, then a wait. Failures from any other browser,
  from the same office address or anywhere else, never hold it back (issue 21, M1).
* **Every other browser** waits when any of these is over its allowance, counting only
  failures of browsers not known for that user:
  - that username from that address: STAFF_LOGIN_USER_IP_FAILURES;
  - any usernames from that address: STAFF_LOGIN_IP_FAILURES;
  - that username from all addresses, the per-account brake: STAFF_LOGIN_USER_FAILURES
    (issue 21, M2: ten addresses no longer get five guesses each).
* A wait is STAFF_LOGIN_DELAY_SECONDS, doubling with each further failure, at most
  STAFF_LOGIN_MAX_DELAY_SECONDS: a brake, never a lock (with the defaults about 100
  guesses a day per account, from any number of addresses; a right one still meets the
  second step, selector.staff.mfa). A refused attempt is not counted, so waiting never
  grows while an attacker keeps knocking.
* **The check is atomic** (``attempt``): under a PostgreSQL transaction-level advisory lock
  on the account and one on the address (taken in that order, so two checks cannot
  deadlock), the waits are computed and, when there is none, the attempt is counted as a
  failure before the password is checked; the right password takes it back (``forgive``).
  A burst of simultaneous wrong passwords therefore gets exactly the allowance. (SQLite,
  `make run` only, serialises writes by itself but not this check.)
* One failed attempt checks the password once (one authentication backend).

The staff log-in form and the admin log-in (the same view), and the forms that change a
second factor (selector.staff.forms.ReauthForm), call ``attempt`` before the password is
checked and ``forgive`` / ``record_success`` after a right one. Managers lift a throttle in
the workspace (/staff/security/), admins in the admin.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import secrets

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, connection, transaction
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


def _left(rows, free: int, now: dt.datetime) -> float:
    """Seconds still to wait for the failures in ``rows`` (0 when none or within ``free``)."""
    total = rows.aggregate(n=Sum("failures"), last=Max("last_failed_at"))
    if not total["n"]:
        return 0.0
    return _delay(total["n"], free) - (now - total["last"]).total_seconds()


def _wait(name: str, ip: str, device: str, now: dt.datetime) -> int:
    recent = LoginThrottle.objects.filter(last_failed_at__gte=_cutoff(now))
    if device:
        waits = [_left(recent.filter(username=name, device=device),
                       settings.STAFF_LOGIN_USER_IP_FAILURES, now)]
    else:
        unknown = recent.filter(device="")
        waits = [_left(unknown.filter(username=name, ip=ip),
                       settings.STAFF_LOGIN_USER_IP_FAILURES, now),
                 _left(unknown.filter(ip=ip), settings.STAFF_LOGIN_IP_FAILURES, now),
                 _left(unknown.filter(username=name), settings.STAFF_LOGIN_USER_FAILURES, now)]
    return max(0, int(max(waits) + 0.999))


def wait_seconds(request: HttpRequest, username: str | None) -> int:
    """How long this client must wait before it may try ``username`` (0: go ahead).
    Only a look: ``attempt`` is the check that counts."""
    name = normalise(username)
    return _wait(name, client_ip(request), device_id(request, name), timezone.now())


def _lock(*keys: str) -> None:
    """Transaction-level advisory locks on ``keys``, in the order given (PostgreSQL:
    released at the end of the transaction; "Advisory Lock Functions", postgresql.org/docs/
    current/functions-admin.html, read 2026-12-02)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for key in keys:
            number = int.from_bytes(hashlib.blake2b(
                f"selector.staff.lockout:{key}".encode(), digest_size=8).digest(), "big",
                signed=True)
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])


def attempt(request: HttpRequest, username: str | None) -> int:
    """The one atomic check before a password is checked: the seconds this client must
    still wait (nothing is counted then), or 0 with this attempt counted as a failure in
    advance (``forgive`` takes it back when the password is right)."""
    name, ip, now = normalise(username), client_ip(request), timezone.now()
    device = device_id(request, name)
    with transaction.atomic():
        _lock(f"user:{name}", f"ip:{ip}")
        wait = _wait(name, ip, device, now)
        if not wait:
            _count(name, ip, device, now)
    return wait


def failed(request: HttpRequest) -> None:
    """Log a wrong password (already counted by ``attempt``). The address is logged (the
    attacker's), never the username (a typo may be a password)."""
    logger.info("staff login failed (ip %s)", client_ip(request))


def _count(name: str, ip: str, device: str, now: dt.datetime) -> None:
    rows = LoginThrottle.objects.filter(username=name, ip=ip, device=device)
    rows.filter(last_failed_at__lt=_cutoff(now)).update(failures=0, first_failed_at=now)
    if rows.update(failures=F("failures") + 1, last_failed_at=now):
        return
    try:
        with transaction.atomic():
            LoginThrottle.objects.create(username=name, ip=ip, device=device, failures=1,
                                         first_failed_at=now, last_failed_at=now)
    except IntegrityError:  # a concurrent check of another account from this address
        rows.update(failures=F("failures") + 1, last_failed_at=now)


def forgive(request: HttpRequest, username: str) -> None:
    """The right password from this browser: its failures for the user are forgiven (those
    of this address when it is not a known browser, its own when it is), the attempt
    counted in advance by ``attempt`` included."""
    name = normalise(username)
    device = device_id(request, name)
    rows = LoginThrottle.objects.filter(username=name)
    if device:
        rows.filter(device=device).delete()
    else:
        rows.filter(ip=client_ip(request), device="").delete()


def record_success(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Forgive this browser's failures for the user and remember the browser: the cookie
    keeps the browser's random id and the users it has logged in as (the last five)."""
    name = normalise(username)
    forgive(request, name)
    device, known = _device(request)
    known = [n for n in known if n != name][-(DEVICE_USERS_MAX - 1):]
    response.set_cookie(
        DEVICE_COOKIE, signing.dumps({"id": device or secrets.token_urlsafe(12),
                                      "users": [*known, name]},
                                     salt=DEVICE_SALT, compress=True),
        max_age=DEVICE_MAX_AGE, secure=settings.SESSION_COOKIE_SECURE, httponly=True,
        samesite="Lax")


def _device(request: HttpRequest) -> tuple[str, list[str]]:
    """The browser's id and the users it has logged in as, from the signed cookie ("" and
    [] without a valid one). A cookie from before the ids (a plain list of users) gets an id
    derived from its own value, until the next log-in replaces it."""
    raw = request.COOKIES.get(DEVICE_COOKIE, "")
    if not raw or len(raw) > 2000:
        return "", []
    try:
        value = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return "", []
    if isinstance(value, list):
        value = {"id": "v1-" + hashlib.sha256(raw.encode()).hexdigest()[:16], "users": value}
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        return "", []
    users = value.get("users")
    return value["id"][:32], [n for n in users if isinstance(n, str)] if isinstance(
        users, list) else []


def device_id(request: HttpRequest, name: str) -> str:
    """This browser's id when it is known for the user ``name`` (it has logged in as them),
    else ""."""
    device, known = _device(request)
    return device if name and name in known else ""


def is_known_device(request: HttpRequest, name: str) -> bool:
    return bool(device_id(request, name))


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
    how long an unknown browser still waits for it (the worst of its address counts and the
    per-account brake; ``_wait`` for one address)."""
    now = now or timezone.now()
    rows: dict[str, dict] = {}
    unknown: dict[str, list] = {}
    for throttle in active(now).order_by("username", "-last_failed_at")[:500]:
        row = rows.setdefault(throttle.username, {
            "username": throttle.username, "addresses": [], "failures": 0,
            "last_failed_at": throttle.last_failed_at, "wait": 0})
        if throttle.ip not in row["addresses"]:
            row["addresses"].append(throttle.ip)
        row["failures"] += throttle.failures
        delay = _delay(throttle.failures, settings.STAFF_LOGIN_USER_IP_FAILURES)
        left = int(delay - (now - throttle.last_failed_at).total_seconds())
        row["wait"] = max(row["wait"], left, 0)
        if not throttle.device:
            unknown.setdefault(throttle.username, []).append(throttle)
    for name, throttles in unknown.items():
        delay = _delay(sum(t.failures for t in throttles), settings.STAFF_LOGIN_USER_FAILURES)
        last = max(t.last_failed_at for t in throttles)
        rows[name]["wait"] = max(rows[name]["wait"],
                                 int(delay - (now - last).total_seconds()), 0)
    return sorted(rows.values(), key=lambda r: r["last_failed_at"], reverse=True)


def purge(*, dry_run: bool = False, now: dt.datetime | None = None) -> int:
    """Throttle rows past the window (they count for nothing any more)."""
    stale = LoginThrottle.objects.filter(last_failed_at__lt=_cutoff(now or timezone.now()))
    return stale.count() if dry_run else stale.delete()[0]
