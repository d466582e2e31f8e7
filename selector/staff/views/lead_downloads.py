"""The lead page's downloads: the PDF report and its web version in either language, the
cabling plan and the switch configurations of the lead's frozen plan."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.views.decorators.http import require_safe

from selector.leads.models import Lead
from selector.leads.report import views as report_views
from selector.leads.snapshots import lead_recommendation
from selector.planner import downloads
from selector.staff.access import (
    get_lead_for_user,
)

REPORT_LANGUAGES = {"zh-hans", "en"}


def _report_language(request: HttpRequest) -> str | None:
    value = request.GET.get("lang")
    if value is None:
        return None
    if value not in REPORT_LANGUAGES:
        raise Http404  # an unknown language is not a report we have
    return value


@require_safe
def lead_report(request: HttpRequest, public_id) -> HttpResponse:
    """The lead's PDF report (?lang=en|zh-hans: in that language). Everyone who may not
    view the lead, signed out or not, gets the 404 (nothing tells them it exists)."""
    lead = get_lead_for_user(request, public_id)
    return report_views.pdf_response(request, lead, via="staff",
                                     language=_report_language(request))


@require_safe
def lead_report_web(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id)
    language = _report_language(request)
    pdf_url = reverse("staff:lead_report", args=[lead.public_id]) + (
        f"?lang={language}" if language else "")
    return report_views.web_response(request, lead, via="staff", pdf_url=pdf_url,
                                     language=language)


@require_safe
def lead_download(request: HttpRequest, public_id, kind: str) -> HttpResponseBase:
    """The cabling plan or the switch configurations of the lead's frozen plan (what the
    customer was shown); a 404 for everyone who may not view the lead, as the report."""
    lead = get_lead_for_user(request, public_id)
    plan = lead_recommendation(lead).recommended.plan
    if plan is None:
        raise Http404("no fabric plan to download")
    return downloads.respond(kind, plan)


def lead_build_downloads(lead: Lead, plan) -> dict | None:
    """``includes/build_downloads.html``'s context on the lead page."""
    return downloads.download_context(plan, {
        "csv": reverse("staff:lead_cabling_csv", args=[lead.public_id]),
        "xlsx": reverse("staff:lead_cabling_xlsx", args=[lead.public_id]),
        "configs": reverse("staff:lead_configs_zip", args=[lead.public_id])})
