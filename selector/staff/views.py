"""The sales workspace (/staff/). Thin function views: every one is wrapped in
``staff_required`` and reaches a lead only through ``get_lead_for_user``; writes go
through selector.staff.services."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import FileResponse, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from selector.content.queries import company
from selector.core.explain import FABRIC_SHORT
from selector.domain import Answers, Fabric, InvalidAnswers
from selector.leads.models import Lead, LeadEvent, Score, Status
from selector.leads.snapshots import lead_recommendation
from selector.planner.presenter import present
from selector.staff import charts, export, lockout, permissions, queries, services
from selector.staff import middleware as staff_session
from selector.staff.access import get_lead_for_user, staff_required
from selector.staff.forms import (
    AssignForm,
    BulkForm,
    DashboardForm,
    DeleteForm,
    LeadFilterForm,
    LoginForm,
    NoteForm,
    StatusForm,
    UnlockForm,
    owner_choices,
)

PAGE_SIZE = 50
_ZERO_UUID = uuid.UUID(int=0)
# Counting every match of a broad filter over 200,000 leads costs more than the page; the
# count stops here and the page says "more than 1,000" (narrow the filters to go further).
COUNT_CAP = 1_000


# The columns the list's table shows (and the owner's username): the rest of the row,
# the big JSON snapshot above all, stays in the database.
LIST_COLUMNS = ("public_id", "report_number", "created_at", "name", "company", "answers",
                "recommendation", "score", "status", "utm_source", "owner__username")


class CappedPaginator(Paginator):
    """Pages of a lead list whose count stops at COUNT_CAP + 1.

    One unordered probe, ``SELECT id ... LIMIT cap + 1`` (nothing to sort to count, so a
    broad filter stops at its first matches and a narrow search reads only its trigram
    candidates), gives the count. When it found them all (a narrow filter), the page is
    read by primary key from those ids, sorted in the database: the page query cannot
    then walk the created_at index through 200,000 rows looking for 50 rare matches.
    Only when there are more than the cap (matches are dense) is the page the plain
    ORDER BY ... LIMIT query."""

    def __init__(self, object_list, per_page, **kwargs):
        super().__init__(object_list, per_page, **kwargs)
        self.probe = list(object_list.order_by().values_list("pk", flat=True)[: COUNT_CAP + 1])

    @cached_property
    def count(self) -> int:
        return len(self.probe)

    @property
    def capped(self) -> bool:
        return self.count > COUNT_CAP

    def page(self, number):
        page = super().page(number)
        if not self.capped:
            bottom = (page.number - 1) * self.per_page
            page.object_list = self.object_list.filter(pk__in=self.probe)[
                bottom:bottom + self.per_page]
        return page


PIPELINE = [Status.NEW, Status.CONTACTED, Status.QUALIFIED, Status.PROPOSAL, Status.WON,
            Status.LOST]


# --- log in / out ------------------------------------------------------------------------

class _LoginView(auth_views.LoginView):
    """The one log-in page: /staff/login/ and /admin/login/ (the admin's own form is
    replaced, so the throttle and its message apply to both)."""

    template_name = "staff/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = False

    def form_valid(self, form):
        response = super().form_valid(form)
        staff_session.start(self.request)
        lockout.record_success(self.request, response, form.get_user().get_username())
        return response

    def get_default_redirect_url(self):
        # A rejected or missing "next": the workspace for sales roles, the admin index
        # for admin editors (the workspace does not exist for them).
        user = self.request.user
        if not permissions.is_staff_member(user) and user.is_staff:
            return reverse("admin:index")
        return reverse("staff:lead_list")


login = never_cache(_LoginView.as_view())


@require_POST
def logout(request: HttpRequest) -> HttpResponse:
    from django.contrib.auth import logout as auth_logout

    auth_logout(request)
    messages.info(request, _("You have logged out."))
    return redirect("staff:login")


# --- lead list ---------------------------------------------------------------------------

def _filter_form(request, owners=None):
    return LeadFilterForm(request.GET or None, user=request.user, owners=owners)


def _query_without(request, *names: str) -> str:
    params = request.GET.copy()
    for name in names:
        params.pop(name, None)
    return params.urlencode()


@require_safe
@staff_required
@never_cache
def lead_list(request: HttpRequest) -> HttpResponse:
    is_manager = permissions.is_manager(request.user)
    owners = owner_choices() if is_manager else []
    form = _filter_form(request, owners)
    status = 200
    page = None
    if form.is_bound and not form.is_valid():
        status = 400
    else:
        cleaned = form.cleaned_data if form.is_bound else {}
        qs = (queries.filtered_leads(cleaned, request.user).select_related("owner")
              .only(*LIST_COLUMNS))
        page = CappedPaginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
        page.object_list = list(page.object_list)
        _label_rows(page.object_list)
    context = {
        "form": form,
        "page": page,
        "query": _query_without(request, "page"),
        "query_no_sort": _query_without(request, "page", "sort"),
        "sort": (form.cleaned_data.get("sort") if form.is_bound and form.is_valid() else "")
        or "-created",
        "count_cap": COUNT_CAP,
        "is_manager": is_manager,
        "can_export": permissions.can_export(request.user),
        "bulk_form": BulkForm(owners=owners) if permissions.can_bulk_edit(request.user)
        else None,
    }
    template = "staff/lead_list.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#results"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _label_rows(leads) -> None:
    """Translated labels and the detail link made once per page, not per row in the
    template (one reverse() and a string replace instead of fifty reverse() calls)."""
    placeholder = str(_ZERO_UUID)
    detail_url = reverse("staff:lead_detail", args=[placeholder])
    fabrics = {f.value: str(FABRIC_SHORT[f]) for f in Fabric}
    statuses = {k: str(v) for k, v in Status.choices}
    scores = {k: str(v) for k, v in Score.choices}
    for lead in leads:
        lead.recommendation_label = fabrics.get(lead.recommendation, lead.recommendation)
        lead.status_label = statuses.get(lead.status, lead.status)
        lead.score_label = scores.get(lead.score, lead.score)
        lead.detail_url = detail_url.replace(placeholder, str(lead.public_id))


@require_POST
@staff_required
def lead_bulk(request: HttpRequest) -> HttpResponse:
    if not permissions.can_bulk_edit(request.user):
        raise PermissionDenied
    form = BulkForm(request.POST)
    back = reverse("staff:lead_list") + ("?" + request.POST["next_query"][:2000]
                                         if request.POST.get("next_query") else "")
    if not form.is_valid():
        for error in form.errors.values():
            messages.error(request, " ".join(error))
        return redirect(back)
    leads = list(Lead.objects.filter(public_id__in=form.cleaned_data["leads"])
                 .select_related("owner"))
    owner_choice = form.cleaned_data.get("owner")
    changed = services.leads_bulk_update(
        leads=leads, actor=request.user, status=form.cleaned_data.get("status") or None,
        owner=form.owner_user(), set_owner=bool(owner_choice))
    messages.success(request, _("%(count)s leads changed.") % {"count": changed})
    return redirect(back)


# --- exports -----------------------------------------------------------------------------

def _export_queryset(request):
    if not permissions.can_export(request.user):
        raise PermissionDenied
    form = _filter_form(request)
    if form.is_bound and not form.is_valid():
        return None
    return queries.filtered_leads(form.cleaned_data if form.is_bound else {}, request.user)


def _export_name(ext: str) -> str:
    return f"leads-{timezone.localtime():%Y%m%d-%H%M}.{ext}"


@require_safe
@staff_required
def export_csv(request: HttpRequest) -> HttpResponse:
    qs = _export_queryset(request)
    if qs is None:
        return HttpResponse(_("Invalid filters."), status=400, content_type="text/plain")
    response = StreamingHttpResponse(export.csv_chunks(qs),
                                     content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_export_name("csv")}"'
    response["Cache-Control"] = "no-store"
    return response


@require_safe
@staff_required
def export_xlsx(request: HttpRequest) -> HttpResponse:
    qs = _export_queryset(request)
    if qs is None:
        return HttpResponse(_("Invalid filters."), status=400, content_type="text/plain")
    handle = export.write_xlsx(qs, title=_("Leads"))
    response = FileResponse(
        handle, as_attachment=True, filename=_export_name("xlsx"),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Cache-Control"] = "no-store"
    return response


# --- one lead ----------------------------------------------------------------------------

def _share_url(request, lead: Lead) -> str:
    try:
        from selector.wizard.sharing import share_token

        token = share_token(Answers.from_dict(lead.answers))
        return reverse("wizard:shared", args=[token])
    except (InvalidAnswers, ImportError, Exception):  # noqa: BLE001 - link is optional
        return ""


def _report_url(lead: Lead) -> str:
    for name in ("reports:staff_download", "reports:staff"):
        try:
            return reverse(name, args=[lead.public_id])
        except Exception:  # noqa: S112 - the reports app may not offer it (yet)
            continue
    return ""


def _event_text(event: LeadEvent) -> str:
    data = event.data or {}
    if event.kind == LeadEvent.Kind.STATUS_CHANGED:
        names = dict(Status.choices)
        return _("Status changed from %(old)s to %(new)s") % {
            "old": names.get(data.get("from"), data.get("from")),
            "new": names.get(data.get("to"), data.get("to"))}
    if event.kind == LeadEvent.Kind.OWNER_CHANGED:
        return _("Owner changed from %(old)s to %(new)s") % {
            "old": data.get("from") or _("nobody"), "new": data.get("to") or _("nobody")}
    if event.kind == LeadEvent.Kind.NOTE:
        return data.get("text", "")
    if event.kind in (LeadEvent.Kind.NOTIFIED, LeadEvent.Kind.NOTIFICATION_FAILED):
        channel = data.get("channel", "")
        return str(event.get_kind_display()) + (f" ({channel})" if channel else "")
    return str(event.get_kind_display())


def _lead_context(request, lead: Lead, **extra) -> dict:
    user = request.user
    events = list(lead.events.select_related("actor").order_by("-created_at", "-pk")[:200])
    # The recommendation frozen when the lead was created, through the one presenter: the
    # same numbers as the customer's PDF and its JSON-LD.
    vm = present(lead_recommendation(lead), company=company(), id_prefix="lead")
    context = {
        "lead": lead,
        "vm": vm,
        "answers_rows": [(row.label, row.value) for row in vm.answer_rows],
        "recommendation_label": vm.recommendation_label,
        "rule_title": vm.rule_title,
        "events": [(e, _event_text(e)) for e in events],
        "pipeline": PIPELINE,
        "can_work": permissions.can_work_on(user, lead),
        "can_delete": permissions.can_delete(user, lead),
        "is_manager": permissions.is_manager(user),
        "can_take": permissions.can_assign(user, lead, user) and lead.owner_id != user.pk,
        "status_form": StatusForm(initial={"status": lead.status}),
        "note_form": NoteForm(),
        "assign_form": AssignForm(user=user, lead=lead,
                                  initial={"owner": lead.owner_id or ""}),
        "share_url": _share_url(request, lead),
        "report_url": _report_url(lead),
    }
    context.update(extra)
    return context


@require_safe
@staff_required
@never_cache
def lead_detail(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="view")
    return render(request, "staff/lead_detail.html", _lead_context(request, lead))


def _detail(lead: Lead) -> HttpResponse:
    return redirect("staff:lead_detail", public_id=lead.public_id)


@require_POST
@staff_required
def lead_status(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="work")
    form = StatusForm(request.POST)
    if not form.is_valid():
        return render(request, "staff/lead_detail.html",
                      _lead_context(request, lead, status_form=form), status=400)
    services.lead_change_status(lead=lead, status=form.cleaned_data["status"],
                                actor=request.user)
    messages.success(request, _("Status saved."))
    return _detail(lead)


@require_POST
@staff_required
def lead_note(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="work")
    form = NoteForm(request.POST)
    if not form.is_valid():
        return render(request, "staff/lead_detail.html",
                      _lead_context(request, lead, note_form=form), status=400)
    services.lead_add_note(lead=lead, text=form.cleaned_data["text"], actor=request.user)
    messages.success(request, _("Note added."))
    return _detail(lead)


@require_POST
@staff_required
def lead_assign(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="view")
    form = AssignForm(request.POST, user=request.user, lead=lead)
    if not form.is_valid():
        return render(request, "staff/lead_detail.html",
                      _lead_context(request, lead, assign_form=form), status=400)
    owner = form.cleaned_data["owner"]
    if not permissions.can_assign(request.user, lead, owner):
        raise PermissionDenied
    try:
        services.lead_assign(lead=lead, owner=owner, actor=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Owner saved."))
    return _detail(lead)


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required
@never_cache
def lead_delete(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="delete")
    form = DeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.lead_delete_on_request(lead=lead, actor=request.user,
                                        reason=form.cleaned_data["reason"])
        messages.success(request, _("The lead and its personal data were deleted. An "
                                    "anonymous record of the deletion was kept."))
        return redirect("staff:lead_list")
    return render(request, "staff/lead_delete.html", {"lead": lead, "form": form},
                  status=400 if form.is_bound else 200)


# --- dashboard ---------------------------------------------------------------------------

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
    weeks = queries.leads_per_week(figures)
    mix = queries.recommendation_mix(figures)
    sources = queries.conversion_by_source(figures)
    context = {
        "form": form,
        "computed_at": figures["computed_at"],
        "stages": stages,
        "funnel_chart": charts.horizontal_bars([(s["label"], s["count"]) for s in stages]),
        "weeks": weeks,
        "weeks_chart": charts.vertical_bars([(w["label"], w["count"]) for w in weeks]),
        "mix": mix,
        "mix_chart": charts.horizontal_bars([(m["label"], m["count"]) for m in mix]),
        "sources": sources,
        "sources_chart": charts.horizontal_bars(
            [(s["source"] or _("(direct)"), s["leads"]) for s in sources]),
    }
    return render(request, "staff/dashboard.html", context)


# --- security (managers) -----------------------------------------------------------------

@require_http_methods(["GET", "HEAD", "POST"])
@staff_required
@never_cache
def security(request: HttpRequest) -> HttpResponse:
    """Managers see the log-in throttles in force and lift them (a colleague who mistyped
    their password too often, or after an attack from the office network)."""
    if not permissions.is_manager(request.user):
        raise PermissionDenied
    if request.method == "POST":
        form = UnlockForm(request.POST)
        if form.is_valid():
            lockout.unlock(form.cleaned_data["username"])
            messages.success(request, _("Log-in for %(username)s unlocked.") % {
                "username": form.cleaned_data["username"]})
        return redirect("staff:security")
    return render(request, "staff/security.html", {"throttles": lockout.summary()})
