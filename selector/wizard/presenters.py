"""Display data for the result page, all taken from ``compute_result`` (the API and the
PDF show the same numbers) and the words of ``selector.core.explain``."""

from __future__ import annotations

from dataclasses import dataclass

from selector.content.queries import comparison_rows, faq_entries
from selector.core.explain import (
    FABRIC_SHORT,
    FIELD_LABELS,
    RULE_TITLES,
    fabric_label,
    reason_text,
    value_label,
    what_if_text,
)
from selector.core.results import Result
from selector.domain import RULES_BY_ID, Fabric
from selector.wizard.steps import STEPS, _as_data, asks_throughput


@dataclass(frozen=True)
class AnswerRow:
    field: str
    label: str
    value: str
    step: str


@dataclass(frozen=True)
class WhatIfChoice:
    field: str
    value: str  # as the step form receives it
    text: str
    recommendation: str


def highlight_for(fabric: Fabric) -> str:
    if fabric in (Fabric.ROCE_400, Fabric.ROCE_800):
        return "roce"
    if fabric == Fabric.INFINIBAND:
        return "infiniband"
    return ""


def answer_rows(result: Result) -> list[AnswerRow]:
    data = result.answers.to_dict()
    rows = []
    for step in STEPS:
        for name in step.fields:
            if name == "throughput_limited" and not asks_throughput(data):
                continue
            rows.append(AnswerRow(name, str(FIELD_LABELS[name]),
                                  value_label(name, getattr(result.answers, name)),
                                  step.identifier))
    return rows


def result_context(result: Result) -> dict:
    decision = result.decision
    topics = result.faq_topics
    return {
        "result": result,
        "decision": decision,
        "recommendation_label": fabric_label(decision.recommendation),
        "recommendation_short": FABRIC_SHORT[decision.recommendation],
        "runner_up_label": fabric_label(decision.runner_up),
        "rule_title": RULE_TITLES[decision.rule],
        "seed_quote": RULES_BY_ID[decision.rule].seed_quote,
        "reasons": [reason_text(r) for r in decision.reasons],
        "answer_rows": answer_rows(result),
        "what_ifs": [
            WhatIfChoice(w.field, _as_data(getattr(w.value, "value", w.value)),
                         what_if_text(w), w.recommendation.value)
            for w in decision.what_if
        ],
        "highlight": highlight_for(decision.recommendation),
        "is_standard": decision.recommendation == Fabric.STANDARD,
        "comparison_rows": comparison_rows(),
        "faqs": faq_entries(topics),
    }
