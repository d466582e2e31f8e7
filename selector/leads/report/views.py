"""Report downloads by the customer's signed link; the responses the staff download
(selector.staff.views.lead_page.lead_report, access checked there) shares.

Anyone without a valid link gets 404 (nothing tells them the lead exists); an expired
link gets a page that says so (410).
"""

from __future__ import annotations

from urllib.parse import quote

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe

from selector.core.i18n import language_code
from selector.leads.models import Lead
from selector.leads.report import links
from selector.leads.report.render import (
    PDF_CONTENT_TYPE,
    ReportData,
    ascii_filename,
    display_filename,
    render_html,
)
from selector.leads.report.services import (
    ReportPreparing,
    ReportUnavailable,
    record_download,
    report_data_for_lead,
    report_pdf,
)


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"  # the token must not leak in Referer
    return response


def _lead_for_token(token: str) -> Lead:
    """The lead of a valid link; ``links.LinkExpired`` or 404 otherwise."""
    try:
        public_id = links.read_token(token)
    except links.LinkInvalid:
        raise Http404 from None
    try:
        return Lead.objects.get(public_id=public_id)
    except Lead.DoesNotExist:
        raise Http404 from None


def _expired(request: HttpRequest) -> HttpResponse:
    return _private(render(request, "reports/expired.html", status=410))


def _unavailable(request: HttpRequest) -> HttpResponse:
    response = render(request, "reports/unavailable.html",
                      {"retry_url": request.get_full_path()}, status=503)
    response["Retry-After"] = "10"
    return _private(response)


# The "preparing your report" page reloads itself (meta refresh: with or without
# JavaScript) this often; the reload waits up to REPORT_WAIT_SECONDS again.
PREPARING_REFRESH_SECONDS = 2


def _preparing(request: HttpRequest) -> HttpResponse:
    """202 Accepted: the PDF is being rendered (by the pre-render or another request)."""
    response = render(request, "reports/preparing.html", {
        "retry_url": request.get_full_path(), "refresh_seconds": PREPARING_REFRESH_SECONDS,
    }, status=202)
    response["Retry-After"] = str(PREPARING_REFRESH_SECONDS)
    return _private(response)


def content_disposition(data: ReportData, *, inline: bool = False) -> str:
    kind = "inline" if inline else "attachment"
    return (f'{kind}; filename="{ascii_filename(data)}"; '
            f"filename*=UTF-8''{quote(display_filename(data), safe='')}")


def pdf_response(request: HttpRequest, lead: Lead, *, via: str,
                 language: str | None = None) -> HttpResponse:
    try:
        pdf, data = report_pdf(lead, language)
    except ReportUnavailable as exc:
        # Said in the report's language, whatever the browser prefers.
        with translation.override(language_code(language or lead.language)):
            if isinstance(exc, ReportPreparing):
                return _preparing(request)
            return _unavailable(request)
    if request.method == "GET":  # a HEAD (link checker, monitor) is not a download
        record_download(lead=lead, user=request.user, via=via, fmt="pdf",
                        language=data.language_code)
    response = HttpResponse(pdf, content_type=PDF_CONTENT_TYPE)
    response["Content-Disposition"] = content_disposition(data)
    response["Content-Length"] = str(len(pdf))
    return _private(response)


def web_response(request: HttpRequest, lead: Lead, *, via: str, pdf_url: str,
                 language: str | None = None) -> HttpResponse:
    data = report_data_for_lead(lead, language)
    if request.method == "GET":
        record_download(lead=lead, user=request.user, via=via, fmt="html",
                        language=data.language_code)
    html = render_html(data, web=True, links={"pdf": pdf_url})
    return _private(HttpResponse(html, content_type="text/html; charset=utf-8"))


@require_safe
def customer_pdf(request: HttpRequest, token: str) -> HttpResponse:
    try:
        lead = _lead_for_token(token)
    except links.LinkExpired:
        return _expired(request)
    return pdf_response(request, lead, via="link")


@require_safe
def customer_web(request: HttpRequest, token: str) -> HttpResponse:
    try:
        lead = _lead_for_token(token)
    except links.LinkExpired:
        return _expired(request)
    with translation.override(language_code(lead.language)):
        pdf_url = reverse("reports:customer", kwargs={"token": token})
    return web_response(request, lead, via="link", pdf_url=pdf_url)

