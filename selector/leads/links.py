"""Links shown on the thank-you page, taken from the apps that own them."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import NoReverseMatch

from selector.domain import Answers
from selector.leads.models import Lead


def result_share_url(request: HttpRequest, answers: Answers) -> str:
    """Absolute shareable link to this result, from the wizard's signed share links;
    "" until the wizard provides ``selector.wizard.sharing.share_url(request, answers)``."""
    try:
        from selector.wizard import sharing
    except ImportError:
        return ""
    share_url = getattr(sharing, "share_url", None)
    if share_url is None:
        return ""
    try:
        return share_url(request, answers) or ""
    except NoReverseMatch:
        return ""


def report_url(lead: Lead) -> str:
    """The customer's PDF download (selector.reports); "" while reports are not built."""
    from selector.reports.links import customer_report_url

    return customer_report_url(lead) or ""
