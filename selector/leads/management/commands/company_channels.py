"""`manage.py company_channels`: which ways customers have to reach the company are filled
in (the company profile, edited in the admin) and which are empty. `make run` prints it, so
an empty profile is seen before a deployment refuses it (selector.content.checks,
selector.leads.checks)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from selector.content.models import CompanyProfile
from selector.leads.checks import check_from_email

CHANNELS = (("phone", "hotline"), ("email", "sales e-mail (also the Reply-To of customer mail)"),
            ("wechat_name_zh", "WeChat / WeCom name"), ("wechat_qr_url", "WeChat QR code link"))


class Command(BaseCommand):
    help = "List the company's contact channels that are filled in and those that are empty."

    def handle(self, *args, **options):
        profile = CompanyProfile.objects.order_by("pk").first()
        empty = []
        for field, label in CHANNELS:
            value = getattr(profile, field, "") if profile else ""
            if value:
                self.stdout.write(f"  set:   {label}: {value}")
            else:
                empty.append(label)
                self.stdout.write(self.style.WARNING(f"  empty: {label}"))
        sender_ok = not check_from_email()
        self.stdout.write((self.style.SUCCESS if sender_ok else self.style.WARNING)(
            f"  {'set' if sender_ok else 'default'}: sender DEFAULT_FROM_EMAIL = "
            f"{settings.DEFAULT_FROM_EMAIL}"))
        if not (profile and (profile.phone or profile.email)) or not sender_ok:
            self.stdout.write(self.style.WARNING(
                "Customers cannot reach a person yet: fill in the hotline or the sales e-mail "
                "in the admin (Site content > Company profile) and set DEFAULT_FROM_EMAIL. "
                "A deployment refuses to start without them (manage.py check --deploy)."))
