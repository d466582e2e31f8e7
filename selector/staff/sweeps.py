"""What the tick does (``selector.staff.tasks.tick``, every TICK_SECONDS): escalate
first-contact SLA breaches to the managers once per lead, send each team member's daily
digest once a day after STAFF_DIGEST_TIME, and return untouched leads to the pool after the
routing rule's time. Each function is safe to run twice (the deliveries and the conditional
updates make a second run a no-op).
"""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from selector.core.siteurl import site_url
from selector.leads import deliveries, notify, pacing, people, routing, worktime
from selector.leads.models import OPEN_STATUSES, Delivery, Lead, LeadEvent
from selector.staff import permissions, queries
from selector.staff.messaging import (
    email,
    lead_line,
    profile,
    record,
    send,
    when_text,
)
from selector.staff.models import StaffProfile

# --- SLA and digests ----------------------------------------------------------------

def managers():
    User = get_user_model()
    return (User.objects.filter(is_active=True)
            .filter(Q(groups__name=permissions.MANAGERS_GROUP) | Q(is_superuser=True))
            .distinct().order_by("username"))


def sla_breaches(now=None):
    """Open, never-contacted leads past their first-contact deadline (not merged)."""
    now = now or timezone.now()
    return (Lead.objects.filter(first_contact_at__isnull=True, sla_due__lte=now,
                                merged_into__isnull=True, status__in=OPEN_STATUSES)
            .order_by("sla_due"))


# Breaches at most this old get a message each; older ones (an imported book, a worker
# that was down) are told in one summary instead of hours of messages.
SLA_FRESH_SECONDS = 3600
SLA_BATCH = 50


def escalate_sla(now=None) -> int:
    """Tell the managers about SLA breaches, each once: a message per breach of the last
    SLA_FRESH_SECONDS (at most SLA_BATCH a tick), one summary for the older ones. Posts
    take the robot's slots (selector.leads.pacing): when none is free the rest waits for
    the next tick. Each message is a leads.Delivery (robot, and an e-mail per manager),
    sent at most once; a lead is marked escalated (its sla_breached event) only after a
    channel carried the message, and a refused one is tried again at the next tick,
    LEAD_NOTIFY_MAX_ATTEMPTS times. Returns how many leads were escalated."""
    now = now or timezone.now()
    boss = list(managers())
    waiting = (sla_breaches(now).exclude(events__kind=LeadEvent.Kind.SLA_BREACHED)
               .select_related("owner"))
    cutoff = now - timedelta(seconds=SLA_FRESH_SECONDS)
    count = 0
    for lead in waiting.filter(sla_due__gt=cutoff)[:SLA_BATCH]:
        assert lead.sla_due is not None  # sla_breaches() selects leads with a deadline
        with translation.override(settings.LANGUAGE_CODE):
            message = _sla_message(lead, boss, now)
        outcome = _escalate(lead, boss, message, key=lead.sla_due.isoformat())
        if outcome == "paced":
            break  # the robot's minute is full: the rest at the next tick
        if outcome in ("sent", "failed"):
            LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.SLA_BREACHED, data={
                "due": lead.sla_due.isoformat(), **({"failed": True} if outcome == "failed"
                                                    else {})})
            count += outcome == "sent"
    else:
        count += _escalate_backlog(waiting.filter(sla_due__lte=cutoff), boss, now)
    return count


def _escalate(lead: Lead, boss: list, message: notify.Message, *, key: str) -> str:
    """The robot post and each manager's e-mail about ``lead``: "sent" (a channel carried
    it, now or before), "paced" (no robot slot: nothing sent), "retry" (to be tried at the
    next tick) or "failed" (every channel gave up)."""
    if settings.LEAD_WEBHOOK_URL:
        robot = deliveries.expect(lead, Delivery.Kind.SLA_ROBOT, key)
        if robot.status == Delivery.Status.PENDING and pacing.reserve(
                settings.LEAD_WEBHOOK_URL) > 0:
            return "paced"
    outcomes = []
    again = lambda seconds: None  # noqa: E731 - the next tick is the retry
    if settings.LEAD_WEBHOOK_URL:
        outcome = deliveries.send_once(lead, Delivery.Kind.SLA_ROBOT, key,
                                       lambda: notify.post_message(message), later=again,
                                       max_attempts=settings.LEAD_NOTIFY_MAX_ATTEMPTS)
        record(lead, Delivery.Kind.SLA_ROBOT, key, outcome, None)
        outcomes.append(outcome)
    for manager in boss:
        if manager.email:
            outcome = deliveries.send_once(lead, Delivery.Kind.SLA_EMAIL, f"{key}:{manager.pk}",
                                           email(manager, message, message.title).send,
                                           later=again,
                                           max_attempts=settings.LEAD_NOTIFY_MAX_ATTEMPTS)
            record(lead, Delivery.Kind.SLA_EMAIL, f"{key}:{manager.pk}", outcome, None)
            outcomes.append(outcome)
    if any(o in ("sent", "already-sent") for o in outcomes):
        return "sent"
    if any(o in ("retry", "in-progress") for o in outcomes):
        return "retry"
    return "failed" if outcomes else "sent"  # nobody to tell: nothing to wait for


def _sla_message(lead: Lead, boss: list, now=None) -> notify.Message:
    mention = people.mentions(boss)
    assert lead.sla_due is not None
    return notify.Message(
        title=str(_("First-contact SLA missed: %(number)s (due %(time)s)") % {
            "number": lead.report_number, "time": when_text(lead.sla_due, now)}),
        lines=(lead_line(lead), str(_("Owner: %(owner)s") % {
            "owner": lead.owner.get_username() if lead.owner else _("nobody")})),
        link=notify.staff_url(lead), link_text=str(_("Open the lead")),
        **mention, event="lead.sla_breached",
        facts={"report_number": lead.report_number})


def _escalate_backlog(backlog, boss: list, now=None) -> int:
    """One summary of the older breaches, carried on the oldest lead's delivery rows
    (keyed by the backlog's size, so a re-run of the same tick does not post it twice);
    afterwards every lead in it is marked escalated."""
    leads = list(backlog.select_related(None).only("pk", "report_number", "sla_due"))
    if not leads:
        return 0
    oldest = leads[0]
    with translation.override(settings.LANGUAGE_CODE):
        mention = people.mentions(boss)
        numbers = ", ".join(lead.report_number for lead in leads[:10])
        more = len(leads) - 10
        lines = [str(_("Still without a first contact, oldest first: %(numbers)s") % {
            "numbers": numbers})]
        if more > 0:
            lines.append(str(_("… and %(count)s more.") % {"count": more}))
        link = site_url() + reverse("staff:lead_list")
        message = notify.Message(
            title=str(_("First-contact SLA missed earlier by %(count)s leads "
                        "(the oldest due %(time)s)") % {
                "count": len(leads),
                "time": when_text(oldest.sla_due, now, with_time=False) if oldest.sla_due
                else ""}),
            lines=tuple(lines), link=link, link_text=str(_("Open the lead list")),
            **mention, event="lead.sla_breached.summary",
            facts={"count": len(leads)})
    outcome = _escalate(oldest, boss, message, key=f"summary:{len(leads)}")
    if outcome not in ("sent", "failed"):
        return 0
    LeadEvent.objects.bulk_create(
        [LeadEvent(lead_id=lead.pk, kind=LeadEvent.Kind.SLA_BREACHED,
                   data={"due": lead.sla_due.isoformat() if lead.sla_due else None,
                         "summary": True, **({"failed": True} if outcome == "failed" else {})})
         for lead in leads], batch_size=1000)
    return len(leads) if outcome == "sent" else 0


def digest_due(now=None) -> bool:
    now = timezone.localtime(now or timezone.now())
    return now.time() >= dt.time.fromisoformat(settings.STAFF_DIGEST_TIME)


# A digest lists this many leads of each set; the rest is "N more", linked to the list.
DIGEST_LINES = 10


def rep_digest(user, now=None) -> dict:
    """What a rep's digest lists: follow-ups overdue and due today, the same sets as My
    day (staff.queries.DAY_SETS): the first DIGEST_LINES of each and the exact counts."""
    now = now or timezone.now()
    overdue, n_overdue = queries.capped(
        queries.day_set("overdue", user, now).order_by("next_action_due", "pk"), DIGEST_LINES)
    today, n_today = queries.capped(
        queries.day_set("today", user, now).order_by("next_action_due", "pk"), DIGEST_LINES)
    return {"overdue": overdue, "today": today,
            "counts": {"overdue": n_overdue, "today": n_today}}


def manager_digest(now=None) -> dict:
    now = now or timezone.now()
    since = now - timedelta(days=1)
    live = Lead.objects.filter(merged_into__isnull=True)
    breaches = sla_breaches(now).aggregate(
        recent=Count("pk", filter=Q(sla_due__gt=since)), older=Count("pk", filter=Q(
            sla_due__lte=since)))
    return {"new": live.filter(created_at__gte=since).count(),
            "unassigned": queries.day_set("unassigned", None, now).count(),
            "unassigned_hot": queries.day_set("hot_unassigned", None, now).count(),
            # The last 24 hours' misses apart from the backlog (still never contacted).
            "breaches": breaches["recent"], "backlog": breaches["older"]}


def send_digests(now=None) -> int:
    """Each member's digest, once per local day (claimed by a conditional UPDATE). Each
    digest with something to say takes a robot slot first (selector.leads.pacing): when
    the robot's minute is full, the rest of the team gets theirs at the next tick."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    sent = 0
    User = get_user_model()
    team = User.objects.filter(is_active=True).filter(
        Q(groups__name__in=[permissions.SALES_GROUP, permissions.MANAGERS_GROUP])
        | Q(is_superuser=True)).distinct().order_by("pk")
    due = Q(digest_sent_on__isnull=True) | Q(digest_sent_on__lt=today)
    for user in team:
        member = profile(user)
        if not StaffProfile.objects.filter(pk=member.pk).filter(due).exists():
            continue
        with translation.override(member.language):
            message = _digest_message(user, now)
        if message is not None and settings.LEAD_WEBHOOK_URL and pacing.reserve(
                settings.LEAD_WEBHOOK_URL) > 0:
            break  # the robot's minute is full: the others at the next tick
        claimed = StaffProfile.objects.filter(pk=member.pk).filter(due).update(
            digest_sent_on=today)
        if claimed and message is not None:
            send(user, message, message.title)
            sent += 1
    return sent


def _digest_message(user, now) -> notify.Message | None:
    mention = people.mentions([user])
    lines = []
    mine = rep_digest(user, now)
    counts = mine["counts"]
    for lead in mine["overdue"]:
        assert lead.next_action_due is not None  # the overdue set has a due time
        lines.append(str(_("Overdue since %(time)s: %(line)s") % {
            "time": when_text(lead.next_action_due, now), "line": lead_line(lead)}))
    if counts["overdue"] > len(mine["overdue"]):
        lines.append(str(_("%(more)s more overdue: %(url)s") % {
            "more": counts["overdue"] - len(mine["overdue"]), "url": _list_url("overdue")}))
    for lead in mine["today"]:
        lines.append(str(_("Today %(time)s: %(line)s") % {
            "time": f"{timezone.localtime(lead.next_action_due):%H:%M}",
            "line": lead_line(lead)}))
    if counts["today"] > len(mine["today"]):
        lines.append(str(_("%(more)s more due today: %(url)s") % {
            "more": counts["today"] - len(mine["today"]), "url": _list_url("today")}))
    if permissions.is_manager(user):
        figures = manager_digest(now)
        lines.append(str(_("New leads in the last 24 hours: %(new)s; unassigned open leads: "
                           "%(unassigned)s (hot: %(unassigned_hot)s)") % figures))
        lines.append(str(_("First-contact SLA missed in the last 24 hours: %(breaches)s; "
                           "missed earlier and still not contacted: %(backlog)s") % figures))
    if not lines:
        return None
    return notify.Message(
        title=str(_("Daily digest for %(name)s: %(overdue)s overdue, %(today)s due today") % {
            "name": mention["names"][0], "overdue": counts["overdue"],
            "today": counts["today"]}),
        lines=tuple(lines), link=site_url() + reverse("staff:my_day"),
        link_text=str(_("Open My day")), **mention, event="staff.digest",
        facts={"user": user.get_username()})


def _list_url(name: str) -> str:
    return site_url() + queries.day_set_url(name)


# --- the pool (公海): untouched leads go back ---------------------------------------

# At most this many leads return a tick (the rest at the next one).
POOL_RETURN_BATCH = 500


def untouched_leads(hours: int, now=None):
    """Open, owned leads their owner may not have worked on for ``hours``: no activity,
    note or status change (``last_activity_at``; the creation time before any) and no
    change of owner (an owner_changed event: taken, assigned, handed over) for that many
    clock hours, a superset of the working hours ``return_to_pool`` counts (working time
    never runs faster than the clock). ``touched``: the later of the two, oldest first."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=hours)
    owner_events = LeadEvent.objects.filter(lead=OuterRef("pk"),
                                            kind=LeadEvent.Kind.OWNER_CHANGED)
    last_owner_change = owner_events.order_by("-created_at").values("created_at")[:1]
    return (Lead.objects.filter(status__in=OPEN_STATUSES, merged_into__isnull=True,
                                owner__isnull=False)
            .annotate(seen=Coalesce("last_activity_at", "created_at"))
            .filter(seen__lt=cutoff)
            .filter(~Exists(owner_events.filter(created_at__gte=cutoff)))
            .annotate(touched=Greatest("seen", Coalesce(Subquery(last_owner_change),
                                                        "created_at")))
            .order_by("touched", "pk"))


def return_to_pool(now=None) -> int:
    """The active routing rule's return time (RoutingRule.return_after_hours, in working
    hours of the team's calendar, selector.leads.worktime: a weekend or a holiday does not
    count): each open lead its owner has not worked on for that long loses its owner (an
    owner_changed event on the timeline, no actor, ``returned_to_pool``), and each rep who
    lost leads gets one summary message. A lead is moved by one conditional UPDATE on the
    owner and version the tick read, so an edit or a claim that lands meanwhile keeps it
    where it is. At most POOL_RETURN_BATCH leads a tick. Returns how many went back."""
    rule = routing.active_rule()
    if rule is None or not rule.return_after_hours:
        return 0
    now = now or timezone.now()
    hours = rule.return_after_hours
    cal = worktime.calendar()
    returned: dict[int, list[Lead]] = {}
    owners = {}
    for lead in untouched_leads(hours, now).select_related("owner")[:POOL_RETURN_BATCH]:
        if cal.between(lead.touched, now) < hours * 60:
            break  # oldest first: the later ones are not due either
        owner = lead.owner
        assert owner is not None  # untouched_leads() selects owned leads
        with transaction.atomic():
            moved = Lead.objects.filter(pk=lead.pk, owner_id=owner.pk,
                                        version=lead.version).update(
                owner=None, version=F("version") + 1, updated_at=now)
            if not moved:
                continue
            LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED, data={
                "from": owner.get_username(), "to": None, "returned_to_pool": True,
                "hours": hours})
        owners[owner.pk] = owner
        returned.setdefault(owner.pk, []).append(lead)
    for pk, leads in returned.items():
        owner = owners[pk]
        with translation.override(profile(owner).language):
            message = _pool_message(owner, leads, hours)
        send(owner, message, message.title)
    return sum(len(leads) for leads in returned.values())


def _pool_message(owner, leads: list[Lead], hours: int) -> notify.Message:
    mention = people.mentions([owner])
    lines = [str(_("Not worked on for %(hours)s working hours: any rep may claim them "
                   "now.") % {
        "hours": hours})]
    lines += [lead_line(lead) for lead in leads[:10]]
    if len(leads) > 10:
        lines.append(str(_("… and %(count)s more.") % {"count": len(leads) - 10}))
    return notify.Message(
        title=str(_("%(count)s leads of %(name)s returned to the pool") % {
            "count": len(leads), "name": mention["names"][0]}),
        lines=tuple(lines), link=_list_url("unassigned"),
        link_text=str(_("Open the lead list")), **mention,
        event="lead.returned_to_pool", facts={"count": len(leads)})
