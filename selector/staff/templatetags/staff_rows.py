"""{% table_rows %} and {% day_rows %}: the lead rows of the list and of My day
(selector.staff.rows)."""

from django import template

from selector.staff import rows

register = template.Library()


@register.simple_tag
def table_rows(leads, bulk=False):
    return rows.table_rows(leads, bulk=bool(bulk))


@register.simple_tag(takes_context=True)
def day_rows(context, leads, empty, take=False):
    return rows.day_rows(context["request"], leads, empty=str(empty), take=bool(take))
