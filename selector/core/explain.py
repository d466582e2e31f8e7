"""Words for the domain core's codes, in the active language.

The domain core (``selector.domain``) returns machine codes (fabric codes, rule ids,
reason keys, answer values); this module is the one place that turns them into
translated text for pages, the API, e-mails and the PDF.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from selector.core.answers import label_of
from selector.core.choices import (
    BOOL_LABELS,
    BUDGET_LABELS,
    DETERMINISM_LABELS,
    NIC_SPEED_LABELS,
    PLATFORM_LABELS,
    VENDOR_LABELS,
    WORKLOAD_LABELS,
    distance_label,
    nics_label,
)
from selector.core.i18n import active_is_english
from selector.domain.answers import DEFAULT_NIC_SPEED, Budget, Determinism, Workload
from selector.domain.decision import REASON_KEYS, Fabric, Reason, WhatIf

FABRIC_LABELS = {
    Fabric.STANDARD: gettext_lazy("Standard Ethernet (no lossless back-end fabric)"),
    Fabric.ROCE_400: gettext_lazy("RoCE v2 lossless Ethernet, 400G"),
    Fabric.ROCE_800: gettext_lazy("RoCE v2 lossless Ethernet, 800G core"),
    Fabric.INFINIBAND: gettext_lazy("InfiniBand"),
}
FABRIC_SHORT = {
    Fabric.STANDARD: gettext_lazy("Standard network"),
    Fabric.ROCE_400: "RoCE v2 400G",
    Fabric.ROCE_800: "RoCE v2 800G",
    Fabric.INFINIBAND: "InfiniBand",
}

RULE_TITLES = {
    "R1": gettext_lazy("One server: no lossless inter-server network needed"),
    "R2": gettext_lazy("Strict determinism: InfiniBand is steadier"),
    "R3": gettext_lazy("Small cluster: a conventional network is enough"),
    "R4": gettext_lazy("Inference cluster: a 400G fabric is enough"),
    "R5": gettext_lazy("Performance first: InfiniBand is the ceiling"),
    "R6": gettext_lazy("Thousand-GPU training or 800G NICs: RoCE with an 800G core"),
    "R7": gettext_lazy("Several servers on a budget: start with RoCE v2 400G"),
}

# The article's sentence each rule follows (domain.decision.Rule.seed_quote, verbatim
# Chinese), in English. English pages show this translation and keep the original beside
# it as the company's quote; Chinese pages show the original only. Not a gettext string:
# the Chinese side is the quote itself, never a translation of this text.
SEED_QUOTE_EN = {
    "R1": "Training on one machine with up to 8 GPUs: no lossless network between machines "
          "is needed.",
    "R2": "Financial high-frequency trading or workloads that need strict determinism: "
          "InfiniBand is the steadier choice.",
    "R3": "2 to 4 machines can simply be connected within the NVLink domain, and the little "
          "traffic between machines runs on an ordinary network; at 8 machines or more, or "
          "when training throughput is limited, move to a lossless RoCE network.",
    "R4": "For an inference cluster, 400G is enough.",
    "R5": "InfiniBand is the choice for the highest performance.",
    "R6": "Training on a thousand GPUs or more: choose a RoCE 800G core or InfiniBand by "
          "budget and determinism needs; heavy GPU-to-GPU training traffic calls for 800G "
          "core switches.",
    "R7": "Several machines on a tight budget: start with RoCE v2 400G.",
}


def seed_quote_translation(rule: str) -> str:
    """The rule's article sentence in the active language where that is not the original's
    (English); "" on Chinese pages."""
    return SEED_QUOTE_EN[rule] if active_is_english() else ""


_REASONS = {
    "single_server": gettext_lazy(
        "All %(gpus)s GPUs fit in one server (%(gpus_per_server)s per server), so there is no "
        "traffic between servers that needs a lossless network."),
    "strict_determinism": gettext_lazy(
        "You need strict determinism (financial high-frequency trading or hard latency "
        "bounds). Our guidance for such clusters is InfiniBand: it is natively lossless, "
        "with no PFC and ECN to tune."),
    "small_cluster": gettext_lazy(
        "%(servers)s servers is a small cluster (fewer than 8). NVLink connects the GPUs "
        "inside each server (across servers only in NVLink-switch racks such as GB200 "
        "NVL72); the little traffic between servers runs over a conventional network."),
    "throughput_not_limited": gettext_lazy(
        "Training throughput is not limited by the network today."),
    "inference": gettext_lazy(
        "The workload is inference. Inference needs the fabric's full bandwidth only among "
        "the servers that serve one model together, not across the whole cluster: the GPU "
        "links run at your NICs' speed, and a cluster too large for two tiers is built as "
        "independent two-tier pods instead of one three-tier fabric."),
    "inference_multi_node": gettext_lazy(
        "Inference needs this compute fabric only when a model spans several servers "
        "(tensor or pipeline parallelism across servers, disaggregated prefill and decode). "
        "If every model fits in one server, NVIDIA's HGX reference architecture calls the "
        "compute network not necessarily required: the front-end network carries the "
        "requests. The plan below is for models that span servers."),
    "performance_budget": gettext_lazy(
        "Your budget puts performance first, and InfiniBand is the performance-ceiling choice."),
    "thousand_gpus": gettext_lazy(
        "%(gpus)s GPUs is %(scale)s training: heavy GPU-to-GPU traffic calls for an 800G "
        "core (spine and core switches with 800G ports); the GPU links run at your NICs' "
        "speed."),
    "nic_800": gettext_lazy(
        "Your GPUs have %(nic_speed)sG NICs: the fabric carries 800G per GPU, so the core "
        "runs at 800G too."),
    "below_thousand_gpus": gettext_lazy(
        "%(gpus)s GPUs is below the thousand-GPU scale, so a 400G fabric carries the traffic."),
    "roce_400_start": gettext_lazy(
        "Without a performance-first budget, RoCE v2 at 400G is the starting point: it shares "
        "the Ethernet ecosystem and, by our estimate, costs roughly 30%% less than InfiniBand "
        "(not a measured figure)."),
    "eight_plus_servers": gettext_lazy(
        "At %(servers)s servers (8 or more) the traffic between servers needs a lossless fabric."),
    "throughput_limited": gettext_lazy(
        "Training throughput is limited today, so a lossless fabric pays off at this size."),
}
assert set(_REASONS) == set(REASON_KEYS), "every reason key needs a sentence"


def fabric_label(code: Fabric | str) -> str:
    return str(FABRIC_LABELS[Fabric(code)])


SCALE_WORDS = {
    "thousand": gettext_lazy("thousand-GPU-scale"),
    "ten_thousand": gettext_lazy("ten-thousand-GPU-scale"),
    "hundred_thousand": gettext_lazy("hundred-thousand-GPU-scale"),
    "million": gettext_lazy("million-GPU-scale"),
}


def reason_text(reason: Reason) -> str:
    params = dict(reason.params)
    if reason.key == "thousand_gpus":
        scale = params.get("scale", "thousand")
        params["scale"] = str(SCALE_WORDS.get(scale, SCALE_WORDS["thousand"]))
    for key in ("gpus", "servers"):
        if isinstance(params.get(key), int):
            params[key] = f"{params[key]:,}"
    return str(_REASONS[reason.key]) % params


def _whole(value: object) -> int:
    """An answer's number, stored as an int (or its digits, as a form posts them)."""
    return value if isinstance(value, int) else int(str(value))


def value_label(field: str, value: object) -> str:
    """The human label of one answer value (a StrEnum member's str() is its value)."""
    if field == "workload":
        return str(WORKLOAD_LABELS[Workload(str(value))])
    if field == "budget":
        return str(BUDGET_LABELS[Budget(str(value))])
    if field == "determinism":
        return str(DETERMINISM_LABELS[Determinism(str(value))])
    if field == "nic_speed":
        if value in (None, ""):  # what the plan then assumes (decision.DEFAULT_NIC_SPEED)
            return _("Not sure (planned at %(speed)sG)") % {"speed": DEFAULT_NIC_SPEED}
        return str(NIC_SPEED_LABELS[_whole(value)])
    if field == "throughput_limited":
        return str(BOOL_LABELS[bool(value)])
    if field == "nics_per_server":
        return nics_label(None if value in (None, "") else _whole(value))
    if field == "vendor":
        return str(VENDOR_LABELS.get(str(value), value))
    if field == "distance":
        return distance_label(str(value))
    if field == "platform":
        return str(PLATFORM_LABELS.get(str(value), value))
    if field == "oversubscription":
        ratio = _whole(value or 1)
        return _("1:1 (non-blocking)") if ratio == 1 else f"{ratio}:1"
    if field == "gpus" and isinstance(value, int):
        return f"{value:,}"
    return str(value)


# The clause for a changed choice answer, by field and value.
_WHAT_IF_CHOICES = {
    "workload": {
        "training": gettext_lazy("If the cluster were for training"),
        "inference": gettext_lazy("If the cluster were for inference"),
        "mixed": gettext_lazy("If the cluster were for training and inference"),
    },
    "budget": {
        "sensitive": gettext_lazy("With a cost-sensitive budget"),
        "balanced": gettext_lazy("With a balanced budget"),
        "performance": gettext_lazy("With a performance-first budget"),
    },
}


def what_if_condition(field: str, value: object) -> str:
    """The changed answer as a clause a person would write ("with 1,024 GPUs"), not
    "if <label> were <value>"."""
    value = getattr(value, "value", value)  # an enum member: its value
    if field == "gpus":
        # A what-if only ever grows the cluster (selector.domain.decision._what_if).
        return _("If the cluster grew to %(gpus)s GPUs") % {"gpus": f"{_whole(value):,}"}
    if field == "gpus_per_server":
        return _("With %(n)s GPUs per server") % {"n": value}
    clause = _WHAT_IF_CHOICES.get(field, {}).get(str(value))
    if clause is not None:
        return str(clause)
    if field == "determinism":
        return (_("If you needed strict determinism") if value == "strict"
                else _("Without a strict determinism requirement"))
    if field == "throughput_limited":
        return (_("If training throughput were limited today") if value
                else _("If training throughput were not limited today"))
    if field == "nic_speed":
        if value is None:
            return _("If the NIC speed were not decided yet")
        return _("With %(speed)sG NICs") % {"speed": value}
    return _what_if_generic(field, value)


def _what_if_generic(field: str, value: object) -> str:
    label = label_of(field)
    return _("If %(field)s were %(value)s") % {"field": label,
                                               "value": value_label(field, value)}


def what_if_text(item: WhatIf) -> str:
    fabric = fabric_label(item.recommendation)
    if "(" in fabric or "（" in fabric:  # no "(…)(rule R3)" back to back
        fabric = str(FABRIC_SHORT[item.recommendation])
    return _("%(condition)s: %(fabric)s (rule %(rule)s)") % {
        "condition": what_if_condition(item.field, item.value),
        "fabric": fabric,
        "rule": item.rule,
    }
