"""A lead's life: the one place that creates and deletes leads for callers (the contact
page, the staff workspace, the retention purge).

``leads.services`` writes the lead's own rows and schedules the sales notifications; the
lead's report (``leads.report``) is built from those rows. This module adds the report's
part of a creation and a deletion directly, the same way both times:

- ``submit_lead``: ``leads.services.lead_create``, then after commit the report's
  pre-render and the customer's report e-mail (selector.leads.report.tasks).
- ``delete_lead``: the lead's cached PDFs (they carry the customer's name), then
  ``leads.services.lead_delete``; one transaction, so a failure keeps the lead.
- ``purge_leads``: ``delete_lead`` for every lead past LEAD_RETENTION_DAYS (and the
  cached PDFs past REPORT_CACHE_SECONDS).
"""

from __future__ import annotations

from django.db import transaction

from selector.core.siteurl import site_url as default_site_url
from selector.domain import Answers
from selector.leads import services as lead_services
from selector.leads.models import Lead
from selector.leads.report.services import delete_cached_reports, purge_cached_reports
from selector.leads.report.tasks import schedule_delivery
from selector.wizard.models import WizardSession


def submit_lead(*, wizard_session: WizardSession, answers: Answers, contact: dict,
                language: str, user_agent: str = "", site_url: str = "") -> tuple[Lead, bool]:
    """``lead_create`` (one lead per wizard session; see there), and for a new lead the
    report's delivery once it committed. ``site_url`` is the base of the links in the
    e-mail (the view passes selector.core.siteurl's for the request)."""
    with transaction.atomic():
        lead, created = lead_services.lead_create(
            wizard_session=wizard_session, answers=answers, contact=contact,
            language=language, user_agent=user_agent)
        if created:
            public_id = str(lead.public_id)
            base_url = site_url or default_site_url()
            # After lead_create's own on-commit work: sales hear first, then the report.
            transaction.on_commit(lambda: schedule_delivery(public_id, base_url),
                                  robust=True)
    return lead, created


def delete_lead(*, lead: Lead) -> None:
    """Delete a lead and everything stored about it: its cached PDFs, then its rows
    (``lead_delete``). One transaction: if anything fails, the lead stays."""
    with transaction.atomic():
        delete_cached_reports(lead)
        lead_services.lead_delete(lead=lead)


def purge_leads(*, dry_run: bool = False, now=None) -> int:
    """Delete every lead older than LEAD_RETENTION_DAYS, and every cached PDF older than
    REPORT_CACHE_SECONDS; returns how many leads (would) go."""
    expired = lead_services.leads_past_retention(now).order_by("pk")
    if dry_run:
        return expired.count()
    purge_cached_reports(now)
    deleted = 0
    for lead in expired.iterator(chunk_size=200):
        delete_lead(lead=lead)
        deleted += 1
    return deleted
