"""One recommendation, complete and serialisable: the decision, the recommended and
runner-up fabrics planned with catalogue switches (BOM, power, cost), the tuning profile of
the recommended switch's family, and the versions they were made with.

Pure Python, no Django. ``recommend()`` builds a fresh one (the wizard and the API);
``Recommendation.to_dict()`` is the frozen snapshot a lead keeps, and
``Recommendation.from_dict()`` gives back exactly the same object, so the staff page, the
PDF and the JSON-LD render what the customer was shown, whatever changed since.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .answers import Answers
from .bom import GPU_REACH_MAX_M, Prices
from .catalogue import Catalogue, SwitchSpec
from .decision import ENGINE_VERSION, Decision, Fabric, decide
from .fabric import FabricPlan
from .plan import plan_fabric
from .sizing import FabricTooLarge, SizingError
from .tuning import LeafPorts, TuningProfile, tuning_profile

__all__ = [
    "SNAPSHOT_VERSION",
    "ROCE_FABRICS",
    "RULE_FAQ_TOPICS",
    "FabricOption",
    "Recommendation",
    "recommend",
]

# Bump when the snapshot's shape changes; from_dict reads every version since 1.
SNAPSHOT_VERSION = 1
ROCE_FABRICS = (Fabric.ROCE_400, Fabric.ROCE_800)
# FAQ topics (content FaqEntry.topics) that explain each rule's answer; "compare" always
# applies and "lossless" for every RoCE result. One table for the result page and the PDF.
RULE_FAQ_TOPICS = {
    "R1": {"scale"},
    "R2": {"determinism"},
    "R3": {"scale", "lossless"},
    "R4": {"workload", "speed"},
    "R5": {"budget"},
    "R6": {"speed", "scale"},
    "R7": {"budget", "speed"},
}


@dataclass(frozen=True)
class FabricOption:
    """A fabric planned for the cluster, or why it could not be (``error``: ``too_large``
    with ``max_gpus``, or ``no_switch``)."""

    fabric: Fabric
    plan: FabricPlan | None
    error: str | None = None
    max_gpus: int | None = None

    def api_dict(self) -> dict[str, Any] | None:
        """The API's ``fabric`` object: totals under the first release's names, plus the
        plan (planes, link speeds, switch, BOM, power, cost)."""
        plan = self.plan
        if plan is None:
            return None
        data = plan.size.to_dict()
        data.update({
            "fabric": self.fabric.value,
            "design": plan.design,
            "planes": plan.plane_count,
            "pods": plan.pods,
            "gpu_link_gbps": plan.gpu_link_gbps,
            "port_gbps": plan.port_gbps,
            "ports_per_nic": plan.ports_per_nic,
            "uplink_gbps": plan.uplink_gbps,
            "speed_gbps": plan.uplink_gbps,
            "switch": plan.switch.to_dict(),
            "bom": [{"part": line.key, "kind": line.kind, "tier": line.tier,
                     "vendor": line.vendor, "model": line.model, "reach_m": line.reach_m,
                     "count": line.count, "power_w": line.power_w,
                     "source": line.source.to_dict()} for line in plan.bom],
            "modules": plan.modules,
            "cables": plan.cables,
            "power_w": plan.power_w,
            "power_complete": plan.power_complete,
            "cost": plan.cost.to_dict() if plan.cost and plan.cost.complete else None,
            "notes": [note.to_dict() for note in plan.notes],
            "distance": plan.distance,
            "reach_m": plan.reach_m,
        })
        return data

    def to_dict(self) -> dict[str, Any]:
        return {"fabric": self.fabric.value,
                "plan": self.plan.to_dict() if self.plan else None,
                "error": self.error, "max_gpus": self.max_gpus}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FabricOption:
        plan = data.get("plan")
        return cls(Fabric(data["fabric"]), FabricPlan.from_dict(plan) if plan else None,
                   data.get("error"), data.get("max_gpus"))


@dataclass(frozen=True)
class Recommendation:
    answers: Answers
    decision: Decision
    recommended: FabricOption
    runner_up: FabricOption
    tuning: TuningProfile | None
    engine_version: str = ENGINE_VERSION
    catalogue_version: str = ""
    snapshot_version: int = SNAPSHOT_VERSION

    @property
    def is_roce(self) -> bool:
        return self.decision.recommendation in ROCE_FABRICS

    @property
    def faq_topics(self) -> set[str]:
        topics = {"compare"} | RULE_FAQ_TOPICS[self.decision.rule]
        if self.is_roce:
            topics.add("lossless")
        return topics

    @property
    def options(self) -> tuple[FabricOption, FabricOption]:
        return (self.recommended, self.runner_up)

    def cost_ratio(self) -> Decimal | None:
        """RoCE cost / InfiniBand cost when both fabrics are priced in full, same currency."""
        costs = {}
        for option in self.options:
            plan = option.plan
            if plan is None or plan.cost is None or not plan.cost.complete:
                return None
            tech = plan.switch.technology
            costs[tech] = plan.cost
        roce, ib = costs.get("ethernet"), costs.get("infiniband")
        if roce is None or ib is None or roce.currency != ib.currency or not ib.amount:
            return None
        return (roce.amount / ib.amount).quantize(Decimal("0.01"))

    def to_dict(self) -> dict[str, Any]:
        """The frozen snapshot (JSON-safe). Each source document appears once, in
        ``sources``; where it is cited the snapshot holds ``{"$source": index}``."""
        return _compact({
            "snapshot_version": self.snapshot_version,
            "engine_version": self.engine_version,
            "catalogue_version": self.catalogue_version,
            "answers": self.answers.to_dict(),
            "decision": self.decision.to_dict(),
            "recommended": self.recommended.to_dict(),
            "runner_up": self.runner_up.to_dict(),
            "tuning": self.tuning.to_dict() if self.tuning else None,
        })

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Recommendation:
        if int(data.get("snapshot_version", 0)) < 1:
            raise ValueError("not a recommendation snapshot")
        data = _expand(data)
        tuning = data.get("tuning")
        return cls(
            answers=Answers.from_dict(data["answers"]),
            decision=Decision.from_dict(data["decision"]),
            recommended=FabricOption.from_dict(data["recommended"]),
            runner_up=FabricOption.from_dict(data["runner_up"]),
            tuning=TuningProfile.from_dict(tuning) if tuning else None,
            engine_version=str(data["engine_version"]),
            catalogue_version=str(data.get("catalogue_version", "")),
            snapshot_version=int(data["snapshot_version"]),
        )


_SOURCE_KEYS = frozenset({"title", "url", "date", "title_zh"})


def _compact(data: dict[str, Any]) -> dict[str, Any]:
    sources: list[dict[str, Any]] = []
    index: dict[tuple[Any, ...], int] = {}

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == _SOURCE_KEYS:
                key = tuple(value[k] for k in sorted(_SOURCE_KEYS))
                if key not in index:
                    index[key] = len(sources)
                    sources.append(dict(value))
                return {"$source": index[key]}
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    out: dict[str, Any] = walk(data)
    out["sources"] = sources
    return out


def _expand(data: dict[str, Any]) -> dict[str, Any]:
    sources = data.get("sources") or []

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"$source"}:
                return dict(sources[int(value["$source"])])
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    expanded: dict[str, Any] = walk({k: v for k, v in data.items() if k != "sources"})
    return expanded


def _option(fabric: Fabric, answers: Answers, catalogue: Catalogue,
            prices: Prices | None) -> FabricOption:
    try:
        plan = plan_fabric(fabric, answers, catalogue, prices)
    except FabricTooLarge as exc:
        return FabricOption(fabric, None, error="too_large", max_gpus=exc.max_gpus)
    except SizingError as exc:
        return FabricOption(fabric, None, error=exc.code)
    except LookupError:
        return FabricOption(fabric, None, error="no_switch")
    return FabricOption(fabric, plan)


def leaf_ports(plan: FabricPlan) -> LeafPorts:
    """The front-panel layout of the plan's fullest leaf (or of the one switch of a plane):
    GPU links first, at the NIC speed through the breakout, then the uplinks."""
    switch = plan.switch
    size = plan.largest_plane
    _count, down, up = max(size.leaf_groups, key=lambda group: (group[1], group[2]))
    gpu_split = switch.port_speed_gbps // plan.port_gbps
    up_split = switch.port_speed_gbps // plan.uplink_gbps
    return LeafPorts(gpu_ports=-(-down // gpu_split), gpu_split=gpu_split,
                     uplink_ports=-(-up // up_split) if up else 0,
                     uplink_split=up_split if up else 1, switch_ports=switch.ports)


def tuning_for(plan: FabricPlan) -> TuningProfile | None:
    """The lossless profile of the plan's switch family, its port groups read from the
    plan: the fullest leaf's GPU ports (links within the servers' row) and uplinks, and
    the spine and core ports (links at the distance the customer chose)."""
    return tuning_profile(plan.switch.family, plan.port_gbps, uplink_gbps=plan.uplink_gbps,
                          cable_m=plan.reach_m,
                          gpu_cable_m=min(plan.reach_m, GPU_REACH_MAX_M),
                          switch_key=plan.switch.key, leaf=leaf_ports(plan))


def recommend(answers: Answers, catalogue: Catalogue | tuple[SwitchSpec, ...],
              prices: Prices | None = None) -> Recommendation:
    """Decide, plan both fabrics, and tune the recommended RoCE fabric for its switch."""
    catalogue = Catalogue.of(catalogue)
    decision = decide(answers)
    recommended = _option(decision.recommendation, answers, catalogue, prices)
    runner = _option(decision.runner_up, answers, catalogue, prices)
    plan = recommended.plan
    tuning = None
    if decision.recommendation in ROCE_FABRICS and plan is not None:
        tuning = tuning_for(plan)
    return Recommendation(answers, decision, recommended, runner, tuning,
                          engine_version=decision.engine_version,
                          catalogue_version=catalogue.version)
