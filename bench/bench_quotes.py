"""Quotes (issue 25): for a 100,000-GPU plan, the customer's quote page (server time,
p50/p95, opening counted as the customer's would be), the rep's editor (p95), quote from
plan (one click: the plan read, priced and written) and the PDF 报价单 (p50/p95, pages,
bytes) with its ratio to a one-page Chinese document rendered in the same run with the
same fonts (bench_reports' baseline: the machine is noisy, the ratio is the stable
figure). Server time in-process through Django's test client (no network)."""

from __future__ import annotations

import datetime as dt
import statistics
import time
from decimal import Decimal

from django.contrib.auth.models import Group, User
from django.test import Client

from bench.bench_reports import ONE_PAGE
from selector.content.models import PriceList, UnitPrice
from selector.documents.document import html_to_pdf
from selector.leads.snapshots import lead_recommendation
from selector.quotes import pdf, services
from selector.quotes.links import quote_path
from selector.staff.permissions import SALES_GROUP
from selector.staff.roles import ensure_roles
from tests.conftest import make_lead

ROUNDS = 30
GPUS = 100_000


def _p(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def _timed(fn, rounds=ROUNDS) -> list[float]:
    fn()  # warm-up
    out = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def run():
    from django.apps import apps

    ensure_roles(apps)
    rep = User.objects.create_user("bench-quotes", "bq@example.cn", "x-bench-password-9")
    rep.groups.add(Group.objects.get(name=SALES_GROUP))
    lead = make_lead(gpus=GPUS, snapshot=True, owner=rep, status="qualified")
    plan = lead_recommendation(lead).recommended.plan
    assert plan is not None
    price_list = PriceList.objects.create(currency="CNY", as_of=dt.date(2026, 12, 1))
    for n, key in enumerate(dict.fromkeys(line.key for line in plan.bom), start=1):
        UnitPrice.objects.create(price_list=price_list, item_key=key,
                                 amount=Decimal("1000.00") * n)
    started = time.perf_counter()
    quote = services.quote_from_lead(lead=lead, actor=rep)
    from_plan_ms = (time.perf_counter() - started) * 1000
    quote = services.quote_send(quote=services.quote_submit(quote=quote, actor=rep), actor=rep)
    yield "quote_from_plan_100k_gpus", from_plan_ms, "ms"
    yield "quote_lines_100k_gpus", quote.lines.count(), "lines"

    customer = Client()
    url = quote_path(quote, "zh-hans")

    def page():
        response = customer.get(url)
        assert response.status_code == 200

    times = _timed(page)
    yield "quote_page_p50_100k_gpus", statistics.median(times), "ms"
    yield "quote_page_p95_100k_gpus", _p(times, 95), "ms"

    staff = Client()
    staff.force_login(rep)
    editor = f"/staff/quotes/{quote.public_id}/"

    def edit_page():
        response = staff.get(editor)
        assert response.status_code == 200

    times = _timed(edit_page)
    yield "quote_editor_p95_100k_gpus", _p(times, 95), "ms"

    rendered = []

    def render():
        rendered.append(pdf.quote_pdf(quote, "zh-hans"))

    def one_page():
        html_to_pdf(ONE_PAGE, stylesheets=[], created=dt.datetime(2026, 12, 1))

    times, baseline = [], []
    one_page()
    render()
    for _ in range(12):  # interleaved, so both see the same load
        for fn, out in ((render, times), (one_page, baseline)):
            started = time.perf_counter()
            fn()
            out.append((time.perf_counter() - started) * 1000)
    yield "quote_pdf_p50_100k_gpus", statistics.median(times), "ms"
    yield "quote_pdf_ratio_to_one_page", statistics.median(times) / statistics.median(
        baseline), "x"
    yield "quote_pdf_p95_100k_gpus", _p(times, 95), "ms"
    yield "quote_pdf_pages", rendered[-1].pages, "pages"
    yield "quote_pdf_bytes", len(rendered[-1].content), "bytes"
