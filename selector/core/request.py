"""Request helpers every layer above core may use."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


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
