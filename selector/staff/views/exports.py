"""The lead list's exports (CSV and Excel), streamed, each logged in ExportLog."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import BooleanField, Case, Value, When
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from selector.staff import export, permissions, queries
from selector.staff.access import contact_scope, staff_required
from selector.staff.models import ExportLog
from selector.staff.services import logged_filters
from selector.staff.views.lead_list import _filter_form


def _export(request, fmt: str):
    """The filtered leads and an ExportLog row (who, when, which filters); the row count
    is written when the last byte has been streamed (None: the download was cut short)."""
    if not permissions.can_export(request.user):
        raise PermissionDenied
    form = _filter_form(request)
    if form.is_bound and not form.is_valid():
        return None, None
    cleaned = form.cleaned_data if form.is_bound else {}
    filters = logged_filters(cleaned)
    log = ExportLog.objects.create(actor=request.user, format=fmt, filters=filters)

    def done(count: int) -> None:
        ExportLog.objects.filter(pk=log.pk).update(row_count=count, finished=True)

    qs = queries.filtered_leads(cleaned, request.user)
    scope = contact_scope(request.user)
    if scope is not None:
        # Someone given the export permission without being a manager: the contact of the
        # leads they do not own (or have not revealed) stays out of the file.
        qs = qs.annotate(contact_shown=Case(When(scope, then=Value(True)),
                                            default=Value(False), output_field=BooleanField()))
    return qs, done


def _export_name(ext: str) -> str:
    return f"leads-{timezone.localtime():%Y%m%d-%H%M}.{ext}"


def _attachment(response, ext: str):
    response["Content-Disposition"] = f'attachment; filename="{_export_name(ext)}"'
    response["Cache-Control"] = "no-store"
    return response


@require_safe
@staff_required
def export_csv(request: HttpRequest) -> HttpResponse:
    qs, done = _export(request, "csv")
    if qs is None:
        return HttpResponse(_("Invalid filters."), status=400, content_type="text/plain")
    return _attachment(StreamingHttpResponse(export.csv_chunks(qs, done),
                                             content_type="text/csv; charset=utf-8"), "csv")


@require_safe
@staff_required
def export_xlsx(request: HttpRequest) -> HttpResponse:
    qs, done = _export(request, "xlsx")
    if qs is None:
        return HttpResponse(_("Invalid filters."), status=400, content_type="text/plain")
    return _attachment(StreamingHttpResponse(
        export.xlsx_chunks(qs, _("Leads"), done),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        "xlsx")
