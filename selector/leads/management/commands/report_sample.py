"""Write sample reports (PDF and web HTML, both languages) for `make report-screenshots`."""

from pathlib import Path

from django.core.management.base import BaseCommand

from selector.leads.report.render import render_html, render_pdf_document
from selector.leads.report.samples import SAMPLE_ANSWERS, sample_report


class Command(BaseCommand):
    help = "Render sample reports into a folder (PDF + HTML per language)."

    def add_arguments(self, parser):
        parser.add_argument("--out", default="artifacts/report")
        parser.add_argument("--kind", default="roce", choices=sorted(SAMPLE_ANSWERS))

    def handle(self, *args, **options):
        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        for language in ("zh-hans", "en"):
            data = sample_report(language, options["kind"])
            rendered = render_pdf_document(data)
            stem = f"sample-{options['kind']}-{'zh' if language == 'zh-hans' else 'en'}"
            (out / f"{stem}.pdf").write_bytes(rendered.content)
            (out / f"{stem}.html").write_text(render_html(data, web=True), encoding="utf-8")
            self.stdout.write(f"{stem}.pdf: {rendered.pages} pages, "
                              f"{len(rendered.content):,} bytes")
