"""Reads of the sales workspace: the filtered lead list (shared by the page and the
exports) and the dashboard figures."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict

from django.core.cache import cache
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from selector.core.explain import FABRIC_SHORT
from selector.domain import Fabric
from selector.leads.models import Lead
from selector.staff.forms import OWNER_MINE, OWNER_NONE, SCALE_RANGES, SORTS
from selector.staff.rollup import STEP_INDEXES, day_start, period_counts
from selector.staff.search import search_term, search_text
from selector.wizard.steps import STEPS

# Shorter search terms match the beginning of name / company only (see filtered_leads).
SEARCH_ANYWHERE_MIN = 3


def filtered_leads(cleaned: dict, user) -> QuerySet[Lead]:
    """The leads matching a valid LeadFilterForm's cleaned_data, sorted."""
    qs = Lead.objects.all()
    if cleaned.get("status"):
        qs = qs.filter(status=cleaned["status"])
    if cleaned.get("score"):
        qs = qs.filter(score=cleaned["score"])
    if cleaned.get("recommendation"):
        qs = qs.filter(recommendation=cleaned["recommendation"])
    owner = cleaned.get("owner")
    if owner == OWNER_MINE:
        qs = qs.filter(owner=user)
    elif owner == OWNER_NONE:
        qs = qs.filter(owner__isnull=True)
    elif owner:
        qs = qs.filter(owner_id=int(owner))
    if cleaned.get("scale"):
        low, high = SCALE_RANGES[cleaned["scale"]]
        qs = qs.filter(gpus__gte=low)
        if high is not None:
            qs = qs.filter(gpus__lte=high)
    if cleaned.get("language"):
        qs = qs.filter(language=cleaned["language"])
    if cleaned.get("source"):
        qs = qs.filter(utm_source=cleaned["source"])
    if cleaned.get("campaign"):
        qs = qs.filter(utm_campaign=cleaned["campaign"])
    if cleaned.get("created_from"):
        qs = qs.filter(created_at__gte=day_start(cleaned["created_from"]))
    if cleaned.get("created_to"):
        qs = qs.filter(created_at__lt=day_start(cleaned["created_to"] + dt.timedelta(days=1)))
    q = (cleaned.get("q") or "").strip()
    if len(q) >= SEARCH_ANYWHERE_MIN:
        qs = search_anywhere(qs, q)
    elif q:
        # 1 or 2 characters (a surname, a two-character Chinese name, a city): trigrams need
        # three, so match the start of the name or company instead (B-tree, staff/0004).
        qs = qs.filter(Q(name__istartswith=q) | Q(company__istartswith=q))
    return qs.order_by(*SORTS[cleaned.get("sort") or "-created"])


def search_anywhere(qs: QuerySet[Lead], q: str) -> QuerySet[Lead]:
    """Leads whose name, company, e-mail or phone contains ``q`` (3+ characters).

    PostgreSQL: one LIKE over selector.staff.search.search_text(), served by its trigram
    index (staff/0005): one posting-list lookup and one recheck per candidate row instead
    of four ORed column scans. Elsewhere (SQLite): icontains per column."""
    term = search_term(q)
    if connection.vendor == "postgresql":
        return qs.alias(search=search_text()).filter(search__contains=term)
    return qs.filter(Q(name__icontains=q) | Q(company__icontains=q)
                     | Q(phone__icontains=term) | Q(email__icontains=q))


# --- dashboard ---------------------------------------------------------------------------
#
# The funnel, leads per week, recommendation mix and conversion by source are folded in
# Python from daily counts per (day, utm_source): stored for past days, counted live for
# today (selector.staff.rollup), a few thousand rows for a year. The figures (numbers
# only, no translated words) are also cached for DASHBOARD_CACHE_SECONDS per (period,
# source); the page says when they were computed.

DASHBOARD_CACHE_SECONDS = 60
TOP_SOURCES = 10


def dashboard_cache_key(start: dt.date, end: dt.date, source: str) -> str:
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]  # any text, bounded key
    return f"staff:dashboard:v2:{start.isoformat()}:{end.isoformat()}:{digest}"


def dashboard_figures(start: dt.date, end: dt.date, source: str = "", *,
                      use_cache: bool = True) -> dict:
    """The dashboard's numbers for the period [start, end] (local days) and source,
    from the cache when computed in the last minute."""
    key = dashboard_cache_key(start, end, source)
    figures = cache.get(key) if use_cache else None
    if figures is None:
        figures = _compute_figures(start, end, source)
        cache.set(key, figures, DASHBOARD_CACHE_SECONDS)
    return figures


def _compute_figures(start: dt.date, end: dt.date, source: str) -> dict:
    """Folded from the daily counts (selector.staff.rollup): stored for past days, live for
    today."""
    funnel = {"started": 0, "results": 0, "steps": [0] * len(STEP_INDEXES)}
    weeks: dict = defaultdict(int)
    mix: dict = defaultdict(int)
    per_source: dict = defaultdict(lambda: [0, 0, 0])  # sessions, results, leads
    for counts in period_counts(start, end, source):
        funnel["started"] += counts.started
        funnel["results"] += counts.results
        funnel["steps"] = [a + b for a, b in zip(funnel["steps"], counts.steps, strict=True)]
        week = counts.day - dt.timedelta(days=counts.day.weekday())
        totals = per_source[counts.utm_source]
        totals[0] += counts.started
        totals[1] += counts.results
        for recommendation, n in counts.leads.items():
            weeks[week] += n
            mix[recommendation] += n
            totals[2] += n
    top = sorted(((src, *t) for src, t in per_source.items() if t[0]),
                 key=lambda r: (-r[1], r[0]))[:TOP_SOURCES]
    return {
        "computed_at": timezone.now(),
        "funnel": [funnel["started"], *funnel["steps"], funnel["results"], sum(mix.values())],
        "weeks": sorted(weeks.items()),
        "mix": sorted(mix.items(), key=lambda kv: (-kv[1], kv[0])),
        "sources": top,
    }


def funnel(figures: dict) -> list[dict]:
    """Wizard sessions started in the period: how many reached each step and the result,
    and the leads created in the period (of that source), with the drop-off from the
    previous stage.

    Not selector.leads.queries.funnel: that counts leads through a sessions-to-leads join,
    which at 400,000 sessions costs more than the whole dashboard budget."""
    labels = [step.label for step in STEPS] + [_("Result"), _("Lead")]
    stages, previous = [], None
    for count, label in zip(figures["funnel"], labels, strict=True):
        drop = None if previous is None else previous - count
        rate = None if not previous else round(100 * drop / previous, 1)
        stages.append({"label": label, "count": count, "drop": drop, "drop_pct": rate})
        previous = count
    return stages


def leads_per_week(figures: dict) -> list[dict]:
    return [{"label": timezone.localdate(week).isoformat() if isinstance(week, dt.datetime)
             else str(week), "count": n} for week, n in figures["weeks"]]


def recommendation_mix(figures: dict) -> list[dict]:
    out = []
    for key, n in figures["mix"]:
        try:
            label = str(FABRIC_SHORT[Fabric(key)])
        except ValueError:
            label = key
        out.append({"key": key, "label": label, "count": n})
    return out


def conversion_by_source(figures: dict) -> list[dict]:
    """Sessions and results per utm_source (top sources by sessions) and the leads
    created in the period with that source (Lead.utm_source is copied from its session)."""
    return [{"source": src, "sessions": sessions, "results": results, "leads": n,
             "rate": round(100 * n / sessions, 1) if sessions else 0.0}
            for src, sessions, results, n in figures["sources"]]
