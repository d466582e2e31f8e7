"""The API's bodies for a recommendation (/api/recommend) and a fabric (/api/fabric), with
their words in the active language."""

from __future__ import annotations

from selector.core import explain
from selector.domain import RULES_BY_ID, Fabric, FabricOption, Recommendation, TuningProfile
from selector.domain.tuning import infiniband_tuning
from selector.planner import words
from selector.planner.build import BuildParams, build_api


def fabric_api(option: FabricOption, build: BuildParams | None = None) -> dict | None:
    """The API's ``fabric`` object: the plan, plus its build part (``performance``,
    ``failure_domains``, ``racks``); /api/fabric and /api/recommend both use it."""
    data = option.api_dict()
    if data is None or option.plan is None:
        return data
    data.update(build_api(option.plan, build or BuildParams()))
    return data


def api_dict(rec: Recommendation, build: BuildParams | None = None) -> dict:
    """The API's body for /api/recommend (words in the active language)."""
    decision = rec.decision
    return {
        "recommendation": decision.recommendation.value,
        "recommendation_label": explain.fabric_label(decision.recommendation),
        "rule": decision.rule,
        "rule_title": str(explain.RULE_TITLES[decision.rule]),
        "seed_quote": RULES_BY_ID[decision.rule].seed_quote,
        "servers": decision.servers,
        "reasons": [explain.reason_text(r) for r in decision.reasons],
        "reason_keys": [r.to_dict() for r in decision.reasons],
        "runner_up": decision.runner_up.value,
        "what_if": [{**w.to_dict(), "text": explain.what_if_text(w)} for w in decision.what_if],
        "fabric": fabric_api(rec.recommended, build),
        "runner_up_fabric": fabric_api(rec.runner_up, build),
        "fabric_error": _error(rec.recommended),
        "runner_up_fabric_error": _error(rec.runner_up),
        "tuning": _tuning_api(rec.tuning),
        "infiniband_tuning": _infiniband_api(rec),
        "answers": rec.answers.to_dict(),
        "engine_version": rec.engine_version,
        "catalogue_version": rec.catalogue_version,
    }


def _error(option: FabricOption) -> dict | None:
    if option.plan is not None or option.fabric == Fabric.STANDARD:
        return None
    return {"code": option.error, "max_gpus": option.max_gpus,
            "message": words.no_plan_text(option)}


def _infiniband_api(rec: Recommendation) -> dict | None:
    plan = rec.recommended.plan
    if rec.tuning is not None or plan is None or plan.switch.technology != "infiniband":
        return None
    t = infiniband_tuning(plan.tiers)
    data = t.to_dict()
    data["rows"] = [{"key": key, "label": label, "value": value, "explanation": expl}
                    for key, label, value, expl in words.infiniband_rows(t)]
    return data


def _tuning_api(profile: TuningProfile | None) -> dict | None:
    if profile is None:
        return None
    data = profile.to_dict()
    data["warnings"] = [{**w.to_dict(), "text": words.warning_text(w)}
                        for w in profile.warnings]
    return data
