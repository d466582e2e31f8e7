from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from selector.content import queries
from selector.core.siteurl import site_url


def site(request: HttpRequest) -> dict[str, Any]:
    """Values every page template needs: the public base URL and the company profile
    (from the content snapshot, selector.content.snapshot), only where a template uses it."""
    return {
        "SITE_URL": site_url(request),
        "company": SimpleLazyObject(queries.company),
    }
