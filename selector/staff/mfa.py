"""Two-factor log-in for staff and admin users (TOTP with django-otp, recovery codes).

A log-in is two steps when the user has a confirmed authenticator, or when
STAFF_MFA_REQUIRED is on (then a user without one enrols before the session starts):

1. The password is right: ``begin`` keeps the user's id in the (not yet authenticated)
   session for PENDING_SECONDS, with where to go afterwards. Nothing is logged in.
2. A code from the authenticator app, or one of the ten single-use recovery codes,
   ``verify``-ies; or, when enrolling, the first code confirms the new authenticator.
   Enrolment half-way through a log-in is open only to a user with no confirmed device
   (``enrolled``); anyone else goes to the code page. Only then does
   ``selector.staff.views.auth`` log the user in, with the device recorded in the session
   (django-otp's ``is_verified``).

From a logged-in session, replacing the authenticator, new recovery codes and turning
two-factor log-in off need the password and a current code (or a recovery code) in the
same request (``selector.staff.auth_forms.ReauthForm``); the user is mailed each time
(``selector.staff.tasks.account_notice``). A stolen session alone cannot do any of it.

There is never an authenticated session that should have passed the second step and has
not: ``selector.staff.middleware`` ends any such session (one started before the user
enrolled, or before the setting was turned on). django-otp throttles wrong codes per device
(growing delays); PENDING_ATTEMPTS wrong codes also end the pending log-in.
"""

from __future__ import annotations

import time
from base64 import b32encode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django_otp import devices_for_user, user_has_device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from selector.core import qr as core_qr
from selector.staff.permissions import MANAGERS_GROUP, SALES_GROUP

PENDING_KEY = "staff_mfa_pending"
CHECKED_KEY = "staff_mfa_checked"  # this session's user needs no second step
PENDING_SECONDS = 5 * 60
PENDING_ATTEMPTS = 5
RECOVERY_CODES = 10
TOTP_NAME = "authenticator"
RECOVERY_NAME = "recovery codes"


def required(user) -> bool:
    """Whether ``user`` must pass the second step (MFA is on for them)."""
    return bool(settings.STAFF_MFA_REQUIRED) or user_has_device(user, confirmed=True)


def begin(request, user, redirect_to: str) -> None:
    request.session.cycle_key()
    request.session[PENDING_KEY] = {"user": user.pk, "at": int(time.time()),
                                    "next": redirect_to, "failures": 0}


def pending_user(request):
    """The user half-way through a log-in in this session, or None (expired: dropped)."""
    pending = request.session.get(PENDING_KEY)
    if not isinstance(pending, dict):
        return None
    if time.time() - pending.get("at", 0) > PENDING_SECONDS:
        request.session.pop(PENDING_KEY, None)
        return None
    return get_user_model().objects.filter(pk=pending.get("user"), is_active=True).first()


def pending_next(request) -> str:
    return (request.session.get(PENDING_KEY) or {}).get("next", "")


def pending_failed(request) -> bool:
    """Count a wrong code; True when the pending log-in is now over."""
    pending = request.session.get(PENDING_KEY) or {}
    pending["failures"] = pending.get("failures", 0) + 1
    if pending["failures"] >= PENDING_ATTEMPTS:
        request.session.pop(PENDING_KEY, None)
        return True
    request.session[PENDING_KEY] = pending
    return False


def end_pending(request) -> None:
    request.session.pop(PENDING_KEY, None)


def has_authenticator(user) -> bool:
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def enrolled(user) -> bool:
    """Whether ``user`` has any confirmed second factor (an authenticator or recovery codes):
    then nobody half-way through a log-in may enrol a new one, and replacing it from a
    logged-in session needs the password and a current code."""
    return user_has_device(user, confirmed=True)


@transaction.atomic
def verify(user, code: str):
    """The device that accepts ``code`` (a 6-digit authenticator code or a recovery code),
    or None. django-otp throttles each device after a wrong code; the devices are locked
    (for_verify) while they are checked, so one code cannot pass twice concurrently."""
    code = "".join(str(code).split())[:32]
    if not code:
        return None
    for device in devices_for_user(user, confirmed=True, for_verify=True):
        verify_allowed, _ = device.verify_is_allowed()
        if verify_allowed and device.verify_token(code.lower() if isinstance(
                device, StaticDevice) else code):
            return device
    return None


def unconfirmed_authenticator(user) -> TOTPDevice:
    """The authenticator being set up (one per user; a new secret each time it is asked
    for after a failed setup is not needed: the same one is shown until confirmed)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    return device or TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)


@transaction.atomic
def confirm(device: TOTPDevice, code: str, *, replace: bool) -> list[str] | None:
    """Confirm a new authenticator with its first code; issues fresh recovery codes
    (returned, to be shown once). None when the code is wrong.

    ``replace`` says the caller has proved it may replace an earlier second factor (the
    password and a current code, ``selector.staff.auth_forms.ReauthForm``); without it nothing is
    confirmed for a user who has one. The user's row is locked, so two enrolments cannot
    both pass that check."""
    code = "".join(str(code).split())[:12]
    get_user_model().objects.select_for_update().filter(pk=device.user_id).first()
    if not replace and enrolled(device.user):
        return None
    # A malformed code is refused before django-otp counts it against the device.
    if not (code.isdigit() and len(code) == device.digits) or not device.verify_token(code):
        return None
    TOTPDevice.objects.filter(user=device.user).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return new_recovery_codes(device.user)


@transaction.atomic
def new_recovery_codes(user) -> list[str]:
    """Ten new single-use recovery codes; the old ones stop working."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=c) for c in codes)
    return codes


def remaining_recovery_codes(user) -> int:
    return StaticToken.objects.filter(device__user=user).count()


@transaction.atomic
def reset(user) -> None:
    """Remove the user's authenticator and recovery codes (lost phone); with
    STAFF_MFA_REQUIRED they enrol again at their next log-in."""
    for device in devices_for_user(user, confirmed=None):
        device.delete()


def secret_text(device: TOTPDevice) -> str:
    """The key in base32, in groups of four, for typing into an app by hand."""
    key = b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(key[i:i + 4] for i in range(0, len(key), 4))


def qr_svg(device: TOTPDevice) -> SafeString:
    """The otpauth:// URL as an inline SVG QR code, drawn here (selector.core.qr, segno),
    never by an image service: the secret must not leave the server."""
    return core_qr.qr_svg(device.config_url, title=_("QR code for your authenticator app"),
                          css_class="qr mfa-qr-code")


def accounts() -> list[dict]:
    """Everyone who can log in here (sales roles, admin editors, superusers), with whether
    they use an authenticator (the managers' security page)."""
    users = (get_user_model().objects.filter(is_active=True)
             .filter(Q(is_staff=True) | Q(is_superuser=True)
                     | Q(groups__name__in=[SALES_GROUP, MANAGERS_GROUP]))
             .distinct().order_by("username")
             .annotate(mfa=Exists(TOTPDevice.objects.filter(user=OuterRef("pk"),
                                                            confirmed=True))))
    return [{"pk": u.pk, "username": u.get_username(), "mfa": u.mfa,
             "superuser": u.is_superuser} for u in users[:500]]
