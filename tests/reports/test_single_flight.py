"""One render per lead, language and version, whoever asks first: concurrent downloads in
threads (each with its own PostgreSQL connection, committed rows, as two web workers
would be) make one render; the pre-render and the customer's first click never render
twice; a claim whose renderer died is taken over."""

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from selector.leads.models import Lead, LeadEvent, ReportPdf
from selector.leads.report import links, services, tasks

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db(transaction=True)


def _stored(lead) -> Lead:
    """The lead as a request or a task loads it (each download reads it from the database)."""
    return Lead.objects.get(pk=lead.pk)


@pytest.fixture
def renders(monkeypatch):
    """Every WeasyPrint render, counted; each takes at least ``hold`` seconds."""
    calls: list[str] = []
    real = services.html_to_pdf
    hold = threading.Event()

    def counting(html, **kwargs):
        calls.append(kwargs["language"])
        hold.wait(0.5)  # long enough for every other download to find the claim
        return real(html, **kwargs)

    monkeypatch.setattr(services, "html_to_pdf", counting)
    return calls


def _in_threads(count: int, work) -> list:
    """Run ``work(i)`` in ``count`` threads started together; their results (or errors)."""
    start = threading.Barrier(count)
    results: list = [None] * count

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = work(i)
        except Exception as exc:  # noqa: BLE001 - returned to the test
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_concurrent_downloads_make_one_render(content, make_lead, renders, settings):
    assert connection.vendor == "postgresql"
    settings.REPORT_WAIT_SECONDS = 30
    lead = _stored(make_lead(snapshot=True))
    results = _in_threads(4, lambda _i: services.report_pdf(lead)[0])
    assert renders == ["zh-hans"]
    assert all(isinstance(r, bytes) for r in results), results
    assert len(set(results)) == 1 and squash(lead.name) in squash(pdf_text(results[0]))
    assert ReportPdf.objects.filter(lead=lead).count() == 1


def test_concurrent_downloads_through_the_link_make_one_render(content, make_lead, renders,
                                                               settings, live_server):
    """The same through HTTP: two clients of the customer's link at once."""
    import urllib.request

    settings.REPORT_WAIT_SECONDS = 30
    lead = _stored(make_lead(snapshot=True))
    url = live_server.url + links.customer_report_path(lead)

    def download(_i: int) -> tuple[int, bytes]:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 - loopback
            return response.status, response.read()

    results = _in_threads(2, download)
    assert [status for status, _body in results] == [200, 200], results
    assert results[0][1] == results[1][1] and results[0][1].startswith(b"%PDF")
    assert renders == ["zh-hans"]
    assert lead.events.filter(kind="report_downloaded").count() == 2


def test_each_language_is_its_own_render(content, make_lead, renders, settings):
    settings.REPORT_WAIT_SECONDS = 30
    lead = _stored(make_lead(snapshot=True))
    _in_threads(4, lambda i: services.report_pdf(lead, ["zh-hans", "en"][i % 2]))
    services.report_pdf(lead, "zh-hans")
    services.report_pdf(lead, "en")
    assert sorted(renders) == ["en", "zh-hans"]


def test_the_prerender_and_the_first_click_render_once(content, make_lead, renders,
                                                       settings):
    """The customer clicks while the pre-render task is rendering: the click waits for
    the task's render instead of making its own (and the reverse order too)."""
    settings.REPORT_WAIT_SECONDS = 30
    lead = _stored(make_lead(snapshot=True))
    results = _in_threads(2, lambda i: (
        tasks.prerender_report.call(str(lead.public_id)) if i == 0
        else services.report_pdf(lead)[0]))
    assert renders == ["zh-hans"], results
    assert tasks.prerender_report.call(str(lead.public_id)) == "cached"
    assert renders == ["zh-hans"]


def test_a_claim_whose_renderer_died_is_taken_over(content, make_lead, renders, settings):
    settings.REPORT_RENDER_TIMEOUT = 20
    lead = _stored(make_lead(snapshot=True))
    data = services.report_data_for_lead(lead)
    version = services.report_version(data, services.content_version())
    dead = ReportPdf.objects.create(lead=lead, language="zh-hans", version=version,
                                    claimed_at=timezone.now() - timedelta(seconds=31))
    pdf, _data = services.report_pdf(lead, wait=30)
    assert pdf.startswith(b"%PDF") and renders == ["zh-hans"]
    row = ReportPdf.objects.get(pk=dead.pk)
    assert row.claim != dead.claim and bytes(row.content) == pdf


def test_a_fresh_claim_is_waited_for_not_taken_over(content, make_lead, renders, settings):
    lead = _stored(make_lead(snapshot=True))
    data = services.report_data_for_lead(lead)
    version = services.report_version(data, services.content_version())
    ReportPdf.objects.create(lead=lead, language="zh-hans", version=version,
                             claimed_at=timezone.now())
    with pytest.raises(services.ReportPreparing):
        services.report_pdf(lead, wait=0.3)
    assert renders == []


def test_a_newer_version_replaces_the_older_pdf(content, make_lead, renders, settings):
    lead = _stored(make_lead(snapshot=True))
    services.report_pdf(lead)
    lead.answers = {**lead.answers, "gpus": 512}
    lead.save()
    services.report_pdf(lead)
    assert len(renders) == 2
    assert ReportPdf.objects.filter(lead=lead).count() == 1


def test_a_slow_render_answers_a_page_that_refreshes_itself(client, make_lead, monkeypatch,
                                                            settings):
    """The download's own render outlasts the time bound: a "preparing" page (202) that
    reloads itself without JavaScript (meta refresh); the render goes on in the worker,
    stores the PDF, and the reload gets it."""
    settings.REPORT_RENDER_TIMEOUT = 0.05
    release = threading.Event()
    real = services.html_to_pdf

    def slow(*args, **kwargs):
        release.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "html_to_pdf", slow)
    lead = _stored(make_lead(name="保密姓名", snapshot=True))
    path = links.customer_report_path(lead)
    response = client.get(path)
    assert response.status_code == 202
    html = response.content.decode()
    assert "正在生成您的报告" in html
    assert re.search(r'<meta http-equiv="refresh" content="2">', html)
    assert f'href="{path}"' in html  # the manual link: the same URL
    assert response["Retry-After"] == "2" and response["Cache-Control"] == "no-store"
    assert "保密姓名" not in html
    assert not LeadEvent.objects.filter(kind="report_downloaded").exists()
    release.set()
    services._executor.submit(lambda: None).result(timeout=30)  # the render has finished
    again = client.get(path)
    assert again.status_code == 200 and again["Content-Type"] == "application/pdf"
    assert "保密姓名" in squash(pdf_text(again.content))
