"""Reads of the sales workspace: the filtered lead list (shared by the page and the
exports) and the dashboard figures."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections import defaultdict
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models import Avg, Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce, TruncDate
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from selector.core.explain import FABRIC_SHORT
from selector.domain import Fabric
from selector.leads.models import OPEN_STATUSES, Lead
from selector.leads.search import grams_of, search_term, search_text, short_text
from selector.staff import columns, permissions
from selector.staff.access import contact_scope
from selector.staff.forms import OWNER_MINE, OWNER_NONE, SCALE_RANGES, SORTS, STATUS_OPEN
from selector.wizard.models import WizardSession
from selector.wizard.steps import STEPS, stages_from

# Shorter search terms match the beginning of name / company only (see filtered_leads).
SEARCH_ANYWHERE_MIN = 3
REPORT_NUMBER = re.compile(r"NS-\d{8}-[0-9A-Z]{6}")
# Filter fields that select one value of a column: form field -> column
# (selector.staff.columns, with the columns they filter).
EXACT_FILTERS = columns.EXACT_FILTERS


def day_start(day: dt.date) -> dt.datetime:
    """The aware start of a local day."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def filtered_leads(cleaned: dict, user, now=None) -> QuerySet[Lead]:
    """The leads matching a valid LeadFilterForm's cleaned_data, sorted. Merged duplicates
    (pointers to the lead that survived) are never listed. ``now``: the moment "overdue"
    and "due today" are counted at (the present by default)."""
    qs = Lead.objects.filter(merged_into__isnull=True, **{
        column: cleaned[name] for name, column in EXACT_FILTERS.items()
        if cleaned.get(name) and cleaned[name] != STATUS_OPEN})
    if cleaned.get("status") == STATUS_OPEN:
        qs = qs.filter(status__in=OPEN_STATUSES)
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
    if cleaned.get("created_from"):
        qs = qs.filter(created_at__gte=day_start(cleaned["created_from"]))
    if cleaned.get("created_to"):
        qs = qs.filter(created_at__lt=day_start(cleaned["created_to"] + dt.timedelta(days=1)))
    follow_up = cleaned.get("follow_up")
    if follow_up:
        now = now or timezone.now()
        if follow_up == "overdue":
            qs = qs.filter(status__in=OPEN_STATUSES, next_action_due__lt=now)
        elif follow_up == "today":
            # Still to come today; what is past is overdue (My day's two sections).
            tomorrow = day_start(timezone.localdate(now) + dt.timedelta(days=1))
            qs = qs.filter(status__in=OPEN_STATUSES, next_action_due__gte=now,
                           next_action_due__lt=tomorrow)
        elif follow_up == "none":
            qs = qs.filter(next_action_due__isnull=True, status__in=OPEN_STATUSES)
        elif follow_up == "stale":
            # The managers' stale leads: open, no activity (never worked: no creation)
            # for STAFF_STALE_DAYS days (``stale_days``: another number, stale_leads()).
            days = cleaned.get("stale_days") or settings.STAFF_STALE_DAYS
            cutoff = now - dt.timedelta(days=days)
            qs = qs.filter(status__in=OPEN_STATUSES).alias(
                last=Coalesce("last_activity_at", "created_at")).filter(last__lt=cutoff)
        elif follow_up == "duplicates":
            # Kept on the lead (selector.leads.duplicates.refresh), with its own partial
            # index: reading the open flags instead means hashing every one of them.
            qs = qs.filter(possible_duplicate=True)
    q = (cleaned.get("q") or "").strip()
    if REPORT_NUMBER.fullmatch(q.upper()):
        # A whole report number (as quoted on the phone or the PDF): the unique index.
        qs = qs.filter(report_number=q.upper())
    elif len(q) >= SEARCH_ANYWHERE_MIN:
        # Matching a phone, e-mail or WeChat ID would tell a rep whose it is: only on the
        # leads whose contact they see (selector.staff.access.contact_scope).
        qs = search_anywhere(qs, q, None if user is None else contact_scope(user, now))
    elif q:
        qs = search_short(qs, q)
    return qs.order_by(*SORTS[cleaned.get("sort") or "-created"])


def search_anywhere(qs: QuerySet[Lead], q: str, scope: Q | None = None) -> QuerySet[Lead]:
    """Leads whose name, company, e-mail, phone, WeChat ID or report number contains ``q``
    (3+ characters); with ``scope``, the phone, e-mail and WeChat ID only of the leads in
    it (the others match on name, company and report number).

    PostgreSQL: one LIKE over selector.leads.search.search_text(), served by its trigram
    index (Lead.Meta): one posting-list lookup and one recheck per candidate row instead
    of four ORed column scans; the scope is a test on those candidates. Elsewhere
    (SQLite): icontains per column."""
    term = search_term(q)
    if connection.vendor == "postgresql":
        qs = qs.alias(search=search_text()).filter(search__contains=term)
        if scope is not None:
            qs = qs.alias(text=short_text()).filter(
                scope | Q(text__contains=q.lower()) | Q(report_number__icontains=q))
        return qs
    contact = Q(phone__icontains=term) | Q(email__icontains=q) | Q(wechat__icontains=q)
    if scope is not None:
        contact &= scope
    return qs.filter(Q(name__icontains=q) | Q(company__icontains=q) | contact
                     | Q(report_number__icontains=q))


def search_short(qs: QuerySet[Lead], q: str) -> QuerySet[Lead]:
    """Leads whose name or company contains ``q`` (1-2 characters: a surname, a
    two-character Chinese name, a city inside a company name).

    PostgreSQL: the characters and character pairs of name and company
    (selector.leads.search.search_grams, one GIN index). Elsewhere (SQLite): icontains."""
    if connection.vendor == "postgresql":
        term = q.lower()
        # text[] @> ARRAY[term] (the index) and the same test as a LIKE (cheap per row);
        # the stubs type an alias's lookups as text.
        return qs.alias(grams=grams_of(), text=short_text()).filter(
            text__contains=term, grams__contains=[term])  # type: ignore[misc]
    return qs.filter(Q(name__icontains=q) | Q(company__icontains=q))


# --- dashboard ---------------------------------------------------------------------------
#
# The funnel, leads per week, recommendation mix and conversion by source, counted from the
# base tables in two GROUP BY passes, each an index-only scan of a covering index
# (wizsession_created_cover_idx, lead_created_cover_idx). The figures (numbers only, no
# translated words) are cached for DASHBOARD_CACHE_SECONDS per (period, source); the page
# says when they were computed.
#
# Until issue 16 past days' counts were stored (staff.rollup: two models, signals, a claim
# protocol; 247 lines) to save those two passes. At 200,000 leads and 400,000 sessions a
# year counted from the base tables stays within the dashboard's cold budget (300 ms; the
# figures are in README.md), so the store went.

DASHBOARD_CACHE_SECONDS = 60
TOP_SOURCES = 10
# Sessions that reached the second step, the third, ... the last (counted by the stored
# step identifier, in today's step order; every session reached the first).
FUNNEL_STEPS = tuple(step.identifier for step in STEPS[1:])


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
    since, until = day_start(start), day_start(end + dt.timedelta(days=1))
    sessions = WizardSession.objects.filter(created_at__gte=since, created_at__lt=until)
    leads = Lead.objects.filter(created_at__gte=since, created_at__lt=until)
    if source:
        sessions = sessions.filter(utm_source=source)
        leads = leads.filter(utm_source=source)
    started = results = 0
    steps = [0] * len(FUNNEL_STEPS)
    # Per source: sessions, results, leads.
    per_source: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    session_rows = sessions.values("utm_source").annotate(
        started=Count("*"), results=Count("created_at", filter=Q(result_at__isnull=False)),
        **{f"step{i}": Count("created_at", filter=Q(furthest_step__in=stages_from(ident)))
           for i, ident in enumerate(FUNNEL_STEPS)}).order_by()
    for row in session_rows:
        started += row["started"]
        results += row["results"]
        # django-stubs types the row as a TypedDict of the names it can see; the step{i}
        # counts come through **kwargs.
        steps = [n + row[f"step{i}"]  # type: ignore[literal-required]
                 for i, n in enumerate(steps)]
        per_source[row["utm_source"]][:2] = row["started"], row["results"]
    weeks: defaultdict[dt.date, int] = defaultdict(int)
    mix: defaultdict[str, int] = defaultdict(int)
    lead_rows = (leads.annotate(day=TruncDate("created_at"))
                 .values_list("day", "recommendation", "utm_source")
                 .annotate(n=Count("*")).order_by())
    for day, recommendation, utm_source, n in lead_rows:
        weeks[day - dt.timedelta(days=day.weekday())] += n
        mix[recommendation] += n
        per_source[utm_source][2] += n
    top = sorted(((src, t[0], t[1], t[2]) for src, t in per_source.items() if t[0]),
                 key=lambda r: (-r[1], r[0]))[:TOP_SOURCES]
    return {
        "computed_at": timezone.now(),
        "funnel": [started, *steps, results, sum(mix.values())],
        "weeks": sorted(weeks.items()),
        "mix": sorted(mix.items(), key=lambda kv: (-kv[1], kv[0])),
        "sources": top,
    }


def funnel(figures: dict) -> list[dict]:
    """Wizard sessions started in the period: how many reached each step and the result,
    and the leads created in the period (of that source), with the drop-off from the
    previous stage.

    Leads are counted by their own day and utm_source, not through a sessions-to-leads
    join, which at 400,000 sessions costs more than the whole dashboard budget."""
    labels = [step.label for step in STEPS] + [_("Result"), _("Lead")]
    stages, previous = [], None
    for count, label in zip(figures["funnel"], labels, strict=True):
        drop = None if previous is None else previous - count
        rate = None if not previous else round(100 * drop / previous, 1)
        stages.append({"label": label, "count": count, "drop": drop, "drop_pct": rate})
        previous = count
    return stages


def leads_per_week(figures: dict, start: dt.date | None = None,
                   end: dt.date | None = None) -> list[dict]:
    """Leads per week (Monday to Sunday). A week cut by the period's first or last day
    (the last is today: a week still under way) has ``days`` < 7 and ``partial`` set, so
    a short week does not read like a collapse."""
    out = []
    for week, n in figures["weeks"]:
        monday = timezone.localdate(week) if isinstance(week, dt.datetime) else week
        first = max(monday, start) if start else monday
        last = min(monday + dt.timedelta(days=6), end) if end else monday + dt.timedelta(6)
        days = (last - first).days + 1
        out.append({"label": monday.isoformat() if isinstance(monday, dt.date)
                    else str(monday), "count": n, "days": days, "partial": days < 7})
    return out


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


# --- My day and the digests: one definition of each set ----------------------------------
#
# Each set is a filter of the lead list (LeadFilterForm's fields), counted and listed
# through filtered_leads like the list itself: My day, the daily digests and the list show
# the same leads and the same numbers, and "N more" links to the list of exactly those.

DAY_SETS: dict[str, dict[str, str]] = {
    "overdue": {"owner": OWNER_MINE, "follow_up": "overdue"},
    "today": {"owner": OWNER_MINE, "follow_up": "today"},
    "hot_unassigned": {"owner": OWNER_NONE, "score": "hot", "status": STATUS_OPEN},
    "open": {"owner": OWNER_MINE, "status": STATUS_OPEN},
    "unassigned": {"owner": OWNER_NONE, "status": STATUS_OPEN},
}


def day_set(name: str, user, now=None) -> QuerySet[Lead]:
    """The leads of one set of DAY_SETS for ``user`` at ``now`` (unsorted)."""
    return filtered_leads(DAY_SETS[name], user, now).order_by()


def day_set_url(name: str) -> str:
    """The lead list showing exactly that set (root-relative)."""
    return reverse("staff:lead_list") + "?" + urlencode(DAY_SETS[name])


def capped(qs: QuerySet[Lead], limit: int) -> tuple[list[Lead], int]:
    """The first ``limit`` rows and the exact number of all of them (one COUNT more only
    when the list is full)."""
    rows = list(qs[:limit])
    return rows, (len(rows) if len(rows) < limit else qs.order_by().count())


MY_DAY_LIMIT = 50
HOT_LIMIT = 20
# The columns a row of My day (and of the lead list) shows: the rest of the lead, its big
# JSON snapshot above all, stays in the database.
ROW_COLUMNS = ("public_id", "report_number", "created_at", "name", "company", "gpus",
               "recommendation", "score", "status", "utm_source", "utm_campaign",
               "next_action_kind", "next_action_due", "sla_due", "first_contact_at",
               "score_rank", "status_rank", "possible_duplicate", "version")


def my_day(user, now=None) -> dict:
    """A rep's landing page: overdue and today's follow-ups, new unassigned hot leads,
    their open leads (those without a next action first, newest first; then the others by
    due time), each the first MY_DAY_LIMIT (HOT_LIMIT) of its DAY_SETS set with the exact
    number of all of them (``counts``) and the list URL of the set (``urls``). The lists
    are indexed walks bounded by the limit, whatever the size of the rep's book:
    lead_owner_due_idx for the follow-ups, lead_owner_open_idx for open leads without a
    next action, lead_score_idx for the hot ones; a COUNT only for a full list."""
    now = now or timezone.now()
    sets = {name: day_set(name, user, now).only(*ROW_COLUMNS) for name in DAY_SETS}
    overdue, n_overdue = capped(sets["overdue"].order_by("next_action_due", "pk"),
                                MY_DAY_LIMIT)
    today, n_today = capped(sets["today"].order_by("next_action_due", "pk"), MY_DAY_LIMIT)
    hot, n_hot = capped(sets["hot_unassigned"].order_by("-created_at", "-pk"), HOT_LIMIT)
    # Open leads: "next action NULLS FIRST" as two index walks (an index with NULLS FIRST
    # cannot be declared portably), the second only when the first leaves room.
    without = sets["open"].filter(next_action_due__isnull=True)
    due = sets["open"].filter(next_action_due__isnull=False)
    open_leads = list(without.order_by("-created_at", "-pk")[:MY_DAY_LIMIT])
    if len(open_leads) < MY_DAY_LIMIT:
        open_leads += due.order_by("next_action_due", "-created_at", "-pk")[
            :MY_DAY_LIMIT - len(open_leads)]
    n_open = without.count() + due.count()
    counts = {"overdue": n_overdue, "today": n_today, "hot_unassigned": n_hot, "open": n_open}
    return {
        "overdue": overdue, "today": today, "hot_unassigned": hot, "open": open_leads,
        "open_count": n_open,
        "counts": counts,
        # How many each list leaves out ("N more", linked to the list of the whole set).
        "more": {"overdue": n_overdue - len(overdue), "today": n_today - len(today),
                 "hot_unassigned": n_hot - len(hot), "open": n_open - len(open_leads)},
        "urls": {name: day_set_url(name) for name in DAY_SETS},
    }


# --- Manager views -----------------------------------------------------------------------
#
# Each figure is one aggregate over a partial covering index of leads_lead (leads/0007:
# lead_owner_idx, lead_won_lost_idx, lead_first_contact_idx, lead_stale_idx), read
# index-only: counts per owner id, the usernames joined in Python (a handful of users), so
# no query reads the table's rows. The page keeps the figures for MANAGER_CACHE_SECONDS
# (manager_figures), as the dashboard does.

MANAGER_CACHE_SECONDS = 60


# What a row needs to name its owner (permissions.display_name), through select_related.
OWNER_NAME_COLUMNS = ("owner__username", "owner__first_name", "owner__last_name")


def _usernames(ids) -> dict:
    """{pk: display name} of these users (a handful: the team), for figures by person."""
    ids = {pk for pk in ids if pk is not None}
    if not ids:
        return {}
    users = get_user_model().objects.filter(pk__in=ids).only(
        "pk", "username", "first_name", "last_name")
    return {u.pk: permissions.display_name(u) for u in users}


def pipeline_by_owner() -> dict:
    """Open and closed leads now, by owner x status: counts and deal value (won leads
    carry one). Rows in owner name order, "unassigned" last; columns in pipeline order."""
    rows = list(Lead.objects.filter(merged_into__isnull=True)
                .values("owner_id", "status")
                .annotate(n=Count("*"), value=Sum("deal_value")).order_by())
    names = _usernames(r["owner_id"] for r in rows)
    table: dict = {}
    for r in rows:
        name = names.get(r["owner_id"])
        key = (name is None, name or "", r["owner_id"])
        cells = table.setdefault(key, {})
        cells[r["status"]] = {"count": r["n"], "value": r["value"]}
    return {"rows": [{"owner": name or None, "owner_id": pk, "cells": cells}
                     for (_none, name, pk), cells in sorted(table.items())]}


def won_lost_by_source(start: dt.date, end: dt.date) -> list[dict]:
    """Leads created in [start, end] that were won or lost, by utm_source and
    utm_campaign: counts, won value, win rate."""
    rows = (Lead.objects.filter(merged_into__isnull=True, status__in=["won", "lost"],
                                created_at__gte=day_start(start),
                                created_at__lt=day_start(end + dt.timedelta(days=1)))
            .values("utm_source", "utm_campaign")
            .annotate(won=Count("status", filter=Q(status="won")),
                      lost=Count("status", filter=Q(status="lost")),
                      value=Sum("deal_value", filter=Q(status="won")))
            .order_by())
    out = [{"source": r["utm_source"], "campaign": r["utm_campaign"], "won": r["won"],
            "lost": r["lost"], "value": r["value"] or 0,
            "rate": round(100 * r["won"] / (r["won"] + r["lost"]), 1)}
           for r in rows]
    return sorted(out, key=lambda r: (-(r["won"] + r["lost"]), r["source"], r["campaign"]))


def first_response_by_rep(start: dt.date, end: dt.date) -> list[dict]:
    """Leads created in [start, end] and contacted: per rep who made the first contact,
    how many, the average time to it in working minutes (the SLA's calendar: nights,
    weekends, holidays and the lunch break do not count; kept on the lead when the contact
    is recorded, Lead.first_response_minutes) and how many within the SLA."""
    rows = list(Lead.objects.filter(merged_into__isnull=True, first_contact_at__isnull=False,
                                    created_at__gte=day_start(start),
                                    created_at__lt=day_start(end + dt.timedelta(days=1)))
                .values("first_contact_by_id")
                .annotate(n=Count("*"),
                          avg=Avg("first_response_minutes"),
                          within=Count("first_contact_at",
                                       filter=Q(first_contact_at__lte=F("sla_due"))))
                .order_by())
    names = _usernames(r["first_contact_by_id"] for r in rows)
    out = [{"rep": names.get(r["first_contact_by_id"]), "count": r["n"],
            "avg_minutes": round(r["avg"]) if r["avg"] is not None else None,
            "within": r["within"], "within_pct": round(100 * r["within"] / r["n"], 1)}
           for r in rows]
    # As ORDER BY username did: names in order, a deleted rep's (None) last.
    return sorted(out, key=lambda r: (r["rep"] is None, r["rep"] or ""))


STALE_LIST = 20


def stale_leads(days: int, now=None) -> dict:
    """Open leads with no activity (or, never worked, no creation) for ``days`` days: the
    lead list's "stale" filter (one definition), so "N more" links to exactly them."""
    qs = filtered_leads({"follow_up": "stale", "stale_days": days}, None, now).order_by()
    counts = list(qs.values("owner_id").annotate(n=Count("*")).order_by())
    names = _usernames(r["owner_id"] for r in counts)
    per_owner = sorted([{"owner__username": names.get(r["owner_id"]), "n": r["n"]}
                        for r in counts],
                       key=lambda r: (r["owner__username"] is None, r["owner__username"] or ""))
    oldest = list(qs.select_related("owner").only(
        "public_id", "report_number", "company", *OWNER_NAME_COLUMNS).annotate(
        last_seen=Coalesce("last_activity_at", "created_at")).order_by("last_seen", "pk")
        [:STALE_LIST])
    total = sum(r["n"] for r in per_owner)
    return {"per_owner": per_owner, "total": total, "oldest": oldest,
            "more": total - len(oldest),
            # The list's filter counts STAFF_STALE_DAYS days, as the manager page.
            "url": reverse("staff:lead_list") + "?" + urlencode({"follow_up": "stale"})}


def manager_cache_key(start: dt.date, end: dt.date) -> str:
    return f"staff:manager:v1:{start.isoformat()}:{end.isoformat()}"


def manager_figures(start: dt.date, end: dt.date, *, use_cache: bool = True) -> dict:
    """The managers' page figures for the period [start, end] (local days), from the cache
    when computed in the last minute: numbers, usernames and the stale leads' rows (no
    translated words, so both languages share them)."""
    key = manager_cache_key(start, end)
    figures = cache.get(key) if use_cache else None
    if figures is None:
        figures = {"computed_at": timezone.now(), "pipeline": pipeline_by_owner(),
                   "won_lost": won_lost_by_source(start, end),
                   "response_times": first_response_by_rep(start, end),
                   "stale": stale_leads(settings.STAFF_STALE_DAYS)}
        cache.set(key, figures, MANAGER_CACHE_SECONDS)
    return figures
