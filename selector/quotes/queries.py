"""The dashboard's quote figures for a period (by the day a version was sent): how many
were sent, opened by the customer and accepted, with their totals, and the value of each
lead's latest sent version by the lead's pipeline stage. A rep counts the quotes of their
own leads; managers and approvers count all (the same rule as seeing a quote)."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from selector.leads.models import Status
from selector.quotes.models import FROZEN, Quote
from selector.staff import permissions


def _bounds(start: datetime.date, end: datetime.date):
    tz = timezone.get_current_timezone()
    low = datetime.datetime.combine(start, datetime.time.min, tzinfo=tz)
    high = datetime.datetime.combine(end + datetime.timedelta(days=1), datetime.time.min,
                                     tzinfo=tz)
    return low, high


def visible_quotes(user):
    quotes = Quote.objects.filter(status__in=FROZEN)
    if permissions.is_manager(user) or permissions.can_approve_quotes(user):
        return quotes
    return quotes.filter(lead__owner=user)


def dashboard_figures(start: datetime.date, end: datetime.date, user) -> dict:
    low, high = _bounds(start, end)
    sent = visible_quotes(user).filter(sent_at__gte=low, sent_at__lt=high)
    zero = Decimal("0.00")
    totals = sent.aggregate(
        sent=Count("pk"), sent_value=Sum("total_amount"),
        viewed=Count("pk", filter=Q(first_viewed_at__isnull=False)),
        accepted=Count("pk", filter=Q(accepted_at__isnull=False)),
        accepted_value=Sum("total_amount", filter=Q(accepted_at__isnull=False)))
    newest = Quote.objects.filter(lead=OuterRef("lead"), status__in=FROZEN).order_by(
        "-version").values("pk")[:1]
    rows = (sent.filter(pk=Subquery(newest)).values("lead__status")
            .annotate(value=Sum("total_amount"), n=Count("pk")))
    by_stage = {row["lead__status"]: row for row in rows}
    stages = [{"status": status, "label": label,
               "leads": by_stage.get(status, {}).get("n", 0),
               "value": by_stage.get(status, {}).get("value") or zero}
              for status, label in Status.choices]
    return {"sent": totals["sent"], "sent_value": totals["sent_value"] or zero,
            "viewed": totals["viewed"], "accepted": totals["accepted"],
            "accepted_value": totals["accepted_value"] or zero, "stages": stages}
