"""Reads of the sales workspace: the filtered lead list (shared by the page and the
exports) and the dashboard figures."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncWeek
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from selector.core.explain import FABRIC_SHORT
from selector.domain import Fabric
from selector.leads.models import Lead
from selector.staff.forms import OWNER_MINE, OWNER_NONE, SCALE_RANGES, SORTS
from selector.wizard.models import WizardSession
from selector.wizard.steps import STEPS

# Shorter search terms match the beginning of name / company only (see filtered_leads).
SEARCH_ANYWHERE_MIN = 3


def day_start(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


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
        qs = qs.filter(answers__gpus__gte=low)
        if high is not None:
            qs = qs.filter(answers__gpus__lte=high)
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
        # icontains on four columns; on PostgreSQL each is served by a trigram GIN index on
        # UPPER(column) (migration staff/0003), so this stays fast at 200,000 leads.
        term = q.replace(" ", "") if q.replace(" ", "").lstrip("+").isdigit() else q
        qs = qs.filter(Q(name__icontains=q) | Q(company__icontains=q)
                       | Q(phone__icontains=term) | Q(email__icontains=q))
    elif q:
        # 1 or 2 characters (a surname, a two-character Chinese name, a city): trigrams need
        # three, so match the start of the name or company instead (B-tree, staff/0004).
        qs = qs.filter(Q(name__istartswith=q) | Q(company__istartswith=q))
    return qs.order_by(*SORTS[cleaned.get("sort") or "-created"])


# --- dashboard ---------------------------------------------------------------------------

def _sessions(since, source: str) -> QuerySet[WizardSession]:
    qs = WizardSession.objects.filter(created_at__gte=since)
    if source:
        qs = qs.filter(utm_source=source)
    return qs


def funnel(start: dt.date, end: dt.date, source: str = "") -> list[dict]:
    """Wizard sessions started in the period: how many reached each step and the result,
    and the leads created in the period (from sessions of that source), with the drop-off
    from the previous stage.

    Not selector.leads.queries.funnel: that counts leads through a sessions-to-leads join,
    which at 400,000 sessions costs more than the whole dashboard budget. Here it is one
    aggregate over the sessions' covering index plus one count on the leads' index."""
    since, until = day_start(start), day_start(end + dt.timedelta(days=1))
    counts = {f"step{i}": Count("pk", filter=Q(furthest_step__gte=i))
              for i in range(2, len(STEPS) + 1)}
    row = _sessions(since, source).filter(created_at__lt=until).aggregate(
        started=Count("*"), results=Count("pk", filter=Q(result_at__isnull=False)), **counts)
    leads = Lead.objects.filter(created_at__gte=since, created_at__lt=until)
    if source:
        leads = leads.filter(utm_source=source)
    labels = [(row["started"], STEPS[0].label)]
    labels += [(row[f"step{i}"], step.label) for i, step in enumerate(STEPS[1:], 2)]
    labels += [(row["results"], _("Result")), (leads.count(), _("Lead"))]
    stages, previous = [], None
    for count, label in labels:
        drop = None if previous is None else previous - count
        rate = None if not previous else round(100 * drop / previous, 1)
        stages.append({"label": label, "count": count, "drop": drop, "drop_pct": rate})
        previous = count
    return stages


def leads_per_week(since, source: str = "") -> list[dict]:
    qs = Lead.objects.filter(created_at__gte=since)
    if source:
        qs = qs.filter(utm_source=source)
    rows = (qs.annotate(week=TruncWeek("created_at")).values("week")
            .annotate(count=Count("*")).order_by("week"))
    return [{"label": timezone.localdate(r["week"]).isoformat() if isinstance(
        r["week"], dt.datetime) else str(r["week"]), "count": r["count"]} for r in rows]


def recommendation_mix(since, source: str = "") -> list[dict]:
    qs = Lead.objects.filter(created_at__gte=since)
    if source:
        qs = qs.filter(utm_source=source)
    rows = qs.values("recommendation").annotate(count=Count("*")).order_by("-count")
    out = []
    for r in rows:
        try:
            label = str(FABRIC_SHORT[Fabric(r["recommendation"])])
        except ValueError:
            label = r["recommendation"]
        out.append({"key": r["recommendation"], "label": label, "count": r["count"]})
    return out


def conversion_by_source(since, source: str = "", limit: int = 10) -> list[dict]:
    """Sessions and results per utm_source (top sources by sessions) and the leads
    created in the period with that source (Lead.utm_source is copied from its session)."""
    rows = list(_sessions(since, source).values("utm_source")
                .annotate(sessions=Count("*"),
                          results=Count("pk", filter=Q(result_at__isnull=False)))
                .order_by("-sessions")[:limit])
    leads = Lead.objects.filter(created_at__gte=since,
                                utm_source__in=[r["utm_source"] for r in rows])
    per_source = dict(leads.values_list("utm_source").annotate(n=Count("*")).order_by())
    out = []
    for r in rows:
        n = per_source.get(r["utm_source"], 0)
        rate = round(100 * n / r["sessions"], 1) if r["sessions"] else 0.0
        out.append({"source": r["utm_source"], "sessions": r["sessions"],
                    "results": r["results"], "leads": n, "rate": rate})
    return out
