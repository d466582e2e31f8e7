"""How the team names a colleague, and the mobile number the group robots @mention: here,
below selector.staff (which re-exports ``display_name``), so the new-lead message of
selector.leads.notify can mention the owner the routing rule picked."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist


def display_name(user) -> str:
    """How the team names a colleague: "王磊" (family name first, no space, for Chinese
    names), "Sue Chen" otherwise, the username when no name is set."""
    first, last = (user.first_name or "").strip(), (user.last_name or "").strip()
    if not (first or last):
        return user.get_username()
    if any("\u3400" <= ch <= "\u9fff" for ch in first + last):
        return f"{last}{first}"
    return f"{first} {last}".strip()


def mobile(user) -> str:
    """The mobile number in the user's staff profile ("" without one)."""
    try:
        return user.staff_profile.mobile or ""
    except ObjectDoesNotExist:
        return ""
