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
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Self, TypeIs

# Switch vendor preferences: "any" (the documented pick rule in selector.domain.plan) or a
# vendor with rows in the catalogue, which is where the list comes from.
from .catalogue import VENDORS

__all__ = [
    "ENGINE_VERSION",
    "Workload",
    "Budget",
    "Determinism",
    "Fabric",
    "NIC_SPEEDS",
    "DEFAULT_NIC_SPEED",
    "VENDORS",
    "DISTANCES",
    "DEFAULT_DISTANCE",
    "PLATFORMS",
    "DEFAULT_PLATFORM",
    "OVERSUBSCRIPTIONS",
    "GPUS_MIN",
    "GPUS_MAX",
    "GPS_MIN",
    "GPS_MAX",
    "SMALL_CLUSTER_SERVERS",
    "THOUSAND_GPUS",
    "throughput_matters",
    "ERROR_CODES",
    "NON_FIELD_ERRORS",
    "InvalidAnswers",
    "Answers",
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
    "PLAN_FIELDS",
    "select_rule",
    "runner_up",
]

ENGINE_VERSION = "2026.12.3"


class Workload(StrEnum):
    TRAINING = "training"
    INFERENCE = "inference"
    MIXED = "mixed"


class Budget(StrEnum):
    SENSITIVE = "sensitive"
    BALANCED = "balanced"
    PERFORMANCE = "performance"


class Determinism(StrEnum):
    STANDARD = "standard"
    STRICT = "strict"


class Fabric(StrEnum):
    STANDARD = "standard-network"
    ROCE_400 = "roce-v2-400g"
    ROCE_800 = "roce-v2-800g"
    INFINIBAND = "infiniband"


# NIC port speeds offered in the wizard, Gb/s. ConnectX-7 is 400G, ConnectX-8 is
# 800G XDR IB (domain.md section 3, public NVIDIA datasheets); 200G covers older NICs.
NIC_SPEEDS = (200, 400, 800)
# "Not sure" plans today's common build: 8 x 400G NICs per 8-GPU server (domain.md section 3:
# DGX H100/H200/B200 carry 8 x 400G compute NICs).
DEFAULT_NIC_SPEED = 400
# Longest link in the fabric, by where the switches sit: metres each choice stands for. The
# reach classes of the optics (LinkX 100G-PAM4 overview): copper DAC to 3 m, multimode to
# 50 m, single-mode DR to 100 m and 500 m, FR4 to 2 km.
DISTANCES = {"rack": 3, "row": 50, "hall": 100, "building": 500, "campus": 2000}
DEFAULT_DISTANCE = "row"
# The server platform, for the NIC end of the GPU links (issue 22 finding 7): NVIDIA DGX/HGX
# with twin-port OSFP cages ("4 x OSFP ports for 8 x NVIDIA ConnectX-7 Single Port Cards",
# DGX B200 User Guide; the DGX H100 compute ports "use a two-port transceiver", DGX SuperPOD
# H100 RA), a PCIe NIC with an OSFP cage (ConnectX-7/OSFP), a BlueField-3 SuperNIC ("BlueField-3
# only accepts QSFP112s", NVIDIA MMA1Z00-NS400 specification), or not known (planned as a
# PCIe NIC with OSFP, one module per NIC port, and the page says so).
PLATFORMS = ("unsure", "dgx", "pcie-osfp", "bluefield3")
DEFAULT_PLATFORM = "unsure"
# Leaf oversubscription r:1 (GPU-facing bandwidth over uplink bandwidth) an architect may
# choose for a catalogue plan (issue 22 finding 11); 1 is non-blocking, the default.
OVERSUBSCRIPTIONS = (1, 2, 3)
GPUS_MIN, GPUS_MAX = 1, 1_000_000
# Up to 16 GPUs per server: DGX/HGX boxes carry 8 (domain.md section 3), 16-GPU
# chassis exist; this is also the maximum number of rails the sizing supports.
GPS_MIN, GPS_MAX = 1, 16

# Thresholds of the decision tree, both from the seed article:
# "上到 8 台以上 ... 再上 RoCE 无损方案" (FAQ, small clusters) and "千卡级训练" (tree item 3).
SMALL_CLUSTER_SERVERS = 8
THOUSAND_GPUS = 1000


def throughput_matters(servers: int) -> bool:
    """Whether the throughput question can change the answer (rule R3): for 2 to 7
    servers. One server is R1 whatever the throughput; from SMALL_CLUSTER_SERVERS on, R3
    no longer applies. The wizard asks it, and the answers table shows it, only then."""
    return 1 < servers < SMALL_CLUSTER_SERVERS

# Machine error codes carried by InvalidAnswers.errors.
ERROR_CODES = ("required", "invalid", "out_of_range", "invalid_choice", "unknown_field")
# Key used for errors that belong to no single field (same spelling as Django's).
NON_FIELD_ERRORS = "__all__"


class InvalidAnswers(ValueError):
    """Raised when answers fail validation.

    ``errors`` maps each offending field name to a list of machine codes
    (see ``ERROR_CODES``), e.g. ``{"gpus": ["out_of_range"]}``. All field errors
    are collected before raising.
    """

    def __init__(self, errors: Mapping[str, list[str]]):
        self.errors: dict[str, list[str]] = {k: list(v) for k, v in errors.items()}
        detail = "; ".join(f"{k}: {', '.join(v)}" for k, v in self.errors.items())
        super().__init__(f"invalid answers ({detail})")


def _is_int(value: object) -> TypeIs[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _clean_int(value: object, lo: int, hi: int) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not _is_int(value):
        return value, "invalid"
    if not lo <= value <= hi:
        return value, "out_of_range"
    return int(value), None


def _clean_choice(value: object, enum: type[StrEnum]) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not isinstance(value, str):
        return value, "invalid"
    try:
        return enum(value), None
    except ValueError:
        return value, "invalid_choice"


def _clean_bool(value: object) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not isinstance(value, bool):
        return value, "invalid"
    return value, None


def _clean_nic(value: object) -> tuple[object, str | None]:
    if value is None:
        return None, None  # "not known / let the engine choose" is a valid answer
    if not _is_int(value):
        return value, "invalid"
    if value not in NIC_SPEEDS:
        return value, "invalid_choice"
    return int(value), None


def _clean_optional_int(value: object, lo: int, hi: int) -> tuple[object, str | None]:
    if value is None:
        return None, None  # "one per GPU" (nics_per_server)
    return _clean_int(value, lo, hi)


def _clean_int_choice(value: object, choices: Collection[int]) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not _is_int(value):
        return value, "invalid"
    if value not in choices:
        return value, "invalid_choice"
    return int(value), None


def _clean_str_choice(value: object, choices: Collection[str]) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not isinstance(value, str):
        return value, "invalid"
    if value not in choices:
        return value, "invalid_choice"
    return value, None


_CLEANERS: dict[str, Callable[[object], tuple[object, str | None]]] = {
    "gpus": lambda v: _clean_int(v, GPUS_MIN, GPUS_MAX),
    "gpus_per_server": lambda v: _clean_int(v, GPS_MIN, GPS_MAX),
    "workload": lambda v: _clean_choice(v, Workload),
    "budget": lambda v: _clean_choice(v, Budget),
    "determinism": lambda v: _clean_choice(v, Determinism),
    "throughput_limited": _clean_bool,
    "nic_speed": _clean_nic,
    "nics_per_server": lambda v: _clean_optional_int(v, GPS_MIN, GPS_MAX),
    "vendor": lambda v: _clean_str_choice(v, VENDORS),
    "distance": lambda v: _clean_str_choice(v, DISTANCES),
    "platform": lambda v: _clean_str_choice(v, PLATFORMS),
    "oversubscription": lambda v: _clean_int_choice(v, OVERSUBSCRIPTIONS),
}
# The hardware answers: they shape the plan, never the rule.
PLAN_FIELDS = ("nics_per_server", "vendor", "distance", "platform", "oversubscription")


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


@dataclass(frozen=True)
class Answers:
    """The wizard's answers, validated on construction.

    Enum fields accept the enum member or its string value (normalised to the
    member). ``bool`` is rejected where an int is expected and vice versa.
    ``nic_speed=None`` means "not specified" (planned as ``DEFAULT_NIC_SPEED``);
    ``nics_per_server=None`` means one NIC per GPU (a rail per GPU).
    """

    gpus: int
    gpus_per_server: int = 8
    workload: Workload = Workload.TRAINING
    budget: Budget = Budget.BALANCED
    determinism: Determinism = Determinism.STANDARD
    throughput_limited: bool = False
    nic_speed: int | None = None
    nics_per_server: int | None = None
    vendor: str = "any"
    distance: str = DEFAULT_DISTANCE
    platform: str = DEFAULT_PLATFORM
    oversubscription: int = 1

    def __post_init__(self) -> None:
        errors: dict[str, list[str]] = {}
        for name, clean in _CLEANERS.items():
            value, code = clean(getattr(self, name))
            if code is not None:
                errors[name] = [code]
            else:
                object.__setattr__(self, name, value)
        if errors:
            raise InvalidAnswers(errors)

    @property
    def servers(self) -> int:
        """Number of servers: ``ceil(gpus / gpus_per_server)``."""
        return -(-self.gpus // self.gpus_per_server)

    @property
    def nic_gbps(self) -> int:
        """The NIC speed the plan uses: the answer, or 400G when not known."""
        return self.nic_speed or DEFAULT_NIC_SPEED

    @property
    def rails(self) -> int:
        """NICs per server (one rail each): the answer, or one per GPU."""
        return self.nics_per_server or self.gpus_per_server

    @property
    def distance_m(self) -> int:
        return DISTANCES[self.distance]

    def replace(self, **changes: Any) -> Answers:
        """Return a copy with ``changes`` applied (validated like the constructor)."""
        unknown = sorted(set(changes) - set(_CLEANERS))
        if unknown:
            raise InvalidAnswers({name: ["unknown_field"] for name in unknown})
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (enums as their string values), every field in declaration order;
        inverse of ``from_dict``."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: object) -> Answers:
        """Build from a mapping such as ``to_dict()`` produced.

        Missing optional keys take their defaults; a missing ``gpus`` is
        ``required``; unknown keys are ``unknown_field``; a non-mapping is a
        non-field error. Raises ``InvalidAnswers`` carrying all errors at once.
        """
        if not isinstance(data, Mapping):
            raise InvalidAnswers({NON_FIELD_ERRORS: ["invalid"]})
        errors: dict[str, list[str]] = {}
        for key in data:
            if key not in _CLEANERS:
                errors[str(key)] = ["unknown_field"]
        kwargs = {k: v for k, v in data.items() if k in _CLEANERS}
        kwargs.setdefault("gpus", None)
        try:
            answers = cls(**kwargs)
        except InvalidAnswers as exc:
            errors = {**exc.errors, **errors}
        if errors:
            # Report in field order, unknown keys last.
            order = list(_CLEANERS)
            keys = sorted(errors, key=lambda k: (order.index(k) if k in order else len(order), k))
            raise InvalidAnswers({k: errors[k] for k in keys})
        return answers


assert set(_CLEANERS) == {f.name for f in dataclasses.fields(Answers)}, "a cleaner per answer"


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
