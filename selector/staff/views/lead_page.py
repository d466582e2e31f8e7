"""One lead's page (/staff/leads/<public_id>/) and the forms posted from it: status,
note, activity, next action, take, assign, merge, duplicates, delete; the staff report
downloads."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from datetime import datetime
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from selector.content.queries import company
from selector.core.money import yuan_text
from selector.core.sharing import share_token
from selector.domain import Answers, InvalidAnswers
from selector.leads import duplicates as lead_duplicates
from selector.leads import worktime
from selector.leads.models import DuplicateFlag, Lead, LeadEvent, LostReason, NextActionKind, Status
from selector.leads.report import views as report_views
from selector.leads.snapshots import lead_recommendation
from selector.planner import downloads
from selector.planner.presenter import present
from selector.staff import permissions, services
from selector.staff.access import (
    contact_visible,
    get_lead_for_user,
    reveal_until,
    staff_required,
)
from selector.staff.forms import (
    OUTCOME_LABELS,
    ActivityForm,
    AssignForm,
    DeleteForm,
    MergeForm,
    NextActionForm,
    NoteForm,
    StatusForm,
)

PIPELINE = [Status.NEW, Status.CONTACTED, Status.QUALIFIED, Status.PROPOSAL, Status.WON,
            Status.LOST]



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


@require_safe
def lead_download(request: HttpRequest, public_id, kind: str) -> HttpResponseBase:
    """The cabling plan or the switch configurations of the lead's frozen plan (what the
    customer was shown); a 404 for everyone who may not view the lead, as the report."""
    lead = get_lead_for_user(request, public_id)
    plan = lead_recommendation(lead).recommended.plan
    if plan is None:
        raise Http404("no fabric plan to download")
    return downloads.respond(kind, plan)


def lead_build_downloads(lead: Lead, plan) -> dict | None:
    """``includes/build_downloads.html``'s context on the lead page."""
    return downloads.download_context(plan, {
        "csv": reverse("staff:lead_cabling_csv", args=[lead.public_id]),
        "xlsx": reverse("staff:lead_cabling_xlsx", args=[lead.public_id]),
        "configs": reverse("staff:lead_configs_zip", args=[lead.public_id])})


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
            text += " · " + _("deal value: %(value)s") % {
                "value": yuan_text(data["deal_value"])}
        if data.get("cleared_deal_value"):
            text += " · " + _("deal value %(value)s cleared") % {
                "value": yuan_text(data["cleared_deal_value"])}
        return text + (f"\n{data['note']}" if data.get("note") else "")
    if event.kind == kind.OWNER_CHANGED and data.get("returned_to_pool"):
        return _("Returned to the pool: %(old)s had not worked on it for %(hours)s working "
                 "hours") % {"old": data.get("from") or _("nobody"), "hours": data.get("hours")}
    if event.kind == kind.OWNER_CHANGED and data.get("routed"):
        return _("Assigned to %(new)s by the routing rule %(rule)s") % {
            "new": data.get("to") or _("nobody"), "rule": data.get("routed")}
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
    if event.kind == kind.CALLBACK_REQUESTED:  # selector.leads.callback
        due = data.get("due", "")
        with contextlib.suppress(TypeError, ValueError):
            due = timezone.localtime(datetime.fromisoformat(due)).strftime(
                "%Y-%m-%d %H:%M")
        text = f"{event.get_kind_display()} · {due}"
        return text + (f"\n{data['note']}" if data.get("note") else "")
    if event.kind == kind.DUPLICATE_FLAGGED:
        return _("Possible duplicate of %(number)s (same %(what)s)") % {
            "number": data.get("other", ""),
            "what": ", ".join(str(MATCH_LABELS.get(r, r)) for r in data.get("reasons", []))}
    if event.kind == kind.MERGED:
        if data.get("into"):
            return _("Merged into %(number)s") % {"number": data["into"]}
        merged = data.get("merged", {})
        return _("%(number)s merged into this lead; its consent of %(date)s is kept "
                 "here") % {
            "number": merged.get("report_number", ""),
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
                "wechat": pgettext_lazy("duplicate", "WeChat ID"),
                "name": pgettext_lazy("duplicate", "name and company"),
                # Flags before issue 24 (the company alone; now a colleague link).
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
        "events": [(e, _event_text(e)) for e in events],
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
        request, lead, conflict=_pop_conflict(request, lead)))


# An edit refused because the lead changed since the page was drawn (services.StaleLead),
# kept for the GET that shows it next to the current state (Post/Redirect/Get, as the
# contact form: Back never resubmits; the same for htmx, which follows the redirect).
# Read once, dropped after CONFLICT_MAX_AGE.
CONFLICT_KEY = "lead_conflict"
CONFLICT_MAX_AGE = 30 * 60
_NOT_KEPT = {"csrfmiddlewaretoken", "version"}
# What each refused edit was, for the "your change" line (the form's action).
CONFLICT_ACTIONS = {
    "status": "staff:lead_status", "note": "staff:lead_note",
    "activity": "staff:lead_activity", "next_action": "staff:lead_next_action",
    "owner": "staff:lead_assign", "merge": "staff:lead_merge", "take": "staff:lead_take",
}


def _refused_as_stale(request: HttpRequest, stale: services.StaleLead, action: str
                      ) -> HttpResponse:
    """Keep the refused edit (what was posted) and show the lead page: its current state,
    what changed, the edit, and a button that applies it to the current version."""
    lead = stale.lead
    request.session[CONFLICT_KEY] = {
        "lead": str(lead.public_id), "action": action, "at": time.time(),
        "data": [[k, v] for k, values in request.POST.lists() if k not in _NOT_KEPT
                 for v in values][:20]}
    url = reverse("staff:lead_detail", args=[lead.public_id]) + "#conflict"
    return HttpResponseRedirect(url, status=303)


def _pop_conflict(request: HttpRequest, lead: Lead) -> dict | None:
    stash = request.session.pop(CONFLICT_KEY, None)
    if (not isinstance(stash, dict) or stash.get("lead") != str(lead.public_id)
            or stash.get("action") not in CONFLICT_ACTIONS
            or time.time() - float(stash.get("at") or 0) > CONFLICT_MAX_AGE):
        return None
    data = [(str(k), str(v)) for k, v in stash.get("data") or []]
    last = lead.events.select_related("actor").exclude(
        kind__in=(LeadEvent.Kind.NOTIFIED, LeadEvent.Kind.NOTIFICATION_FAILED,
                  LeadEvent.Kind.REMINDED, LeadEvent.Kind.CONTACT_REVEALED)
    ).order_by("-created_at", "-pk").first()
    return {
        "action": stash["action"],
        "url": reverse(CONFLICT_ACTIONS[stash["action"]], args=[lead.public_id]),
        "data": data,
        "yours": _change_text(stash["action"], dict(data)),
        "current": _state_lines(lead),
        "last": last, "last_text": _event_text(last) if last else "",
        "last_actor": permissions.display_name(last.actor) if last and last.actor else "",
    }


def _state_lines(lead: Lead) -> list[tuple[str, str]]:
    """The lead as it is now, in the terms of the edit forms."""
    status = str(lead.get_status_display())
    if lead.status == Status.WON and lead.deal_value is not None:
        status += " · " + yuan_text(lead.deal_value)
    if lead.status == Status.LOST and lead.lost_reason:
        status += " · " + str(lead.get_lost_reason_display())
    if lead.next_action_due:
        next_action = "{} · {}".format(
            lead.get_next_action_kind_display(),
            timezone.localtime(lead.next_action_due).strftime("%Y-%m-%d %H:%M"))
    else:
        next_action = _("none")
    return [(_("Status"), status),
            (_("Owner"), permissions.display_name(lead.owner) if lead.owner
             else _("Unassigned")),
            (_("Next action"), next_action)]


def _change_text(action: str, data: dict[str, str]) -> str:
    """The refused edit in words (its posted fields)."""
    note = data.get("note", "").strip()
    if action == "status":
        text = _("Status: %(status)s") % {
            "status": _label(dict(Status.choices), data.get("status", ""))}
        if data.get("status") == Status.WON and data.get("deal_value"):
            text += " · " + yuan_text(data["deal_value"])
        if data.get("status") == Status.LOST and data.get("lost_reason"):
            text += " · " + str(_label(dict(LostReason.choices), data["lost_reason"]))
    elif action == "note":
        return _("Note: %(text)s") % {"text": data.get("text", "")}
    elif action == "activity":
        text = "{} · {}".format(_label(dict(NextActionKind.choices), data.get("kind", "")),
                                _label(OUTCOME_LABELS, data.get("outcome", "")))
    elif action == "next_action":
        if not data.get("kind"):
            return _("Clear the next action")
        text = _("Next action: %(kind)s · %(due)s") % {
            "kind": _label(dict(NextActionKind.choices), data["kind"]),
            "due": data.get("due", "").replace("T", " ")}
    elif action == "owner":
        value = data.get("owner", "")
        owner = get_user_model().objects.filter(pk=int(value)).first() \
            if value.isdigit() else None
        return _("Owner: %(owner)s") % {
            "owner": permissions.display_name(owner) if owner else _("Unassigned")}
    elif action == "take":
        return _("Take this lead")
    else:
        return _("Merge with %(number)s") % {"number": data.get("other", "")}
    return text + (f"\n{note}" if note else "")


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
        return _refused_as_stale(request, stale, "status")
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
        return _refused_as_stale(request, stale, "note")
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
        return _refused_as_stale(request, stale, "activity")
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
        return _refused_as_stale(request, stale, "next_action")
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
        return _refused_as_stale(request, stale, "take")
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
        return _refused_as_stale(request, stale, "owner")
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
        return _refused_as_stale(request, stale, "merge")
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
