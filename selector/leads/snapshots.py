"""A lead's frozen recommendation (read side). Kept apart from ``services`` so that the
reports and the staff workspace can read it without importing the lead-writing services."""

from __future__ import annotations

from selector.domain import Answers, Recommendation
from selector.leads.models import Lead
from selector.planner.services import freeze, fresh, thaw


def lead_recommendation(lead: Lead) -> Recommendation:
    """The recommendation frozen on the lead (what the customer was shown). A lead from
    before snapshots existed (its ``sizing`` holds only a sizing summary) is frozen once,
    at its first read, with the engine of that day; the old summary stays in the snapshot
    under ``first_release_sizing``."""
    rec = thaw(lead.sizing)
    if rec is not None:
        return rec
    old = lead.sizing
    rec = fresh(Answers.from_dict(lead.answers))
    snapshot = {**freeze(rec), "first_release_sizing": old}
    Lead.objects.filter(pk=lead.pk, sizing=old).update(sizing=snapshot)
    lead.sizing = snapshot
    return rec
