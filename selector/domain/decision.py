"""The network decision engine: answers in, a fabric recommendation out.

Pure Python, no Django. The rules formalise the decision tree, FAQ and key
points of the company's seed article (``shared/seed/000_677814280cda4bc4.txt``);
every rule carries the Chinese sentence it formalises as ``Rule.seed_quote``.

The first rule that matches decides:

====  ===================================================  ==================
R1    servers == 1                                         standard-network
R2    determinism == strict                                infiniband
R3    servers < 8 and not throughput_limited               standard-network
R4    workload == inference and budget != performance      roce-v2-400g
R5    budget == performance                                infiniband
R6    gpus >= 1000 or nic_speed == 800                     roce-v2-800g
R7    otherwise                                            roce-v2-400g
====  ===================================================  ==================

``servers`` is ``ceil(gpus / gpus_per_server)``.

R4 keeps the article's sentence ("推理集群 400G 足够", a statement about speed) as the
company's voice; a performance-first budget is a different answer and goes on to R5 whatever
the workload. How an inference fabric is sized (independent two-tier pods, not one
non-blocking back-end) is the planner's part (selector.domain.plan).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Self

from .answers import (
    GPUS_MAX,
    GPUS_MIN,
    NIC_SPEEDS,
    PLAN_FIELDS,
    Answers,
    Budget,
    Determinism,
    Workload,
)

__all__ = [
    "ENGINE_VERSION",
    "Fabric",
    "SMALL_CLUSTER_SERVERS",
    "THOUSAND_GPUS",
    "throughput_matters",
    "Phrase",
    "Reason",
    "REASON_KEYS",
    "Rule",
    "RULES",
    "RULES_BY_ID",
    "WhatIf",
    "Decision",
    "decide",
    "scale_of",
    "select_rule",
    "runner_up",
]

ENGINE_VERSION = "2026.12.3"


class Fabric(StrEnum):
    STANDARD = "standard-network"
    ROCE_400 = "roce-v2-400g"
    ROCE_800 = "roce-v2-800g"
    INFINIBAND = "infiniband"


# Thresholds of the decision tree, both from the seed article:
# "上到 8 台以上 ... 再上 RoCE 无损方案" (FAQ, small clusters) and "千卡级训练" (tree item 3).
SMALL_CLUSTER_SERVERS = 8
THOUSAND_GPUS = 1000


def throughput_matters(servers: int) -> bool:
    """Whether the throughput question can change the answer (rule R3): for 2 to 7
    servers. One server is R1 whatever the throughput; from SMALL_CLUSTER_SERVERS on, R3
    no longer applies. The wizard asks it, and the answers table shows it, only then."""
    return 1 < servers < SMALL_CLUSTER_SERVERS


@dataclass(frozen=True)
class Phrase:
    """A sentence as data: ``key`` names it, ``params`` fill it in; the Django layer puts it
    into words (selector.core.explain, selector.planner.words). Reasons, plan notes and
    tuning warnings are phrases; each kind only equals its own kind."""

    key: str
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(str(data["key"]), dict(data.get("params") or {}))


@dataclass(frozen=True)
class Reason(Phrase):
    """A machine-readable reason for the decision."""


def scale_of(gpus: int) -> str:
    """The scale word for the reasons: 千卡级 (thousand), 万卡级 (ten thousand), 十万卡级,
    百万卡级 (the API's maximum, 1,000,000)."""
    if gpus >= 1_000_000:
        return "million"
    if gpus >= 100_000:
        return "hundred_thousand"
    if gpus >= 10_000:
        return "ten_thousand"
    return "thousand"


# Every key decide() can emit, with its params:
#   single_server           {"gpus", "gpus_per_server"}  R1: everything fits in one server
#   strict_determinism      {}                           R2: strict determinism asked for
#   small_cluster           {"servers"}                  R3: fewer than 8 servers
#   throughput_not_limited  {}                           R3: training throughput not limited
#   inference               {}                           R4: inference workload
#   inference_multi_node    {}                           R4: when inference needs the fabric
#   performance_budget      {}                           R5: budget goes for performance
#   thousand_gpus           {"gpus", "scale"}            R6: 1000 GPUs or more (scale_of)
#   nic_800                 {"nic_speed"}                R6: 800G NICs
#   below_thousand_gpus     {"gpus"}                     R7: under 1000 GPUs, no 800G NICs
#   roce_400_start          {"budget"}                   R7: budget is not "performance"
#   eight_plus_servers      {"servers"}                  R4-R7: why R3 did not apply
#   throughput_limited      {}                           R4-R7: why R3 did not apply
REASON_KEYS = (
    "single_server",
    "strict_determinism",
    "small_cluster",
    "throughput_not_limited",
    "inference",
    "inference_multi_node",
    "performance_budget",
    "thousand_gpus",
    "nic_800",
    "below_thousand_gpus",
    "roce_400_start",
    "eight_plus_servers",
    "throughput_limited",
)


@dataclass(frozen=True)
class Rule:
    id: str
    recommendation: Fabric
    seed_quote: str


# Quotes are verbatim from the seed article (decision tree items, FAQ answers).
RULES: tuple[Rule, ...] = (
    Rule("R1", Fabric.STANDARD, "单机 8卡以内训练：无需机间无损网络"),
    Rule("R2", Fabric.INFINIBAND, "金融高频或强确定性场景：InfiniBand 更稳"),
    Rule(
        "R3",
        Fabric.STANDARD,
        "2-4 台机器直接 NVLink 域内互联即可，机间少量流量用常规网络也能跑；"
        "上到 8 台以上或训练吞吐受限，再上 RoCE 无损方案",
    ),
    Rule("R4", Fabric.ROCE_400, "推理集群 400G 足够"),
    Rule("R5", Fabric.INFINIBAND, "InfiniBand 是性能上限选择"),
    Rule(
        "R6",
        Fabric.ROCE_800,
        "千卡级训练：RoCE 800G 核心或 InfiniBand 按预算与确定性要求选；"
        "训练卡间流量大选 800G 核心交换机",
    ),
    Rule("R7", Fabric.ROCE_400, "多机但预算敏感：RoCE v2 400G 起步"),
)
RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}


@dataclass(frozen=True)
class WhatIf:
    """A single answer change that would flip the recommendation."""

    field: str
    value: object
    recommendation: Fabric
    rule: str

    def to_dict(self) -> dict[str, Any]:
        value = self.value.value if isinstance(self.value, Enum) else self.value
        return {
            "field": self.field,
            "value": value,
            "recommendation": self.recommendation.value,
            "rule": self.rule,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WhatIf:
        return cls(str(data["field"]), data["value"], Fabric(data["recommendation"]),
                   str(data["rule"]))


@dataclass(frozen=True)
class Decision:
    recommendation: Fabric
    rule: str
    servers: int
    reasons: tuple[Reason, ...]
    runner_up: Fabric
    what_if: tuple[WhatIf, ...]
    engine_version: str = ENGINE_VERSION

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "recommendation": self.recommendation.value,
            "rule": self.rule,
            "servers": self.servers,
            "reasons": [reason.to_dict() for reason in self.reasons],
            "runner_up": self.runner_up.value,
            "what_if": [item.to_dict() for item in self.what_if],
            "engine_version": self.engine_version,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        return cls(
            recommendation=Fabric(data["recommendation"]), rule=str(data["rule"]),
            servers=int(data["servers"]),
            reasons=tuple(Reason.from_dict(r) for r in data["reasons"]),
            runner_up=Fabric(data["runner_up"]),
            what_if=tuple(WhatIf.from_dict(w) for w in data["what_if"]),
            engine_version=str(data.get("engine_version", "")),
        )


def _servers(gpus: int, gpus_per_server: int) -> int:
    return -(-gpus // gpus_per_server)


def _rule_id(
    gpus: int,
    gpus_per_server: int,
    workload: Workload,
    budget: Budget,
    determinism: Determinism,
    throughput_limited: bool,
    nic_speed: int | None,
) -> str:
    servers = _servers(gpus, gpus_per_server)
    if servers == 1:
        return "R1"
    if determinism == Determinism.STRICT:
        return "R2"
    if throughput_matters(servers) and not throughput_limited:
        return "R3"
    if workload == Workload.INFERENCE and budget != Budget.PERFORMANCE:
        return "R4"
    if budget == Budget.PERFORMANCE:
        return "R5"
    if gpus >= THOUSAND_GPUS or nic_speed == 800:
        return "R6"
    return "R7"


def _fields(answers: Answers) -> dict[str, Any]:
    """The answers the rules read (the hardware answers only shape the plan)."""
    return {f.name: getattr(answers, f.name) for f in dataclasses.fields(answers)
            if f.name not in PLAN_FIELDS}


def select_rule(answers: Answers) -> Rule:
    """The first rule (R1..R7) that matches ``answers``."""
    return RULES_BY_ID[_rule_id(**_fields(answers))]


def runner_up(recommendation: Fabric, answers: Answers) -> Fabric:
    """The other technology to size side by side with ``recommendation``."""
    if recommendation == Fabric.STANDARD:
        return Fabric.ROCE_400
    if recommendation in (Fabric.ROCE_400, Fabric.ROCE_800):
        return Fabric.INFINIBAND
    if answers.gpus >= THOUSAND_GPUS or answers.nic_speed == 800:
        return Fabric.ROCE_800
    return Fabric.ROCE_400


def _reasons(rule: str, a: Answers) -> tuple[Reason, ...]:
    servers = a.servers
    if rule == "R1":
        return (Reason("single_server", {"gpus": a.gpus, "gpus_per_server": a.gpus_per_server}),)
    if rule == "R2":
        return (Reason("strict_determinism", {}),)
    if rule == "R3":
        return (Reason("small_cluster", {"servers": servers}), Reason("throughput_not_limited", {}))
    if rule == "R4":
        main: list[Reason] = [Reason("inference", {}), Reason("inference_multi_node", {})]
    elif rule == "R5":
        main = [Reason("performance_budget", {})]
        if a.workload == Workload.INFERENCE:
            main.append(Reason("inference_multi_node", {}))
    elif rule == "R6":
        main = []
        if a.gpus >= THOUSAND_GPUS:
            main.append(Reason("thousand_gpus", {"gpus": a.gpus, "scale": scale_of(a.gpus)}))
        if a.nic_speed == 800:
            main.append(Reason("nic_800", {"nic_speed": 800}))
    else:
        main = [
            Reason("below_thousand_gpus", {"gpus": a.gpus}),
            Reason("roce_400_start", {"budget": a.budget.value}),
        ]
    # R4..R7: say why a lossless back-end is needed at all (why R3 did not apply).
    if servers >= SMALL_CLUSTER_SERVERS:
        main.append(Reason("eight_plus_servers", {"servers": servers}))
    if a.throughput_limited:
        main.append(Reason("throughput_limited", {}))
    return tuple(main)


# The alternatives a what-if offers: choices the customer could make differently (budget,
# determinism, NIC speed) and the situation R3 asks about, in this order. What the cluster
# is for (workload) and the servers it is built from are facts, not options, so they are
# never offered (issue 26, finding 4); "not sure" is not an alternative NIC speed.
_ENUMERATED: tuple[tuple[str, tuple[object, ...]], ...] = (
    ("budget", tuple(Budget)),
    ("determinism", tuple(Determinism)),
    ("throughput_limited", (False, True)),
    ("nic_speed", NIC_SPEEDS),
)


def _gpus_candidates(gpus_per_server: int) -> set[int]:
    # The GPU counts where the outcome can change, for fixed gpus_per_server:
    # last 1-server count, first 2-server count, last 7-server count, first
    # 8-server count, and the 1000-GPU line. The outcome is constant between these,
    # so the nearest value giving a given outcome is always one of them.
    g = gpus_per_server
    n = SMALL_CLUSTER_SERVERS
    candidates = {g, g + 1, (n - 1) * g, (n - 1) * g + 1, THOUSAND_GPUS - 1, THOUSAND_GPUS}
    return {c for c in candidates if GPUS_MIN <= c <= GPUS_MAX}


def _what_if(answers: Answers, current: Fabric) -> tuple[WhatIf, ...]:
    """The answer changes that would give another fabric. The cluster's size only ever
    grows in a what-if: the smallest size it could grow to for each other fabric ("if the
    cluster grew to 1,000 GPUs"), never a smaller cluster than the one being planned."""
    base = _fields(answers)
    out: list[WhatIf] = []

    def outcome(name: str, value: object) -> str:
        return _rule_id(**{**base, name: value})

    here = answers.gpus
    best: dict[Fabric, tuple[int, str]] = {}
    for size in sorted(c for c in _gpus_candidates(answers.gpus_per_server) if c > here):
        rule = outcome("gpus", size)
        fabric = RULES_BY_ID[rule].recommendation
        if fabric != current and fabric not in best:
            best[fabric] = (size, rule)
    for fabric, (size, rule) in sorted(best.items(), key=lambda item: item[1][0]):
        out.append(WhatIf("gpus", size, fabric, rule))

    for name, values in _ENUMERATED:
        for value in values:
            if value == base[name]:
                continue
            rule = outcome(name, value)
            fabric = RULES_BY_ID[rule].recommendation
            if fabric != current:
                out.append(WhatIf(name, value, fabric, rule))
    return tuple(out)


def decide(answers: Answers) -> Decision:
    """Apply the rules to ``answers`` and explain the result."""
    if not isinstance(answers, Answers):
        raise TypeError("decide() expects an Answers instance")
    rule = select_rule(answers)
    return Decision(
        recommendation=rule.recommendation,
        rule=rule.id,
        servers=answers.servers,
        reasons=_reasons(rule.id, answers),
        runner_up=runner_up(rule.recommendation, answers),
        what_if=_what_if(answers, rule.recommendation),
        engine_version=ENGINE_VERSION,
    )
