from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from selector.leads.abuse import form_fill_seconds
from selector.leads.models import Timeline
from selector.leads.validators import no_control_characters, normalize_phone, single_line

_LINE = [single_line, no_control_characters]


def _text(label, max_length, *, required=True, validators=_LINE, **kwargs):
    return forms.CharField(label=label, max_length=max_length, required=required,
                           validators=list(validators), **kwargs)


class ContactForm(forms.Form):
    """The contact step. Required: name, company, a mobile/phone number or a WeChat ID,
    and consent; e-mail (where the report is sent), role and timeline are optional.

    Besides the visible fields it carries a honeypot (``website``, hidden from people by
    CSS and from screen readers by aria-hidden) and ``started``, a signed timestamp of when
    the form was first rendered in the visitor's session (``abuse.form_started_token()``
    with ``abuse.first_render()``, put in the page by the view: a fresh nonce on every
    render, the same start time on a redisplay, bound to the visitor's wizard session and
    usable once), for the minimum fill time. ``redisplay=True`` re-validates a refused
    form's draft for display only: the abuse checks ran on its POST (and the stamp is
    spent), so they are not run again; the view re-adds the message the visitor was
    given."""

    name = _text(_("Name"), 100, widget=forms.TextInput(attrs={"autocomplete": "name"}))
    company = _text(_("Company"), 200,
                    widget=forms.TextInput(attrs={"autocomplete": "organization"}))
    phone = _text(_("Mobile or phone"), 40, required=False, widget=forms.TextInput(
        attrs={"autocomplete": "tel", "inputmode": "tel", "type": "tel"}),
        help_text=_("A mobile such as 138 1234 5678 or a landline with its area code such as "
                    "0755-2345 6789; outside mainland China, + and the country code."))
    wechat = _text(_("WeChat ID"), 50, required=False,
                   help_text=_("Give a phone number or a WeChat ID, or both."))
    email = forms.EmailField(
        label=_("E-mail (optional)"), max_length=254, validators=_LINE, required=False,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text=_("We send the report here; without an e-mail you download it on the next "
                    "page."))
    role = _text(_("Job role (optional)"), 100, required=False,
                 widget=forms.TextInput(attrs={"autocomplete": "organization-title"}))
    timeline = forms.ChoiceField(label=_("Project timeline (optional)"),
                                 choices=Timeline.choices, required=False,
                                 widget=forms.RadioSelect)
    message = _text(_("Message (optional)"), 2000, required=False,
                    validators=[no_control_characters],
                    widget=forms.Textarea(attrs={"rows": 3}))
    consent = forms.BooleanField(
        label=_("I have read the privacy notice above and agree that my details are used "
                "as it describes."),
        error_messages={"required": _("We can only send the report with your consent.")})
    website = forms.CharField(label=_("Leave this field empty"), required=False, max_length=200,
                              widget=forms.TextInput(attrs={"autocomplete": "off",
                                                            "tabindex": "-1"}))

    def __init__(self, *args, wizard_session_id=None, redisplay: bool = False, **kwargs):
        kwargs.setdefault("label_suffix", "")  # labels sit above their fields: no colon
        super().__init__(*args, **kwargs)
        self.wizard_session_id = wizard_session_id
        self.redisplay = redisplay
        for name, field in self.fields.items():
            if field.required and name != "consent":
                field.widget.attrs["aria-required"] = "true"

    def clean_phone(self) -> str:
        value = self.cleaned_data["phone"]
        return normalize_phone(value) if value.strip() else ""

    def clean_message(self) -> str:
        return self.cleaned_data["message"].replace("\r\n", "\n").replace("\r", "\n")

    def clean(self):
        cleaned = super().clean()
        if ("phone" not in self.errors and "wechat" not in self.errors
                and not cleaned.get("phone") and not cleaned.get("wechat", "").strip()):
            self.add_error("phone", forms.ValidationError(
                _("Give a phone number or a WeChat ID so that our engineer can reach you."),
                code="no_channel"))
        if self.redisplay:
            return cleaned
        if cleaned.get("website") or self.data.get("website"):
            self.abuse = "honeypot"
            raise forms.ValidationError(self.ABUSE_MESSAGES["honeypot"], code="honeypot")
        elapsed = form_fill_seconds(self.data.get("started", ""), self.wizard_session_id)
        if elapsed is None:
            self.abuse = "stale"
            raise forms.ValidationError(self.ABUSE_MESSAGES["stale"], code="stale")
        if elapsed < settings.LEAD_MIN_FILL_SECONDS:
            self.abuse = "too_fast"
            raise forms.ValidationError(self.TOO_FAST_MESSAGE, code="too_fast")
        return cleaned

    abuse: str | None = None
    # A refused-as-bot submission is redisplayed with what was typed (contact.py keeps a
    # draft); each message says so and what to do.
    TOO_FAST_MESSAGE = _("That was quicker than a person usually types, so we did not send "
                         "it yet. Your details are kept: please check them and send the form "
                         "again.")
    ABUSE_MESSAGES = {
        "honeypot": _("We could not accept this submission. Your details are kept: please "
                      "check them and send the form again."),
        "stale": _("This form had expired, so we did not send it yet. Your details are kept: "
                   "please check them and send the form again."),
        "too_fast": TOO_FAST_MESSAGE,
    }

    def contact(self) -> dict:
        """The contact details for lead_create (valid forms only)."""
        keys = ("name", "company", "phone", "email", "role", "timeline", "wechat", "message")
        return {k: self.cleaned_data[k] for k in keys}
