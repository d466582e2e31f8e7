"""Words for the domain core's codes, in the active language.

The domain core (``selector.domain``) returns machine codes (fabric codes, rule ids,
reason keys, answer values); this module is the one place that turns them into
translated text for pages, the API, e-mails and the PDF.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from selector.domain.decision import (
    REASON_KEYS,
    Budget,
    Decision,
    Determinism,
    Fabric,
    Reason,
    WhatIf,
    Workload,
)

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

FIELD_LABELS = {
    "gpus": gettext_lazy("Total GPUs"),
    "gpus_per_server": gettext_lazy("GPUs per server"),
    "workload": gettext_lazy("Workload"),
    "budget": gettext_lazy("Budget"),
    "determinism": gettext_lazy("Determinism"),
    "throughput_limited": gettext_lazy("Training throughput limited today"),
    "nic_speed": gettext_lazy("NIC speed per GPU"),
}

RULE_TITLES = {
    "R1": gettext_lazy("One server: no lossless inter-server network needed"),
    "R2": gettext_lazy("Strict determinism: InfiniBand is steadier"),
    "R3": gettext_lazy("Small cluster: a conventional network is enough"),
    "R4": gettext_lazy("Inference cluster: 400G is enough"),
    "R5": gettext_lazy("Performance first: InfiniBand is the ceiling"),
    "R6": gettext_lazy("Thousand-GPU training or 800G NICs: RoCE 800G core"),
    "R7": gettext_lazy("Several servers on a budget: start with RoCE v2 400G"),
}

_REASONS = {
    "single_server": gettext_lazy(
        "All %(gpus)s GPUs fit in one server (%(gpus_per_server)s per server), so there is no "
        "traffic between servers that needs a lossless network."),
    "strict_determinism": gettext_lazy(
        "You need strict determinism (financial high-frequency trading or hard latency "
        "bounds): InfiniBand's natively lossless fabric is the steadier choice."),
    "small_cluster": gettext_lazy(
        "%(servers)s servers is a small cluster (fewer than 8): a conventional network carries "
        "the little traffic between servers."),
    "throughput_not_limited": gettext_lazy(
        "Training throughput is not limited by the network today."),
    "inference": gettext_lazy("The workload is inference, and 400G is enough for inference "
                              "clusters."),
    "performance_budget": gettext_lazy(
        "Your budget puts performance first, and InfiniBand is the performance-ceiling choice."),
    "thousand_gpus": gettext_lazy(
        "%(gpus)s GPUs is thousand-GPU-scale training: heavy GPU-to-GPU traffic calls for an "
        "800G core."),
    "nic_800": gettext_lazy(
        "Your GPUs have %(nic_speed)sG NICs, and the switches should match the NIC port speed."),
    "below_thousand_gpus": gettext_lazy(
        "%(gpus)s GPUs is below the thousand-GPU scale, so a 400G fabric carries the traffic."),
    "roce_400_start": gettext_lazy(
        "Without a performance-first budget, RoCE v2 at 400G is the starting point: it shares "
        "the Ethernet ecosystem and costs roughly 30%% less than InfiniBand (our estimate)."),
    "eight_plus_servers": gettext_lazy(
        "At %(servers)s servers (8 or more) the traffic between servers needs a lossless fabric."),
    "throughput_limited": gettext_lazy(
        "Training throughput is limited today, so a lossless fabric pays off at this size."),
}
assert set(_REASONS) == set(REASON_KEYS), "every reason key needs a sentence"


# The remarks the report's checklist prints beside each value: the specific part of its
# source in selector.domain.tuning.SOURCES (the citation itself stays as published).
# Marked for translation here, translated when printed (tuning_remark).
TUNING_REMARKS = frozenset({
    gettext_noop("PFC is IEEE 802.1Qbb, enabled on switch priority 3"),
    gettext_noop("RoCE traffic DSCP 26 -> priority 3"),
    gettext_noop("CNP DSCP 48 -> priority 6, strict priority"),
    gettext_noop("ECN (RFC 3168) min threshold 150 KB on the RoCE queue"),
    gettext_noop("ECN (RFC 3168) max threshold 1.5 MB on the RoCE queue"),
    gettext_noop("ECN marking probability 100 %"),
    gettext_noop("BDP = RTT x bandwidth"),
    gettext_noop("PFC watchdog breaks PFC deadlocks and pause storms"),
    gettext_noop("CNP on priority 6, strict priority"),
    gettext_noop("Assumed fabric round-trip time"),
})


def tuning_remark(text: str) -> str:
    """A checklist remark in the active language (as written when it has no translation)."""
    return _(text) if text in TUNING_REMARKS else text


def fabric_label(code: Fabric | str) -> str:
    return str(FABRIC_LABELS[Fabric(code)])


def reason_text(reason: Reason) -> str:
    return str(_REASONS[reason.key]) % reason.params


def value_label(field: str, value: object) -> str:
    """The human label of one answer value."""
    if field == "workload":
        return str(WORKLOAD_LABELS[Workload(value)])
    if field == "budget":
        return str(BUDGET_LABELS[Budget(value)])
    if field == "determinism":
        return str(DETERMINISM_LABELS[Determinism(value)])
    if field == "nic_speed":
        return str(NIC_SPEED_LABELS[value])
    if field == "throughput_limited":
        return str(BOOL_LABELS[bool(value)])
    return str(value)


def what_if_text(item: WhatIf) -> str:
    return _("If %(field)s were %(value)s: %(fabric)s (rule %(rule)s)") % {
        "field": FIELD_LABELS[item.field],
        "value": value_label(item.field, item.value),
        "fabric": fabric_label(item.recommendation),
        "rule": item.rule,
    }


def decision_texts(decision: Decision) -> dict:
    """The translated words for one decision, as used by the API and the pages."""
    return {
        "recommendation_label": fabric_label(decision.recommendation),
        "runner_up_label": fabric_label(decision.runner_up),
        "rule_title": str(RULE_TITLES[decision.rule]),
        "reasons": [reason_text(r) for r in decision.reasons],
        "what_if": [what_if_text(w) for w in decision.what_if],
    }
