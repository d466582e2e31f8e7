from django.conf import settings


def site(request):
    """Values every page template needs: the public base URL and, lazily, the company."""
    from selector.content.models import CompanyProfile

    return {
        "SITE_URL": settings.SITE_URL,
        "company": CompanyProfile.current,  # callable: evaluated only where a template uses it
    }
