"""Who owns a new lead (selector.leads.models.RoutingRule, set by a manager).

``route_new_lead`` runs inside ``leads.services.lead_create``'s transaction, right after
the lead's insert: under the active rule's row lock (SELECT ... FOR UPDATE) it picks the
team's next active member after the rule's cursor (by user id, wrapping around), moves
the cursor and sets the lead's owner, all in the one transaction. Concurrent lead
creations serialise on that lock, so round robin never gives two leads the same turn;
a rolled-back lead rolls its turn back too. No rule, the "pool" mode, or a team without
an active member: the lead stays in the pool (no owner)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from selector.leads import people
from selector.leads.models import Lead, LeadEvent, RoutingRule


def active_rule(*, lock: bool = False) -> RoutingRule | None:
    rules = RoutingRule.objects.filter(active=True)
    if lock:
        rules = rules.select_for_update(of=("self",))
    return rules.first()


def next_owner(rule: RoutingRule):
    """The team's next active member after the cursor (the first one after the last)."""
    members = (get_user_model().objects.filter(is_active=True, pk__in=rule.team.values("pk"))
               .order_by("pk"))
    if rule.last_owner_id is not None:
        after = members.filter(pk__gt=rule.last_owner_id).first()
        if after is not None:
            return after
    return members.first()


def route_new_lead(lead: Lead):
    """Give ``lead`` (just inserted, in the caller's transaction) its owner by the active
    rule; returns the owner or None (the pool). The assignment is an owner_changed event
    on the timeline (no actor: the rule did it)."""
    rule = active_rule(lock=True)
    if rule is None or rule.mode != RoutingRule.Mode.ROUND_ROBIN:
        return None
    owner = next_owner(rule)
    if owner is None:
        return None
    RoutingRule.objects.filter(pk=rule.pk).update(last_owner=owner)
    Lead.objects.filter(pk=lead.pk).update(owner=owner)
    lead.owner = owner
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.OWNER_CHANGED, data={
        "from": None, "to": owner.get_username(), "routed": rule.name})
    return owner


def summary() -> dict:
    """What the managers' page shows of the routing (read-only; edited in the admin): the
    active rule, its mode, its active team by name, and the return-to-pool time."""
    rule = active_rule()
    if rule is None:
        return {"rule": None}
    team = [people.display_name(u) for u in
            get_user_model().objects.filter(is_active=True, pk__in=rule.team.values("pk"))
            .order_by("pk")]
    return {"rule": rule, "round_robin": rule.mode == RoutingRule.Mode.ROUND_ROBIN,
            "team": team, "return_after_hours": rule.return_after_hours}
