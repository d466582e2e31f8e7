from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from selector.content import httpcache, queries
from selector.core.siteurl import site_url


def site(request: HttpRequest) -> dict[str, Any]:
    """Values every page template needs: the public base URL, the company profile (from
    the content snapshot, selector.content.snapshot) and ``site_version`` (what a page
    depends on besides its URL: code, static files, content, language, base URL; the key
    of the fragments every page shares, such as the header and footer), each only where a
    template uses it."""
    return {
        "SITE_URL": site_url(request),
        "company": SimpleLazyObject(queries.company),
        "site_version": SimpleLazyObject(lambda: httpcache.content_version(request)),
    }
