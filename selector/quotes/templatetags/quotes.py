"""``{% quotes_card lead %}``: the lead page's quotes (versions, totals, differences, "make
a quote"), for the owner, managers and approvers only. The staff app draws it without
importing the quotes app (which sits above it)."""

from __future__ import annotations

from django import template

from selector.core.money import yuan_text
from selector.quotes.queries import dashboard_figures
from selector.quotes.versions import version_rows
from selector.staff import permissions

register = template.Library()


@register.inclusion_tag("quotes/_card.html", takes_context=True)
def quotes_card(context, lead):
    user = context["request"].user
    if not permissions.can_see_quotes(user, lead):
        return {"show": False}
    versions = version_rows(lead)
    accepted = next((row.quote for row in versions if row.quote.accepted_at), None)
    return {"show": True, "lead": lead, "versions": versions, "accepted": accepted,
            "can_edit": permissions.can_edit_quotes(user, lead),
            "csrf_token": context.get("csrf_token")}


@register.filter
def yuan(amount) -> str:
    """¥1,234,567.89 (selector.core.money.yuan_text)."""
    return yuan_text(amount)


@register.filter
def signed_yuan(amount) -> str:
    if amount is None:
        return ""
    return f"+¥{amount:,.2f}" if amount >= 0 else f"−¥{-amount:,.2f}"


@register.inclusion_tag("quotes/_dashboard.html", takes_context=True)
def quotes_dashboard(context, form):
    """The dashboard's quote figures for the period its form chose."""
    user = context["request"].user
    if form is None or not form.is_valid() or not permissions.is_staff_member(user):
        return {"show": False}
    start, end = form.dates()
    return {"show": True, "figures": dashboard_figures(start, end, user),
            "can_export": permissions.can_export(user)}
