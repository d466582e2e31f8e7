"""The quote editor's forms: the quote's terms and one form per line (a formset with two
empty rows to add lines; a row without a description is left out). Plain HTML forms: the
editor works without JavaScript."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from selector.quotes.models import LineKind
from selector.quotes.services import (
    DESCRIPTION_MAX,
    MAX_LINES,
    MAX_QUANTITY,
    MAX_UNIT_PRICE,
    TERMS_MAX,
    LineData,
)
from selector.staff.forms import StaffForm


def percent_field(label, required: bool = True) -> forms.DecimalField:
    return forms.DecimalField(label=label, max_digits=5, decimal_places=2,
                              min_value=Decimal(0), max_value=Decimal(100), required=required)


class QuoteForm(StaffForm):
    total_discount_percent = percent_field(_("Total discount (%)"))
    valid_until = forms.DateField(label=_("Valid until"),
                                  # ISO, whatever the language: <input type="date">
                                  # takes no other format (it showed empty in Chinese).
                                  widget=forms.DateInput(format="%Y-%m-%d",
                                                         attrs={"type": "date"}))
    terms = forms.CharField(label=_("Terms"), required=False, max_length=TERMS_MAX,
                            widget=forms.Textarea(attrs={"rows": 4}))


class LineForm(StaffForm):
    kind = forms.ChoiceField(label=_("Kind"), choices=[("", "—"), *LineKind.choices],
                             required=False)
    description = forms.CharField(label=_("Description"), max_length=DESCRIPTION_MAX,
                                  required=False)
    quantity = forms.IntegerField(label=_("Quantity"), min_value=1, max_value=MAX_QUANTITY,
                                  required=False)
    unit_price = forms.DecimalField(label=_("Unit price before VAT (¥)"), max_digits=14,
                                    decimal_places=2, min_value=Decimal(0),
                                    max_value=MAX_UNIT_PRICE, required=False)
    discount_percent = percent_field(_("Discount (%)"), required=False)
    part_key = forms.CharField(required=False, max_length=60, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        if not (data.get("description") or "").strip():
            return data  # an empty row: left out
        if not data.get("kind"):
            self.add_error("kind", _("Choose the kind of line."))
        if data.get("quantity") is None:
            self.add_error("quantity", _("Enter the quantity."))
        return data

    def line(self) -> LineData | None:
        data = self.cleaned_data
        if not (data.get("description") or "").strip() or data.get("DELETE"):
            return None
        return LineData(kind=data["kind"], description=data["description"].strip(),
                        quantity=data["quantity"], unit_price=data.get("unit_price"),
                        discount_percent=data.get("discount_percent") or Decimal(0),
                        part_key=data.get("part_key") or "")


LineFormSet = forms.formset_factory(LineForm, extra=2, can_delete=True, max_num=MAX_LINES,
                                    validate_max=True, absolute_max=MAX_LINES + 2)


class ApprovalForm(StaffForm):
    decision = forms.ChoiceField(choices=[("approve", _("Approve")), ("refuse", _("Refuse"))])
    note = forms.CharField(label=_("Note for the rep"), required=False, max_length=2000,
                           widget=forms.Textarea(attrs={"rows": 2}))


class AcceptForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=100)
    title = forms.CharField(label=_("Your job title"), max_length=100, required=False)
    consent = forms.BooleanField(label=_("I accept this quote on behalf of my company, at "
                                         "the prices, quantities and terms shown above."))


class ChangesForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=100, required=False)
    message = forms.CharField(label=_("What should change?"), max_length=2000,
                              widget=forms.Textarea(attrs={"rows": 4}))
