"""Forms of the sales workspace. Query strings are validated by forms too: a bad filter
value is a form error (the list answers 400 with the message), never a 500."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from selector.core.explain import FABRIC_SHORT
from selector.leads.models import Lead, LostReason, NextActionKind, Score, Status
from selector.staff import columns, permissions
from selector.staff.models import StaffProfile
from selector.staff.outcomes import ACTIVITY_OUTCOMES

SEARCH_MAX_LENGTH = 100
SOURCE_MAX_LENGTH = 100
BULK_MAX = 500

# GPU-count buckets: (code, label, lowest, highest or None).
SCALE_BUCKETS = (
    ("1-8", _("1 to 8 GPUs"), 1, 8),
    ("9-63", _("9 to 63 GPUs"), 9, 63),
    ("64-511", _("64 to 511 GPUs"), 64, 511),
    ("512-1023", _("512 to 1,023 GPUs"), 512, 1023),
    ("1024+", _("1,024 GPUs or more"), 1024, None),
)
SCALE_RANGES = {code: (low, high) for code, _label, low, high in SCALE_BUCKETS}

# The ``?sort=`` values (each ends with the primary key: keyset paging needs a total
# order) come with the list's columns: selector.staff.columns.
SORTS, SORT_CHOICES = columns.SORTS, columns.SORT_CHOICES
# Overdue and due today are open leads' next actions, as My day shows them: "today" is
# what is still to come today (what is past is overdue), so the two never overlap.
FOLLOW_UP_CHOICES = (
    ("", _("Any follow-up")),
    ("overdue", _("Overdue")),
    ("today", _("Due today")),
    ("none", _("No next action")),
    ("stale", _("Stale (no recent activity)")),
    ("duplicates", _("Possible duplicates")),
)

OWNER_MINE, OWNER_NONE, OWNER_ANY = "mine", "none", "any"
# The status filter's "any open status" (leads.models.OPEN_STATUSES).
STATUS_OPEN = "open"

# Date filters stay well inside the calendar: a day's bounds in local time, converted to
# UTC, would overflow datetime at year 1 or 9999 (a 500 before).
DATE_MIN, DATE_MAX = date(2000, 1, 1), date(2099, 12, 31)


class StaffForm(forms.Form):
    """A form of the workspace.

    ``id_prefix`` goes into the fields' element ids (``id_<prefix>_<field>``) where several
    forms share a page and field names (the lead page's status, activity and next-action
    forms each have a ``note``): every <label for> and aria-describedby then points at its
    own field. The fields' names, and so what is posted, do not change."""

    id_prefix = ""

    def __init__(self, *args, **kwargs):
        if self.id_prefix:
            kwargs.setdefault("auto_id", f"id_{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)


def staff_users():
    """Users who can own leads: active members of the sales or managers group (a
    superuser or an admin editor without a role is not on the sales team)."""
    in_role = get_user_model().objects.filter(
        groups__name__in=[permissions.SALES_GROUP, permissions.MANAGERS_GROUP]).values("pk")
    return get_user_model().objects.filter(is_active=True, pk__in=in_role).order_by("username")


NAME_FIELDS = ("pk", "username", "first_name", "last_name")


def owner_choices(*, former: bool = False) -> list[tuple[str, str]]:
    """(pk, display name) of the team who can be given leads. With ``former``, the list
    filter's choices: also deactivated users who still own leads, marked "former", so a
    manager can find (and hand over) what a rep who left still holds."""
    choices = [(str(u.pk), permissions.display_name(u)) for u in staff_users().only(*NAME_FIELDS)]
    if former:
        gone = (get_user_model().objects.filter(is_active=False)
                .filter(Exists(Lead.objects.filter(owner=OuterRef("pk"))))
                .only(*NAME_FIELDS).order_by("username"))
        choices += [(str(u.pk), _("%(name)s (former)") % {"name": permissions.display_name(u)})
                    for u in gone]
    return choices


def recommendation_choices():
    return [(fabric.value, label) for fabric, label in FABRIC_SHORT.items()]


class LeadFilterForm(StaffForm):
    q = forms.CharField(label=_("Search"), required=False, max_length=SEARCH_MAX_LENGTH,
                        help_text=_("1 or 2 characters match the start of the name or "
                                    "company; 3 or more match anywhere in name, company, "
                                    "phone, e-mail, WeChat ID or report number."),
                        widget=forms.SearchInput(attrs={
                            "placeholder": _("Name, company, phone, e-mail, report no.")}))
    status = forms.ChoiceField(label=_("Status"), required=False,
                               choices=[("", _("Any status")),
                                        (STATUS_OPEN, _("Open (not won or lost)")),
                                        *Status.choices])
    score = forms.ChoiceField(label=_("Score"), required=False,
                              choices=[("", _("Any score"))] + Score.choices)
    recommendation = forms.ChoiceField(label=pgettext_lazy("staff", "Recommendation"),
                                       required=False)
    owner = forms.ChoiceField(label=_("Owner"), required=False)
    scale = forms.ChoiceField(label=_("Scale"), required=False,
                              choices=[("", _("Any scale"))]
                              + [(code, label) for code, label, _lo, _hi in SCALE_BUCKETS])
    language = forms.ChoiceField(label=_("Language"), required=False)
    source = forms.CharField(label=_("Source"), required=False, max_length=SOURCE_MAX_LENGTH,
                             widget=forms.TextInput(attrs={"placeholder": "utm_source"}))
    campaign = forms.CharField(label=_("Campaign"), required=False,
                               max_length=SOURCE_MAX_LENGTH,
                               widget=forms.TextInput(attrs={"placeholder": "utm_campaign"}))
    created_from = forms.DateField(label=_("From"), required=False,
                                   widget=forms.DateInput(attrs={"type": "date"}))
    created_to = forms.DateField(label=_("To"), required=False,
                                 widget=forms.DateInput(attrs={"type": "date"}))
    follow_up = forms.ChoiceField(label=_("Follow-up"), required=False,
                                  choices=FOLLOW_UP_CHOICES)
    sort = forms.ChoiceField(label=_("Sort"), required=False, choices=SORT_CHOICES)

    def __init__(self, data=None, *, user, owners=None, **kwargs):
        super().__init__(data, **kwargs)
        self.user = user
        self.fields["recommendation"].choices = [("", _("Any recommendation"))] + \
            recommendation_choices()
        self.fields["language"].choices = [("", _("Any language"))] + list(settings.LANGUAGES)
        owners_list = owners
        owners = [("", _("Anyone")), (OWNER_MINE, _("Mine")), (OWNER_NONE, _("Unassigned"))]
        if permissions.is_manager(user):
            owners += owner_choices(former=True) if owners_list is None else owners_list
        self.fields["owner"].choices = owners

    def clean(self):
        data = super().clean()
        start, end = data.get("created_from"), data.get("created_to")
        for name, value in (("created_from", start), ("created_to", end)):
            if value and not DATE_MIN <= value <= DATE_MAX:
                self.add_error(name, _("Enter a date between %(min)s and %(max)s.") % {
                    "min": DATE_MIN.isoformat(), "max": DATE_MAX.isoformat()})
        start, end = data.get("created_from"), data.get("created_to")
        if start and end and start > end:
            self.add_error("created_to", _("The end date is before the start date."))
        return data


class LeadEditForm(StaffForm):
    """A form that edits one lead on its page. It carries the lead's version the page was
    drawn from (hidden; ``Lead.version``), so an edit made in a stale tab is refused
    (services.StaleLead) instead of undoing what a colleague saved meanwhile. A post
    without one counts as made on an unknown, older version (0): refused, not applied
    blind."""

    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def clean_version(self) -> int:
        return self.cleaned_data.get("version") or 0


class StatusForm(LeadEditForm):
    """Lost needs a reason (and a note when the reason is "other"); won takes an optional
    deal value in CNY. The same rules are checked again in services.lead_change_status."""
    id_prefix = "status"

    status = forms.ChoiceField(label=_("Status"), choices=Status.choices)
    lost_reason = forms.ChoiceField(label=_("Why was it lost?"), required=False,
                                    choices=[("", "—"), *LostReason.choices])
    deal_value = forms.DecimalField(label=_("Deal value (CNY)"), required=False, min_value=0,
                                    max_digits=14, decimal_places=2)
    note = forms.CharField(label=_("Note"), required=False, max_length=2000,
                           widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self):
        data = super().clean()
        if data.get("status") == Status.LOST:
            if not data.get("lost_reason"):
                self.add_error("lost_reason", _("Choose why the lead was lost."))
            elif data["lost_reason"] == LostReason.OTHER and not data.get("note"):
                self.add_error("note", _("Say in a note why the lead was lost."))
        return data


OUTCOME_LABELS = {
    "reached": _("Reached"), "no_answer": _("No answer"), "busy": _("Busy"),
    "wrong_number": _("Wrong number"), "callback": _("Asked to call back"),
    "replied": _("Replied"), "sent": _("Sent"), "added": _("Contact added"),
    "not_added": _("Contact request not accepted"), "bounced": _("Bounced"),
    "held": _("Held"), "postponed": _("Postponed"), "cancelled": _("Cancelled"),
    "accepted": _("Accepted"), "rejected": _("Rejected"), "revised": _("Revision requested"),
}


class ActivityForm(LeadEditForm):
    id_prefix = "activity"
    kind = forms.ChoiceField(label=_("Activity"), choices=NextActionKind.choices)
    outcome = forms.ChoiceField(label=_("Outcome"),
                                choices=[(k, v) for k, v in OUTCOME_LABELS.items()])
    note = forms.CharField(label=_("Note"), required=False, max_length=2000,
                           widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self):
        from_kind = ACTIVITY_OUTCOMES.get(self.cleaned_data.get("kind"), ())
        outcome = self.cleaned_data.get("outcome")
        if outcome and self.cleaned_data.get("kind") and outcome not in from_kind:
            self.add_error("outcome", _("This outcome does not fit the activity."))
        return self.cleaned_data


class NextActionForm(LeadEditForm):
    id_prefix = "next"
    kind = forms.ChoiceField(label=_("Next action"), required=False,
                             choices=[("", _("None (clear)"))] + NextActionKind.choices)
    due = forms.DateTimeField(label=_("Due"), required=False,
                              widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                         format="%Y-%m-%dT%H:%M"),
                              input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    note = forms.CharField(label=_("Note"), required=False, max_length=300)

    def clean(self):
        data = super().clean()
        if data.get("kind"):
            due = data.get("due")
            if due is None:
                self.add_error("due", _("Give a due date and time."))
            elif due < timezone.now() - timedelta(minutes=5):
                self.add_error("due", _("The due time is in the past."))
            elif due > timezone.now() + timedelta(days=366):
                self.add_error("due", _("The due time is more than a year away."))
        return data


class MergeForm(LeadEditForm):
    id_prefix = "merge"
    other = forms.CharField(label=_("Report number of the duplicate"), max_length=24)
    keep = forms.ChoiceField(label=_("Keep"), choices=(("this", _("this lead")),
                                                       ("other", _("the other lead"))))
    confirm = forms.BooleanField(label=_("Merge the two leads (cannot be undone)."))

    def clean_other(self):
        number = self.cleaned_data["other"].strip().upper()
        lead = Lead.objects.filter(report_number=number, merged_into__isnull=True).first()
        if lead is None:
            raise forms.ValidationError(_("No open lead has this report number."))
        return lead


class ProfileForm(forms.ModelForm):

    class Meta:
        model = StaffProfile
        fields = ("mobile", "feishu_user_id", "language")

    def clean_mobile(self):
        mobile = "".join(c for c in self.cleaned_data["mobile"] if c.isdigit())
        if mobile.startswith("86") and len(mobile) == 13:
            mobile = mobile[2:]
        if mobile and not (len(mobile) == 11 and mobile.startswith("1")):
            raise forms.ValidationError(_("Enter an 11-digit mainland China mobile number."))
        return mobile


class NoteForm(LeadEditForm):
    id_prefix = "note"
    text = forms.CharField(label=_("Note"), max_length=2000,
                           widget=forms.Textarea(attrs={"rows": 3}))


class AssignForm(LeadEditForm):
    """Managers choose anyone on the team; sales only take or release the lead."""
    id_prefix = "assign"

    owner = forms.ChoiceField(label=_("Owner"), required=False)

    def __init__(self, data=None, *, user, lead, **kwargs):
        super().__init__(data, **kwargs)
        self.user = user
        choices = [("", _("Unassigned"))]
        if permissions.is_manager(user):
            choices += owner_choices()
        else:
            choices.append((str(user.pk), permissions.display_name(user)))
        self.fields["owner"].choices = choices

    def clean_owner(self):
        value = self.cleaned_data["owner"]
        if not value:
            return None
        return staff_users().get(pk=int(value))


class DeleteForm(StaffForm):
    reason = forms.CharField(
        label=_("Reason"), max_length=300,
        help_text=_("For example \"customer asked by e-mail on 3 May\". Do not enter "
                    "personal data: this text is kept after the lead is deleted."))
    confirm = forms.BooleanField(label=_("I understand that this cannot be undone."))


class UUIDListField(forms.Field):
    """Several UUIDs from checkboxes with the same name (at most BULK_MAX)."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "required": _("Select at least one lead."),
        "invalid": _("Some selected leads are not valid."),
        "too_many": _("Select at most %(max)s leads at a time."),
    }

    def to_python(self, value):
        if not value:
            return []
        if not isinstance(value, list | tuple):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        if len(value) > BULK_MAX:
            raise forms.ValidationError(self.error_messages["too_many"], code="too_many",
                                        params={"max": BULK_MAX})
        try:
            return list(dict.fromkeys(uuid.UUID(str(v)) for v in value))
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None


class BulkForm(StaffForm):
    """The lead list's bulk change: a status and/or an owner, for the ticked leads of the
    page or for all that match the list's filter (a background job: selector.staff.bulk;
    ``expected``, the count the page showed). "Lost" needs a reason per lead, so it is set
    on the lead's page, not in bulk."""

    KEEP = ""
    UNASSIGN = "none"
    SELECTED, ALL = "selected", "all"

    scope = forms.ChoiceField(required=False, choices=[(SELECTED, _("The selected leads")),
                                                       (ALL, _("All that match the filter"))])
    leads = UUIDListField(required=False)
    expected = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    status = forms.ChoiceField(label=_("Set status"), required=False,
                               choices=[("", _("Keep status"))] + [
                                   c for c in Status.choices if c[0] != Status.LOST])
    owner = forms.ChoiceField(label=_("Set owner"), required=False)

    def __init__(self, data=None, *, owners=None, **kwargs):
        super().__init__(data, **kwargs)
        self.fields["owner"].choices = ([(self.KEEP, _("Keep owner")),
                                         (self.UNASSIGN, _("Unassigned"))]
                                        + (owner_choices() if owners is None else owners))

    def clean(self):
        data = super().clean()
        data["scope"] = data.get("scope") or self.SELECTED
        if not data.get("status") and not data.get("owner"):
            raise forms.ValidationError(_("Choose a status or an owner to set."))
        if data["scope"] == self.SELECTED and not data.get("leads") \
                and "leads" not in self.errors:
            raise forms.ValidationError(_("Tick the leads to change, or choose all that "
                                          "match the filter."))
        return data

    def owner_user(self):
        value = self.cleaned_data.get("owner")
        if value in (self.KEEP, self.UNASSIGN):
            return None
        return staff_users().get(pk=int(value))


class DashboardForm(StaffForm):
    PERIODS = (("30", _("Last 30 days")), ("90", _("Last 90 days")),
               ("180", _("Last 180 days")), ("365", _("Last 365 days")))
    period = forms.ChoiceField(label=_("Period"), required=False, choices=PERIODS)
    source = forms.CharField(label=_("Source"), required=False, max_length=SOURCE_MAX_LENGTH,
                             widget=forms.TextInput(attrs={"placeholder": "utm_source"}))

    def dates(self) -> tuple:
        """(first day, last day) of the period, local dates, today included."""
        days = int(self.cleaned_data.get("period") or 90)
        today = timezone.localdate()
        return today - timedelta(days=days - 1), today


class HandoverForm(StaffForm):
    """Managers: all open leads of one person (a rep who left included) to another."""

    id_prefix = "handover"

    from_user = forms.ChoiceField(label=_("Open leads of"))
    to_user = forms.ChoiceField(label=_("Hand them to"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["from_user"].choices = [("", "—"), *owner_choices(former=True)]
        self.fields["to_user"].choices = [("", "—"), *owner_choices()]

    def clean(self):
        data = super().clean()
        users = get_user_model().objects.in_bulk(
            [int(data[name]) for name in ("from_user", "to_user") if data.get(name)])
        for name in ("from_user", "to_user"):
            if data.get(name):
                data[name] = users[int(data[name])]
        if data.get("from_user") and data.get("to_user") and \
                data["from_user"].pk == data["to_user"].pk:
            self.add_error("to_user", _("Choose someone else to hand the leads to."))
        return data
