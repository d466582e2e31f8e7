"""``{{ user|person }}``: how the team names a colleague (permissions.display_name), where
a template would otherwise show a login name."""

from django import template

from selector.staff.permissions import display_name

register = template.Library()


@register.filter
def person(user) -> str:
    return display_name(user) if user else ""

