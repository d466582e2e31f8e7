"""The sales workspace (/staff/). Thin function views: every one is wrapped in
``staff_required`` and reaches a lead only through ``get_lead_for_user``; writes go
through selector.staff.services."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Mapping
from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.timesince import TIME_STRINGS, timesince
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice

from selector.content.queries import company
from selector.core.explain import FABRIC_SHORT
from selector.core.htmx import HtmxHttpRequest
from selector.domain import Answers, Fabric, InvalidAnswers
from selector.leads import worktime
from selector.leads.models import (
    DuplicateFlag,
    Lead,
    LeadEvent,
    LostReason,
    NextActionKind,
    Score,
    Status,
)
from selector.leads.snapshots import lead_recommendation
from selector.planner.presenter import present
from selector.reports import views as report_views
from selector.staff import charts, export, lockout, mfa, paging, permissions, queries, services
from selector.staff import middleware as staff_session
from selector.staff.access import get_lead_for_user, staff_or_admin_required, staff_required
from selector.staff.forms import (
    OUTCOME_LABELS,
    ActivityForm,
    AssignForm,
    BulkForm,
    CodeForm,
    DashboardForm,
    DeleteForm,
    LeadFilterForm,
    LoginForm,
    MergeForm,
    MfaResetForm,
    NextActionForm,
    NoteForm,
    StatusForm,
    UnlockForm,
    owner_choices,
)
from selector.staff.models import ExportLog, LeadDeletion
from selector.wizard.sharing import share_token

PAGE_SIZE = 50
_ZERO_UUID = uuid.UUID(int=0)
# Counting every match of a broad filter over 200,000 leads costs more than the page; the
# count stops here and the page says "more than 1,000". Paging is by keyset
# (selector.staff.paging), so every matching lead stays reachable whatever the count.
COUNT_CAP = 1_000


# The columns the list shows (and the owner's username): the rest of the row, the big
# JSON snapshot above all, stays in the database.
LIST_COLUMNS = (*queries.ROW_COLUMNS, "owner__username")


class CappedCount:
    """The number of matches, exact up to COUNT_CAP.

    One unordered probe, ``SELECT id ... LIMIT cap + 1`` (nothing to sort to count, so a
    broad filter stops at its first matches and a narrow search reads only its trigram
    candidates). When it found them all (a narrow filter), pages are read by primary key
    from those ids, so the page query cannot walk the created_at index through 200,000
    rows looking for 50 rare matches."""

    def __init__(self, qs):
        self.probe = list(qs.order_by().values_list("pk", flat=True)[: COUNT_CAP + 1])
        self.count = len(self.probe)
        self.capped = self.count > COUNT_CAP

    def narrowed(self, qs):
        return qs if self.capped else qs.filter(pk__in=self.probe)


PIPELINE = [Status.NEW, Status.CONTACTED, Status.QUALIFIED, Status.PROPOSAL, Status.WON,
            Status.LOST]


# --- log in / out ------------------------------------------------------------------------

class _LoginView(auth_views.LoginView):
    """The one log-in page: /staff/login/ and /admin/login/ (the admin's own form is
    replaced, so the throttle, its message and the second step apply to both)."""

    template_name = "staff/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = False

    def form_valid(self, form):
        user = form.get_user()
        redirect_to = self.get_redirect_url() or _landing(user)
        if mfa.required(user):
            mfa.begin(self.request, user, redirect_to)
            lockout.forgive(self.request, user.get_username())  # the password was right
            return redirect("staff:mfa_verify" if mfa.has_authenticator(user)
                            else "staff:mfa_setup")
        self.request.session[mfa.CHECKED_KEY] = True
        return _logged_in(self.request, user, None, redirect_to)

    def get_default_redirect_url(self):
        return _landing(self.request.user)


def _landing(user) -> str:
    """Where a log-in without a usable "next" lands: the workspace for sales roles, the
    admin index for admin editors (the workspace does not exist for them)."""
    if not permissions.is_staff_member(user) and user.is_staff:
        return reverse("admin:index")
    return reverse("staff:my_day")


def _logged_in(request, user, device, redirect_to: str) -> HttpResponse:
    """Start the staff session (after the second step, when there is one)."""
    auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if device is not None:
        otp_login(request, device)
    staff_session.start(request)
    response = redirect(redirect_to or _landing(user))
    lockout.record_success(request, response, user.get_username())
    return response


login = never_cache(_LoginView.as_view())


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def mfa_verify(request: HttpRequest) -> HttpResponse:
    """Second step: a code from the authenticator app or a recovery code."""
    user = mfa.pending_user(request)
    if user is None:
        if request.user.is_authenticated:
            return redirect(_landing(request.user))
        messages.info(request, _("Please log in."))
        return redirect("staff:login")
    if not mfa.has_authenticator(user):
        return redirect("staff:mfa_setup")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device = mfa.verify(user, form.cleaned_data["code"])
        if device is not None:
            redirect_to = mfa.pending_next(request)
            mfa.end_pending(request)
            response = _logged_in(request, user, device, redirect_to)
            if isinstance(device, StaticDevice):
                messages.warning(request, _(
                    "You used a recovery code; %(left)s are left. Set up new codes on the "
                    "two-factor page if you are running low.") % {
                    "left": mfa.remaining_recovery_codes(user)})
            return response
        if mfa.pending_failed(request):
            messages.error(request, _("Too many wrong codes. Please log in again."))
            return redirect("staff:login")
        form.add_error("code", _("This code is not right, or it has been used. Check your "
                                 "app's clock and try the current code."))
    return render(request, "staff/mfa_verify.html", {"form": form},
                  status=400 if form.is_bound else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def mfa_setup(request: HttpRequest) -> HttpResponse:
    """Enrol an authenticator: half-way through a log-in (MFA required, none yet), or from
    the two-factor page of a logged-in user. The first code confirms it; the recovery
    codes are shown once."""
    pending = mfa.pending_user(request)
    user = pending or (request.user if request.user.is_authenticated else None)
    if user is None:
        return redirect("staff:login")
    if pending is None and not (permissions.is_staff_member(user) or user.is_staff):
        raise Http404
    device = mfa.unconfirmed_authenticator(user)
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        codes = mfa.confirm(device, form.cleaned_data["code"])
        if codes is not None:
            if pending is not None:
                redirect_to = mfa.pending_next(request)
                mfa.end_pending(request)
                _logged_in(request, user, device, redirect_to)
            else:
                otp_login(request, device)
            return render(request, "staff/mfa_codes.html", {
                "codes": codes, "next": redirect_to if pending is not None else
                reverse("staff:mfa")})
        if pending is not None and mfa.pending_failed(request):
            messages.error(request, _("Too many wrong codes. Please log in again."))
            return redirect("staff:login")
        form.add_error("code", _("This code is not right. Scan the QR code again and enter "
                                 "the code your app shows now."))
    return render(request, "staff/mfa_setup.html", {
        "form": form, "qr": mfa.qr_svg(device), "secret": mfa.secret_text(device),
        "pending": pending is not None}, status=400 if form.is_bound else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@staff_or_admin_required
@never_cache
def mfa_page(request: HttpRequest) -> HttpResponse:
    """A logged-in user's two-factor page: status, new recovery codes, turn it off (only
    when it is not required)."""
    user = request.user
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "codes" and mfa.has_authenticator(user):
            return render(request, "staff/mfa_codes.html", {
                "codes": mfa.new_recovery_codes(user), "next": reverse("staff:mfa")})
        if action == "off" and not settings.STAFF_MFA_REQUIRED:
            mfa.reset(user)
            messages.success(request, _("Two-factor log-in is off."))
        return redirect("staff:mfa")
    return render(request, "staff/mfa.html", {
        "enabled": mfa.has_authenticator(user),
        "required": settings.STAFF_MFA_REQUIRED,
        "codes_left": mfa.remaining_recovery_codes(user),
    })


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
def lead_list(request: HtmxHttpRequest) -> HttpResponse:
    is_manager = permissions.is_manager(request.user)
    owners = owner_choices() if is_manager else []
    form = _filter_form(request, owners)
    status = 200
    page = counted = None
    sort = "-created"
    if form.is_bound and not form.is_valid():
        status = 400
    else:
        cleaned = form.cleaned_data if form.is_bound else {}
        sort = cleaned.get("sort") or "-created"
        qs = queries.filtered_leads(cleaned, request.user)
        counted = CappedCount(qs)
        page = paging.page(counted.narrowed(qs).select_related("owner").only(*LIST_COLUMNS),
                           queries.SORTS[sort], size=PAGE_SIZE,
                           after=request.GET.get("after"), before=request.GET.get("before"))
        _label_rows(page.object_list)
    context = {
        "form": form,
        "page": page,
        "counted": counted,
        "query": _query_without(request, "after", "before"),
        "query_no_sort": _query_without(request, "after", "before", "sort"),
        "sort": sort,
        "sort_links": _sort_links(request, sort),
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


# Column -> (ascending sort, descending sort); the first click gives what a rep expects
# first (newest, hottest, pipeline order, A–Z), the second the reverse.
SORT_COLUMNS = {"created": ("-created", "created"), "name": ("name", "-name"),
                "company": ("company", "-company"), "score": ("score", "-score"),
                "status": ("status", "-status")}


def _sort_links(request, sort: str) -> dict:
    base = _query_without(request, "after", "before", "sort")
    links = {}
    for column, (first, second) in SORT_COLUMNS.items():
        target = second if sort == first else first
        state = "ascending" if sort == first else "descending" if sort == second else "none"
        if column == "created":  # newest first is "descending" in time
            state = {"ascending": "descending", "descending": "ascending"}.get(state, state)
        links[column] = {"url": "?" + (base + "&" if base else "") + f"sort={target}",
                         "state": state}
    return links


class _UnitText:
    """One of timesince()'s unit strings ("%(num)d days") for one page: each number is
    translated once, where Django's own resolves a lazy ngettext for every row."""

    def __init__(self, text):
        self.text = text
        self.done: dict[int, str] = {}

    def __mod__(self, params: dict) -> str:
        num = params["num"]
        done = self.done.get(num)
        if done is None:
            done = self.done[num] = str(self.text % params)
        return done


def page_time_strings() -> dict:
    """time_strings for django.utils.timesince.timesince: the same text, made once per page."""
    return {name: _UnitText(text) for name, text in TIME_STRINGS.items()}


def _local_texts(value: datetime, formats: tuple[str, ...]) -> tuple[str, ...]:
    """``value|date:'c'`` and other ``|date`` formats of a row, from one conversion to
    local time (the filter converts and parses its format once per cell)."""
    local = timezone.localtime(value)
    return tuple(local.isoformat() if f == "c" else local.strftime(f) for f in formats)


def _label_rows(leads) -> None:
    """Translated labels, flags, times and the detail link made once per page, not per row
    in the template (one reverse() and a string replace instead of fifty reverse() calls;
    each word translated once)."""
    placeholder = str(_ZERO_UUID)
    detail_url = reverse("staff:lead_detail", args=[placeholder])
    take_url = reverse("staff:lead_take", args=[placeholder])
    fabrics = {f.value: str(FABRIC_SHORT[f]) for f in Fabric}
    statuses = {k: str(v) for k, v in Status.choices}
    scores = {k: str(v) for k, v in Score.choices}
    actions = {k: str(v) for k, v in NextActionKind.choices}
    ago, created_ago = _("%(age)s ago"), _("created %(age)s ago")
    units = page_time_strings()
    now = timezone.now()
    for lead in leads:
        lead.recommendation_label = fabrics.get(lead.recommendation, lead.recommendation)
        lead.status_label = statuses.get(lead.status, lead.status)
        lead.score_label = scores.get(lead.score, lead.score)
        lead.detail_url = detail_url.replace(placeholder, str(lead.public_id))
        lead.take_url = take_url.replace(placeholder, str(lead.public_id))
        age = timesince(lead.created_at, now, time_strings=units)
        lead.age_text = ago % {"age": age}
        lead.created_text = created_ago % {"age": age}
        lead.created_iso, lead.created_at_text = _local_texts(
            lead.created_at, ("c", "%Y-%m-%d %H:%M"))
        lead.next_action_label = actions.get(lead.next_action_kind, "")
        lead.due_iso = lead.due_text = ""
        if lead.next_action_due:
            lead.due_iso, lead.due_text = _local_texts(lead.next_action_due,
                                                        ("c", "%m-%d %H:%M"))
        lead.overdue = bool(lead.next_action_due and lead.next_action_due < now)
        lead.sla_breached = bool(lead.first_contact_at is None and lead.sla_due
                                 and lead.sla_due < now and lead.status in OPEN)


OPEN = {s.value for s in Status if s not in (Status.WON, Status.LOST)}


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
            messages.error(request, " ".join(str(message) for message in error))
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

def _export(request, fmt: str):
    """The filtered leads and an ExportLog row (who, when, which filters); the row count
    is written when the last byte has been streamed (None: the download was cut short)."""
    if not permissions.can_export(request.user):
        raise PermissionDenied
    form = _filter_form(request)
    if form.is_bound and not form.is_valid():
        return None, None
    cleaned = form.cleaned_data if form.is_bound else {}
    filters = {k: str(v) for k, v in cleaned.items() if v not in (None, "")}
    log = ExportLog.objects.create(actor=request.user, format=fmt, filters=filters)

    def done(count: int) -> None:
        ExportLog.objects.filter(pk=log.pk).update(row_count=count, finished=True)

    return queries.filtered_leads(cleaned, request.user), done


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


# --- one lead ----------------------------------------------------------------------------

REPORT_LANGUAGES = {"zh-hans", "en"}


def _report_language(request: HttpRequest) -> str | None:
    value = request.GET.get("lang")
    if value is None:
        return None
    if value not in REPORT_LANGUAGES:
        raise Http404  # an unknown language is not a report we have
    return value


@require_safe
def lead_report(request: HttpRequest, public_id) -> HttpResponse:
    """The lead's PDF report (?lang=en|zh-hans: in that language). Everyone who may not
    view the lead, signed out or not, gets the 404 (nothing tells them it exists)."""
    lead = get_lead_for_user(request, public_id)
    return report_views.pdf_response(request, lead, via="staff",
                                     language=_report_language(request))


@require_safe
def lead_report_web(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id)
    language = _report_language(request)
    pdf_url = reverse("staff:lead_report", args=[lead.public_id]) + (
        f"?lang={language}" if language else "")
    return report_views.web_response(request, lead, via="staff", pdf_url=pdf_url,
                                     language=language)


def _share_url(lead: Lead) -> str:
    """The wizard's signed link to the lead's answers; none for answers an older engine
    stored that this one no longer reads."""
    try:
        answers = Answers.from_dict(lead.answers)
    except InvalidAnswers:
        return ""
    return reverse("wizard:shared", args=[share_token(answers)])


def _label(labels: Mapping[str, object], code: object) -> object:
    """The label of a code stored in an event, or the code itself (an old or unknown one)."""
    return labels.get(code, code) if isinstance(code, str) else code


def _event_text(event: LeadEvent) -> str:
    data = event.data or {}
    kind = LeadEvent.Kind
    if event.kind == kind.STATUS_CHANGED:
        names = dict(Status.choices)
        text = _("Status changed from %(old)s to %(new)s") % {
            "old": _label(names, data.get("from")), "new": _label(names, data.get("to"))}
        if data.get("reason"):
            text += " · " + _("reason: %(reason)s") % {
                "reason": _label(dict(LostReason.choices), data["reason"])}
        if data.get("deal_value"):
            text += " · " + _("deal value: ¥%(value)s") % {"value": data["deal_value"]}
        return text + (f"\n{data['note']}" if data.get("note") else "")
    if event.kind == kind.OWNER_CHANGED:
        return _("Owner changed from %(old)s to %(new)s") % {
            "old": data.get("from") or _("nobody"), "new": data.get("to") or _("nobody")}
    if event.kind == kind.NOTE:
        return data.get("text", "")
    if event.kind == kind.ACTIVITY:
        kind_label = _label(dict(NextActionKind.choices), data.get("type"))
        text = f"{kind_label} · {_label(OUTCOME_LABELS, data.get('outcome'))}"
        return text + (f"\n{data['note']}" if data.get("note") else "")
    if event.kind == kind.NEXT_ACTION_SET:
        due = data.get("due", "")
        with contextlib.suppress(TypeError, ValueError):
            due = timezone.localtime(datetime.fromisoformat(due)).strftime(
                "%Y-%m-%d %H:%M")
        text = "{} · {}".format(dict(NextActionKind.choices).get(str(data.get("type")), ""), due)
        return text + (f"\n{data['note']}" if data.get("note") else "")
    if event.kind == kind.DUPLICATE_FLAGGED:
        return _("Possible duplicate of %(number)s (same %(what)s)") % {
            "number": data.get("other", ""),
            "what": ", ".join(str(MATCH_LABELS.get(r, r)) for r in data.get("reasons", []))}
    if event.kind == kind.MERGED:
        if data.get("into"):
            return _("Merged into %(number)s") % {"number": data["into"]}
        merged = data.get("merged", {})
        return _("%(number)s merged into this lead (%(name)s, %(phone)s, %(email)s); its "
                 "consent of %(date)s is kept here") % {
            "number": merged.get("report_number", ""), "name": merged.get("name", ""),
            "phone": merged.get("phone", ""), "email": merged.get("email", ""),
            "date": (data.get("consent", {}).get("given_at", "") or "")[:10]}
    if event.kind in (kind.NOTIFIED, kind.NOTIFICATION_FAILED):
        channel = data.get("channel", "")
        return str(event.get_kind_display()) + (f" ({channel})" if channel else "")
    if event.kind == kind.REMINDED:
        return str(event.get_kind_display()) + (f" → {data['to']}" if data.get("to") else "")
    if event.kind == kind.EDITED:
        return _("Changed in the admin: %(fields)s") % {
            "fields": ", ".join(data.get("fields", []))}
    return str(event.get_kind_display())


MATCH_LABELS = {"phone": pgettext_lazy("duplicate", "phone"),
                "email": pgettext_lazy("duplicate", "e-mail"),
                "company": pgettext_lazy("duplicate", "company")}


def sla_clock(lead: Lead, now=None) -> dict | None:
    """The first-contact SLA as the lead page shows it: due time, working minutes left
    (negative: overdue), or when and by whom the first contact was made."""
    if lead.sla_due is None:
        return None
    now = now or timezone.now()
    if lead.first_contact_at is not None:
        return {"met": lead.first_contact_at <= lead.sla_due, "done": True,
                "at": lead.first_contact_at, "due": lead.sla_due}
    left = worktime.calendar().between(now, lead.sla_due)
    return {"done": False, "due": lead.sla_due, "minutes_left": left,
            "overdue": lead.sla_due < now,
            "hours": abs(left) // 60, "minutes": abs(left) % 60}


def _lead_context(request, lead: Lead, **extra) -> dict:
    user = request.user
    events = list(lead.events.select_related("actor").order_by("-created_at", "-pk")[:200])
    # The recommendation frozen when the lead was created, through the one presenter: the
    # same numbers as the customer's PDF and its JSON-LD.
    vm = present(lead_recommendation(lead), company=company(), id_prefix="lead")
    now = timezone.now()
    # The other lead of each flag as the card shows it (not its sizing snapshot).
    shown = ("public_id", "report_number", "name", "company")
    flags = list(DuplicateFlag.objects.filter(
        Q(lead=lead) | Q(other=lead), dismissed_at__isnull=True)
        .select_related("lead", "other")
        .only("lead_id", "other_id", "reasons", "similarity", "created_at",
              *(f"{side}__{name}" for side in ("lead", "other") for name in shown))
        .order_by("-created_at")[:10])
    duplicates = [{"flag": f, "lead": f.other if f.lead_id == lead.pk else f.lead,
                   "reasons": [str(MATCH_LABELS.get(r, r)) for r in f.reasons],
                   "similarity": f.similarity} for f in flags]
    can_work = permissions.can_work_on(user, lead)
    context = {
        "lead": lead,
        "owner_name": permissions.display_name(lead.owner) if lead.owner else "",
        "vm": vm,
        "answers_rows": [(row.label, row.value) for row in vm.answer_rows],
        "recommendation_label": vm.recommendation_label,
        "rule_title": vm.rule_title,
        "events": [(e, _event_text(e)) for e in events],
        "pipeline": PIPELINE,
        "can_work": can_work,
        "can_note": permissions.can_note(user, lead),
        "can_delete": permissions.can_delete(user, lead),
        "can_merge": permissions.can_merge(user),
        "is_manager": permissions.is_manager(user),
        "can_take": permissions.can_take(user, lead),
        "status_form": StatusForm(initial={"status": lead.status,
                                           "lost_reason": lead.lost_reason,
                                           "deal_value": lead.deal_value}),
        "note_form": NoteForm(),
        "activity_form": ActivityForm(),
        "next_form": NextActionForm(initial={
            "kind": lead.next_action_kind or NextActionKind.CALL,
            "due": timezone.localtime(lead.next_action_due) if lead.next_action_due
            else _tomorrow_morning(), "note": lead.next_action_note}),
        "merge_form": MergeForm(),
        "assign_form": AssignForm(user=user, lead=lead,
                                  initial={"owner": lead.owner_id or ""}),
        "share_url": _share_url(lead),
        "report_url": reverse("staff:lead_report", args=[lead.public_id]),
        "overdue": bool(lead.next_action_due and lead.next_action_due < now),
        "sla": sla_clock(lead, now),
        "duplicates": duplicates,
        "outcomes": services.ACTIVITY_OUTCOMES,
        "lost": Status.LOST, "won": Status.WON,
    }
    context.update(extra)
    return context


def _tomorrow_morning():
    """The default due time offered for a next action: tomorrow 10:00 local time."""
    tomorrow = timezone.localdate() + timezone.timedelta(days=1)
    return timezone.make_aware(datetime.combine(tomorrow, datetime.min.time())
                               ).replace(hour=10)


@require_safe
@staff_required
@never_cache
def lead_detail(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="view")
    if lead.merged_into_id:
        survivor = Lead.objects.get(pk=lead.merged_into_id)
        messages.info(request, _("%(number)s was merged into this lead.") % {
            "number": lead.report_number})
        return _detail(survivor)
    return render(request, "staff/lead_detail.html", _lead_context(request, lead))


def _detail(lead: Lead) -> HttpResponse:
    return redirect("staff:lead_detail", public_id=lead.public_id)


def _form_error(request, lead, status=400, **forms) -> HttpResponse:
    return render(request, "staff/lead_detail.html", _lead_context(request, lead, **forms),
                  status=status)


def _posted_form(request: HttpRequest, public_id, form_class: type[Form], name: str,
                 may=permissions.can_work_on) -> tuple[Lead, Form | HttpResponse]:
    """The lead a lead-page form was posted for and the valid form, or the response to
    give instead (``may`` refused the user: 409; the form is invalid: the page with its
    errors under the context name ``name``)."""
    lead = get_lead_for_user(request, public_id, action="view")
    if not may(request.user, lead):
        return lead, _not_yours(request, lead)
    form = form_class(request.POST)
    if not form.is_valid():
        return lead, _form_error(request, lead, **{name: form})
    return lead, form


@require_POST
@staff_required
def lead_status(request: HttpRequest, public_id) -> HttpResponse:
    lead, form = _posted_form(request, public_id, StatusForm, "status_form")
    if isinstance(form, HttpResponse):
        return form
    data = form.cleaned_data
    try:
        services.lead_change_status(lead=lead, status=data["status"], actor=request.user,
                                    lost_reason=data.get("lost_reason") or "",
                                    note=data.get("note") or "",
                                    deal_value=data.get("deal_value"))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return _detail(lead)
    messages.success(request, _("Status saved."))
    return _detail(lead)


def _not_yours(request, lead: Lead) -> HttpResponse:
    """A rep acting on a lead that is not theirs: say whose it is (or that it must be
    taken first), keep the page, change nothing (409 Conflict)."""
    if lead.owner_id is None:
        messages.error(request, _("Take this lead first: it is not assigned to anyone."))
    else:
        messages.error(request, _("This lead is already taken by %(owner)s.") % {
            "owner": _display_name(lead.owner)})
    response = _detail(lead)
    return response


def _display_name(user) -> str:
    return permissions.display_name(user)


@require_POST
@staff_required
def lead_note(request: HttpRequest, public_id) -> HttpResponse:
    lead, form = _posted_form(request, public_id, NoteForm, "note_form", may=permissions.can_note)
    if isinstance(form, HttpResponse):
        return form
    services.lead_add_note(lead=lead, text=form.cleaned_data["text"], actor=request.user)
    messages.success(request, _("Note added."))
    return _detail(lead)


@require_POST
@staff_required
def lead_activity(request: HttpRequest, public_id) -> HttpResponse:
    lead, form = _posted_form(request, public_id, ActivityForm, "activity_form")
    if isinstance(form, HttpResponse):
        return form
    services.lead_log_activity(lead=lead, actor=request.user, **form.cleaned_data)
    messages.success(request, _("Activity logged."))
    return _detail(lead)


@require_POST
@staff_required
def lead_next_action(request: HttpRequest, public_id) -> HttpResponse:
    lead, form = _posted_form(request, public_id, NextActionForm, "next_form")
    if isinstance(form, HttpResponse):
        return form
    services.lead_set_next_action(lead=lead, actor=request.user, **form.cleaned_data)
    messages.success(request, _("Next action saved.") if form.cleaned_data["kind"]
                     else _("Next action cleared."))
    return redirect(_safe_next(request) or reverse("staff:lead_detail", args=[lead.public_id]))


def _safe_next(request) -> str:
    """A same-site path to go back to after a form posted from the list or My day."""
    target = request.POST.get("next", "")
    if target.startswith("/staff/") or target.startswith("/en/staff/"):
        return target[:2000]
    return ""


@require_POST
@staff_required
def lead_take(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="view")
    try:
        services.lead_assign(lead=lead, owner=request.user, actor=request.user)
    except services.AlreadyTaken as taken:
        messages.error(request, _("This lead is already taken by %(owner)s.") % {
            "owner": _display_name(taken.owner)})
        return _detail(lead)
    messages.success(request, _("The lead is yours now."))
    return redirect(_safe_next(request) or reverse("staff:lead_detail", args=[lead.public_id]))


@require_POST
@staff_required
def lead_assign(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="view")
    form = AssignForm(request.POST, user=request.user, lead=lead)
    if not form.is_valid():
        return _form_error(request, lead, assign_form=form)
    owner = form.cleaned_data["owner"]
    try:
        services.lead_assign(lead=lead, owner=owner, actor=request.user)
    except services.AlreadyTaken as taken:
        messages.error(request, _("This lead is already taken by %(owner)s.") % {
            "owner": _display_name(taken.owner)})
        return _detail(lead)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Owner saved."))
    return _detail(lead)


@require_POST
@staff_required
def lead_merge(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="view")
    if not permissions.can_merge(request.user):
        raise PermissionDenied
    form = MergeForm(request.POST)
    if not form.is_valid():
        return _form_error(request, lead, merge_form=form)
    other = form.cleaned_data["other"]
    survivor, merged = (lead, other) if form.cleaned_data["keep"] == "this" else (other, lead)
    try:
        services.leads_merge(survivor=survivor, other=merged, actor=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return _detail(lead)
    messages.success(request, _("%(merged)s was merged into %(survivor)s.") % {
        "merged": merged.report_number, "survivor": survivor.report_number})
    return _detail(survivor)


@require_POST
@staff_required
def duplicate_dismiss(request: HttpRequest, public_id, flag_id: int) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="view")
    flag = get_object_or_404(DuplicateFlag.objects.filter(Q(lead=lead) | Q(other=lead)),
                             pk=flag_id)
    services.duplicate_dismiss(flag=flag, actor=request.user)
    messages.success(request, _("Marked as not a duplicate."))
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


# --- My day ------------------------------------------------------------------------------

@require_safe
@staff_required
@never_cache
def my_day(request: HttpRequest) -> HttpResponse:
    """The rep's landing page in /staff/."""
    parts = queries.my_day(request.user)
    _label_rows([lead for key in ("overdue", "today", "hot_unassigned", "open")
                 for lead in parts[key]])
    return render(request, "staff/my_day.html", {
        **parts, "next_form": NextActionForm(initial={"kind": NextActionKind.CALL,
                                                      "due": _tomorrow_morning()}),
        "now": timezone.now()})


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
    their password too often, or after an attack from the office network), and see who uses
    two-factor log-in and reset it for a colleague who lost their phone."""
    if not permissions.is_manager(request.user):
        raise PermissionDenied
    if request.method == "POST":
        if request.POST.get("action") == "mfa_reset":
            form = MfaResetForm(request.POST, actor=request.user)
            if form.is_valid():
                user = form.cleaned_data["user"]
                mfa.reset(user)
                messages.success(request, _(
                    "Two-factor log-in of %(username)s was reset; they set it up again at "
                    "their next log-in.") % {"username": user.get_username()})
            else:
                raise PermissionDenied
        else:
            unlock = UnlockForm(request.POST)
            if unlock.is_valid():
                lockout.unlock(unlock.cleaned_data["username"])
                messages.success(request, _("Log-in for %(username)s unlocked.") % {
                    "username": unlock.cleaned_data["username"]})
        return redirect("staff:security")
    return render(request, "staff/security.html", {
        "throttles": lockout.summary(),
        "accounts": mfa.accounts(),
        "mfa_required": settings.STAFF_MFA_REQUIRED,
    })


# --- manager views -----------------------------------------------------------------------

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
            [(r["rep"] or "—", r["avg_minutes"]) for r in response_times]),
        "stale": stale, "stale_days": settings.STAFF_STALE_DAYS,
    }
    return render(request, "staff/manager.html", context)


@require_safe
@staff_required
@never_cache
def audit(request: HttpRequest) -> HttpResponse:
    """Managers: the anonymous deletion records and the export log."""
    _manager_only(request)
    return render(request, "staff/audit.html", {
        "deletions": LeadDeletion.objects.select_related("actor")[:200],
        "exports": ExportLog.objects.select_related("actor")[:200],
    })
