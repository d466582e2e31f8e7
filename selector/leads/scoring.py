"""Lead score. The whole rule lives in ``score_lead``'s docstring and code."""

from selector.domain import Answers, Budget
from selector.leads.models import Score, Timeline

HOT_POINTS = 5
WARM_POINTS = 3
LARGE_CLUSTER_GPUS = 512
MEDIUM_CLUSTER_GPUS = 64

_TIMELINE_POINTS = {
    Timeline.WITHIN_3_MONTHS: 3,
    Timeline.MONTHS_3_TO_6: 2,
    Timeline.UNKNOWN: 1,
    Timeline.LATER: 0,
}
_BUDGET_POINTS = {Budget.PERFORMANCE: 1, Budget.BALANCED: 1, Budget.SENSITIVE: 0}


def score_lead(answers: Answers, timeline: str) -> Score:
    """Score a lead hot / warm / cold from cluster scale, budget and project timeline.

    Points are added up:

    ============================  ======
    project timeline              points
    ============================  ======
    within 3 months               3
    in 3 to 6 months              2
    not decided yet / not given   1
    later than 6 months           0
    ============================  ======

    ============================  ======
    scale (total GPUs)            points
    ============================  ======
    512 or more                   2
    64 to 511                     1
    fewer than 64                 0
    ============================  ======

    ============================  ======
    budget                        points
    ============================  ======
    performance first, balanced   1
    cost-sensitive                0
    ============================  ======

    5 or 6 points: **hot**; 3 or 4 points: **warm**; 0 to 2 points: **cold**.

    So a purchase within three months is hot from 64 GPUs with a non-minimal budget, or
    from 512 GPUs on any budget; a project later than six months is never hot.
    """
    points = (_TIMELINE_POINTS[Timeline(timeline or Timeline.UNKNOWN)]
              + _BUDGET_POINTS[answers.budget])
    if answers.gpus >= LARGE_CLUSTER_GPUS:
        points += 2
    elif answers.gpus >= MEDIUM_CLUSTER_GPUS:
        points += 1
    if points >= HOT_POINTS:
        return Score.HOT
    if points >= WARM_POINTS:
        return Score.WARM
    return Score.COLD
