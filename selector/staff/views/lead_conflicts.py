"""Edits refused as stale (``services.StaleLead``): what was posted is kept for the lead page,
which shows it next to the lead's current state with a button that applies it anyway."""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from selector.core.money import yuan_text
from selector.leads.models import Lead, LeadEvent, LostReason, NextActionKind, Status
from selector.staff import permissions, services
from selector.staff.forms import (
    OUTCOME_LABELS,
)
from selector.staff.views.lead_timeline import event_text, label

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


def refused_as_stale(request: HttpRequest, stale: services.StaleLead, action: str
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


def pop_conflict(request: HttpRequest, lead: Lead) -> dict | None:
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
        "last": last, "last_text": event_text(last) if last else "",
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
            "status": label(dict(Status.choices), data.get("status", ""))}
        if data.get("status") == Status.WON and data.get("deal_value"):
            text += " · " + yuan_text(data["deal_value"])
        if data.get("status") == Status.LOST and data.get("lost_reason"):
            text += " · " + str(label(dict(LostReason.choices), data["lost_reason"]))
    elif action == "note":
        return _("Note: %(text)s") % {"text": data.get("text", "")}
    elif action == "activity":
        text = "{} · {}".format(label(dict(NextActionKind.choices), data.get("kind", "")),
                                label(OUTCOME_LABELS, data.get("outcome", "")))
    elif action == "next_action":
        if not data.get("kind"):
            return _("Clear the next action")
        text = _("Next action: %(kind)s · %(due)s") % {
            "kind": label(dict(NextActionKind.choices), data["kind"]),
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
