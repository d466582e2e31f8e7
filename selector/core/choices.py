"""The labels of the answers' values (the choices of selector.core.answers' fields), in the
active language. Kept apart from ``explain`` so that the form fields (``core.forms``) and
the answer-field registry can use them without importing the sentences that use the
registry's field labels."""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from selector.core.i18n import active_is_english
from selector.domain.answers import DISTANCES, Budget, Determinism, Workload
from selector.domain.catalogue import VENDOR_ANY, VENDOR_NAMES

WORKLOAD_LABELS = {
    Workload.TRAINING: gettext_lazy("Training"),
    Workload.INFERENCE: gettext_lazy("Inference"),
    Workload.MIXED: gettext_lazy("Training and inference"),
}
BUDGET_LABELS = {
    Budget.SENSITIVE: gettext_lazy("Cost-sensitive"),
    Budget.BALANCED: gettext_lazy("Balanced"),
    Budget.PERFORMANCE: gettext_lazy("Performance first"),
}
DETERMINISM_LABELS = {
    Determinism.STANDARD: gettext_lazy("Standard"),
    Determinism.STRICT: gettext_lazy("Strict (financial high-frequency, hard latency bounds)"),
}
NIC_SPEED_LABELS = {
    None: gettext_lazy("Not sure"),
    200: "200G",
    400: "400G",
    800: "800G",
}
BOOL_LABELS = {True: gettext_lazy("Yes"), False: gettext_lazy("No")}
def _in_language(english: str, chinese: str) -> str:
    return english if active_is_english() else chinese


# The catalogue names its vendors in both languages (selector.domain.catalogue.data).
VENDOR_LABELS: dict[str, Any] = {
    VENDOR_ANY: gettext_lazy("No preference"),
    **{key: lazy(_in_language, str)(*names) for key, names in VENDOR_NAMES.items()},
}
PLATFORM_LABELS = {
    "unsure": gettext_lazy("Not sure (planned as a PCIe NIC with OSFP)"),
    "dgx": gettext_lazy("NVIDIA DGX / HGX (twin-port OSFP at the server)"),
    "pcie-osfp": gettext_lazy("PCIe NIC with OSFP (ConnectX-7/OSFP)"),
    "bluefield3": gettext_lazy("BlueField-3 SuperNIC (QSFP112)"),
}
DISTANCE_NAMES = {
    "rack": gettext_lazy("Within a rack"),
    "row": gettext_lazy("Within a row"),
    "hall": gettext_lazy("Across the data hall"),
    "building": gettext_lazy("Between halls of a building"),
    "campus": gettext_lazy("Between buildings"),
}
assert set(DISTANCE_NAMES) == set(DISTANCES)


def distance_label(code: str) -> str:
    """"Within a row (up to 50 m)"."""
    return _("%(name)s (up to %(metres)s m)") % {"name": DISTANCE_NAMES[code],
                                                 "metres": f"{DISTANCES[code]:,}"}


def nics_label(value: int | None) -> str:
    if value is None:
        return _("One per GPU")
    return str(value)
