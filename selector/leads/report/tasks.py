"""A new lead's report, in the background (Django 6 tasks): the pre-render, which stores
its PDF (leads.ReportPdf) so the customer's first download is served from there (or waits
for it, if it comes while the render runs: one render either way), and the customer's
report e-mail (selector.leads.report.delivery), which then finds the PDF stored.

Both are scheduled by ``selector.leads.lifecycle.submit_lead`` after the lead committed.
Nothing here can affect the lead: the tasks only read it; a failed render is logged
(without personal data) by ``services.report_pdf`` and the download renders again on
demand; the e-mail is retried like the sales notifications (selector.leads.tasks.deliver).
``REPORT_PRERENDER=0`` turns the pre-render off (the test settings do, except in the report
tests); ``REPORT_EMAIL_ENABLED=0`` the e-mail.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.tasks import task

from selector.leads import deliveries
from selector.leads.models import Delivery, Lead, LeadEvent
from selector.leads.report import delivery
from selector.leads.report.services import (
    ReportPreparing,
    ReportUnavailable,
    render_timeout,
    report_pdf,
)
from selector.leads.tasks import deliver

logger = logging.getLogger(__name__)


@task
def prerender_report(lead_public_id: str) -> str:
    lead = Lead.objects.filter(public_id=lead_public_id).first()
    if lead is None:
        return "gone"  # deleted or rolled back meanwhile
    try:
        # Once per lead, language and version: a customer who clicked first renders it
        # and this waits for that render instead of making a second one.
        report_pdf(lead, wait=render_timeout())
    except ReportPreparing:
        return "rendering"  # still under way elsewhere; that render stores it
    except ReportUnavailable:
        return "failed"  # logged already; the download will try again
    return "cached"


@task
def email_report(lead_public_id: str, base_url: str, attempt: int = 1) -> str:
    """Send the customer their report (selector.leads.report.delivery), with deliver's retries."""
    return deliver(email_report, (lead_public_id, base_url), lead_public_id=lead_public_id,
                   attempt=attempt, kind=Delivery.Kind.REPORT_EMAIL,
                   prepare=lambda lead: delivery.build_report_email(lead, base_url=base_url).send,
                   done_kind=LeadEvent.Kind.REPORT_EMAILED,
                   failed_kind=LeadEvent.Kind.REPORT_EMAIL_FAILED, key={})


def schedule_prerender(lead_public_id: str) -> None:
    """Enqueue the pre-render; never raises (the lead is saved whatever happens here)."""
    if not settings.REPORT_PRERENDER:
        return
    try:
        prerender_report.enqueue(lead_public_id)
    except Exception as exc:
        logger.error("report pre-render not scheduled: %s (lead %s)", type(exc).__name__,
                     lead_public_id)


def schedule_report_email(lead_public_id: str, base_url: str) -> None:
    """Enqueue the customer's report e-mail when they gave an address; never raises."""
    if not settings.REPORT_EMAIL_ENABLED:
        return
    lead = Lead.objects.filter(public_id=lead_public_id).exclude(email="").first()
    if lead is None:
        return
    try:
        deliveries.expect(lead, Delivery.Kind.REPORT_EMAIL)  # "waiting" from now on
        email_report.enqueue(lead_public_id, base_url)
    except Exception as exc:
        logger.error("report e-mail not scheduled: %s (lead %s)", type(exc).__name__,
                     lead_public_id)


def schedule_delivery(lead_public_id: str, base_url: str) -> None:
    """After a new lead committed: the pre-render, then the e-mail (which finds the
    pre-rendered PDF in the cache); neither raises."""
    try:
        schedule_prerender(lead_public_id)
    finally:
        schedule_report_email(lead_public_id, base_url)
