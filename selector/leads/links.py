"""Links shown on the thank-you page, taken from the apps that own them."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from selector.core.siteurl import absolute
from selector.domain import Answers
from selector.leads.models import Lead
from selector.wizard.sharing import share_token


def result_share_url(request: HttpRequest, answers: Answers) -> str:
    """Absolute shareable link to this result: the wizard's signed share link, built the
    way its result page builds it (``share_token`` + the ``wizard:shared`` URL)."""
    return absolute(reverse("wizard:shared", args=[share_token(answers)]), request)


def report_path(lead: Lead) -> str:
    """The customer's PDF download as a root-relative link (selector.reports): it works on
    whatever host and port the page was served from."""
    from selector.reports.links import customer_report_path

    return customer_report_path(lead) or ""
