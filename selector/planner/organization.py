"""The schema.org Organization node of the company (the public pages, the result page,
the report and its attachment use this one builder)."""

from __future__ import annotations

from django.conf import settings
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from selector.core.siteurl import site_url


def _absolute(name: str) -> str:
    try:
        return site_url() + reverse(name)
    except NoReverseMatch:
        return site_url() + "/"


def organization_node(company) -> dict:
    """The schema.org Organization for the company (one builder for the public pages, the
    result page, the report and its attachment)."""
    with translation.override(settings.LANGUAGE_CODE):
        org_id = _absolute("home") + "#organization"
    contact: dict = {
        "@type": "ContactPoint",
        "contactType": "customer support",
        "availableLanguage": ["zh-Hans", "en"],
        "url": _absolute("wizard:start"),
    }
    if company.phone:
        contact["telephone"] = company.phone
    if company.email:
        contact["email"] = company.email
    if company.support_hours.replace(" ", "").lower() in {"7x24", "24x7", "7*24", "24/7"}:
        contact["hoursAvailable"] = {
            "@type": "OpeningHoursSpecification",
            "dayOfWeek": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                          "Sunday"],
            "opens": "00:00",
            "closes": "23:59",
        }
    node = {
        "@type": "Organization",
        "@id": org_id,
        "name": company.name,
        "alternateName": company.short_name,
        "description": company.tagline,
        "url": _absolute("home"),
        "logo": {"@type": "ImageObject", "url": site_url() + static("img/logo.svg")},
        "contactPoint": contact,
    }
    if company.address:
        node["address"] = company.address
    return node
