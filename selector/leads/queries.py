"""Reads over leads that are more than a one-liner."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from selector.wizard.models import WizardSession


@dataclass(frozen=True)
class Funnel:
    """Wizard sessions started in a period and how far they got. ``steps[k]`` counts
    sessions that reached step k or beyond (step 1 = started); ``results`` saw the result;
    ``leads`` left their details."""

    started: int = 0
    steps: dict[int, int] = field(default_factory=dict)
    results: int = 0
    leads: int = 0


def _sessions(start: dt.date, end: dt.date, source: str | None):
    """Sessions started from ``start`` to ``end`` inclusive (local dates)."""
    tz = timezone.get_current_timezone()
    lo = dt.datetime.combine(start, dt.time.min, tzinfo=tz)
    hi = dt.datetime.combine(end + dt.timedelta(days=1), dt.time.min, tzinfo=tz)
    qs = WizardSession.objects.filter(created_at__gte=lo, created_at__lt=hi)
    if source is not None:
        qs = qs.filter(utm_source=source)
    return qs


def _funnel(started: int, reached: dict[int, int], results: int, leads: int) -> Funnel:
    steps, running = {}, 0
    for step in range(max(reached, default=0), 0, -1):
        running += reached.get(step, 0)
        steps[step] = running
    return Funnel(started=started, steps=dict(sorted(steps.items())), results=results,
                  leads=leads)


def funnel(start: dt.date, end: dt.date, source: str | None = None) -> Funnel:
    """Funnel counts for sessions started between ``start`` and ``end`` (inclusive, local
    time), optionally only those whose utm_source is ``source`` ("" = no source)."""
    qs = _sessions(start, end, source)
    reached = dict(qs.values_list("furthest_step").annotate(n=Count("pk")).order_by())
    totals = qs.aggregate(
        started=Count("pk"),
        results=Count("pk", filter=Q(result_at__isnull=False)),
        leads=Count("lead"),
    )
    return _funnel(totals["started"], reached, totals["results"], totals["leads"])


def funnel_by_day(start: dt.date, end: dt.date,
                  source: str | None = None) -> dict[dt.date, Funnel]:
    """The same counts per local day (days without sessions are left out)."""
    qs = _sessions(start, end, source).annotate(day=TruncDate("created_at"))
    per_step = qs.values_list("day", "furthest_step").annotate(n=Count("pk")).order_by()
    totals = qs.values("day").annotate(
        started=Count("pk"),
        results=Count("pk", filter=Q(result_at__isnull=False)),
        leads=Count("lead"),
    ).order_by("day")
    reached: dict[dt.date, dict[int, int]] = {}
    for day, step, n in per_step:
        reached.setdefault(day, {})[step] = n
    return {row["day"]: _funnel(row["started"], reached.get(row["day"], {}),
                                row["results"], row["leads"]) for row in totals}
