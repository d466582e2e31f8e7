from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from selector.content.models import CompanyProfile
from selector.core.siteurl import site_url


def site(request: HttpRequest) -> dict[str, Any]:
    """Values every page template needs: the public base URL and the company profile,
    fetched at most once per request and only where a template uses it."""
    return {
        "SITE_URL": site_url(request),
        "company": SimpleLazyObject(CompanyProfile.current),
    }
