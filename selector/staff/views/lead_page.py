"""One lead's page (/staff/leads/<public_id>/) and the forms posted from it: status,
note, activity, next action, take, assign, merge, duplicates, delete; the staff report
downloads."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from selector.content.queries import company
from selector.core.sharing import share_token
from selector.domain import Answers, InvalidAnswers
from selector.leads import duplicates as lead_duplicates
from selector.leads import worktime
from selector.leads.models import DuplicateFlag, Lead, NextActionKind, Status
from selector.leads.snapshots import lead_recommendation
from selector.planner.presenter import present
from selector.staff import permissions, services
from selector.staff.access import (
    contact_visible,
    get_lead_for_user,
    reveal_until,
    staff_required,
)
from selector.staff.forms import (
    ActivityForm,
    AssignForm,
    DeleteForm,
    MergeForm,
    NextActionForm,
    NoteForm,
    StatusForm,
)
from selector.staff.views.lead_conflicts import pop_conflict, refused_as_stale
from selector.staff.views.lead_downloads import lead_build_downloads
from selector.staff.views.lead_timeline import MATCH_LABELS, event_text

PIPELINE = [Status.NEW, Status.CONTACTED, Status.QUALIFIED, Status.PROPOSAL, Status.WON,
            Status.LOST]


def _share_url(lead: Lead) -> str:
    """The wizard's signed link to the lead's answers; none for answers an older engine
    stored that this one no longer reads."""
    try:
        answers = Answers.from_dict(lead.answers)
    except InvalidAnswers:
        return ""
    return reverse("wizard:shared", args=[share_token(answers)])




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
    rec = lead_recommendation(lead)
    vm = present(rec, company=company(), id_prefix="lead")
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
    # Other people at the same company: links, not a duplicate badge.
    colleague_rows, colleague_count = lead_duplicates.colleagues(
        lead, exclude=[f.other_id if f.lead_id == lead.pk else f.lead_id for f in flags])
    can_work = permissions.can_work_on(user, lead)
    by_role = permissions.sees_contact(user, lead)
    context = {
        # Phone, e-mail, WeChat ID: the owner and managers; other reps reveal them.
        "contact_visible": by_role or contact_visible(user, lead, now),
        "reveal_until": None if by_role else reveal_until(user, lead, now),
        "reveal_minutes": permissions.CONTACT_REVEAL_MINUTES,
        "lead": lead,
        "owner_name": permissions.display_name(lead.owner) if lead.owner else "",
        "vm": vm,
        "build_downloads": lead_build_downloads(lead, rec.recommended.plan),
        "answers_rows": [(row.label, row.value) for row in vm.answer_rows],
        "recommendation_label": vm.recommendation_label,
        "rule_title": vm.rule_title,
        "events": [(e, event_text(e)) for e in events],
        "pipeline": PIPELINE,
        "can_work": can_work,
        "can_note": permissions.can_note(user, lead),
        "can_delete": permissions.can_delete(user, lead),
        "can_merge": permissions.can_merge(user),
        "is_manager": permissions.is_manager(user),
        "can_take": permissions.can_take(user, lead),
        # Every edit form carries the version the page shows (no lost updates).
        "status_form": StatusForm(initial={"status": lead.status,
                                           "lost_reason": lead.lost_reason,
                                           "deal_value": lead.deal_value,
                                           "version": lead.version}),
        "note_form": NoteForm(initial={"version": lead.version}),
        "activity_form": ActivityForm(initial={"version": lead.version}),
        "next_form": NextActionForm(initial={
            "kind": lead.next_action_kind or NextActionKind.CALL,
            "due": timezone.localtime(lead.next_action_due) if lead.next_action_due
            else _tomorrow_morning(), "note": lead.next_action_note,
            "version": lead.version}),
        "merge_form": MergeForm(initial={"version": lead.version}),
        "assign_form": AssignForm(user=user, lead=lead,
                                  initial={"owner": lead.owner_id or "",
                                           "version": lead.version}),
        "share_url": _share_url(lead),
        "report_url": reverse("staff:lead_report", args=[lead.public_id]),
        "overdue": bool(lead.next_action_due and lead.next_action_due < now),
        "sla": sla_clock(lead, now),
        "duplicates": duplicates,
        "colleagues": colleague_rows, "colleague_count": colleague_count,
        "colleague_more": colleague_count - len(colleague_rows),
        "colleagues_url": reverse("staff:lead_list") + "?" + urlencode({"q": lead.company}),
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
    return render(request, "staff/lead_detail.html", _lead_context(
        request, lead, conflict=pop_conflict(request, lead)))


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
                                    deal_value=data.get("deal_value"),
                                    version=data["version"])
    except services.StaleLead as stale:
        return refused_as_stale(request, stale, "status")
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
def lead_reveal(request: HttpRequest, public_id) -> HttpResponse:
    """Show a lead's contact details to a rep who does not own it, for
    CONTACT_REVEAL_MINUTES; the reveal is on the lead's timeline."""
    lead = get_lead_for_user(request, public_id, action="view")
    if lead.merged_into_id:
        return _detail(lead)
    if not permissions.sees_contact(request.user, lead):
        services.lead_reveal_contact(lead=lead, actor=request.user)
    return redirect(reverse("staff:lead_detail", args=[lead.public_id]) + "#contact")


@require_POST
@staff_required
def lead_note(request: HttpRequest, public_id) -> HttpResponse:
    lead, form = _posted_form(request, public_id, NoteForm, "note_form", may=permissions.can_note)
    if isinstance(form, HttpResponse):
        return form
    try:
        services.lead_add_note(lead=lead, text=form.cleaned_data["text"], actor=request.user,
                               version=form.cleaned_data["version"])
    except services.StaleLead as stale:
        return refused_as_stale(request, stale, "note")
    messages.success(request, _("Note added."))
    return _detail(lead)


@require_POST
@staff_required
def lead_activity(request: HttpRequest, public_id) -> HttpResponse:
    lead, form = _posted_form(request, public_id, ActivityForm, "activity_form")
    if isinstance(form, HttpResponse):
        return form
    try:
        services.lead_log_activity(lead=lead, actor=request.user, **form.cleaned_data)
    except services.StaleLead as stale:
        return refused_as_stale(request, stale, "activity")
    messages.success(request, _("Activity logged."))
    return _detail(lead)


@require_POST
@staff_required
def lead_next_action(request: HttpRequest, public_id) -> HttpResponse:
    lead, form = _posted_form(request, public_id, NextActionForm, "next_form")
    if isinstance(form, HttpResponse):
        return form
    try:
        services.lead_set_next_action(lead=lead, actor=request.user, **form.cleaned_data)
    except services.StaleLead as stale:
        return refused_as_stale(request, stale, "next_action")
    messages.success(request, _("Next action saved.") if form.cleaned_data["kind"]
                     else _("Next action cleared."))
    return redirect(_safe_next(request) or reverse("staff:lead_detail", args=[lead.public_id]))


def _posted_version(request) -> int | None:
    """The ``version`` a form posted: None when absent; 0 (no lead is ever at version 0:
    refused as stale) when it is not a number."""
    raw = request.POST.get("version", "").strip()
    if not raw:
        return None
    return int(raw) if raw.isdigit() and len(raw) <= 9 else 0


def _safe_next(request) -> str:
    """A same-site path to go back to after a form posted from the list or My day."""
    target = request.POST.get("next", "")
    if target.startswith("/staff/") or target.startswith("/en/staff/"):
        return target[:2000]
    return ""


@require_POST
@staff_required
def lead_take(request: HttpRequest, public_id) -> HttpResponse:
    """Claim a lead from the pool (公海) with one POST. It carries the version the page
    showed (``version``; a form without one is not checked): of two reps claiming at once
    exactly one wins (the row lock), the other is told who has it; a claim made on a
    version that moved on is refused like any stale edit."""
    lead = get_lead_for_user(request, public_id, action="view")
    try:
        services.lead_assign(lead=lead, owner=request.user, actor=request.user,
                             version=_posted_version(request))
    except services.AlreadyTaken as taken:
        messages.error(request, _("This lead is already taken by %(owner)s.") % {
            "owner": _display_name(taken.owner)})
        return _detail(lead)
    except services.StaleLead as stale:
        return refused_as_stale(request, stale, "take")
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
        services.lead_assign(lead=lead, owner=owner, actor=request.user,
                             version=form.cleaned_data["version"])
    except services.StaleLead as stale:
        return refused_as_stale(request, stale, "owner")
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
        services.leads_merge(survivor=survivor, other=merged, actor=request.user,
                             versions={lead.pk: form.cleaned_data["version"]})
    except services.StaleLead as stale:
        return refused_as_stale(request, stale, "merge")
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
