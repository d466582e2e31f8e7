"""``{{ lead.phone|phone }}``: "+86 138 0013 8000", not the stored "+8613800138000"
(selector.leads.validators.phone_text), wherever a person reads a number."""

from django import template

from selector.leads.validators import phone_text

register = template.Library()


@register.filter
def phone(e164: str) -> str:
    return phone_text(e164) if e164 else ""
