"""Pre-rendering (Django 6 tasks): when a lead is created, its PDF is rendered into the
report cache, so the customer's first download is served from the cache.

Scheduled by ``selector.leads.services.lead_create`` after the lead committed. Nothing
here can affect the lead: the task only reads it, a failed render is logged (without
personal data) by ``render_pdf_bounded`` and the download renders again on demand.
``REPORT_PRERENDER=0`` turns it off (the test settings do, except in the report tests).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.tasks import task

from selector.leads.models import Lead
from selector.reports.services import ReportUnavailable, report_pdf

logger = logging.getLogger(__name__)


@task
def prerender_report(lead_public_id: str) -> str:
    lead = Lead.objects.filter(public_id=lead_public_id).first()
    if lead is None:
        return "gone"  # deleted or rolled back meanwhile
    try:
        report_pdf(lead)
    except ReportUnavailable:
        return "failed"  # logged already; the download will try again
    return "cached"


def schedule_prerender(lead_public_id: str) -> None:
    """Enqueue the pre-render; never raises (the lead is saved whatever happens here)."""
    if not getattr(settings, "REPORT_PRERENDER", True):
        return
    try:
        prerender_report.enqueue(lead_public_id)
    except Exception as exc:
        logger.error("report pre-render not scheduled: %s (lead %s)", type(exc).__name__,
                     lead_public_id)
