import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

USERNAME = "demo"


class Command(BaseCommand):
    help = (
        "Development only: make sure a demo staff account exists and print its username and a "
        "fresh random password. Refuses unless DEBUG is on and the database is the embedded "
        "SQLite default."
    )

    def handle(self, *args: object, **options: object) -> None:
        engine = settings.DATABASES["default"]["ENGINE"]
        if not settings.DEBUG or not engine.endswith("sqlite3"):
            raise CommandError("ensure_demo_staff runs only with DEBUG on and the SQLite default")
        user, _created = get_user_model().objects.get_or_create(username=USERNAME)
        password = secrets.token_urlsafe(12)
        user.set_password(password)
        user.is_staff = True
        user.is_superuser = True
        user.save()
        self.stdout.write(self.style.SUCCESS(
            f"Demo staff account: username {USERNAME!r} password {password!r} "
            "(new password each start)"
        ))
