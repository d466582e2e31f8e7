"""Words that do not overstate (issue 22 finding 12), in English and Chinese."""

from __future__ import annotations

from django.utils import translation

from selector.domain import DEFAULT_CATALOGUE, Answers, recommend
from selector.planner import words


def test_the_redundant_pair_says_a_running_job_restarts():
    rec = recommend(Answers(64, throughput_limited=True), DEFAULT_CATALOGUE)
    plan = rec.recommended.plan
    note = next(n for n in plan.notes if n.key == "redundant_pair")
    with translation.override("en"):
        text = words.note_text(note, plan)
    assert "stops with a network error and must be restarted" in text
    assert "halves the bandwidth and leaves every server connected" not in text
    assert "half the bandwidth" in text
    with translation.override("zh-hans"):
        zh = words.note_text(note, plan)
    assert "中止" in zh and "重新启动" in zh
