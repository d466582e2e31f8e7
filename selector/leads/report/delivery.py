"""The report e-mail to the customer: what the contact page promises ("we send you the
full report"). Built here, sent by the task worker (``selector.leads.report.tasks.email_report``
with the retries of ``selector.leads.tasks.deliver``), recorded on the lead's timeline as
``report_emailed`` / ``report_email_failed``.

The message is in the lead's language, HTML and plain text, with the PDF attached when it
is at most ``REPORT_EMAIL_ATTACH_MAX_BYTES`` (a link otherwise), the signed download link,
the link to the online result, the report number, the engineer's follow-up promise and
the company's contact channels. Links are absolute on ``base_url``: the site's address
when the lead was created (SITE_URL, or in development the host the visitor used).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from selector.content.models import CompanyProfile
from selector.core.explain import fabric_label
from selector.core.i18n import lang_tag, language_code
from selector.core.sharing import share_token
from selector.domain import Answers, Fabric, InvalidAnswers
from selector.leads.models import Lead, LeadEvent
from selector.leads.report.links import customer_report_path, max_age
from selector.leads.report.render import display_filename
from selector.leads.report.services import ReportUnavailable, render_timeout, report_pdf


@dataclass(frozen=True)
class EmailStatus:
    """What the thank-you page tells the visitor about the report e-mail."""

    email: str
    state: str  # "none" (no address given), "pending", "sent", "failed"


def report_email_status(lead: Lead) -> EmailStatus:
    if not lead.email:
        return EmailStatus("", "none")
    kinds = set(lead.events.filter(kind__in=[
        LeadEvent.Kind.REPORT_EMAILED, LeadEvent.Kind.REPORT_EMAIL_FAILED,
    ]).values_list("kind", "data__final"))
    if any(kind == LeadEvent.Kind.REPORT_EMAILED for kind, _final in kinds):
        return EmailStatus(lead.email, "sent")
    if (LeadEvent.Kind.REPORT_EMAIL_FAILED, True) in kinds:
        return EmailStatus(lead.email, "failed")
    return EmailStatus(lead.email, "pending")


def report_message(lead: Lead, *, base_url: str, pdf: bytes | None,
                   filename: str = "") -> EmailMultiAlternatives:
    """The customer's report e-mail. ``pdf`` None: the PDF could not be rendered now, the
    link renders it on demand."""
    language = language_code(lead.language)
    limit = settings.REPORT_EMAIL_ATTACH_MAX_BYTES
    attach = pdf is not None and len(pdf) <= limit
    with translation.override(language):
        company = CompanyProfile.current()
        try:
            answers = Answers.from_dict(lead.answers)
            result_url = base_url + reverse("wizard:shared", args=[share_token(answers)])
        except InvalidAnswers:
            answers, result_url = None, ""
        try:
            recommendation = fabric_label(Fabric(lead.recommendation))
        except ValueError:
            recommendation = lead.recommendation
        context = {
            "lead": lead,
            "company": company,
            "recommendation": recommendation,
            "gpus": answers.gpus if answers else lead.answers.get("gpus"),
            "report_url": base_url + customer_report_path(lead),
            "result_url": result_url,
            "link_expires": timezone.localdate(lead.created_at + timedelta(seconds=max_age())),
            "attached": attach,
            "too_large": pdf is not None and not attach,
            "pdf_size_mb": f"{len(pdf) / 1_000_000:.1f}" if pdf is not None else "",
            "filename": filename,
            "lang_tag": lang_tag(language),
        }
        subject = _("Your AI cluster network report %(number)s") % {
            "number": lead.report_number}
        message = EmailMultiAlternatives(
            subject=subject,
            body=render_to_string("reports/email/report.txt", context),
            to=[lead.email],
            reply_to=[company.email] if company.email else None,
        )
        message.attach_alternative(render_to_string("reports/email/report.html", context),
                                   "text/html")
    if attach:
        message.attach(filename or f"{lead.report_number}.pdf", pdf, "application/pdf")
    return message


def build_report_email(lead: Lead, *, base_url: str) -> EmailMultiAlternatives:
    """The e-mail with the PDF rendered (or taken from the cache), ready to send (the
    task claims the delivery between the two: selector.leads.deliveries). A PDF that
    cannot be rendered now does not stop the e-mail: it then carries the link only."""
    try:
        pdf, data = report_pdf(lead, wait=render_timeout())  # the pre-render's, if under way
        filename = display_filename(data)
    except ReportUnavailable:
        pdf, filename = None, ""
    return report_message(lead, base_url=base_url, pdf=pdf, filename=filename)


def send_report_email(lead: Lead, *, base_url: str) -> None:
    """Build and send at once; raises on a mail failure."""
    build_report_email(lead, base_url=base_url).send()
