"""How a lead's timeline reads: one sentence per event, in the reader's language."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from selector.core.money import yuan_text
from selector.leads.models import LeadEvent, LostReason, NextActionKind, Status
from selector.staff.forms import (
    OUTCOME_LABELS,
)

# What two leads matched on, in the duplicate flag's words.
MATCH_LABELS = {"phone": pgettext_lazy("duplicate", "phone"),
                "email": pgettext_lazy("duplicate", "e-mail"),
                "wechat": pgettext_lazy("duplicate", "WeChat ID"),
                "name": pgettext_lazy("duplicate", "name and company"),
                # Flags before issue 24 (the company alone; now a colleague link).
                "company": pgettext_lazy("duplicate", "company")}



def label(labels: Mapping[str, object], code: object) -> object:
    """The label of a code stored in an event, or the code itself (an old or unknown one)."""
    return labels.get(code, code) if isinstance(code, str) else code


def event_text(event: LeadEvent) -> str:
    data = event.data or {}
    kind = LeadEvent.Kind
    if event.kind == kind.STATUS_CHANGED:
        names = dict(Status.choices)
        text = _("Status changed from %(old)s to %(new)s") % {
            "old": label(names, data.get("from")), "new": label(names, data.get("to"))}
        if data.get("reason"):
            text += " · " + _("reason: %(reason)s") % {
                "reason": label(dict(LostReason.choices), data["reason"])}
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
        kind_label = label(dict(NextActionKind.choices), data.get("type"))
        text = f"{kind_label} · {label(OUTCOME_LABELS, data.get('outcome'))}"
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
