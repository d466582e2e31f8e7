"""Deployment check: customer e-mails come from an address the team reads. With the
shipped default (``selector@localhost``) the report e-mail goes out from a host that does
not exist, and a customer's reply (the e-mail asks for one for privacy requests) is lost
(issue 26). ``manage.py check --deploy`` fails on it."""

from __future__ import annotations

from django.conf import settings
from django.core import checks

HINT = ("Set DEFAULT_FROM_EMAIL to an address of the company's mail domain that the team "
        "reads, e.g. DEFAULT_FROM_EMAIL='Shenhua Tiancheng <report@your-domain.cn>' "
        "(docs/configuration.md).")


def _domain(address: str) -> str:
    return address.rsplit("@", 1)[-1].strip(" >").lower() if "@" in address else ""


@checks.register("leads", deploy=True)
def check_from_email(app_configs=None, **kwargs):
    if _domain(settings.DEFAULT_FROM_EMAIL) in ("", "localhost", "localhost.localdomain"):
        return [checks.Error(
            f"DEFAULT_FROM_EMAIL is {settings.DEFAULT_FROM_EMAIL!r}: customers' report "
            "e-mails would come from a host that does not exist, and their replies would "
            "be lost.", hint=HINT, id="leads.E001")]
    return []
