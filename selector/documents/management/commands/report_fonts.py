"""Build the cut-down report fonts (selector/documents/fonts.py) ahead of the first render."""

from django.core.management.base import BaseCommand

from selector.documents import fonts


class Command(BaseCommand):
    help = "Build the report's cut-down Noto Sans CJK SC faces from the system font."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="rebuild even if present")

    def handle(self, *args, force=False, **options):
        for weight, path in sorted(fonts.build_fonts(force=force).items()):
            self.stdout.write(f"{weight} {path} {path.stat().st_size:,} bytes")
