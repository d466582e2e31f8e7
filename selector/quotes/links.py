"""The customer's link to one sent quote version: the quote's id, version and last valid
day, signed with the project's secret key (django.core.signing, a salt of its own), so it
cannot be forged, edited or pointed at another quote, and it stops working after the
quote's validity date."""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass

from django.core import signing
from django.urls import reverse
from django.utils import timezone, translation

from selector.core.siteurl import site_url
from selector.quotes.models import FROZEN, Quote

SALT = "selector.quotes.link.v1"
MAX_TOKEN_LENGTH = 300


def quote_token(quote: Quote) -> str:
    """The same link for the same version every time (no signing timestamp: the expiry is
    the signed last valid day), so the rep, the e-mail and the PDF show one link."""
    return signing.Signer(salt=SALT).sign_object(
        {"q": quote.public_id.hex, "v": quote.version, "e": quote.valid_until.isoformat()})


def quote_path(quote: Quote, language: str | None = None) -> str:
    with translation.override(language or quote.language):
        return reverse("quotes:customer", args=[quote_token(quote)])


def quote_url(quote: Quote) -> str:
    return site_url() + quote_path(quote)


@dataclass(frozen=True)
class Opened:
    quote: Quote | None
    expired: bool = False


def open_token(token: str, today: datetime.date | None = None) -> Opened:
    """The sent quote a token names, or None (tampered, truncated, unknown, not sent);
    ``expired`` when its validity date has passed (the quote is then not given out)."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return Opened(None)
    try:
        data = signing.Signer(salt=SALT).unsign_object(token)
        key, version = uuid.UUID(hex=data["q"]), int(data["v"])
        last_day = datetime.date.fromisoformat(data["e"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return Opened(None)
    quote = (Quote.objects.select_related("lead").filter(public_id=key, version=version,
                                                          status__in=FROZEN).first())
    if quote is None:
        return Opened(None)
    if last_day < (today or timezone.localdate()):
        return Opened(None, expired=True)
    return Opened(quote)
