"""Log in and out, and the second step (MFA) of a staff log-in: /staff/login/ (also
/admin/login/), /staff/login/verify/, /staff/mfa/setup/, /staff/mfa/, /staff/logout/."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice

from selector.core.request import client_ip
from selector.staff import lockout, mfa, permissions, tasks
from selector.staff import middleware as staff_session
from selector.staff.access import staff_or_admin_required
from selector.staff.auth_forms import CodeForm, LoginForm, ReauthForm, SetupForm


class _LoginView(auth_views.LoginView):
    """The one log-in page: /staff/login/ and /admin/login/ (the admin's own form is
    replaced, so the throttle, its message and the second step apply to both)."""

    template_name = "staff/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = False

    def form_valid(self, form):
        user = form.get_user()
        redirect_to = self.get_redirect_url() or _landing(user)
        if mfa.required(user):
            mfa.begin(self.request, user, redirect_to)
            lockout.forgive(self.request, user.get_username())  # the password was right
            return redirect("staff:mfa_verify" if mfa.enrolled(user)
                            else "staff:mfa_setup")
        self.request.session[mfa.CHECKED_KEY] = True
        return _logged_in(self.request, user, None, redirect_to)

    def get_default_redirect_url(self):
        return _landing(self.request.user)


def _landing(user) -> str:
    """Where a log-in without a usable "next" lands: the workspace for sales roles, the
    admin index for admin editors (the workspace does not exist for them)."""
    if not permissions.is_staff_member(user) and user.is_staff:
        return reverse("admin:index")
    return reverse("staff:my_day")


def _logged_in(request, user, device, redirect_to: str) -> HttpResponse:
    """Start the staff session (after the second step, when there is one)."""
    auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if device is not None:
        otp_login(request, device)
    staff_session.start(request)
    response = redirect(redirect_to or _landing(user))
    lockout.record_success(request, response, user.get_username())
    return response


login = never_cache(_LoginView.as_view())


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def mfa_verify(request: HttpRequest) -> HttpResponse:
    """Second step: a code from the authenticator app or a recovery code."""
    user = mfa.pending_user(request)
    if user is None:
        if request.user.is_authenticated:
            return redirect(_landing(request.user))
        messages.info(request, _("Please log in."))
        return redirect("staff:login")
    if not mfa.enrolled(user):
        return redirect("staff:mfa_setup")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device = mfa.verify(user, form.cleaned_data["code"])
        if device is not None:
            redirect_to = mfa.pending_next(request)
            mfa.end_pending(request)
            response = _logged_in(request, user, device, redirect_to)
            if isinstance(device, StaticDevice):
                messages.warning(request, _(
                    "You used a recovery code; %(left)s are left. Set up new codes on the "
                    "two-factor page if you are running low.") % {
                    "left": mfa.remaining_recovery_codes(user)})
            return response
        if mfa.pending_failed(request):
            messages.error(request, _("Too many wrong codes. Please log in again."))
            return redirect("staff:login")
        form.add_error("code", _("This code is not right, or it has been used. Check your "
                                 "app's clock and try the current code."))
    return render(request, "staff/mfa_verify.html", {"form": form},
                  status=400 if form.is_bound else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def mfa_setup(request: HttpRequest) -> HttpResponse:
    """Enrol an authenticator: half-way through a log-in only for a user with no second
    factor yet (anyone else half-way goes to the code page: issue 21, H1), or from the
    two-factor page of a logged-in user with the password and, when one is being replaced,
    a current code (M4). The first code of the new app confirms it; the recovery codes are
    shown once; the user is mailed."""
    pending = mfa.pending_user(request)
    if pending is not None and mfa.enrolled(pending):
        return redirect("staff:mfa_verify")
    user = pending or (request.user if request.user.is_authenticated else None)
    if user is None:
        return redirect("staff:login")
    if pending is None and not (permissions.is_staff_member(user) or user.is_staff):
        raise Http404
    replacing = pending is None and mfa.enrolled(user)
    device = mfa.unconfirmed_authenticator(user)
    form = SetupForm(request.POST or None, request=request, user=user,
                     reauth=pending is None)
    if request.method == "POST" and form.is_valid():
        codes = mfa.confirm(device, form.cleaned_data["code"], replace=replacing)
        if codes is not None:
            tasks.schedule_account_notice(user, "mfa_replaced" if replacing
                                          else "mfa_enrolled", client_ip(request))
            if pending is not None:
                redirect_to = mfa.pending_next(request)
                mfa.end_pending(request)
                _logged_in(request, user, device, redirect_to)
            else:
                otp_login(request, device)
            return render(request, "staff/mfa_codes.html", {
                "codes": codes, "next": redirect_to if pending is not None else
                reverse("staff:mfa")})
        if pending is not None and mfa.pending_failed(request):
            messages.error(request, _("Too many wrong codes. Please log in again."))
            return redirect("staff:login")
        form.add_error("code", _("This code is not right. Scan the QR code again and enter "
                                 "the code your app shows now."))
    return render(request, "staff/mfa_setup.html", {
        "form": form, "qr": mfa.qr_svg(device), "secret": mfa.secret_text(device),
        "pending": pending is not None, "replacing": replacing},
        status=400 if form.is_bound else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@staff_or_admin_required
@never_cache
def mfa_page(request: HttpRequest) -> HttpResponse:
    """A logged-in user's two-factor page: status, new recovery codes, turn it off (only
    when it is not required). Both changes need the password and a current code in the
    same POST, and mail the user."""
    user = request.user
    form = ReauthForm(request.POST or None, request=request, user=user)
    if request.method == "POST":
        action = request.POST.get("action")
        if action not in ("codes", "off") or not mfa.enrolled(user) or (
                action == "off" and settings.STAFF_MFA_REQUIRED):
            return redirect("staff:mfa")
        if form.is_valid():
            if action == "codes":
                codes = mfa.new_recovery_codes(user)
                tasks.schedule_account_notice(user, "recovery_codes", client_ip(request))
                return render(request, "staff/mfa_codes.html", {
                    "codes": codes, "next": reverse("staff:mfa")})
            mfa.reset(user)
            tasks.schedule_account_notice(user, "mfa_off", client_ip(request))
            messages.success(request, _("Two-factor log-in is off."))
            return redirect("staff:mfa")
    return render(request, "staff/mfa.html", {
        "form": form,
        "enabled": mfa.has_authenticator(user),
        "required": settings.STAFF_MFA_REQUIRED,
        "codes_left": mfa.remaining_recovery_codes(user),
    }, status=400 if form.is_bound else 200)


@require_POST
def logout(request: HttpRequest) -> HttpResponse:
    from django.contrib.auth import logout as auth_logout

    auth_logout(request)
    messages.info(request, _("You have logged out."))
    return redirect("staff:login")
