"""Links shown on the thank-you page, taken from the apps that own them."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from selector.domain import Answers
from selector.leads.models import Lead


def result_share_url(request: HttpRequest, answers: Answers) -> str:
    """Absolute shareable link to this result: the wizard's signed share link, built the
    way its result page builds it (``share_token`` + the ``wizard:shared`` URL); "" if the
    wizard does not offer share links."""
    try:
        from selector.wizard.sharing import share_token

        return request.build_absolute_uri(reverse("wizard:shared", args=[share_token(answers)]))
    except (ImportError, NoReverseMatch):
        return ""


def report_url(lead: Lead) -> str:
    """The customer's PDF download (selector.reports); "" while reports are not built."""
    from selector.reports.links import customer_report_url

    return customer_report_url(lead) or ""
