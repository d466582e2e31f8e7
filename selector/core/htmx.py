"""The request of a view that reads ``request.htmx``, which django-htmx's middleware sets
on every request (settings.MIDDLEWARE). Annotating such a view with it lets mypy check
the attribute, as django-htmx's documentation recommends."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
