"""The score table, written out independently of the implementation's point tables."""

import itertools

import pytest

from selector.domain import Answers, Budget
from selector.leads.models import Score, Timeline
from selector.leads.scoring import score_lead

T, B = Timeline, Budget
# (timeline, scale bucket) -> score for (sensitive, balanced, performance)
# scale buckets: small < 64 GPUs, medium 64..511, large >= 512
EXPECTED = {
    (T.WITHIN_3_MONTHS, "small"): ("warm", "warm", "warm"),   # 3 / 4 / 4 points
    (T.WITHIN_3_MONTHS, "medium"): ("warm", "hot", "hot"),    # 4 / 5 / 5
    (T.WITHIN_3_MONTHS, "large"): ("hot", "hot", "hot"),      # 5 / 6 / 6
    (T.MONTHS_3_TO_6, "small"): ("cold", "warm", "warm"),     # 2 / 3 / 3
    (T.MONTHS_3_TO_6, "medium"): ("warm", "warm", "warm"),    # 3 / 4 / 4
    (T.MONTHS_3_TO_6, "large"): ("warm", "hot", "hot"),       # 4 / 5 / 5
    (T.UNKNOWN, "small"): ("cold", "cold", "cold"),           # 1 / 2 / 2
    (T.UNKNOWN, "medium"): ("cold", "warm", "warm"),          # 2 / 3 / 3
    (T.UNKNOWN, "large"): ("warm", "warm", "warm"),           # 3 / 4 / 4
    (T.LATER, "small"): ("cold", "cold", "cold"),             # 0 / 1 / 1
    (T.LATER, "medium"): ("cold", "cold", "cold"),            # 1 / 2 / 2
    (T.LATER, "large"): ("cold", "warm", "warm"),             # 2 / 3 / 3
}
# Every boundary of the scale buckets, and the extremes.
GPUS = {"small": (1, 8, 63), "medium": (64, 256, 511), "large": (512, 4096, 1_000_000)}
BUDGETS = (B.SENSITIVE, B.BALANCED, B.PERFORMANCE)


def test_the_table_covers_every_timeline_and_bucket():
    assert set(EXPECTED) == set(itertools.product(Timeline, GPUS))


@pytest.mark.parametrize(("timeline", "bucket", "budget_index"),
                         [(t, b, i) for (t, b) in EXPECTED for i in range(3)])
def test_it_scores_every_combination(timeline, bucket, budget_index):
    budget = BUDGETS[budget_index]
    for gpus in GPUS[bucket]:
        for gps in (1, 8):
            if gpus < gps:
                continue
            answers = Answers(gpus=gpus, gpus_per_server=gps, budget=budget)
            assert score_lead(answers, timeline) == EXPECTED[(timeline, bucket)][budget_index], (
                timeline, gpus, budget)


def test_it_returns_a_score_member_and_accepts_the_string_value():
    assert score_lead(Answers(gpus=1024, budget="performance"), "0-3m") is Score.HOT


def test_a_project_later_than_six_months_is_never_hot():
    for gpus, budget in itertools.product((1, 64, 512, 1_000_000), BUDGETS):
        assert score_lead(Answers(gpus=gpus, budget=budget), "later") != Score.HOT


def test_an_unknown_timeline_value_is_refused():
    with pytest.raises(ValueError):
        score_lead(Answers(gpus=64), "tomorrow")
