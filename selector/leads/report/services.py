"""Reports for leads: data from the lead, cached PDFs, a time bound, download events.

``generate(lead)`` follows the pretix renderer interface: ``(filename, content_type,
bytes)``. Rendering never writes to the lead, so a failed or slow render cannot lose it.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from selector.core.i18n import language_code
from selector.documents.fonts import harfbuzz_subset_available
from selector.domain import Answers, InvalidAnswers
from selector.leads.models import LeadEvent
from selector.leads.report.render import (
    PDF_CONTENT_TYPE,
    ReportData,
    ascii_filename,
    content_version,
    created_at,
    html_to_pdf,
    pdf_sources,
    report_version,
)
from selector.leads.snapshots import lead_recommendation

logger = logging.getLogger(__name__)


# One WeasyPrint worker per process: renders are serialised anyway (shared font map),
# and the request thread can stop waiting after the timeout. A timed-out render keeps
# the worker busy until it finishes; the next request then waits in the queue and may
# time out too, which the customer sees as "try again shortly".
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="report-pdf")


class ReportUnavailable(Exception):
    """The PDF could not be rendered in time (or at all). Safe to show: no details."""


def report_data_for_lead(lead, language: str | None = None) -> ReportData:
    """The report of ``lead``: its frozen recommendation, in ``language``."""
    return ReportData(
        report_number=lead.report_number,
        created=lead.created_at,
        language=language_code(language or lead.language),
        customer_name=lead.name,
        customer_company=lead.company,
        answers=Answers.from_dict(lead.answers),
        recommendation=lead_recommendation(lead),
    )


def render_timeout() -> float:
    return float(settings.REPORT_RENDER_TIMEOUT)


def cache_key(lead, data: ReportData, version: str | None = None) -> str:
    version = version or report_version(data)
    return f"reports:pdf:{lead.public_id.hex}:{data.language_code}:{version}"


def render_pdf_bounded(data: ReportData, *, timeout: float | None = None,
                       ref: str = "") -> bytes:
    """Render with a time bound. Template and database work happen here, in the caller's
    thread; only WeasyPrint runs in the worker. ``ref`` identifies the report in logs
    (never the customer's name or company)."""
    if not harfbuzz_subset_available():
        raise ImproperlyConfigured("WeasyPrint lacks HarfBuzz subsetting (check documents.E001)")
    timeout = render_timeout() if timeout is None else timeout
    try:
        html, attachment = pdf_sources(data)
        future = _executor.submit(html_to_pdf, html, attachment=attachment,
                                  created=created_at(data), language=data.language_code)
        return future.result(timeout=timeout).content
    except FuturesTimeout:
        logger.error("report render timed out after %.1f s (report %s)", timeout, ref)
        raise ReportUnavailable from None
    except Exception as exc:
        # The exception text may quote the document; log only its type.
        logger.error("report render failed: %s (report %s)", type(exc).__name__, ref)
        raise ReportUnavailable from None


def report_pdf(lead, language: str | None = None) -> tuple[bytes, ReportData]:
    """The lead's PDF, from the cache when answers, content and REPORT_VERSION are
    unchanged. Raises ``ReportUnavailable``."""
    try:
        data = report_data_for_lead(lead, language)
    except InvalidAnswers:
        logger.error("report impossible: stored answers invalid (report %s)", lead.public_id.hex)
        raise ReportUnavailable from None
    key = cache_key(lead, data, report_version(data, content_version()))
    pdf = cache.get(key)
    if pdf is None:
        pdf = render_pdf_bounded(data, ref=lead.public_id.hex)
        seconds = settings.REPORT_CACHE_SECONDS
        cache.set(key, pdf, timeout=seconds)
        _remember_key(lead, key, seconds)
    return pdf, data


def _index_key(lead) -> str:
    return f"reports:keys:{lead.public_id.hex}"


def _remember_key(lead, key: str, seconds: int) -> None:
    """Every cache key holding one of the lead's PDFs (any language or version), so
    deleting the lead can delete them all (the PDFs carry the customer's name)."""
    index = _index_key(lead)
    keys = cache.get(index) or []
    if key not in keys:
        cache.set(index, [*keys[-15:], key], timeout=seconds)


def delete_cached_reports(lead) -> None:
    """Drop the lead's cached PDFs now and again after commit (in case a download
    re-cached one meanwhile); selector.leads.lifecycle.delete_lead calls it."""

    def drop() -> None:
        index = _index_key(lead)
        cache.delete_many([*(cache.get(index) or []), index])

    drop()
    transaction.on_commit(drop, robust=True)


def generate(lead) -> tuple[str, str, bytes]:
    """Renderer interface: ``(filename, content_type, content)``."""
    pdf, data = report_pdf(lead)
    return ascii_filename(data), PDF_CONTENT_TYPE, pdf


def record_download(*, lead, user=None, via: str, fmt: str, language: str) -> None:
    """A LeadEvent for sales ("report_downloaded"); no personal data in its data."""
    actor = user if (user is not None and user.is_authenticated) else None
    with transaction.atomic():
        LeadEvent.objects.create(
            lead=lead, kind=LeadEvent.Kind.REPORT_DOWNLOADED, actor=actor,
            data={"via": via, "format": fmt, "language": language})
