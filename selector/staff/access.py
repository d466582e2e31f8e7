"""The one way a staff view gets at the workspace and at a lead.

``staff_required``: anonymous visitors go to the login page; signed-in users without a
sales role get the site's plain 404 (the workspace does not exist for them, so nothing,
not even a lead count, leaks).

``contact_visible`` / ``contact_scope``: whether a user sees a lead's phone, e-mail and
WeChat ID (its owner and managers; another rep after revealing it, which is on the lead's
timeline and lasts permissions.CONTACT_REVEAL_MINUTES). The lead page, the search and the
exports all ask these.

``get_lead_for_user``: lookup by public_id plus the permission check for one action
(selector.staff.permissions.ACTIONS). A lead the user may not see is a 404, exactly like
one that does not exist; a lead they may see but not change is a 403.
"""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from urllib.parse import urlsplit

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django_htmx.http import HttpResponseClientRedirect

from selector.leads.models import Lead, LeadEvent
from selector.staff import permissions


def login_redirect(request):
    """Send a signed-out (or timed-out) user to the login page. An htmx request gets
    ``HX-Redirect`` so the whole page goes there (with the page's own URL as ``next``),
    instead of the login page's HTML being swapped into (or selected out of) a fragment,
    which left an empty list behind. StaffSessionMiddleware answers through this too.
    Read from the headers, so it works before HtmxMiddleware has run."""
    if request.headers.get("HX-Request") == "true":
        current = urlsplit(request.headers.get("HX-Current-URL", ""))
        target = request.get_full_path()
        if current.path and (not current.netloc or current.netloc == request.get_host()):
            target = current.path + (f"?{current.query}" if current.query else "")
        return HttpResponseClientRedirect(redirect_to_login(target)["Location"])
    if request.method not in ("GET", "HEAD"):
        # After logging in, go back to the page the form was on (a POST-only URL such as
        # .../take/ would answer 405 to the GET that follows the login).
        return redirect_to_login(_same_site_referer(request) or "/staff/")
    return redirect_to_login(request.get_full_path())


def _same_site_referer(request) -> str:
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc and referer.netloc != request.get_host():
        return ""
    path = referer.path + (f"?{referer.query}" if referer.query else "")
    return path if path.startswith(("/staff/", "/en/staff/")) else ""


def staff_required(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        # The session's idle and absolute lifetime are enforced for every request by
        # selector.staff.middleware.StaffSessionMiddleware.
        if not request.user.is_authenticated:
            return login_redirect(request)
        if not permissions.is_staff_member(request.user):
            raise Http404
        return view(request, *args, **kwargs)

    return wrapper


def staff_or_admin_required(view):
    """Pages about the user's own account (two-factor set-up): any logged-in user who may
    log in here, sales roles and admin editors alike."""
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (permissions.is_staff_member(request.user) or request.user.is_staff):
            raise Http404
        return view(request, *args, **kwargs)

    return wrapper


def get_lead_for_user(request, public_id, *, action: str = "view") -> Lead:
    check = permissions.ACTIONS[action]
    user = request.user
    if not permissions.is_staff_member(user):
        raise Http404
    try:
        key = uuid.UUID(str(public_id))
    except ValueError:
        raise Http404 from None
    lead = Lead.objects.select_related("owner").filter(public_id=key).first()
    if lead is None or not permissions.can_view(user, lead):
        raise Http404
    if not check(user, lead):
        raise PermissionDenied
    return lead


def _reveals(user, now=None):
    """The user's contact reveals still in force."""
    since = (now or timezone.now()) - dt.timedelta(minutes=permissions.CONTACT_REVEAL_MINUTES)
    return LeadEvent.objects.filter(actor_id=user.pk, kind=LeadEvent.Kind.CONTACT_REVEALED,
                                    created_at__gt=since)


def contact_visible(user, lead: Lead, now=None) -> bool:
    """Phone, e-mail and WeChat ID of ``lead`` for ``user``: by role (owner, manager), or
    revealed by this user in the last CONTACT_REVEAL_MINUTES."""
    if permissions.sees_contact(user, lead):
        return True
    return permissions.is_staff_member(user) and _reveals(user, now).filter(
        lead_id=lead.pk).exists()


def reveal_until(user, lead: Lead, now=None):
    """When the user's reveal of this lead's contact ends (None: not revealed)."""
    event = _reveals(user, now).filter(lead_id=lead.pk).order_by("-created_at").first()
    if event is None:
        return None
    return event.created_at + dt.timedelta(minutes=permissions.CONTACT_REVEAL_MINUTES)


def contact_scope(user, now=None) -> Q | None:
    """The leads whose contact ``user`` sees, as a filter (None: all of them, a manager).
    The reveals are a handful of rows per rep (the index on the event's actor)."""
    if permissions.is_manager(user):
        return None
    if not permissions.is_staff_member(user):
        return Q(pk__in=[])
    revealed = _reveals(user, now).values("lead_id")
    return Q(owner_id=user.pk) | Q(pk__in=revealed)


def workable_scope(user) -> Q | None:
    """The leads ``user`` may work on (permissions.can_work_on) as a filter: None for all
    of them (a manager), a rep's own leads, nothing for anyone else. A bulk change on "all
    that match" is cut to this, so a rep's filter cannot reach a colleague's leads."""
    if permissions.is_manager(user) and user.has_perm(permissions.CHANGE):
        return None
    if not permissions.can_bulk_change(user):
        return Q(pk__in=[])
    return Q(owner_id=user.pk)
