"""The one way a staff view gets at the workspace and at a lead.

``staff_required``: anonymous visitors go to the login page; signed-in users without a
sales role get the site's plain 404 (the workspace does not exist for them, so nothing,
not even a lead count, leaks). It also ends a staff session idle for longer than
settings.STAFF_IDLE_TIMEOUT seconds.

``get_lead_for_user``: lookup by public_id plus the permission check for one action
(selector.staff.permissions.ACTIONS). A lead the user may not see is a 404, exactly like
one that does not exist; a lead they may see but not change is a 403.
"""

from __future__ import annotations

import functools
import time
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from selector.leads.models import Lead
from selector.staff import permissions

LAST_SEEN_KEY = "staff_last_seen"
# Write the timestamp at most this often, so most requests don't rewrite the session.
_TOUCH_EVERY = 30


def idle_timeout() -> int:
    return int(getattr(settings, "STAFF_IDLE_TIMEOUT", 30 * 60))


def touch(request) -> None:
    request.session[LAST_SEEN_KEY] = int(time.time())


def _idle_expired(request) -> bool:
    now = int(time.time())
    last = request.session.get(LAST_SEEN_KEY)
    if isinstance(last, int) and now - last > idle_timeout():
        return True
    if not isinstance(last, int) or now - last >= _TOUCH_EVERY:
        request.session[LAST_SEEN_KEY] = now
    return False


def staff_required(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        user = request.user
        if not user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if _idle_expired(request):
            logout(request)
            messages.info(request, _("Your session ended after a period of inactivity. "
                                     "Please log in again."))
            return redirect_to_login(request.get_full_path())
        if not permissions.is_staff_member(user):
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
