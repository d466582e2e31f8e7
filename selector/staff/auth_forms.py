"""The log-in forms of the sales workspace: the password behind the throttle, the second
factor, re-authentication before a security change, the set-up of an authenticator, and
the administrators' reset and unlock forms."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from selector.staff import lockout, mfa
from selector.staff.forms import StaffForm


def wait_text(seconds: int) -> str:
    """"45 seconds" / "3 minutes", in the active language."""
    if seconds < 90:
        return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}
    minutes = -(-seconds // 60)
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


class LoginForm(AuthenticationForm):
    """Django's login form behind the throttle (selector.staff.lockout): a throttled client
    is told how long to wait, before the password is even checked; a wrong password is
    counted for this address."""


    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": _("Too many failed log-in attempts for this account from your network. "
                       "For your security, please wait %(wait)s before you try again."),
    }

    def clean(self):
        username = str(self.data.get("username", ""))[:150]
        if self.cleaned_data.get("username") is None or not self.cleaned_data.get("password"):
            return super().clean()  # nothing is checked: the missing field says so
        # Counted before the password is checked (atomic: a burst gets the allowance);
        # the view forgives it when the password is right.
        wait = lockout.attempt(self.request, username)
        if wait:
            raise forms.ValidationError(self.error_messages["throttled"], code="throttled",
                                        params={"wait": wait_text(wait)})
        try:
            return super().clean()
        except forms.ValidationError as exc:
            if exc.code == "invalid_login":
                lockout.failed(self.request)
            raise


class CodeForm(StaffForm):
    code = forms.CharField(
        label=_("Code"), max_length=32, strip=True,
        help_text=_("The 6-digit code from your authenticator app, or a recovery code."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric",
                                      "autofocus": True, "autocapitalize": "off"}))


class ReauthForm(StaffForm):
    """What a stolen session lacks, asked again in the same request as a change to the
    user's second factor (issue 21, M4): the password, and, when the user has two-factor
    log-in, a current code from the authenticator or one of the recovery codes (a recovery
    code is used up). Wrong passwords count towards the log-in throttle of this address
    (selector.staff.lockout), so the form cannot be used to guess the password either;
    django-otp throttles wrong codes per device. ``device`` is the device that accepted the
    current code."""

    password = forms.CharField(
        label=_("Your password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    current_code = forms.CharField(
        label=_("Current code"), max_length=32, strip=True,
        help_text=_("A code from the authenticator app you use now, or one of your "
                    "recovery codes."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric",
                                      "autocapitalize": "off"}))

    def __init__(self, data=None, *, request, user, **kwargs):
        super().__init__(data, **kwargs)
        self.request, self.user, self.device = request, user, None
        if not mfa.enrolled(user):
            del self.fields["current_code"]

    def clean(self):
        cleaned = super().clean()
        name = self.user.get_username()
        if "password" not in cleaned or ("current_code" in self.fields
                                         and "current_code" not in cleaned):
            return cleaned  # a missing field: its own error says so
        wait = lockout.attempt(self.request, name)  # counted now, forgiven when right
        if wait:
            raise forms.ValidationError(LoginForm.error_messages["throttled"],
                                        code="throttled", params={"wait": wait_text(wait)})
        if not self.user.check_password(cleaned["password"]):
            lockout.failed(self.request)
            self.add_error("password", _("This is not your password."))
            return cleaned
        lockout.forgive(self.request, name)
        if "current_code" in self.fields:
            self.device = mfa.verify(self.user, cleaned["current_code"])
            if self.device is None:
                self.add_error("current_code", _(
                    "This code is not right, or it has been used. Enter the code your "
                    "current app shows now, or one of your recovery codes."))
        return cleaned


class SetupForm(ReauthForm):
    """Enrolment: the first code of the new authenticator. From a logged-in session with
    the password (and a current code when one is being replaced); half-way through a
    log-in (``reauth=False``: only for a user with no second factor, who gave the password
    a moment ago) the new code alone."""

    code = forms.CharField(
        label=_("Code from the new app"), max_length=32, strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric",
                                      "autofocus": True, "autocapitalize": "off"}))

    def __init__(self, data=None, *, request, user, reauth: bool, **kwargs):
        super().__init__(data, request=request, user=user, **kwargs)
        self.reauth = reauth
        if reauth:
            self.fields["code"].widget.attrs.pop("autofocus", None)
            self.fields["password"].widget.attrs["autofocus"] = True
        else:
            self.fields["code"].label = CodeForm.base_fields["code"].label
            del self.fields["password"]
            self.fields.pop("current_code", None)

    def clean(self):
        if not self.reauth:
            return forms.Form.clean(self)
        return super().clean()


class MfaResetForm(StaffForm):
    """A manager resets a colleague's two-factor log-in (a superuser's only if they are one)."""

    user = forms.IntegerField()

    def __init__(self, data=None, *, actor, **kwargs):
        super().__init__(data, **kwargs)
        self.actor = actor

    def clean_user(self):
        users = get_user_model().objects.filter(pk=self.cleaned_data["user"])
        if not self.actor.is_superuser:
            users = users.filter(is_superuser=False)
        user = users.first()
        if user is None:
            raise forms.ValidationError("unknown user")
        return user


class UnlockForm(StaffForm):
    username = forms.CharField(max_length=150)
