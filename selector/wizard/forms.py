"""The wizard's step forms. Every answer field comes from ``selector.core.forms`` so the
wizard and the API refuse the same input with the same translated messages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from selector.core.explain import BOOL_LABELS
from selector.core.forms import (
    NicSpeedField,
    StrictBooleanField,
    budget_field,
    determinism_field,
    distance_field,
    gpus_field,
    gpus_per_server_field,
    leaf_oversubscription_field,
    nics_per_server_field,
    platform_field,
    vendor_field,
    workload_field,
)
from selector.domain import NIC_SPEEDS

# Longest raw value a field looks at; anything longer is refused before parsing
# (a 10 KB "number" is an error, not work for int()).
MAX_RAW_LENGTH = 20
REQUIRED = _("This field is required.")
UNSURE = "unsure"


class StepForm(forms.Form):
    """Base for step forms: inputs describe themselves by their help and error slots
    (aria-describedby), too-long or NUL-containing values are refused up front."""

    # Field names whose radios/inputs must be answered even if the shared field allows
    # empty (StrictBooleanField / NicSpeedField treat empty as a value).
    must_answer: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            field.help_text = HELP.get(name, "")
            auto_id = self.auto_id % name
            field.widget.attrs["aria-describedby"] = f"{auto_id}_why {auto_id}_error"

    def full_clean(self):
        super().full_clean()
        if not self.is_bound:
            return
        for name in self.fields:
            raw = self.data.get(self.add_prefix(name), "")
            if name in self.errors:
                continue
            if len(str(raw)) > MAX_RAW_LENGTH or "\x00" in str(raw):
                self.add_error(name, forms.ValidationError(
                    self.fields[name].error_messages.get("invalid")
                    or self.fields[name].error_messages["invalid_choice"], code="invalid"))
            elif name in self.must_answer and str(raw).strip() == "":
                self.add_error(name, forms.ValidationError(REQUIRED, code="required"))

    def answers(self) -> dict:
        """The cleaned values as stored on WizardSession.answers (JSON-safe)."""
        return {name: self.cleaned_data[name] for name in self.fields}


HELP = {
    "gpus": _("All GPUs in the cluster, from 1 to 1,000,000."),
    "gpus_per_server": _("Most GPU servers (HGX / DGX) hold 8."),
    "workload": _("Inference needs less bandwidth between servers than training."),
    "throughput_limited": _("With 2 to 7 servers, this decides whether a lossless network "
                            "pays off."),
    "budget": _("InfiniBand is the performance ceiling; RoCE v2 is the value choice."),
    "determinism": _("Strict means financial high-frequency trading or hard latency bounds."),
    "nic_speed": _("The port speed of each GPU's network card: ConnectX-7 is 400G, "
                   "ConnectX-8 is 800G (on Ethernet two 400G ports)."),
    "nics_per_server": _("Leave empty for one NIC per GPU (8 on HGX / DGX servers): each NIC "
                         "is one rail."),
    "distance": _("The longest cable in the fabric: it decides copper or which optics, and "
                  "the PFC headroom."),
    "vendor": _("The switches in the plan; InfiniBand switches come from NVIDIA only."),
    "platform": _("Where the NICs' optics plug in: DGX / HGX servers have twin-port OSFP "
                  "cages (one module serves two NIC ports); BlueField-3 takes QSFP112 only."),
    "oversubscription": _("GPU-facing bandwidth of a leaf over its uplink bandwidth: 1:1 is "
                          "non-blocking; 2:1 or 3:1 buys fewer spines and uplinks, and traffic "
                          "between leaves slows when every GPU sends at once."),
}


class ScaleForm(StepForm):
    gpus = gpus_field()
    gpus_per_server = gpus_per_server_field(required=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.update({"inputmode": "numeric", "autocomplete": "off"})


class WorkloadForm(StepForm):
    workload = workload_field()
    throughput_limited = StrictBooleanField(label=_("Is training throughput limited today?"),
                                            required=False)
    must_answer = ("throughput_limited",)

    def __init__(self, *args, ask_throughput: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        workload = self.fields["workload"]
        select = workload.widget
        assert isinstance(select, forms.Select)  # workload_field()'s widget, with its choices
        workload.widget = forms.RadioSelect(choices=select.choices, attrs=select.attrs)
        if ask_throughput:
            field = self.fields["throughput_limited"]
            field.widget = forms.RadioSelect(
                choices=[("true", BOOL_LABELS[True]), ("false", BOOL_LABELS[False])],
                attrs=field.widget.attrs)
        else:
            del self.fields["throughput_limited"]


class _ChoiceStepForm(StepForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget = forms.RadioSelect(choices=field.choices, attrs=field.widget.attrs)


class BudgetForm(_ChoiceStepForm):
    budget = budget_field()


class DeterminismForm(_ChoiceStepForm):
    determinism = determinism_field()


class NicSpeedForm(StepForm):
    """The hardware: NIC speed (must be answered, "not sure" allowed), NICs per server,
    the longest link and a switch vendor (optional: empty keeps the defaults)."""

    nic_speed = NicSpeedField()
    nics_per_server = nics_per_server_field()
    distance = distance_field()
    vendor = vendor_field()
    platform = platform_field()
    oversubscription = leaf_oversubscription_field()
    must_answer = ("nic_speed",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["nic_speed"]
        field.widget = forms.RadioSelect(
            choices=[(str(s), f"{s}G") for s in NIC_SPEEDS] + [(UNSURE, _("Not sure"))],
            attrs=field.widget.attrs)
        for name in ("distance", "vendor", "platform", "oversubscription"):
            choice = self.fields[name]
            choice.widget = forms.RadioSelect(choices=choice.choices, attrs=choice.widget.attrs)
            if not self.is_bound and not self.initial.get(name):
                self.initial[name] = choice.default
        self.fields["nics_per_server"].widget.attrs.update(
            {"inputmode": "numeric", "autocomplete": "off", "placeholder": _("One per GPU")})
