"""The dashboard's daily figures, materialised for past days.

The dashboard counts the period's wizard sessions (by source and furthest step) and leads
(by week, recommendation and source). Counted from the base tables that is two passes over
every row of the period: about 180 ms for a year of 400,000 sessions and 200,000 leads on
the 2-core bench machine, growing with the data. Past days hardly ever change, so their
counts are stored, one DashboardFigures row per (local day, utm_source), and a dashboard
request reads at most 366 x sources rows plus one live pass over today.

Staying correct without locks:

* A day's rows count while its DashboardDay marker is ``ready`` (and of this ``version``);
  every stored day has at least one row, and a request reads the rows of the ready days
  in one statement, so it never sees a ready day without its rows.
* Every write that can change a past day's counts (a session started before today
  reaching a step, a lead saved or deleted; the receivers below) deletes that day's
  marker, then its rows, *after its transaction commits*.
* Materialising days: (1) insert pending markers with a fresh token and commit; (2) count
  the days from the base tables; (3) in one transaction, lock the markers that still
  carry the token, store their rows and mark them ready. A write that committed after
  (2) read its snapshot deletes the marker after that commit: either before (3), which
  then finds no marker and stores nothing, or after it, removing what (3) stored. No stale
  count survives. Two requests racing for a day: one claims it, the other counts it live.
* Writes that bypass model signals (seed_demo's bulk loads, queryset.update) call
  ``reset()`` or ``invalidate()`` themselves.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from selector.leads.models import Lead
from selector.staff.models import DashboardDay, DashboardFigures
from selector.wizard.models import WizardSession
from selector.wizard.steps import STEPS

# A pending marker older than this was left by a request that died: take it over.
PENDING_TIMEOUT = dt.timedelta(minutes=5)
STEP_INDEXES = range(2, len(STEPS) + 1)
# Fields whose change moves a past day's counts.
SESSION_FIELDS = frozenset({"created_at", "utm_source", "furthest_step", "result_at"})
LEAD_FIELDS = frozenset({"created_at", "utm_source", "recommendation"})


@dataclass
class DayCounts:
    """One (day, utm_source): what DashboardFigures stores."""

    day: dt.date
    utm_source: str
    started: int = 0
    results: int = 0
    steps: list[int] = field(default_factory=lambda: [0] * len(STEP_INDEXES))
    leads: dict[str, int] = field(default_factory=dict)


def version() -> str:
    return f"steps={len(STEPS)};tz={settings.TIME_ZONE}"


def day_start(day: dt.date) -> dt.datetime:
    """The aware start of a local day."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def count_days(first: dt.date, last: dt.date, source: str | None = None
               ) -> dict[tuple[dt.date, str], DayCounts]:
    """Counted from the base tables: every (local day, utm_source) in [first, last] with
    a session or a lead (``source`` set: that source only). Two GROUP BY passes."""
    since, until = day_start(first), day_start(last + dt.timedelta(days=1))
    sessions = WizardSession.objects.filter(created_at__gte=since, created_at__lt=until)
    leads = Lead.objects.filter(created_at__gte=since, created_at__lt=until)
    if source is not None:
        sessions = sessions.filter(utm_source=source)
        leads = leads.filter(utm_source=source)
    out: dict[tuple[dt.date, str], DayCounts] = {}

    def row(day, utm_source) -> DayCounts:
        key = (day, utm_source)
        if key not in out:
            out[key] = DayCounts(day, utm_source)
        return out[key]

    session_rows = (
        sessions.annotate(day=TruncDate("created_at")).values("day", "utm_source").annotate(
            started=Count("*"), results=Count("created_at", filter=Q(result_at__isnull=False)),
            **{f"step{i}": Count("created_at", filter=Q(furthest_step__gte=i))
               for i in STEP_INDEXES})
        .order_by())
    for values in session_rows:
        counts = row(values["day"], values["utm_source"])
        counts.started = values["started"]
        counts.results = values["results"]
        counts.steps = [values[f"step{i}"] for i in STEP_INDEXES]
    lead_rows = (leads.annotate(day=TruncDate("created_at"))
                 .values_list("day", "recommendation", "utm_source")
                 .annotate(n=Count("*")).order_by())
    for day, recommendation, utm_source, n in lead_rows:
        leads_of_day = row(day, utm_source).leads
        leads_of_day[recommendation] = leads_of_day.get(recommendation, 0) + n
    return out


def period_counts(start: dt.date, end: dt.date, source: str = "") -> list[DayCounts]:
    """The counts of every (day, source) in [start, end]: stored rows for past days
    (materialised first when missing), a live count for today and later."""
    today = timezone.localdate()
    rows: list[DayCounts] = []
    past_end = min(end, today - dt.timedelta(days=1))
    if start <= past_end:
        rows += _past_counts(start, past_end, source)
    live_start = max(start, today)
    if live_start <= end:
        rows += count_days(live_start, end, source or None).values()
    return rows


def _past_counts(start: dt.date, end: dt.date, source: str) -> list[DayCounts]:
    # One statement, so one snapshot: the rows of the days that are ready in it. Every
    # stored day has at least one row (materialise), so the days read are the ready ones.
    ready_days = DashboardDay.objects.filter(day__gte=start, day__lte=end, ready=True,
                                             version=version()).values("day")
    stored = [DayCounts(*values) for values in DashboardFigures.objects.filter(
        day__in=ready_days).values_list("day", "utm_source", "started", "results", "steps",
                                        "leads")]
    ready = {c.day for c in stored}
    rows = [c for c in stored if not source or c.utm_source == source]
    days = (start + dt.timedelta(days=n) for n in range((end - start).days + 1))
    missing = [day for day in days if day not in ready]
    if missing:
        counted = materialise(missing)
        rows += (c for c in counted if not source or c.utm_source == source)
    return rows


def materialise(days: list[dt.date]) -> list[DayCounts]:
    """Count ``days`` (past days) from the base tables, store the ones this call could
    claim, and return the counts of all of them."""
    token, now, current = uuid.uuid4(), timezone.now(), version()
    with transaction.atomic():
        stale = DashboardDay.objects.filter(day__in=days).filter(
            Q(ready=False, created_at__lt=now - PENDING_TIMEOUT) | ~Q(version=current))
        _delete(list(stale.values_list("day", flat=True)))
        DashboardDay.objects.bulk_create(
            [DashboardDay(day=day, token=token, version=current) for day in days],
            ignore_conflicts=True)
    counts: list[DayCounts] = []
    for first, last in _runs(days):  # one pass per run of consecutive days
        counts += count_days(first, last).values()
    # A day without any session or lead still gets a row (zeros): see _past_counts.
    counted_days = {c.day for c in counts}
    counts += (DayCounts(day, "") for day in sorted(set(days) - counted_days))
    with transaction.atomic():
        claimed = set(DashboardDay.objects.select_for_update()
                      .filter(day__in=days, token=token, ready=False)
                      .values_list("day", flat=True))
        if claimed:
            DashboardFigures.objects.filter(day__in=claimed).delete()
            DashboardFigures.objects.bulk_create(
                [DashboardFigures(day=c.day, utm_source=c.utm_source, started=c.started,
                                  results=c.results, steps=c.steps, leads=c.leads)
                 for c in counts if c.day in claimed], batch_size=1000)
            DashboardDay.objects.filter(day__in=claimed, token=token).update(ready=True)
    return counts


def _runs(days: list[dt.date]) -> list[tuple[dt.date, dt.date]]:
    """Consecutive days as (first, last) runs: [1, 2, 3, 7] -> [(1, 3), (7, 7)]."""
    runs: list[tuple[dt.date, dt.date]] = []
    for day in sorted(set(days)):
        if runs and day - runs[-1][1] == dt.timedelta(days=1):
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


def warm(days: int = 366) -> int:
    """Materialise the missing past days among the last ``days`` (after a bulk load, so the
    first dashboard request does not pay for it); returns how many were missing."""
    today = timezone.localdate()
    first = today - dt.timedelta(days=days)
    ready = set(DashboardDay.objects.filter(day__gte=first, ready=True, version=version())
                .values_list("day", flat=True))
    candidates = (first + dt.timedelta(days=n) for n in range(days))
    missing = [day for day in candidates if day not in ready]
    if missing:
        materialise(missing)
    return len(missing)


def _delete(days) -> None:
    # Marker first: it waits for a materialise() holding it, then the rows it stored go too.
    DashboardDay.objects.filter(day__in=days).delete()
    DashboardFigures.objects.filter(day__in=days).delete()


def invalidate(*days: dt.date) -> None:
    """Forget the stored counts of ``days``; the next dashboard request counts them again."""
    with transaction.atomic():
        _delete(days)


def reset() -> None:
    """Forget every stored count (after bulk writes that send no model signals)."""
    with transaction.atomic():
        DashboardDay.objects.all().delete()
        DashboardFigures.objects.all().delete()


def _changed_after_commit(created_at, update_fields, relevant) -> None:
    if created_at is None:
        return
    if update_fields is not None and not relevant.intersection(update_fields):
        return
    day = timezone.localdate(created_at)
    if day < timezone.localdate():
        transaction.on_commit(lambda: invalidate(day), robust=True)


def _session_saved(sender, instance, update_fields=None, **kwargs):
    _changed_after_commit(instance.created_at, update_fields, SESSION_FIELDS)


def _lead_saved(sender, instance, update_fields=None, **kwargs):
    _changed_after_commit(instance.created_at, update_fields, LEAD_FIELDS)


def _deleted(sender, instance, **kwargs):
    _changed_after_commit(instance.created_at, None, frozenset())


def connect() -> None:
    """Called from StaffConfig.ready()."""
    post_save.connect(_session_saved, sender=WizardSession, dispatch_uid="rollup-session")
    post_delete.connect(_deleted, sender=WizardSession, dispatch_uid="rollup-session-del")
    post_save.connect(_lead_saved, sender=Lead, dispatch_uid="rollup-lead")
    post_delete.connect(_deleted, sender=Lead, dispatch_uid="rollup-lead-del")
