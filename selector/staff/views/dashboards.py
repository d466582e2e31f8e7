"""The dashboard (everyone) and the managers' pages: pipeline, audit."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from selector.leads import deliveries as lead_deliveries
from selector.leads import routing
from selector.leads.models import Delivery, LeadEvent
from selector.staff import charts, permissions, queries
from selector.staff.access import staff_required
from selector.staff.forms import DashboardForm
from selector.staff.models import ExportLog, LeadDeletion
from selector.staff.views.lead_page import PIPELINE


@require_safe
@staff_required
@never_cache
def dashboard(request: HttpRequest) -> HttpResponse:
    form = DashboardForm(request.GET or None)
    if form.is_bound and not form.is_valid():
        return render(request, "staff/dashboard.html", {"form": form}, status=400)
    if not form.is_bound:
        form = DashboardForm({"period": "90"})
        form.is_valid()
    start, end = form.dates()
    source = form.cleaned_data.get("source") or ""
    figures = queries.dashboard_figures(start, end, source)
    stages = queries.funnel(figures)
    weeks = queries.leads_per_week(figures, start, end)
    mix = queries.recommendation_mix(figures)
    sources = queries.conversion_by_source(figures)
    context = {
        "form": form,
        "computed_at": figures["computed_at"],
        "stages": stages,
        "funnel_chart": charts.horizontal_bars([(s["label"], s["count"]) for s in stages]),
        "weeks": weeks,
        "weeks_chart": charts.vertical_bars(
            [(_("%(week)s (partial week: %(days)s of 7 days)") % {
                "week": w["label"], "days": w["days"]} if w["partial"]
              else w["label"], w["count"]) for w in weeks]),
        "partial_weeks": any(w["partial"] for w in weeks),
        "mix": mix,
        "mix_chart": charts.horizontal_bars([(m["label"], m["count"]) for m in mix]),
        "sources": sources,
        "sources_chart": charts.horizontal_bars(
            [(s["source"] or _("(direct)"), s["leads"]) for s in sources]),
    }
    return render(request, "staff/dashboard.html", context)



def _manager_only(request) -> None:
    if not permissions.is_manager(request.user):
        raise PermissionDenied


@require_safe
@staff_required
@never_cache
def manager(request: HttpRequest) -> HttpResponse:
    """The sales manager's page: pipeline by owner x stage, won/lost by source and
    campaign, first-response time per rep, stale leads."""
    _manager_only(request)
    form = DashboardForm(request.GET or None)
    if form.is_bound and not form.is_valid():
        return render(request, "staff/manager.html", {"form": form}, status=400)
    if not form.is_bound:
        form = DashboardForm({"period": "90"})
        form.is_valid()
    start, end = form.dates()
    figures = queries.manager_figures(start, end)
    pipeline = figures["pipeline"]
    stages = [{"status": s, "label": s.label,
               "count": sum(r["cells"].get(s.value, {}).get("count", 0)
                            for r in pipeline["rows"]),
               "value": sum((r["cells"].get(s.value, {}).get("value") or 0)
                            for r in pipeline["rows"])} for s in PIPELINE]
    for row in pipeline["rows"]:
        row["line"] = [row["cells"].get(s.value, {"count": 0, "value": None}) for s in PIPELINE]
        row["total"] = sum(c["count"] for c in row["line"])
    won_lost = figures["won_lost"]
    response_times = figures["response_times"]
    stale = figures["stale"]
    for lead in stale["oldest"]:
        lead.detail_url = reverse("staff:lead_detail", args=[lead.public_id])
    context = {
        "form": form, "computed_at": figures["computed_at"],
        "pipeline": pipeline, "stages": PIPELINE, "stage_totals": stages,
        "stage_chart": charts.horizontal_bars([(str(s["label"]), s["count"]) for s in stages]),
        "won_lost": won_lost[:20],
        "won_lost_chart": charts.horizontal_bars(
            [(f"{r['source'] or _('(direct)')} / {r['campaign'] or '—'}", r["won"])
             for r in won_lost[:10]]),
        "response_times": response_times,
        "response_chart": charts.horizontal_bars(
            [(r["rep"] or "—", r["avg_minutes"] or 0) for r in response_times]),
        "stale": stale, "stale_days": settings.STAFF_STALE_DAYS,
        "routing": _routing_summary(),
    }
    return render(request, "staff/manager.html", context)


def _routing_summary() -> dict:
    """The active routing rule as the page states it (the team joined the language's way)."""
    summary = routing.summary()
    if summary["rule"] is not None:
        separator = "、" if (translation.get_language() or "").startswith("zh") else ", "
        summary["team_text"] = separator.join(summary["team"]) or "—"
    return summary


@require_safe
@staff_required
@never_cache
def audit(request: HttpRequest) -> HttpResponse:
    """Managers: the anonymous deletion records and the export log."""
    _manager_only(request)
    return render(request, "staff/audit.html", {
        "deletions": LeadDeletion.objects.select_related("actor")[:200],
        "exports": ExportLog.objects.select_related("actor")[:200],
        "reveals": LeadEvent.objects.filter(kind=LeadEvent.Kind.CONTACT_REVEALED)
        .select_related("actor", "lead").order_by("-created_at")[:200],
    })


@require_safe
@staff_required
@never_cache
def deliveries(request: HttpRequest) -> HttpResponse:
    """Managers: the messages about leads that are not sent (selector.leads.deliveries):
    waiting (queued, being sent, or between retries) and failed, newest first.
    ``?status=failed`` or ``?status=waiting`` narrows the list."""
    _manager_only(request)
    rows = lead_deliveries.open_deliveries()
    shown = request.GET.get("status", "")
    if shown == "failed":
        rows = rows.filter(status=Delivery.Status.FAILED)
    elif shown == "waiting":
        rows = rows.exclude(status=Delivery.Status.FAILED)
    else:
        shown = ""
    late = timezone.now() - lead_deliveries.LATE_AFTER
    counts = {"failed": lead_deliveries.open_deliveries()
              .filter(status=Delivery.Status.FAILED).count(),
              "waiting": lead_deliveries.open_deliveries()
              .exclude(status=Delivery.Status.FAILED).count()}
    shown_rows = list(rows[:200])
    for row in shown_rows:
        row.error_label = lead_deliveries.error_label(row.error)  # type: ignore[attr-defined]
    return render(request, "staff/deliveries.html", {
        "rows": shown_rows, "shown": shown, "counts": counts, "late": late,
        "late_minutes": int(lead_deliveries.LATE_AFTER.total_seconds() // 60)})
