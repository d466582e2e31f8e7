from django import forms
from django.utils.translation import gettext_lazy as _

from selector.core import forms as f
from selector.domain import Answers


class RecommendQuery(forms.Form):
    gpus = f.gpus_field()
    gpus_per_server = f.gpus_per_server_field()
    workload = f.workload_field()
    budget = f.budget_field()
    determinism = f.determinism_field()
    throughput_limited = f.StrictBooleanField(required=False)
    nic_speed = f.NicSpeedField()
    cable_m = f.WholeNumberField(
        label=_("Cable length (m)"), required=False, min_value=1, max_value=2000,
        error_messages={"invalid": _("Enter a whole number."),
                        "min_value": _("Enter a number of at least %(limit_value)s."),
                        "max_value": _("Enter a number of at most %(limit_value)s.")},
    )

    def answers(self) -> Answers:
        data = self.cleaned_data
        return Answers(
            gpus=data["gpus"],
            gpus_per_server=data["gpus_per_server"] or 8,
            workload=data["workload"],
            budget=data["budget"],
            determinism=data["determinism"],
            throughput_limited=data["throughput_limited"],
            nic_speed=data["nic_speed"],
        )


class FabricQuery(forms.Form):
    gpus = f.gpus_field()
    gpus_per_server = f.gpus_per_server_field()
    radix = f.radix_field()
    oversubscription = f.oversubscription_field()
