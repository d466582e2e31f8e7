"""Form fields shared by the API and the wizard, so both refuse the same input with the
same translated messages."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from selector.core.choices import (
    BUDGET_LABELS,
    DETERMINISM_LABELS,
    PLATFORM_LABELS,
    VENDOR_LABELS,
    WORKLOAD_LABELS,
    distance_label,
)
from selector.domain import (
    DEFAULT_DISTANCE,
    DISTANCES,
    GPS_MAX,
    GPS_MIN,
    GPUS_MAX,
    GPUS_MIN,
    NIC_SPEEDS,
    OVERSUBSCRIPTIONS,
    PLATFORMS,
    VENDORS,
)
from selector.domain.sizing import OVERSUB_MAX, OVERSUB_MIN, RADIX_MAX, RADIX_MIN

if TYPE_CHECKING:  # a development dependency (django-stubs)
    from django_stubs_ext import StrOrPromise

TRUE_VALUES = {"true", "1", "yes", "on"}
FALSE_VALUES = {"false", "0", "no", "off"}

# ASCII digits, and the full-width digits (U+FF10-FF19) a Chinese input method types; spaces
# around them (ASCII or the ideographic U+3000). Python's int() would also take other
# scripts' digits, "_" separators and a sign, which no visitor means and the two entry
# points (API and wizard) must not accept differently.
_FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_WHOLE_NUMBER = re.compile(r"[0-9]{1,12}")


def parse_whole_number(raw: object) -> int | None:
    """The number in ``raw`` under the rule above, or None."""
    text = str(raw).strip(" \t\u3000").translate(_FULL_WIDTH_DIGITS)
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


class WholeNumberField(forms.IntegerField):
    """An IntegerField that parses with ``parse_whole_number`` (API and wizard alike)."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip(
                " \t\u3000")):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = parse_whole_number(value)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def _int_field(label: StrOrPromise, lo: int, hi: int, *, required: bool = True,
               initial: int | None = None) -> WholeNumberField:
    return WholeNumberField(
        label=label, min_value=lo, max_value=hi, required=required, initial=initial,
        error_messages={
            "required": _("This field is required."),
            "invalid": _("Enter a whole number."),
            "min_value": _("Enter a number of at least %(limit_value)s."),
            "max_value": _("Enter a number of at most %(limit_value)s."),
        },
    )


def gpus_field() -> WholeNumberField:
    return _int_field(_("Total GPUs"), GPUS_MIN, GPUS_MAX)


def gpus_per_server_field(required: bool = False) -> WholeNumberField:
    return _int_field(_("GPUs per server"), GPS_MIN, GPS_MAX, required=required, initial=8)


def _choice_field[E: StrEnum](label: StrOrPromise, labels: Mapping[E, StrOrPromise],
                               required: bool = True) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label, required=required, choices=[(k.value, v) for k, v in labels.items()],
        error_messages={
            "required": _("This field is required."),
            "invalid_choice": _("Choose one of the offered options."),
        },
    )


def workload_field() -> forms.ChoiceField:
    return _choice_field(_("Workload"), WORKLOAD_LABELS)


def budget_field() -> forms.ChoiceField:
    return _choice_field(_("Budget"), BUDGET_LABELS)


def determinism_field() -> forms.ChoiceField:
    return _choice_field(_("Determinism"), DETERMINISM_LABELS)


class StrictBooleanField(forms.Field):
    """true/false/1/0/yes/no; anything else is an error (not silently False)."""

    default_error_messages = {"invalid": _("Enter true or false.")}

    def to_python(self, value: Any) -> bool:
        if value in (None, ""):
            return False
        if isinstance(value, bool):
            return value
        lowered = str(value).strip().lower()
        if lowered in TRUE_VALUES:
            return True
        if lowered in FALSE_VALUES:
            return False
        raise forms.ValidationError(self.error_messages["invalid"], code="invalid")


class NicSpeedField(forms.TypedChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            label=_("NIC speed per GPU"), required=False, coerce=int, empty_value=None,
            choices=[("", _("Not sure"))] + [(str(s), f"{s}G") for s in NIC_SPEEDS],
            error_messages={"invalid_choice": _("Choose 200, 400 or 800 (or leave empty).")},
            **kwargs,
        )

    def to_python(self, value: Any) -> str:
        # "unsure" is what the wizard's "not sure" radio posts.
        return "" if value in ("unsure", "none") else super().to_python(value)


def radix_field() -> WholeNumberField:
    field = _int_field(_("Switch radix"), RADIX_MIN, RADIX_MAX, required=False, initial=64)
    field.validators.append(_even)
    return field


def _even(value: int | None) -> None:
    if value is not None and value % 2:
        raise forms.ValidationError(_("The radix must be an even number of ports."), code="odd")


def oversubscription_field() -> WholeNumberField:
    return _int_field(_("Oversubscription"), OVERSUB_MIN, OVERSUB_MAX, required=False, initial=1)


def nics_per_server_field() -> WholeNumberField:
    """NICs per server; empty means one per GPU (a rail per GPU)."""
    return _int_field(_("NICs per server"), GPS_MIN, GPS_MAX, required=False)


class _DefaultChoiceField(forms.ChoiceField):
    """A choice whose empty value means its default (optional in the API and the wizard)."""

    def __init__(self, *, default: str, **kwargs: Any) -> None:
        self.default = default
        super().__init__(required=False, **kwargs)

    def clean(self, value: Any) -> str:
        return super().clean(value) or self.default


def vendor_field() -> _DefaultChoiceField:
    return _DefaultChoiceField(
        default="any", label=_("Switch vendor"),
        choices=[(v, VENDOR_LABELS[v]) for v in VENDORS],
        error_messages={"invalid_choice": _("Choose one of the offered options.")})


def leaf_oversubscription_field() -> _DefaultChoiceField:
    """Leaf oversubscription of a catalogue plan: 1:1 (non-blocking, the default), 2:1, 3:1."""
    return _IntChoiceField(
        default="1", label=_("Leaf oversubscription"),
        choices=[(str(r), f"{r}:1") for r in OVERSUBSCRIPTIONS],
        error_messages={"invalid_choice": _("Choose one of the offered options.")})


class _IntChoiceField(_DefaultChoiceField):
    def clean(self, value: Any) -> int:  # type: ignore[override]
        return int(super().clean(value))


def platform_field() -> _DefaultChoiceField:
    return _DefaultChoiceField(
        default="unsure", label=_("Server platform"),
        choices=[(code, PLATFORM_LABELS[code]) for code in PLATFORMS],
        error_messages={"invalid_choice": _("Choose one of the offered options.")})


def distance_field() -> _DefaultChoiceField:
    return _DefaultChoiceField(
        default=DEFAULT_DISTANCE, label=_("Longest link"),
        choices=[(code, lazy(distance_label, str)(code)) for code in DISTANCES],
        error_messages={"invalid_choice": _("Choose one of the offered options.")})
