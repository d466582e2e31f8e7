"""The labels of the answers' values (the choices of selector.core.answers' fields), in the
active language. Kept apart from ``explain`` so that the form fields (``core.forms``) and
the answer-field registry can use them without importing the sentences that use the
registry's field labels."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from selector.domain.decision import DISTANCES, Budget, Determinism, Workload

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
VENDOR_LABELS = {
    "any": gettext_lazy("No preference"),
    "nvidia": "NVIDIA",
    "arista": "Arista",
    "asterfusion": gettext_lazy("Asterfusion (domestic)"),
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
