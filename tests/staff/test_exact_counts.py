"""Exact counts (issue 24): My day and the daily digest count the same sets with the same
code, and every capped list says how many more there are and links to the lead list of
exactly those leads. With more leads than every cap (My day shows 50 follow-ups and 20 hot
leads, the digest 10 lines), the numbers shown are the database's, and the links' filters
return exactly the leads counted."""

import datetime as dt
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from selector.leads.models import OPEN_STATUSES, Lead
from selector.staff import queries, sweeps
from selector.staff.forms import LeadFilterForm
from tests.conftest import make_lead

from .conftest import login

SH = ZoneInfo("Asia/Shanghai")
NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=SH)
OVERDUE, TODAY, HOT, WITHOUT = 57, 53, 24, 4


@pytest.fixture
def book(sales, sales2):
    """More than every cap, and leads that look alike but are not in the sets."""
    with time_machine.travel(NOW, tick=False):
        for n in range(OVERDUE):
            make_lead(name=f"逾期{n}", owner=sales, status="contacted", next_action_kind="call",
                      next_action_due=NOW - dt.timedelta(hours=1, minutes=n))
        for n in range(TODAY):
            make_lead(name=f"今天{n}", owner=sales, next_action_kind="wechat",
                      next_action_due=NOW + dt.timedelta(hours=2, minutes=n))
        for n in range(HOT):
            make_lead(name=f"热{n}", score="hot")
        for n in range(WITHOUT):
            make_lead(name=f"无跟进{n}", owner=sales)
        # Not in any of the rep's sets:
        make_lead(name="同事逾期", owner=sales2, next_action_kind="call",
                  next_action_due=NOW - dt.timedelta(hours=1))
        make_lead(name="已成交逾期", owner=sales, status="won", next_action_kind="call",
                  next_action_due=NOW - dt.timedelta(hours=1))
        make_lead(name="明天", owner=sales, next_action_kind="call",
                  next_action_due=NOW + dt.timedelta(days=1))
        make_lead(name="热已丢单", score="hot", status="lost", lost_reason="price")
        make_lead(name="温未分配", score="warm")
        survivor = make_lead(name="保留", owner=sales2)
        make_lead(name="已合并", owner=sales, next_action_kind="call",
                  next_action_due=NOW - dt.timedelta(hours=1), merged_into=survivor)
    return sales


def expected(sales) -> dict[str, set[int]]:
    """The sets as a manager would write them in SQL, independently of the code."""
    live = Lead.objects.filter(merged_into__isnull=True, status__in=OPEN_STATUSES)
    tomorrow = dt.datetime(2026, 12, 3, tzinfo=SH)
    return {
        "overdue": set(live.filter(owner=sales, next_action_due__lt=NOW)
                       .values_list("pk", flat=True)),
        "today": set(live.filter(owner=sales, next_action_due__gte=NOW,
                                 next_action_due__lt=tomorrow).values_list("pk", flat=True)),
        "hot_unassigned": set(live.filter(owner__isnull=True, score="hot")
                              .values_list("pk", flat=True)),
        "open": set(live.filter(owner=sales).values_list("pk", flat=True)),
    }


def listed(client, user, url: str) -> tuple[set[int], str]:
    """What the lead list answers for ``url``: the leads of its filter (the list's own
    form and query) and its page's result count."""
    query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    form = LeadFilterForm(query, user=user)
    assert form.is_valid(), form.errors
    pks = set(queries.filtered_leads(form.cleaned_data, user, NOW).values_list("pk", flat=True))
    page = client.get(url)
    assert page.status_code == 200
    match = re.search(r'<p class="result-count">\s*([^<]*?)\s*(?:<|$)', page.content.decode())
    assert match is not None
    return pks, match.group(1).split("\n")[0].strip()  # (a manager's export links follow)


def test_my_day_shows_the_database_counts_and_links_to_exactly_those_leads(client, book):
    truth = expected(book)
    assert {k: len(v) for k, v in truth.items()} == {
        "overdue": OVERDUE, "today": TODAY, "hot_unassigned": HOT,
        "open": OVERDUE + TODAY + WITHOUT + 1}  # + "明天"
    login(client, book)
    with time_machine.travel(NOW, tick=False):
        response = client.get(reverse("staff:my_day"))
        html = unescape(response.content.decode())
        summary = html.split('class="day-summary">')[1].split("</p>")[0]
        assert summary == (f"{OVERDUE} 条已逾期 · {TODAY} 条今天到期 · {HOT} 条新的热线索待接手 · "
                           f"你有 {len(truth['open'])} 条进行中的线索")
        shown = {"overdue": 50, "today": 50, "hot_unassigned": 20, "open": 50}
        for name, css in [("overdue", "day-overdue"), ("today", "day-today"),
                          ("hot_unassigned", "day-hot"), ("open", "day-open")]:
            section = html.split(f'class="card {css}"')[1].split("</section>")[0]
            assert f'<span class="count">{len(truth[name])}</span>' in section, name
            assert section.count('class="day-item') == shown[name], name
            more = len(truth[name]) - shown[name]
            [(url, text)] = re.findall(r'<a href="([^"]+)" data-testid="day-more">([^<]+)</a>',
                                       section)
            assert text.strip() == f"还有 {more} 条 →", name
            pks, count = listed(client, book, url)
            assert pks == truth[name], name
            assert count == f"{len(truth[name])} 条线索", name


def test_the_digest_counts_the_same_sets_and_links_to_the_rest(client, book, manager,
                                                               settings):
    settings.SITE_URL = "https://selector.example.com"
    truth = expected(book)
    with time_machine.travel(NOW, tick=False):
        message = sweeps._digest_message(book, NOW)
        boss = sweeps._digest_message(manager, NOW)
        day = queries.my_day(book, NOW)
    assert message is not None and boss is not None
    assert f"{OVERDUE} 条已逾期，{TODAY} 条今天到期" in message.title
    assert day["counts"]["overdue"] == OVERDUE and day["counts"]["today"] == TODAY
    lines = message.lines
    assert sum(line.startswith("自 ") and "起逾期：" in line for line in lines
               ) == sweeps.DIGEST_LINES
    more = [line for line in lines if line.startswith("另有")]
    assert more == [
        f"另有 {OVERDUE - 10} 条已逾期：https://selector.example.com"
        f"{reverse('staff:lead_list')}?owner=mine&follow_up=overdue",
        f"另有 {TODAY - 10} 条今天到期：https://selector.example.com"
        f"{reverse('staff:lead_list')}?owner=mine&follow_up=today"]
    login(client, book)
    with time_machine.travel(NOW, tick=False):
        for line, name in zip(more, ("overdue", "today"), strict=True):
            url = line.split("：", 1)[1].removeprefix("https://selector.example.com")
            assert listed(client, book, url)[0] == truth[name]
    # The managers' figure is My day's set, counted by the same code.
    assert any(f"（热：{HOT}）" in line for line in boss.lines)


def test_the_managers_stale_list_says_how_many_more_and_links_to_all_of_them(
        client, manager, sales, settings):
    """The manager page lists the 20 oldest stale leads; the rest is "N more", linked to
    the lead list's stale filter, which returns exactly the leads counted."""
    settings.STAFF_STALE_DAYS = 14
    for n in range(queries.STALE_LIST + 6):
        lead = make_lead(name=f"停滞{n}", owner=sales if n % 2 else None)
        Lead.objects.filter(pk=lead.pk).update(
            created_at=NOW - dt.timedelta(days=20 + n), last_activity_at=None)
    worked = make_lead(name="最近跟进", owner=sales)
    Lead.objects.filter(pk=worked.pk).update(created_at=NOW - dt.timedelta(days=40),
                                             last_activity_at=NOW - dt.timedelta(days=2))
    closed = make_lead(name="已成交", owner=sales, status="won")
    Lead.objects.filter(pk=closed.pk).update(created_at=NOW - dt.timedelta(days=40))
    truth = set(Lead.objects.filter(name__startswith="停滞").values_list("pk", flat=True))
    login(client, manager)
    with time_machine.travel(NOW, tick=False):
        html = unescape(client.get(reverse("staff:manager")).content.decode())
        section = html.split('id="stale"')[1].split("</section>")[0]
        assert f"：{len(truth)}</h2>" in section
        [(url, text)] = re.findall(r'<a href="([^"]+)" data-testid="day-more">([^<]+)</a>',
                                   section)
        assert text.strip() == "还有 6 条 →"
        pks, count = listed(client, manager, url)
    assert pks == truth and count == f"{len(truth)} 条线索"
