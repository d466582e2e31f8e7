from django import forms
from django.utils.translation import gettext_lazy as _

from selector.core import forms as f
from selector.core.answers import NAMES, AnswerFieldsMetaclass, answers_from_form
from selector.domain import DISTANCES, OVERSUBSCRIPTIONS, Answers
from selector.domain.build.performance import (
    MESSAGE_BYTES_MAX,
    MESSAGE_BYTES_MIN,
    MODEL_PARAMS_B_MAX,
    MODEL_PARAMS_B_MIN,
)
from selector.domain.build.racks import (
    RACK_KW_DEFAULT,
    RACK_KW_MAX,
    RACK_KW_MIN,
    RACK_U_DEFAULT,
    RACK_U_MAX,
    RACK_U_MIN,
)
from selector.planner.build import BuildParams

_LIMITS = {"invalid": _("Enter a number."),
           "min_value": _("Enter a number of at least %(limit_value)s."),
           "max_value": _("Enter a number of at most %(limit_value)s.")}


def _number(label, lo, hi) -> forms.FloatField:
    return forms.FloatField(label=label, required=False, min_value=lo, max_value=hi,
                            error_messages=_LIMITS)


def _whole(label, lo, hi) -> f.WholeNumberField:
    return f.WholeNumberField(label=label, required=False, min_value=lo, max_value=hi,
                              error_messages={**_LIMITS, "invalid": _("Enter a whole number.")})


class BuildQuery(forms.Form):
    """The build part's choices (issue 23): the all-reduce message as a model size (bf16
    gradients, billions of parameters) or in bytes, and the rack power and height."""

    model_params_b = _number(_("Model size (billions of parameters)"), MODEL_PARAMS_B_MIN,
                             MODEL_PARAMS_B_MAX)
    message_bytes = _whole(_("All-reduce message (bytes)"), MESSAGE_BYTES_MIN,
                           MESSAGE_BYTES_MAX)
    rack_kw = _number(_("Rack power budget (kW)"), RACK_KW_MIN, RACK_KW_MAX)
    rack_u = _whole(_("Rack height (U)"), RACK_U_MIN, RACK_U_MAX)

    def clean(self):
        data = super().clean()
        if data.get("model_params_b") is not None and data.get("message_bytes") is not None:
            self.add_error("message_bytes", _("Give either a model size or a message size, "
                                              "not both."))
        return data

    def build_params(self) -> BuildParams:
        data = self.cleaned_data
        return BuildParams(
            model_params_b=data.get("model_params_b"), message_bytes=data.get("message_bytes"),
            rack_kw=data.get("rack_kw") or RACK_KW_DEFAULT,
            rack_u=data.get("rack_u") or RACK_U_DEFAULT)


class RecommendQuery(BuildQuery, metaclass=AnswerFieldsMetaclass):
    """Every answer of the wizard (selector.core.answers), plus the build part."""

    answer_fields = NAMES
    # First release: the longest cable in metres. Still accepted; it picks the smallest
    # distance class that covers it (unless ``distance`` is given).
    cable_m = f.WholeNumberField(
        label=_("Cable length (m)"), required=False, min_value=1, max_value=2000,
        error_messages={"invalid": _("Enter a whole number."),
                        "min_value": _("Enter a number of at least %(limit_value)s."),
                        "max_value": _("Enter a number of at most %(limit_value)s.")},
    )

    def clean(self):
        data = super().clean()
        cable = data.get("cable_m")
        if cable and not self.data.get("distance"):
            data["distance"] = next(code for code, metres in DISTANCES.items()
                                    if metres >= cable)
        return data

    def answers(self) -> Answers:
        return answers_from_form(self.cleaned_data)


# The answers /api/fabric takes (a plan, not a decision).
FABRIC_ANSWERS = ("gpus", "gpus_per_server", "nic_speed", "nics_per_server", "distance",
                  "vendor", "platform")
FABRIC_CHOICES = [("roce-v2-400g", "RoCE v2 400G"), ("roce-v2-800g", "RoCE v2 800G"),
                  ("infiniband", "InfiniBand")]


class FabricQuery(BuildQuery, metaclass=AnswerFieldsMetaclass):
    """Without ``fabric``: the textbook fat-tree of ``radix`` (first release). With it: the
    catalogue plan of that fabric for the NICs, vendor and distance given. The
    oversubscription is its own field here: the fat-tree takes any ratio."""

    answer_fields = FABRIC_ANSWERS
    radix = f.radix_field()
    oversubscription = f.oversubscription_field()
    fabric = forms.ChoiceField(
        label=_("Fabric"), required=False, choices=FABRIC_CHOICES,
        error_messages={"invalid_choice": _("Choose one of the offered options.")})

    def clean(self):
        data = super().clean()
        if data.get("fabric") and data.get("radix"):
            self.add_error("radix", _("Give either a fabric (a catalogue plan) or a radix (a "
                                      "textbook fat-tree), not both."))
        if data.get("fabric") and (data.get("oversubscription") or 1) not in OVERSUBSCRIPTIONS:
            self.add_error("oversubscription", _(
                "A catalogue plan takes a leaf oversubscription of 1, 2 or 3 (r:1)."))
        return data

    def answers(self) -> Answers:
        return answers_from_form(self.cleaned_data, FABRIC_ANSWERS, throughput_limited=True,
                                 oversubscription=self.cleaned_data.get("oversubscription") or 1)
