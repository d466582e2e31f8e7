"""Customer link, staff download, access, expiry, headers, events, cache, time bound."""

import logging
import time
from urllib.parse import unquote, urlsplit

import pytest
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from selector.content.models import ComparisonRow
from selector.documents.checks import check_harfbuzz_subset
from selector.leads.models import Lead, LeadEvent, ReportPdf
from selector.leads.report import links, services

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db


def _path(url: str) -> str:
    return urlsplit(url).path


@pytest.fixture
def staff(django_user_model):
    """A sales-role user (selector.staff roles decide report access)."""
    from django.apps import apps
    from django.contrib.auth.models import Group

    from selector.staff.permissions import SALES_GROUP
    from selector.staff.roles import ensure_roles

    ensure_roles(apps)
    user = django_user_model.objects.create_user("sales", password="x" * 12)
    user.groups.add(Group.objects.get(name=SALES_GROUP))
    return user


@pytest.fixture
def outsider(django_user_model):
    # Even Django-admin staff without a sales role may not download reports.
    return django_user_model.objects.create_user("visitor", password="x" * 12, is_staff=True)


def test_it_downloads_the_pdf_through_the_signed_link(client, make_lead):
    lead = make_lead()
    url = links.customer_report_path(lead)
    assert str(lead.public_id) not in url and str(lead.pk) not in _path(url).split("/")
    response = client.get(_path(url))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment; filename=\"network-report-NS-")
    assert disposition.isascii()
    utf8 = disposition.split("filename*=UTF-8''")[1]
    assert unquote(utf8) == f"网络选型报告 {lead.report_number}.pdf"
    text = squash(pdf_text(response.content))
    assert squash(lead.name) in text and squash(lead.company) in text
    event = LeadEvent.objects.get(lead=lead, kind="report_downloaded")
    assert event.actor is None and event.data == {"via": "link", "format": "pdf",
                                                  "language": "zh-hans"}
    assert lead.name not in str(event.data)


def test_an_english_lead_gets_an_english_link_and_report(client, make_lead):
    lead = make_lead(language="en", name="Jane Smith", company="Galaxy Compute Ltd.")
    url = links.customer_report_path(lead)
    assert _path(url).startswith("/en/report/")
    response = client.get(_path(url))
    assert "Network recommendation report" in pdf_text(response.content)


def test_the_web_version_shows_the_report(client, make_lead):
    lead = make_lead()
    response = client.get(links.customer_report_path(lead, web=True))
    assert response.status_code == 200
    html = response.content.decode()
    assert lead.name in html and lead.report_number in html
    assert '<script type="application/ld+json">' in html
    assert response["Cache-Control"] == "no-store"
    assert LeadEvent.objects.filter(lead=lead, data__format="html").count() == 1


def test_a_forged_or_foreign_token_is_404(client, make_lead):
    lead = make_lead()
    make_lead()
    token = links.make_token(lead)
    for bad in (token[:-2] + "xx", "1", "abc", signing.dumps(lead.public_id.hex, salt="x")):
        assert client.get(f"/report/{bad}/").status_code == 404
    assert client.get(f"/report/{lead.pk}/").status_code == 404
    assert not LeadEvent.objects.filter(kind="report_downloaded").exists()


def test_a_link_to_a_deleted_lead_is_404(client, make_lead):
    lead = make_lead()
    url = links.customer_report_path(lead)
    Lead.objects.filter(pk=lead.pk).delete()
    assert client.get(_path(url)).status_code == 404


def test_an_expired_link_is_refused_with_a_clear_page(client, make_lead, monkeypatch, settings):
    lead = make_lead()
    url = links.customer_report_path(lead)
    later = time.time() + settings.REPORT_LINK_MAX_AGE + 60
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)
    for path in (url, url + "web/"):
        response = client.get(path)
        assert response.status_code == 410
        assert "这个报告链接已过期" in response.content.decode()
        assert response["Cache-Control"] == "no-store"
    assert not LeadEvent.objects.filter(kind="report_downloaded").exists()


def _staff_path(lead, *, web: bool = False) -> str:
    return reverse("staff:lead_report_web" if web else "staff:lead_report",
                   args=[lead.public_id])


def test_staff_download_by_public_id(client, make_lead, staff):
    lead = make_lead()
    client.force_login(staff)
    response = client.get(_staff_path(lead))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    event = LeadEvent.objects.get(lead=lead, kind="report_downloaded")
    assert event.actor == staff and event.data["via"] == "staff"
    english = client.get(_staff_path(lead) + "?lang=en")
    assert "Network recommendation report" in pdf_text(english.content)
    assert client.get(_staff_path(lead) + "?lang=fr").status_code == 404
    assert client.get(_staff_path(lead, web=True)).status_code == 200


@pytest.mark.parametrize("web", [False, True])
def test_the_old_staff_report_url_redirects_to_the_workspace(client, make_lead, staff,
                                                             outsider, web):
    """/report/staff/<id>/ (before issue 16) in bookmarks and old notifications: a permanent
    redirect to the workspace URL, which still checks access; the English prefix too."""
    lead = make_lead()
    suffix = "web/" if web else ""
    old = f"/report/staff/{lead.public_id}/{suffix}"
    new = f"/staff/leads/{lead.public_id}/report/{suffix}"
    response = client.get(old)
    assert response.status_code == 301 and response["Location"] == new
    english = client.get(f"/en{old}")
    assert english.status_code == 301 and english["Location"] == f"/en{new}"
    client.force_login(outsider)
    assert client.get(old, follow=True).status_code == 404  # the redirect grants nothing
    client.force_login(staff)
    final = client.get(old, follow=True)
    assert final.status_code == 200
    if not web:
        assert final["Content-Type"] == "application/pdf"
    assert client.get("/report/staff/not-a-uuid/").status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_everyone_else_gets_404_on_the_staff_url(client, make_lead, outsider, who):
    lead = make_lead()
    if who == "outsider":
        client.force_login(outsider)
    for path in (_staff_path(lead), _staff_path(lead, web=True)):
        assert client.get(path).status_code == 404
    assert not LeadEvent.objects.filter(kind="report_downloaded").exists()


def test_the_staff_download_follows_the_sales_roles(client, make_lead, staff, outsider):
    """The workspace's one access check (staff.access.get_lead_for_user): sales may, an
    outsider, a signed-out visitor and a deactivated salesperson may not."""
    lead = make_lead()
    client.force_login(staff)
    assert client.get(_staff_path(lead)).status_code == 200
    client.force_login(outsider)
    assert client.get(_staff_path(lead)).status_code == 404
    client.logout()
    assert client.get(_staff_path(lead)).status_code == 404
    staff.is_active = False
    staff.save(update_fields=["is_active"])
    client.force_login(staff)
    assert client.get(_staff_path(lead)).status_code == 404
    assert LeadEvent.objects.filter(kind="report_downloaded").count() == 1


def test_pdfs_are_cached_per_lead_language_and_version(make_lead, monkeypatch):
    calls = []
    real = services.html_to_pdf

    def counting(html, **kwargs):
        calls.append((kwargs["language"], "512" in html))
        return real(html, **kwargs)

    monkeypatch.setattr(services, "html_to_pdf", counting)
    lead = make_lead()
    first, _ = services.report_pdf(lead)
    again, _ = services.report_pdf(lead)
    assert first == again and len(calls) == 1
    services.report_pdf(lead, "en")
    assert len(calls) == 2
    lead.answers = {**lead.answers, "gpus": 512}
    lead.save()
    services.report_pdf(lead)
    assert calls[-1] == ("zh-hans", True) and len(calls) == 3
    row = ComparisonRow.objects.first()
    row.roce_zh = row.roce_zh + "（更新）"
    row.save()
    updated, _ = services.report_pdf(lead)
    assert len(calls) == 4
    assert "更新" in pdf_text(updated)
    # A bulk update() sends no signal and leaves updated_at alone: still a new PDF.
    ComparisonRow.objects.filter(pk=row.pk).update(roce_zh=row.roce_zh + "（批量）")
    bulk, _ = services.report_pdf(lead)
    assert len(calls) == 5
    assert "批量" in pdf_text(bulk)


def test_generate_follows_the_renderer_interface(make_lead):
    filename, content_type, content = services.generate(make_lead())
    assert filename.startswith("network-report-") and filename.endswith(".pdf")
    assert content_type == "application/pdf" and content.startswith(b"%PDF-")


def test_a_failed_render_gives_a_retry_page_and_keeps_the_lead(client, make_lead,
                                                               monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("保密姓名 in the traceback")

    monkeypatch.setattr(services, "html_to_pdf", broken)
    lead = make_lead(name="保密姓名", company="保密公司")
    with caplog.at_level(logging.ERROR, logger="selector.leads.report.services"):
        response = client.get(links.customer_report_path(lead))
    assert response.status_code == 503
    html = response.content.decode()
    assert "报告暂时未能生成" in html
    assert 'class="button" href="/report/' in html  # the retry link: the same URL again
    assert response["Retry-After"]
    assert Lead.objects.filter(pk=lead.pk).exists()
    assert "report render failed: RuntimeError" in caplog.text
    assert "保密" not in caplog.text
    assert not LeadEvent.objects.filter(kind="report_downloaded").exists()
    assert not ReportPdf.objects.filter(lead=lead).exists()  # the claim is free again


def test_the_preparing_page_speaks_english_on_an_english_link(client, make_lead, settings):
    settings.REPORT_WAIT_SECONDS = 0
    lead = make_lead(language="en")
    ReportPdf.objects.create(lead=lead, language="en", version="x",
                             claimed_at=timezone.now())  # a render elsewhere, any version
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "report_version", lambda data, content=None: "x")
        response = client.get(links.customer_report_path(lead))
    assert response.status_code == 202
    html = response.content.decode()
    assert "Preparing your report" in html and 'lang="en"' in html



def test_a_failing_render_is_logged_without_personal_data(make_lead, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise ValueError("something about 保密姓名")

    monkeypatch.setattr(services, "html_to_pdf", broken)
    lead = make_lead(name="保密姓名")
    with caplog.at_level(logging.ERROR), pytest.raises(services.ReportUnavailable):
        services.report_pdf(lead)
    assert "ValueError" in caplog.text and "保密" not in caplog.text


def test_the_startup_check_refuses_without_harfbuzz_subset(monkeypatch):
    from selector.documents import fonts

    assert check_harfbuzz_subset() == []
    monkeypatch.setattr(fonts, "HARFBUZZ_SUBSET_LIBRARIES", ("libno-such-harfbuzz.so.0",))
    fonts._harfbuzz_subset.cache_clear()
    try:
        errors = check_harfbuzz_subset()
        assert [e.id for e in errors] == ["documents.E001"]
        assert "libharfbuzz-subset0" in errors[0].hint
    finally:
        monkeypatch.undo()
        fonts._harfbuzz_subset.cache_clear()
    monkeypatch.setattr(fonts, "HARFBUZZ_MINIMUM", (999, 0, 0))  # too old a HarfBuzz
    assert [e.id for e in check_harfbuzz_subset()] == ["documents.E001"]


def test_head_of_a_report_link_is_not_a_download(client, make_lead):
    lead = make_lead()
    from selector.leads.models import LeadEvent
    from selector.leads.report import links

    response = client.head(links.customer_report_path(lead))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert not LeadEvent.objects.filter(lead=lead, kind="report_downloaded").exists()
    client.get(links.customer_report_path(lead))
    assert LeadEvent.objects.filter(lead=lead, kind="report_downloaded").count() == 1
