"""How the team names a colleague, and how the group robots @mention one (the mobile number
for WeCom and DingTalk, the Feishu user id for Feishu): here,
below selector.staff (which re-exports ``display_name``), so the new-lead message of
selector.leads.notify can mention the owner the routing rule picked."""

from __future__ import annotations

from typing import TypedDict

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


def feishu_id(user) -> str:
    """The Feishu open_id or user_id in the user's staff profile ("" without one)."""
    try:
        return user.staff_profile.feishu_user_id or ""
    except ObjectDoesNotExist:
        return ""


class Mentions(TypedDict):
    mobiles: tuple[str, ...]
    names: tuple[str, ...]
    feishu_ids: tuple[str, ...]


def mentions(users) -> Mentions:
    """``notify.Message``'s mention fields for ``users``: the mobile numbers (WeCom,
    DingTalk), the names (every platform writes them), and the Feishu ids, one per name
    ("" where the profile has none: Feishu then gets the name as plain text)."""
    present = [user for user in users if user is not None]
    return {"mobiles": tuple(m for m in map(mobile, present) if m),
            "names": tuple(display_name(user) for user in present),
            "feishu_ids": tuple(feishu_id(user) for user in present)}
