"""Links to a lead's report.

The customer's link carries a signed, timestamped token of the lead's public_id (a UUID,
never the sequential pk); it expires after settings.REPORT_LINK_MAX_AGE seconds. Staff
download in the workspace (selector.staff: staff:lead_report, by public_id).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import translation

from selector.core.i18n import language_code

SALT = "selector.reports.customer-link.v1"


class LinkExpired(Exception):
    pass


class LinkInvalid(Exception):
    pass


def max_age() -> int:
    return settings.REPORT_LINK_MAX_AGE


def make_token(lead) -> str:
    return signing.dumps(lead.public_id.hex, salt=SALT, compress=False)


def read_token(token: str) -> uuid.UUID:
    """The lead public_id in ``token``; ``LinkExpired`` or ``LinkInvalid`` otherwise."""
    if not isinstance(token, str) or len(token) > 200:
        raise LinkInvalid
    try:
        value = signing.loads(token, salt=SALT, max_age=max_age())
    except signing.SignatureExpired:
        raise LinkExpired from None
    except signing.BadSignature:
        raise LinkInvalid from None
    try:
        return uuid.UUID(hex=value)
    except (TypeError, ValueError, AttributeError):
        raise LinkInvalid from None


def customer_report_path(lead, *, web: bool = False) -> str:
    with translation.override(language_code(lead.language)):
        return reverse("reports:customer_web" if web else "reports:customer",
                       kwargs={"token": make_token(lead)})
