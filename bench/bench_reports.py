"""PDF report speed: full report render p50/p95, pages, bytes, and the ratio to a one-page
Chinese document rendered in the same run with the same fonts (the machine is noisy, so
the ratio is the stable figure). `make bench` or `.venv/bin/python bench/run.py reports`."""

from __future__ import annotations

import statistics
import time
from contextlib import ExitStack, contextmanager

ROUNDS = 30  # p95 of 30 is the 29th value; of 12 it was the maximum
WARMUP = 2

ONE_PAGE = """<!doctype html><html lang="zh-Hans"><head><meta charset="utf-8">
<title>一页中文文档</title></head><body><h1>AI 集群网络选型</h1>{}</body></html>""".format(
    "<p>算力集群的网络选型影响训练效率：RoCE v2 无损以太网性价比高，InfiniBand 性能上限高。"
    "<b>无损网络靠 PFC+ECN+自适应路由三件套</b>，调优质量决定效果。</p>" * 12
)


def _p(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


@contextmanager
def _patched(module, name, value):
    saved = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, saved)


@contextmanager
def _item_patched(mapping, key, value):
    saved = mapping[key]
    mapping[key] = value
    try:
        yield
    finally:
        mapping[key] = saved


@contextmanager
def weasyprint_as_shipped(parse: bool = True, ua: bool = True, zlib_level: bool = True,
                          serialise: bool = True, svg_text: bool = True):
    """Undo each shortcut of selector.documents.document (all by default) for the block:
    WeasyPrint's own HTML parser, its full user-agent stylesheet, pydyf's zlib level 9,
    its double serialisation and its letter-by-letter SVG text. What the module saves is
    a render with minus without."""
    import zlib

    import pydyf
    import weasyprint.svg
    from weasyprint import HTML

    from selector.documents import document
    from selector.leads.report import render

    class ShippedHTML(document.ReportHTML):
        def __init__(self, string, *, base_url, url_fetcher, media_type="print"):
            if parse:
                HTML.__init__(self, string=string, base_url=base_url,
                              url_fetcher=url_fetcher, media_type=media_type)
                self.parsed_as_xml = False
            else:
                super().__init__(string, base_url=base_url, url_fetcher=url_fetcher,
                                 media_type=media_type)

        def _ua_stylesheets(self, forms=False):
            if ua:
                return HTML._ua_stylesheets(self, forms)
            return super()._ua_stylesheets(forms)

    with ExitStack() as stack:
        for module in (document, render):  # wherever the renderer looks the names up
            if hasattr(module, "ReportHTML"):
                stack.enter_context(_patched(module, "ReportHTML", ShippedHTML))
            if serialise and hasattr(module, "serialise_once"):
                stack.enter_context(_patched(module, "serialise_once", lambda pdf: None))
        if zlib_level:
            stack.enter_context(_patched(pydyf, "zlib", zlib))
        if svg_text and hasattr(document, "_letter_by_letter"):
            letters = document._letter_by_letter
            stack.enter_context(_patched(weasyprint.svg, "text", letters))
            for tag in ("text", "tspan"):
                stack.enter_context(_item_patched(weasyprint.svg.TAGS, tag, letters))
        yield


def run():
    from weasyprint import HTML

    from selector.documents.fetcher import ASSET_BASE_URL
    from selector.leads.report.render import (
        PDF_OPTIONS,
        created_at,
        default_fetcher,
        font_config,
        fonts_stylesheet,
        html_to_pdf,
        pdf_sources,
        stylesheet,
    )
    from selector.leads.report.samples import sample_report

    data = sample_report("zh-hans", "roce")

    def full():
        # What a cache miss costs: template + JSON-LD + WeasyPrint.
        html, attachment = pdf_sources(data)
        return html_to_pdf(html, attachment=attachment, created=created_at(data),
                           language=data.language_code)

    def one_page():
        document = HTML(string=ONE_PAGE, base_url=ASSET_BASE_URL,
                        url_fetcher=default_fetcher()).render(
            font_config=font_config(), stylesheets=[fonts_stylesheet(), stylesheet()])
        return document.write_pdf(), len(document.pages)

    def plain():
        # The same report without PDF/A-3u and tags: what the archival features cost.
        saved = dict(PDF_OPTIONS)
        PDF_OPTIONS.clear()
        try:
            return full()
        finally:
            PDF_OPTIONS.update(saved)

    # selector.documents.document's shortcuts undone, all at once and one by one.
    shipped = {
        "all": {},
        "parse": dict(parse=True, ua=False, zlib_level=False, serialise=False, svg_text=False),
        "ua_css": dict(parse=False, ua=True, zlib_level=False, serialise=False, svg_text=False),
        "zlib": dict(parse=False, ua=False, zlib_level=True, serialise=False, svg_text=False),
        "serialise": dict(parse=False, ua=False, zlib_level=False, serialise=True,
                          svg_text=False),
        "svg_text": dict(parse=False, ua=False, zlib_level=False, serialise=False,
                         svg_text=True),
    }

    def as_shipped(which):
        with weasyprint_as_shipped(**shipped[which]):
            return full()

    for _ in range(WARMUP):
        full()
        one_page()
        for which in shipped:
            as_shipped(which)
    full_ms, one_ms, plain_ms, full_cpu_ms = [], [], [], []
    shipped_ms = {which: [] for which in shipped}
    shipped_cpu_ms = []
    rendered = None
    for _ in range(ROUNDS):  # interleaved, so all see the same machine load
        started, cpu = time.perf_counter(), time.process_time()
        rendered = full()
        full_ms.append((time.perf_counter() - started) * 1000)
        full_cpu_ms.append((time.process_time() - cpu) * 1000)
        started = time.perf_counter()
        _pdf, pages = one_page()
        one_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        plain()
        plain_ms.append((time.perf_counter() - started) * 1000)
        for which in shipped:
            started, cpu = time.perf_counter(), time.process_time()
            as_shipped(which)
            shipped_ms[which].append((time.perf_counter() - started) * 1000)
            if which == "all":
                shipped_cpu_ms.append((time.process_time() - cpu) * 1000)
    assert pages == 1, "the baseline must be one page"
    yield "report_render_p50", statistics.median(full_ms), "ms"
    yield "report_render_p95", _p(full_ms, 95), "ms"
    yield "report_pages", rendered.pages, "pages"
    yield "report_bytes", len(rendered.content), "bytes"
    yield "report_one_page_p50", statistics.median(one_ms), "ms"
    yield "report_vs_one_page_ratio", statistics.median(full_ms) / statistics.median(one_ms), "x"
    yield ("report_pdfa_tags_cost_p50",
           statistics.median(full_ms) - statistics.median(plain_ms), "ms")
    # What selector.documents.document saves (WeasyPrint as shipped minus ours, same run).
    yield ("report_without_document_p50", statistics.median(shipped_ms["all"]), "ms")
    for which, times in shipped_ms.items():
        yield (f"report_document_saves_{which}_p50",
               statistics.median(times) - statistics.median(full_ms), "ms")
    yield ("report_document_saves_cpu_p50",
           statistics.median(shipped_cpu_ms) - statistics.median(full_cpu_ms), "ms")
    # CPU time of this process: what the render costs when other processes load the
    # machine (this shared 2-core box); equal to the wall time on an idle one.
    yield "report_render_cpu_p50", statistics.median(full_cpu_ms), "ms"
    yield "report_cached_download_p50", cached_download_p50(), "ms"
    # A new lead's first render also draws the QR code of its result link (segno, pure
    # Python); the sample's link is the same every round (stable share tokens), so the
    # figures above reuse it, as a lead's re-render does.
    yield "report_result_qr_first_p50", result_qr_first_p50(data), "ms"


def result_qr_first_p50(data, rounds: int = 7) -> float:
    from selector.core.qr import qr_png
    from selector.leads.report.render import result_url

    url = result_url(data)
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        qr_png.__wrapped__(url)  # uncached
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def cached_download_p50(rounds: int = 30) -> float:
    """The customer's download of a report pre-rendered into the cache (what a lead's
    first download costs after the pre-render task ran): signed link, lead lookup,
    content version, cache hit, download event, response."""
    import uuid
    from datetime import UTC, datetime

    from django.test import Client

    from selector.leads.models import Lead
    from selector.leads.report import links, services
    from selector.leads.report.samples import SAMPLE_ANSWERS

    lead = Lead.objects.create(
        report_number=f"NS-BENCH-{uuid.uuid4().hex[:6].upper()}", name="王建国",
        company="深圳星河智算科技有限公司", phone="+8613800138000", email="wang@example.com",
        role="CTO", timeline="0-3m", language="zh-hans", answers=dict(SAMPLE_ANSWERS["roce"]),
        recommendation="roce-v2-400g", rule="R7", engine_version="bench", score="hot",
        consent_given_at=datetime.now(UTC), consent_notice_version="1")
    services.report_pdf(lead)  # what the pre-render task does
    client, path = Client(), links.customer_report_path(lead)
    for _ in range(3):
        assert client.get(path).status_code == 200
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return statistics.median(times)
