"""The wizard's answer fields: one definition each, in the order the wizard asks them.

For every answer (a field of ``selector.domain.Answers``, which validates it and gives its
default) this registry says which wizard step asks it, its label and help text, its form
field (type, choices, bounds and messages: ``selector.core.forms``) and how the step shows
it. The wizard's steps and step forms, the API's query forms, the "your answers" list of
the presenter, the prefill link and the stored session all read it (issue 27 D).

Adding a question to a step: an entry here (and its field in ``selector.domain.Answers``
when the recommendation uses it), the step's template, and the translations.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from django import forms
from django.forms.forms import DeclarativeFieldsMetaclass
from django.utils.translation import gettext_lazy as _

from selector.core import forms as cf
from selector.core.choices import BOOL_LABELS
from selector.domain import NIC_SPEEDS, Answers

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# What the wizard's "not sure" radio posts for the NIC speed (stored as None).
UNSURE = "unsure"


@dataclass(frozen=True)
class AnswerField:
    name: str  # the selector.domain.Answers field
    step: str  # identifier of the wizard step that asks it (selector.wizard.steps)
    label: StrOrPromise  # "your answers", the prefill confirmation, a what-if's wording
    help: StrOrPromise  # under the input on the step
    make_field: Callable[[], forms.Field]  # type, choices, bounds, error messages
    widget: Literal["number", "radio"] = "radio"
    # Radio choices when they differ from the form field's (its own are for the API).
    radio_choices: Callable[[], list[tuple[str, StrOrPromise]]] | None = None
    required_in_wizard: bool = False  # required on the step, optional in the API
    must_answer: bool = False  # the step needs an answer although empty is a valid value
    optional: bool = False  # has a default: a session stored before it existed is complete
    placeholder: StrOrPromise = ""

    def form_field(self, *, wizard: bool = False) -> forms.Field:
        """A new form field for this answer (``wizard``: as the step asks it)."""
        field = self.make_field()
        if wizard:
            field.required = field.required or self.required_in_wizard
            field.help_text = self.help
        return field

    def style(self, field: forms.Field) -> None:
        """Give a step form's field its input (numeric keypad, radios)."""
        attrs = field.widget.attrs
        if self.widget == "number":
            attrs.update({"inputmode": "numeric", "autocomplete": "off"})
            if self.placeholder:
                attrs["placeholder"] = self.placeholder
            return
        choices = self.radio_choices() if self.radio_choices else getattr(field, "choices", [])
        field.widget = forms.RadioSelect(choices=choices, attrs=attrs)


def _throughput_field() -> forms.Field:
    return cf.StrictBooleanField(label=_("Is training throughput limited today?"),
                                 required=False)


ANSWER_FIELDS: tuple[AnswerField, ...] = (
    AnswerField("gpus", "scale", _("Total GPUs"),
                _("All GPUs in the cluster, from 1 to 1,000,000."), cf.gpus_field,
                widget="number"),
    AnswerField("gpus_per_server", "scale", _("GPUs per server"),
                _("Most GPU servers (HGX / DGX) hold 8."), cf.gpus_per_server_field,
                widget="number", required_in_wizard=True),
    AnswerField("workload", "workload", _("Workload"),
                _("Inference needs less bandwidth between servers than training."),
                cf.workload_field),
    AnswerField("throughput_limited", "workload", _("Training throughput limited today"),
                _("With 2 to 7 servers, this decides whether a lossless network pays off."),
                _throughput_field,
                radio_choices=lambda: [("true", BOOL_LABELS[True]),
                                       ("false", BOOL_LABELS[False])],
                must_answer=True),
    AnswerField("budget", "budget", _("Budget"),
                _("InfiniBand is the performance ceiling; RoCE v2 is the value choice."),
                cf.budget_field),
    AnswerField("determinism", "determinism", _("Determinism"),
                _("Strict means financial high-frequency trading or hard latency bounds."),
                cf.determinism_field),
    AnswerField("nic_speed", "nic-speed", _("NIC speed per GPU"),
                _("The port speed of each GPU's network card: ConnectX-7 is 400G, "
                  "ConnectX-8 is 800G (on Ethernet two 400G ports)."),
                cf.NicSpeedField,
                radio_choices=lambda: [(str(s), f"{s}G") for s in NIC_SPEEDS]
                + [(UNSURE, _("Not sure"))],
                must_answer=True),
    AnswerField("nics_per_server", "nic-speed", _("NICs per server"),
                _("Leave empty for one NIC per GPU (8 on HGX / DGX servers): each NIC "
                  "is one rail."),
                cf.nics_per_server_field, widget="number", optional=True,
                placeholder=_("One per GPU")),
    AnswerField("distance", "nic-speed", _("Longest link"),
                _("The longest cable in the fabric: it decides copper or which optics, and "
                  "the PFC headroom."),
                cf.distance_field, optional=True),
    AnswerField("vendor", "nic-speed", _("Switch vendor"),
                _("The switches in the plan; InfiniBand switches come from NVIDIA only."),
                cf.vendor_field, optional=True),
    AnswerField("platform", "nic-speed", _("Server platform"),
                _("Where the NICs' optics plug in: DGX / HGX servers have twin-port OSFP "
                  "cages (one module serves two NIC ports); BlueField-3 takes QSFP112 only."),
                cf.platform_field, optional=True),
    AnswerField("oversubscription", "nic-speed", _("Leaf oversubscription"),
                _("GPU-facing bandwidth of a leaf over its uplink bandwidth: 1:1 is "
                  "non-blocking; 2:1 or 3:1 buys fewer spines and uplinks, and traffic "
                  "between leaves slows when every GPU sends at once."),
                cf.leaf_oversubscription_field, optional=True),
)
NAMES: tuple[str, ...] = tuple(f.name for f in ANSWER_FIELDS)
BY_NAME: dict[str, AnswerField] = {f.name: f for f in ANSWER_FIELDS}
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Answers)}
assert set(NAMES) == set(_DEFAULTS), "every answer of selector.domain.Answers, once"


def of_step(step: str) -> tuple[AnswerField, ...]:
    """The answers a step asks, in order."""
    return tuple(f for f in ANSWER_FIELDS if f.step == step)


def form_value(name: str, value: object) -> str:
    """A stored answer as the step form would have received it (``None`` is the NIC
    speed's "not sure" and an empty number elsewhere)."""
    if value is None:
        return UNSURE if name == "nic_speed" else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def label_of(name: str) -> str:
    field = BY_NAME.get(name)
    return str(field.label) if field else name


def answers_from_form(data: Mapping[str, Any], names: Iterable[str] = NAMES,
                      **extra: Any) -> Answers:
    """``Answers`` from a form's cleaned data: an empty value (None) of an answer whose
    default is not None takes that default (an API query may leave GPUs per server out).
    Raises ``InvalidAnswers``."""
    values = {name: data.get(name) for name in names}
    values = {name: value for name, value in values.items()
              if value is not None or _DEFAULTS[name] is None}
    return Answers(**{**values, **extra})


class AnswerFieldsMetaclass(DeclarativeFieldsMetaclass):
    """A form declaring ``answer_fields = (...)`` gets those answers' form fields (before
    its own, in the registry's order); ``answers_in_wizard = True`` (inherited) makes them
    the step's version (required where the step requires, with the help text)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> Any:
        names = attrs.get("answer_fields", ())
        wizard = attrs.get("answers_in_wizard",
                           any(getattr(base, "answers_in_wizard", False) for base in bases))
        declared = {n: BY_NAME[n].form_field(wizard=wizard) for n in NAMES
                    if n in names and n not in attrs}
        return super().__new__(mcs, name, bases, {**declared, **attrs})
