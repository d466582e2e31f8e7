"""Spam protection without a third-party CAPTCHA: a per-IP (selector.core.request.client_ip)
rate limit of accepted leads on the shared cache, and the signed, single-use form-start
stamp, bound to the visitor's wizard session, for the minimum fill time. The fill time
counts from the first render of the form in the visitor's session (``first_render``): a
redisplay after a refusal never restarts it, so a person who forgot the consent box and
ticks it is not refused as too quick."""

import contextlib
import logging
import secrets
import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest

from selector.core.cache import REDIS_DOWN
from selector.core.ratelimit import count_hit
from selector.core.request import client_ip

logger = logging.getLogger(__name__)

_STARTED_SALT = "selector.leads.contact.started"
# A contact form older than this is refused as stale (a fresh one is issued).
FORM_MAX_AGE_SECONDS = 24 * 60 * 60
# The session's first-render time is reused while younger than this, so a stamp issued with
# it stays valid for at least FORM_MAX_AGE_SECONDS - FIRST_RENDER_REUSE_SECONDS.
FIRST_RENDER_REUSE_SECONDS = FORM_MAX_AGE_SECONDS // 2
FIRST_RENDER_KEY = "contact_first_render"


def _rate_key(request: HttpRequest, scope: str) -> tuple[str, int]:
    window = settings.LEAD_RATE_WINDOW_SECONDS
    bucket = int(time.time() // window)
    return f"ratelimit:{scope}:{client_ip(request)}:{bucket}", window


def rate_limited(request: HttpRequest, scope: str = "lead-submit") -> bool:
    """Count one accepted submission for this client IP; True when it exceeds
    settings.LEAD_RATE_LIMIT in the current fixed window of LEAD_RATE_WINDOW_SECONDS.
    Called only for a valid submission about to become a lead (``uncount`` gives the hit
    back when none was made), so bots' refused posts cannot exhaust an office's quota.
    The cache is shared by every process (selector.core.cache), its incr atomic."""
    limit = settings.LEAD_RATE_LIMIT
    if limit <= 0:
        return False
    key, window = _rate_key(request, scope)
    try:
        count = count_hit(key, window + 5)
    except REDIS_DOWN as exc:
        # The shared cache is down: a customer's lead matters more than the brake for the
        # few seconds of an outage. Let it through, and say so.
        logger.warning("lead rate limit not checked: cache unavailable (%s)",
                       type(exc).__name__)
        return False
    return count > limit


def uncount(request: HttpRequest, scope: str = "lead-submit") -> None:
    """Give back the hit of a submission that made no new lead."""
    if settings.LEAD_RATE_LIMIT <= 0:
        return
    key, _window = _rate_key(request, scope)
    with contextlib.suppress(ValueError, *REDIS_DOWN):  # the window turned; the cache down
        cache.decr(key)


def retry_after_seconds() -> int:
    window = settings.LEAD_RATE_WINDOW_SECONDS
    return max(1, int(window - time.time() % window))


def first_render(request: HttpRequest, wizard_session_id) -> float:
    """When this session first rendered the contact form of this wizard session: stored in
    the session on the first render, read by every later one (a redisplay after a refused
    submission, a reload, Back). Restarts for another wizard session or once older than
    FIRST_RENDER_REUSE_SECONDS."""
    stored = request.session.get(FIRST_RENDER_KEY)
    current = time.time()
    if (isinstance(stored, dict) and stored.get("s") == str(wizard_session_id)
            and isinstance(stored.get("t"), int | float)
            and 0 <= current - stored["t"] < FIRST_RENDER_REUSE_SECONDS):
        return float(stored["t"])
    request.session[FIRST_RENDER_KEY] = {"s": str(wizard_session_id), "t": current}
    return current


def form_started_token(wizard_session_id, *, now: float | None = None) -> str:
    """The contact form's start stamp: when the form was first rendered (``now``, by
    default the present; the view passes ``first_render``), for which wizard session, and
    a fresh nonce that makes this stamp usable once (``form_fill_seconds``)."""
    return signing.dumps({"t": time.time() if now is None else now,
                          "s": str(wizard_session_id), "n": secrets.token_urlsafe(12)},
                         salt=_STARTED_SALT)


def form_fill_seconds(token: str, wizard_session_id) -> float | None:
    """Seconds since the form carrying ``token`` was first rendered; None when the token is
    forged, stale, issued to another wizard session or already used. Reading it uses it:
    the nonce is recorded in the shared cache for as long as a token lives, so one form
    cannot be replayed for many leads (a re-rendered form carries a fresh token)."""
    if not token or len(token) > 300:
        return None
    try:
        data = signing.loads(token, salt=_STARTED_SALT, max_age=FORM_MAX_AGE_SECONDS)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("t"), int | float) \
            or data.get("s") != str(wizard_session_id) or not isinstance(data.get("n"), str):
        return None
    elapsed = time.time() - data["t"]
    if not 0 <= elapsed <= FORM_MAX_AGE_SECONDS:
        return None
    try:
        if not cache.add(f"contact-started:{data['n']}", 1,
                         timeout=FORM_MAX_AGE_SECONDS + 60):
            return None  # used before
    except REDIS_DOWN as exc:
        # The single use cannot be checked while the cache is down; the stamp is still
        # signed, bound to this visitor's session and fresh: accept it rather than refuse
        # a customer as a bot.
        logger.warning("form stamp's single use not checked: cache unavailable (%s)",
                       type(exc).__name__)
    return elapsed
