"""The managers' security page: log-in throttles and two-factor log-in of colleagues."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from selector.core.request import client_ip
from selector.staff import lockout, mfa, permissions, tasks
from selector.staff.access import staff_required
from selector.staff.auth_forms import MfaResetForm, UnlockForm


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
                tasks.schedule_account_notice(
                    user, "mfa_reset", client_ip(request),
                    actor=permissions.display_name(request.user))
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
