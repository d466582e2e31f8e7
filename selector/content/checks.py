"""Deployment check: customers can reach a person. The pages, the e-mail and the PDF promise
"7x24 technical support" and tell customers to reply or call; with neither a hotline nor a
sales e-mail in the company profile nobody can (issue 26). ``manage.py check --deploy``
fails on it, and production is started through that check (docs/deployment.md,
deploy/serve-prod.sh)."""

from __future__ import annotations

from django.core import checks
from django.db import DatabaseError

from selector.content.models import CompanyProfile

HINT = ("Fill in the hotline or the sales e-mail (or both) of the company profile in the "
        "admin: Site content > Company profile (`make run` serves the admin), then start "
        "again. The sales e-mail is also the Reply-To of the customer's report e-mail.")


@checks.register("content", deploy=True)
def check_company_reachable(app_configs=None, databases=None, **kwargs):
    try:
        profile = CompanyProfile.objects.order_by("pk").first()
    except DatabaseError:  # not migrated yet: `migrate` comes before starting
        return [checks.Error("The company profile cannot be read (is the database migrated?).",
                             hint="Run `manage.py migrate` and `manage.py load_content`.",
                             id="content.E002")]
    if profile is None or not (profile.phone.strip() or profile.email.strip()):
        return [checks.Error(
            "The company profile has no phone number and no e-mail: customers who are "
            "promised a network engineer cannot reach anyone.", hint=HINT, id="content.E001")]
    return []
