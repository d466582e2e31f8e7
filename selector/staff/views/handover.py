"""The background jobs on many leads (staff.Handover) and their progress pages: managers
hand over all open leads of one person to another (/staff/handover/, progress at
/staff/handover/<id>/); the lead list's bulk change on all that match a filter
(selector.staff.bulk) shows its progress at /staff/leads/bulk/<id>/ to whoever started it
(and to managers)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from selector.core.htmx import HtmxHttpRequest
from selector.staff import bulk, permissions, services
from selector.staff.access import staff_required
from selector.staff.forms import HandoverForm
from selector.staff.models import Handover

RECENT = 20


def _managers_only(request: HttpRequest) -> None:
    if not permissions.can_bulk_edit(request.user):
        raise PermissionDenied


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required
@never_cache
def handover(request: HttpRequest) -> HttpResponse:
    _managers_only(request)
    form = HandoverForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            job = services.handover_start(actor=request.user,
                                          from_user=form.cleaned_data["from_user"],
                                          to_user=form.cleaned_data["to_user"])
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return HttpResponseRedirect(reverse("staff:handover_status", args=[job.pk]),
                                        status=303)
    return render(request, "staff/handover.html", {
        "form": form, "jobs": _recent()}, status=400 if form.is_bound else 200)


@require_safe
@staff_required
@never_cache
def handover_status(request: HttpRequest, pk: int) -> HttpResponse:
    _managers_only(request)
    job = get_object_or_404(Handover.objects.select_related("from_user", "to_user", "actor"),
                            pk=pk, kind=Handover.Kind.HANDOVER)
    return render(request, "staff/handover.html", {
        "form": HandoverForm(), "job": job, "jobs": _recent(),
        "running": job.status in (Handover.Status.QUEUED, Handover.Status.RUNNING)})


def _recent():
    return Handover.objects.filter(kind=Handover.Kind.HANDOVER).select_related(
        "from_user", "to_user", "actor")[:RECENT]


@require_safe
@staff_required
@never_cache
def bulk_job(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A bulk change's progress: refreshes itself while it runs (<meta http-equiv=refresh>
    without JavaScript; htmx polls the progress block)."""
    job = Handover.objects.select_related("to_user", "actor").filter(
        pk=pk, kind=Handover.Kind.BULK).first()
    if job is None or not (job.actor_id == request.user.pk
                           or permissions.is_manager(request.user)):
        raise Http404
    running = job.status in (Handover.Status.QUEUED, Handover.Status.RUNNING)
    template = "staff/bulk_job.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#progress"
    return render(request, template, {
        "job": job, "running": running, "change": bulk.change_text(job, job.to_user),
        "query": urlencode(job.filters, doseq=True)})
