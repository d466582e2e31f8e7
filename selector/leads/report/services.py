"""Reports for leads: data from the lead, cached PDFs rendered once (single-flight across
processes, in the database), a time bound, download events.

``generate(lead)`` follows the pretix renderer interface: ``(filename, content_type,
bytes)``. Rendering never writes to the lead, so a failed or slow render cannot lose it.
"""

from __future__ import annotations

import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone

from selector.core.i18n import language_code
from selector.documents.fonts import harfbuzz_subset_available
from selector.domain import Answers, InvalidAnswers
from selector.leads.models import LeadEvent, ReportPdf
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
# and the request thread can stop waiting: the render goes on and stores its PDF.
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


class ReportPreparing(ReportUnavailable):
    """Another request or the pre-render is rendering this PDF and did not finish within
    the wait (or this request's own render outlasted it); the view answers a page that
    refreshes itself."""


def _claim_is_stale(claimed_at) -> bool:
    """A claim older than a render may take (the process that made it died, or its render
    hung past the bound) is taken over by the next one who asks."""
    return claimed_at < timezone.now() - timedelta(seconds=render_timeout() + 10)


def _rows():
    return ReportPdf.objects.defer("content")


def _claim(lead, data: ReportData, version: str) -> tuple[ReportPdf | None, bool]:
    """``(row, True)`` when this caller now holds the claim on rendering, ``(row, False)``
    when the PDF is there or someone else renders it (``row`` None: that claim was given
    up a moment ago; ask again). ``row`` has no content loaded."""
    key = {"lead": lead, "language": data.language_code, "version": version}
    row = _rows().filter(**key).first()
    if row is None:
        try:
            with transaction.atomic():
                return ReportPdf.objects.create(**key, claimed_at=timezone.now()), True
        except IntegrityError:  # someone claimed it a moment ago
            return _rows().filter(**key).first(), False
    if row.rendered_at is None and _claim_is_stale(row.claimed_at):
        claim = uuid.uuid4()
        if ReportPdf.objects.filter(pk=row.pk, claim=row.claim).update(
                claim=claim, claimed_at=timezone.now()):
            row.claim = claim
            return row, True
    return row, False


def _content(row: ReportPdf) -> tuple[bool, bytes | None]:
    """``(exists, content)`` of a row as the database has it now."""
    found = list(ReportPdf.objects.filter(pk=row.pk).values_list("content", flat=True))
    if not found:
        return False, None
    return True, (bytes(found[0]) if found[0] is not None else None)


def _store(row: ReportPdf, pdf: bytes) -> None:
    """The claim's PDF in its row, unless another render took the claim over meanwhile (or
    the lead went); the versions of the same language claimed before it go (a version
    claimed since is newer, or a render under way: it stays)."""
    with transaction.atomic():
        stored = ReportPdf.objects.filter(pk=row.pk, claim=row.claim).update(
            content=pdf, rendered_at=timezone.now())
        if stored:
            ReportPdf.objects.filter(lead_id=row.lead_id, language=row.language,
                                     claimed_at__lt=row.claimed_at).delete()


def _give_up(row: ReportPdf) -> None:
    """A failed render frees its claim: the next one who asks renders again."""
    ReportPdf.objects.filter(pk=row.pk, claim=row.claim, rendered_at__isnull=True).delete()


def _wait_for(row: ReportPdf, wait: float) -> tuple[bool, bytes | None]:
    """Poll a row someone else renders: ``(exists, content)`` once the content is there,
    the claim was given up (the row went) or ``wait`` seconds passed."""
    deadline = time.monotonic() + wait
    pause = 0.05
    while True:
        exists, pdf = _content(row)
        if pdf is not None or not exists or time.monotonic() + pause > deadline:
            return exists, pdf
        time.sleep(pause)
        pause = min(pause * 1.5, 0.25)


def report_pdf(lead, language: str | None = None, *,
               wait: float | None = None) -> tuple[bytes, ReportData]:
    """The lead's PDF in ``language``: rendered once per lead, language and version (the
    answers, the content, REPORT_VERSION: ``report_version``), whoever asks first, across
    processes.

    The first caller claims the render (inserts the ReportPdf row) and renders it within
    the time bound (REPORT_RENDER_TIMEOUT); a caller that finds a render under way waits
    up to ``wait`` seconds (default REPORT_WAIT_SECONDS) for it. Raises
    ``ReportPreparing`` when that render is still under way after the wait, or when the
    caller's own render outlasts the bound (it goes on in the worker and stores the PDF);
    ``ReportUnavailable`` when the PDF cannot be rendered."""
    try:
        data = report_data_for_lead(lead, language)
    except InvalidAnswers:
        logger.error("report impossible: stored answers invalid (report %s)", lead.public_id.hex)
        raise ReportUnavailable from None
    version = report_version(data, content_version())
    wait = float(settings.REPORT_WAIT_SECONDS) if wait is None else wait
    for _attempt in range(3):
        row, mine = _claim(lead, data, version)
        if row is None:
            continue
        if mine:
            return _render_claimed(row, data, ref=lead.public_id.hex), data
        exists, pdf = _wait_for(row, 0 if row.rendered_at is not None else wait)
        if pdf is not None:
            return pdf, data
        if exists:
            raise ReportPreparing
        # The other render gave up or a newer version replaced it: claim again.
    raise ReportUnavailable


def _render_claimed(row: ReportPdf, data: ReportData, *, ref: str) -> bytes:
    """Render the claimed PDF and store it. Template and database work happen here, in the
    caller's thread; only WeasyPrint runs in the worker. A render that outlasts the time
    bound goes on there and stores its PDF when done (``ReportPreparing`` meanwhile).
    ``ref`` names the report in logs (never the customer's name or company)."""
    if not harfbuzz_subset_available():
        _give_up(row)
        raise ImproperlyConfigured("WeasyPrint lacks HarfBuzz subsetting (check documents.E001)")
    timeout = render_timeout()
    try:
        html, attachment = pdf_sources(data)
        future = _executor.submit(html_to_pdf, html, attachment=attachment,
                                  created=created_at(data), language=data.language_code)
        pdf = future.result(timeout=timeout).content
    except FuturesTimeout:
        logger.error("report render timed out after %.1f s (report %s); it goes on", timeout,
                     ref)
        future.add_done_callback(lambda done: _finish_late(row, done, ref))
        raise ReportPreparing from None
    except Exception as exc:
        # The exception text may quote the document; log only its type.
        _give_up(row)
        logger.error("report render failed: %s (report %s)", type(exc).__name__, ref)
        raise ReportUnavailable from None
    _store(row, pdf)
    return pdf


def _finish_late(row: ReportPdf, future, ref: str) -> None:
    """In the render worker: store (or give up) a render its caller stopped waiting for.
    Nothing may escape: a failure here leaves the claim to go stale and be taken over."""
    try:
        pdf = future.result().content
    except Exception as exc:
        logger.error("report render failed: %s (report %s)", type(exc).__name__, ref)
        pdf = None
    try:
        if pdf is None:
            _give_up(row)
        else:
            _store(row, pdf)
    except Exception as exc:
        logger.error("rendered report not stored: %s (report %s)", type(exc).__name__, ref)
    finally:
        close_old_connections()


def delete_cached_reports(lead) -> None:
    """Drop the lead's cached PDFs (they carry the customer's name), found by lead; again
    after commit, in case a render under way stored one meanwhile.
    selector.leads.lifecycle.delete_lead calls it (deleting the lead would cascade)."""

    def drop() -> None:
        ReportPdf.objects.filter(lead_id=lead.pk).delete()

    drop()
    transaction.on_commit(drop, robust=True)


def purge_cached_reports(now=None) -> int:
    """Delete cached PDFs older than REPORT_CACHE_SECONDS, and claims abandoned that long;
    a later download renders again. Returns how many rows went."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.REPORT_CACHE_SECONDS)
    deleted, _ = ReportPdf.objects.filter(
        Q(rendered_at__lt=cutoff) | Q(rendered_at__isnull=True, claimed_at__lt=cutoff)
    ).delete()
    return deleted


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
