"""A lead's frozen recommendation (read side). Kept apart from ``services`` so that the
reports and the staff workspace can read it without importing the lead-writing services.

Reading never writes: leads/0022 froze the first-release leads (their column held only a
sizing summary) once, with ``first_release_snapshot``; a row that still lacks a snapshot
is computed on each read and left as it is."""

from __future__ import annotations

from collections.abc import Mapping

from selector.domain import Answers, Recommendation
from selector.leads.models import Lead
from selector.planner.services import freeze, fresh, thaw


def first_release_snapshot(answers: Mapping, old: object) -> tuple[Recommendation, dict]:
    """The recommendation for a lead from before snapshots existed, with today's engine,
    and the snapshot to keep for it: the old summary stays under ``first_release_sizing``.
    Raises ``InvalidAnswers`` when the stored answers are no longer valid."""
    rec = fresh(Answers.from_dict(answers))
    return rec, {**freeze(rec), "first_release_sizing": old}


def lead_recommendation(lead: Lead) -> Recommendation:
    """The recommendation frozen on the lead (what the customer was shown); for a row
    without a snapshot, the one made now from its answers (not saved)."""
    rec = thaw(lead.frozen_recommendation)
    if rec is not None:
        return rec
    return first_release_snapshot(lead.answers, lead.frozen_recommendation)[0]
