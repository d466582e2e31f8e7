"""One recommendation, complete: the decision, the recommended and runner-up fabrics
sized with catalogue switches, and the RoCE lossless tuning values. Used by the API, the
wizard's result page and the PDF so all three show the same numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from selector.domain import (
    Answers,
    Decision,
    Fabric,
    FabricPlan,
    SizingError,
    SwitchSpec,
    Tuning,
    decide,
    lossless_tuning,
    plan_fabric,
)

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
DEFAULT_CABLE_M = 100  # the domain.md §4 worked example (PFC headroom at 100 m)


@dataclass(frozen=True)
class FabricOption:
    """A fabric sized for the cluster, or why it could not be (``error``)."""

    fabric: Fabric
    plan: FabricPlan | None
    error: str | None = None
    max_gpus: int | None = None

    def to_dict(self) -> dict | None:
        if self.plan is None:
            return None
        data = self.plan.size.to_dict()
        data["fabric"] = self.fabric.value
        data["speed_gbps"] = self.plan.speed_gbps
        data["switch"] = self.plan.switch.to_dict()
        return data


@dataclass(frozen=True)
class Result:
    answers: Answers
    decision: Decision
    recommended: FabricOption
    runner_up: FabricOption
    tuning: Tuning | None

    @property
    def is_roce(self) -> bool:
        return self.decision.recommendation in ROCE_FABRICS

    @property
    def faq_topics(self) -> set[str]:
        topics = {"compare"} | RULE_FAQ_TOPICS[self.decision.rule]
        if self.is_roce:
            topics.add("lossless")
        return topics


def _option(fabric: Fabric, answers: Answers, catalogue: Sequence[SwitchSpec]) -> FabricOption:
    try:
        plan = plan_fabric(fabric, answers, catalogue)
    except SizingError as exc:
        return FabricOption(fabric, None, error=getattr(exc, "code", "sizing"),
                            max_gpus=getattr(exc, "max_gpus", None))
    except LookupError:
        return FabricOption(fabric, None, error="no_switch")
    return FabricOption(fabric, plan)


def compute_result(answers: Answers, catalogue: Sequence[SwitchSpec],
                   cable_m: int = DEFAULT_CABLE_M) -> Result:
    decision = decide(answers)
    recommended = _option(decision.recommendation, answers, catalogue)
    runner_up = _option(decision.runner_up, answers, catalogue)
    tuning = None
    if decision.recommendation in ROCE_FABRICS:
        speed = recommended.plan.speed_gbps if recommended.plan else (
            800 if decision.recommendation == Fabric.ROCE_800 else 400)
        tuning = lossless_tuning(speed, cable_m=cable_m)
    return Result(answers, decision, recommended, runner_up, tuning)
