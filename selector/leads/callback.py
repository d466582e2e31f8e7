"""A customer's call-back request from the thank-you page ("talk to an engineer", issue 26,
finding 10): the customer gives a preferred time (and a short note); the lead gets a "call"
next action at that time and a ``callback_requested`` event on its timeline, and sales are
told at once.

The SLA clock: a lead's first-contact deadline runs from its creation
(selector.leads.worktime.sla_due). A call-back request on a lead whose clock is not running
(its score has no SLA, and nobody has contacted it yet) starts it, due at the customer's
preferred time. The call itself is the next action: its owner is reminded at that time.

A next action the sales team set stays unless the customer's time comes first (the event
says whether it replaced one). At most ``MAX_REQUESTS`` requests per lead: the form is a
door into the group robot.

Telling sales is the workspace's job (selector.staff.tasks.callback, a layer above this
one): this module sends ``callback_requested`` after the transaction commits, and the staff
app connects to it."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from selector.leads.models import Lead, LeadEvent, NextActionKind
from selector.leads.validators import no_control_characters

# Sent on commit with lead_public_id (str), event_pk (int), due_iso (str) and
# next_action (bool: the request became the lead's next action).
callback_requested = Signal()

NOTE_MAX_LENGTH = 200
MAX_REQUESTS = 3
EARLIEST = timedelta(minutes=15)  # a person needs a moment to see it
LATEST = timedelta(days=30)


def check_preferred(preferred: datetime, now: datetime | None = None) -> None:
    """ValidationError unless ``preferred`` is between 15 minutes and 30 days ahead."""
    now = now or timezone.now()
    if preferred < now + EARLIEST:
        raise ValidationError(_("Choose a time at least 15 minutes from now."), code="soon")
    if preferred > now + LATEST:
        raise ValidationError(_("Choose a time within the next 30 days."), code="late")


def request_callback(*, lead: Lead, preferred: datetime, note: str = "") -> LeadEvent:
    """Record the customer's call-back request on ``lead`` (see the module doc)."""
    note = " ".join((note or "").split())
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationError({"note": _("The note is too long.")})
    check_preferred(preferred)
    with transaction.atomic():
        lead = Lead.objects.select_for_update(of=("self",)).get(pk=lead.pk)
        if lead.events.filter(kind=LeadEvent.Kind.CALLBACK_REQUESTED).count() >= MAX_REQUESTS:
            raise ValidationError(_("We already have your call-back requests; an engineer "
                                    "will call you."), code="too_many")
        fields = ["updated_at", "version"]
        next_action = lead.next_action_due is None or preferred < lead.next_action_due
        if next_action:
            lead.next_action_kind = NextActionKind.CALL
            lead.next_action_due = preferred
            lead.next_action_note = note
            fields += ["next_action_kind", "next_action_due", "next_action_note"]
        clock_started = lead.first_contact_at is None and lead.sla_due is None
        if clock_started:
            lead.sla_due = preferred
            fields.append("sla_due")
        lead.version += 1  # a staff page showing the older lead must not overwrite this
        lead.save(update_fields=fields)
        event = LeadEvent.objects.create(
            lead=lead, kind=LeadEvent.Kind.CALLBACK_REQUESTED,
            data={"due": preferred.isoformat(), "next_action": next_action,
                  "sla_started": clock_started, **({"note": note} if note else {})})
        public_id, due_iso, event_pk = str(lead.public_id), preferred.isoformat(), event.pk
        transaction.on_commit(lambda: callback_requested.send(
            sender=Lead, lead_public_id=public_id, event_pk=event_pk, due_iso=due_iso,
            next_action=next_action), robust=True)
    return event


LOCAL_FORMAT = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> sends


class CallbackForm(forms.Form):
    """The thank-you page's call-back request: a preferred time (the site's time zone, as
    the browser's date-time picker gives it, or typed as 2026-12-04 10:00) and a note."""

    preferred = forms.DateTimeField(
        label=_("Preferred time for our call"),
        input_formats=[LOCAL_FORMAT, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_FORMAT),
        help_text=_("China Standard Time. We call on working days; we confirm the time if "
                    "it does not suit us."))
    note = forms.CharField(
        label=_("What should the engineer prepare? (optional)"), required=False,
        max_length=NOTE_MAX_LENGTH, validators=[no_control_characters],
        widget=forms.TextInput(attrs={"maxlength": NOTE_MAX_LENGTH}))

    def __init__(self, *args, now: datetime | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.now = now or timezone.now()
        earliest = timezone.localtime(self.now + EARLIEST)
        self.fields["preferred"].widget.attrs.update({
            "min": earliest.strftime(LOCAL_FORMAT), "aria-describedby": "id_preferred_hint"})

    def clean_preferred(self) -> datetime:
        value = self.cleaned_data["preferred"]
        check_preferred(value, self.now)
        return value
