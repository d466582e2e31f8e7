"""The one way a staff view gets at the workspace and at a lead.

``staff_required``: anonymous visitors go to the login page; signed-in users without a
sales role get the site's plain 404 (the workspace does not exist for them, so nothing,
not even a lead count, leaks).

``get_lead_for_user``: lookup by public_id plus the permission check for one action
(selector.staff.permissions.ACTIONS). A lead the user may not see is a 404, exactly like
one that does not exist; a lead they may see but not change is a 403.
"""

from __future__ import annotations

import functools
import uuid

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404

from selector.leads.models import Lead
from selector.staff import permissions


def staff_required(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        # The session's idle and absolute lifetime are enforced for every request by
        # selector.staff.middleware.StaffSessionMiddleware.
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not permissions.is_staff_member(request.user):
            raise Http404
        return view(request, *args, **kwargs)

    return wrapper


def get_lead_for_user(request, public_id, *, action: str = "view", lock: bool = False) -> Lead:
    check = permissions.ACTIONS[action]
    user = request.user
    if not permissions.is_staff_member(user):
        raise Http404
    try:
        key = uuid.UUID(str(public_id))
    except ValueError:
        raise Http404 from None
    queryset = Lead.objects.select_related("owner")
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    lead = queryset.filter(public_id=key).first()
    if lead is None or not permissions.can_view(user, lead):
        raise Http404
    if not check(user, lead):
        raise PermissionDenied
    return lead
