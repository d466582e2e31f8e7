"""Account self-service for the sales team, in the staff look and both languages: "My
account" (mobile number for @mentions, language of reminders and digests), password
change, and password reset by e-mail (Django's views and token generator).

Reset e-mails go only to active members of the workspace (a sales or managers role) or
admin editors (``is_staff``); the page always says the same thing, whether an account
exists or not. Requests are limited per client address and per e-mail address
(RESET_LIMIT per RESET_WINDOW seconds, on the shared cache) so the form cannot be used to
flood a mailbox."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from selector.core.ratelimit import count_hit
from selector.core.request import client_ip
from selector.core.siteurl import site_url
from selector.staff import messaging, permissions
from selector.staff.access import staff_required
from selector.staff.forms import ProfileForm

RESET_LIMIT = 5
RESET_WINDOW = 3600


class StaffPasswordResetForm(PasswordResetForm):
    def get_users(self, email):
        User = get_user_model()
        in_role = User.objects.filter(groups__name__in=[
            permissions.SALES_GROUP, permissions.MANAGERS_GROUP]).values("pk")
        candidates = User.objects.filter(
            Q(pk__in=in_role) | Q(is_staff=True), email__iexact=email, is_active=True)
        return (u for u in candidates if u.has_usable_password())


def _allowed(request, email: str) -> bool:
    """Count this request; False once the address or the e-mail is over the limit."""
    digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()[:32]
    ok = True
    for key in (f"staff-reset:ip:{client_ip(request)}", f"staff-reset:email:{digest}"):
        ok = count_hit(key, RESET_WINDOW) <= RESET_LIMIT and ok
    return ok


@method_decorator(never_cache, name="dispatch")
class PasswordResetView(auth_views.PasswordResetView):
    template_name = "staff/password_reset.html"
    email_template_name = "staff/email/password_reset.txt"
    html_email_template_name = "staff/email/password_reset.html"
    subject_template_name = "staff/email/password_reset_subject.txt"
    form_class = StaffPasswordResetForm
    success_url = reverse_lazy("staff:password_reset_done")

    def form_valid(self, form):
        if not _allowed(self.request, form.cleaned_data["email"]):
            # Same answer as a sent e-mail: nothing tells an attacker what happened.
            return redirect(self.get_success_url())
        # The link starts with SITE_URL (required in production), never with the Host
        # header a request brought (issue 21): a forged Host cannot point the owner's
        # reset link at another site. Only in development without SITE_URL does it follow
        # the request (selector.core.siteurl).
        self.extra_email_context = {"site_url": site_url(self.request)}
        return super().form_valid(form)


password_reset = PasswordResetView.as_view()
password_reset_done = auth_views.PasswordResetDoneView.as_view(
    template_name="staff/password_reset_done.html")
password_reset_confirm = never_cache(auth_views.PasswordResetConfirmView.as_view(
    template_name="staff/password_reset_confirm.html",
    success_url=reverse_lazy("staff:password_reset_complete")))
password_reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="staff/password_reset_complete.html")


class _PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "staff/password_change.html"
    success_url = reverse_lazy("staff:account")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, pgettext("staff", "Your password was changed."))
        return response


password_change = staff_required(never_cache(_PasswordChangeView.as_view()))


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required
@never_cache
def account(request: HttpRequest) -> HttpResponse:
    profile = messaging.profile(request.user)
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings were saved."))
        return redirect("staff:account")
    return render(request, "staff/account.html", {"form": form},
                  status=400 if form.is_bound else 200)
