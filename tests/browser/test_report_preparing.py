"""The "preparing your report" page as a customer meets it: their PDF is being rendered
elsewhere (the pre-render), so the link answers a page in their language that reloads
itself, with JavaScript on or off, and the download starts by itself once the PDF is
there."""

from pathlib import Path

import pytest
from django.utils import timezone

from selector.leads.models import Lead, ReportPdf
from selector.leads.report import links, services
from selector.leads.report.render import render_pdf_document
from tests.conftest import make_lead

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language, js, width, heading", [
    ("zh-hans", False, 390, "正在生成您的报告"),
    ("en", True, 1280, "Preparing your report"),
])
def test_the_download_starts_by_itself_once_the_pdf_is_there(
        content, new_page, settings, live_server, artifacts_dir, language, js, width,
        heading):
    settings.REPORT_WAIT_SECONDS = 0  # answer the page at once
    settings.SITE_URL = live_server.url  # the report's links: the same here and in a request
    lead = Lead.objects.get(pk=make_lead(snapshot=True, language=language).pk)
    data = services.report_data_for_lead(lead)
    version = services.report_version(data, services.content_version())
    row = ReportPdf.objects.create(lead=lead, language=data.language_code, version=version,
                                   claimed_at=timezone.now())  # the pre-render, under way

    page = new_page(js=js, width=width, height=800)
    response = page.goto(links.customer_report_path(lead))
    assert response.status == 202
    assert page.locator("h1").inner_text() == heading
    assert page.locator('meta[http-equiv="refresh"]').get_attribute("content") == "2"
    page.screenshot(path=str(artifacts_dir("report") / f"preparing-{language}.png"),
                    full_page=True)

    pdf = render_pdf_document(data).content  # the pre-render finishes
    ReportPdf.objects.filter(pk=row.pk).update(content=pdf, rendered_at=timezone.now())
    with page.expect_download(timeout=15_000) as download:
        pass  # the page reloads itself within two seconds
    assert Path(download.value.path()).read_bytes() == pdf
    assert lead.events.filter(kind="report_downloaded").count() == 1
