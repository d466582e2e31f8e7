from django.conf import settings
from django.utils.functional import SimpleLazyObject


def site(request):
    """Values every page template needs: the public base URL and the company profile,
    fetched at most once per request and only where a template uses it."""
    from selector.content.models import CompanyProfile

    return {
        "SITE_URL": settings.SITE_URL,
        "company": SimpleLazyObject(CompanyProfile.current),
    }
