"""The list's search text stays in step with the leads, the list's capped count, and the
dashboard's figures cache. Run on SQLite and on PostgreSQL (DATABASE_URL): on PostgreSQL
the search goes through the trigram expression index (Lead.Meta.indexes)."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from selector.leads.models import Lead
from selector.leads.search import INDEX_NAME, search_term
from selector.staff import queries, services
from tests.conftest import make_lead

from .conftest import login

URL = "/en/staff/leads/"

FROZEN_COLUMN = '"frozen_recommendation"'


def found(client, q: str, **params) -> set[str]:
    response = client.get(URL, {"q": q, **params})
    assert response.status_code == 200
    return {lead.name for lead in response.context["page"].object_list}


@pytest.mark.parametrize("typed,term", [
    ("+86 139-1111 2222", "8613911112222"), ("139 1111", "1391111"),
    ("Alice@Nimbus", "alice@nimbus"), ("云智数据", "云智数据"),
    ("0755-8888 6666", "8675588886666"), ("0755-8888", "7558888"),
    ("(+86)138-0013-8000", "8613800138000"), ("0086 139 1111", "861391111"),
    ("１３９ １１１１", "1391111"), ("NS-2026", "ns-2026")])
def test_search_terms_are_normalised(typed, term):
    assert search_term(typed) == term


MOBILE = st.from_regex(r"1[3-9][0-9]{9}", fullmatch=True)
LANDLINE = st.tuples(st.sampled_from(["10", "20", "21", "755", "571", "28"]),
                     st.from_regex(r"[2-8][0-9]{7}", fullmatch=True))
SEPARATORS = st.sampled_from(["", " ", "-", "－", ".", "  "])


@given(number=MOBILE, sep=SEPARATORS, prefix=st.sampled_from(["", "+86 ", "(+86)", "0086 ",
                                                              "（＋86）"]),
       cut=st.integers(min_value=3, max_value=11))
def test_a_mobile_typed_any_way_is_a_substring_of_what_is_stored(number, sep, prefix, cut):
    """However a mobile number is dictated (spaces, dashes, full-width, with or without the
    country code, whole or only its first digits), the term is part of the stored digits."""
    stored = "86" + number  # search_text(): the E.164 number without its "+"
    spaced = sep.join([number[:3], number[3:7], number[7:]])
    assert search_term(prefix + spaced) in stored
    assert search_term(sep.join([number[:3], number[3:cut]]) if cut > 3 else number[:3]) \
        in stored


@given(landline=LANDLINE, sep=SEPARATORS)
def test_a_landline_typed_with_its_trunk_zero_is_found(landline, sep):
    area, local = landline
    stored = "86" + area + local
    assert search_term(f"0{area}{sep}{local[:4]}{sep}{local[4:]}") in stored
    assert search_term(f"0{area}{sep}{local[:4]}") in stored


def test_a_landline_dictated_with_its_area_code_finds_the_lead(client, sales):
    # The rep's own leads: a phone finds only leads whose contact one sees
    # (tests/staff/test_contact_visibility.py).
    make_lead(name="Shenzhen Desk", company="南山机房", phone="+8675588886666", owner=sales)
    make_lead(name="Other Desk", company="福田", phone="+8675588880000", owner=sales)
    login(client, sales)
    for q in ("0755-8888 6666", "0755 88886666", "(0755) 8888-6666", "8888 6666"):
        assert found(client, q) == {"Shenzhen Desk"}, q
    assert found(client, "0755-8888") == {"Shenzhen Desk", "Other Desk"}


def test_it_finds_leads_by_any_field_and_follows_updates(client, sales):
    lead = make_lead(name="Alice Zhang", company="Nimbus Compute", phone="+8613911112222",
                     email="alice@nimbus.example", owner=sales)
    make_lead(name="王芳", company="上海云智数据科技有限公司")
    login(client, sales)
    for q in ("alice zh", "NIMBUS COM", "alice@nimbus", "139 1111 2222", "+8613911112222",
              "nimbus.example"):
        assert found(client, q) == {"Alice Zhang"}, q
    assert found(client, "云智数据") == {"王芳"}

    Lead.objects.filter(pk=lead.pk).update(name="Alicia Wong", company="Orbit Labs")
    assert found(client, "alice zh") == set()
    assert found(client, "orbit lab") == {"Alicia Wong"}
    assert found(client, "alicia") == {"Alicia Wong"}


def test_a_lead_deleted_on_request_is_no_longer_found(client, manager):
    lead = make_lead(name="Delete Me", email="delete.me@example.cn")
    login(client, manager)
    assert found(client, "delete.me") == {"Delete Me"}
    services.lead_delete_on_request(lead=lead, actor=manager, reason="customer asked")
    assert found(client, "delete.me") == set()


def test_search_treats_like_wildcards_as_text(client, sales):
    make_lead(name="100% Ltd", company="Percent")
    make_lead(name="Under_score", company="x")
    make_lead(name="Other", company="Plain")
    login(client, sales)
    assert found(client, "100%") == {"100% Ltd"}
    assert found(client, "r_s") == {"Under_score"}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL index")
def test_the_search_uses_the_trigram_index(db):
    for n in range(30):
        make_lead(name=f"Lead {n}", email=f"x{n}@example.cn")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leads_lead")
        cursor.execute("SET LOCAL enable_seqscan = off")
        # The expression in the query is the indexed one (else only a scan could serve it).
        plan = queries.search_anywhere(Lead.objects.order_by(), "lead 1").explain()
    assert INDEX_NAME in plan


def test_one_and_two_characters_are_found_anywhere_in_name_and_company(client, sales):
    """Chinese company names start with the city: "星河" must find "深圳星河智算", a
    surname in the middle of an English name must find it too; nothing else comes along."""
    make_lead(name="李娜", company="深圳星河智算科技有限公司")
    make_lead(name="Sue Chen", company="华联数据")
    make_lead(name="王芳", company="北京云智数据科技有限公司")
    login(client, sales)
    assert found(client, "星河") == {"李娜"}
    assert found(client, "华联") == {"Sue Chen"}
    assert found(client, "智算") == {"李娜"}
    assert found(client, "数据") == {"Sue Chen", "王芳"}
    assert found(client, "芳") == {"王芳"}
    assert found(client, "CH") == {"Sue Chen"}  # any case
    assert found(client, "河智") == {"李娜"}
    assert found(client, "娜深") == set()  # the end of the name and the start of the company


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL index")
def test_short_searches_use_the_grams_index_and_the_frozen_function(db):
    from importlib import import_module

    from selector.leads.search import GRAMS_INDEX_NAME, GRAMS_SQL

    migration = import_module("selector.leads.migrations.0017_search_grams")
    assert migration.GRAMS_SQL.strip() == GRAMS_SQL.strip()
    for n in range(30):
        make_lead(name=f"线索{n}", company=f"公司{n}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leads_lead")
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = queries.search_short(Lead.objects.order_by(), "索1").explain()
        cursor.execute("SELECT selector_search_grams('深圳 星河')")
        grams = set(cursor.fetchone()[0])
    assert GRAMS_INDEX_NAME in plan
    assert grams == {"深", "圳", "星", "河", "深圳", "星河"}  # no pair across the space


def test_the_count_is_one_capped_probe_and_narrow_pages_read_by_id(client, sales,
                                                                   monkeypatch):
    from selector.staff.views import lead_list as views

    monkeypatch.setattr(views, "COUNT_CAP", 3)
    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    for n in range(5):
        make_lead(name=f"Broad {n}")
    make_lead(name="Narrow 1", company="Needle One")
    make_lead(name="Narrow 2", company="Needle Two")
    login(client, sales)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(URL, {"q": "broad"})
    counted = response.context["counted"]
    assert counted.capped and counted.count == 4
    probes = [q["sql"] for q in ctx.captured_queries if "LIMIT 4" in q["sql"]]
    assert len(probes) == 1 and "ORDER BY" not in probes[0]
    assert len(response.context["page"].object_list) == 2

    response = client.get(URL, {"q": "needle", "sort": "name"})
    page = response.context["page"]
    counted = response.context["counted"]
    assert not counted.capped and counted.count == 2
    assert [lead.name for lead in page.object_list] == ["Narrow 1", "Narrow 2"]
    response = client.get(URL, {"q": "needle", "sort": "-created"})
    assert [lead.name for lead in response.context["page"].object_list] == [
        "Narrow 2", "Narrow 1"]


def test_the_list_reads_only_the_columns_it_shows(client, sales):
    make_lead(frozen_recommendation={"big": "x" * 1000}, message="private message")
    login(client, sales)
    with CaptureQueriesContext(connection) as ctx:
        client.get(URL)
    page_sql = [q["sql"] for q in ctx.captured_queries if "leads_lead" in q["sql"]]
    assert page_sql and not any(FROZEN_COLUMN in sql or '"message"' in sql for sql in page_sql)


def test_my_day_reads_only_the_columns_it_shows(client, sales):
    make_lead(owner=sales, frozen_recommendation={"big": "x" * 1000}, message="private message")
    make_lead(score="hot", frozen_recommendation={"big": "x" * 1000})
    login(client, sales)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("staff:my_day"))
    assert len(response.context["open"]) == 1 and len(response.context["hot_unassigned"]) == 1
    page_sql = [q["sql"] for q in ctx.captured_queries if "leads_lead" in q["sql"]]
    assert page_sql and not any(FROZEN_COLUMN in sql or '"message"' in sql for sql in page_sql)


def test_dashboard_figures_are_cached_for_a_minute_and_dated(client, sales):
    make_lead(utm_source="wechat")
    login(client, sales)
    first = client.get("/en/staff/dashboard/")
    assert sum(w["count"] for w in first.context["weeks"]) == 1
    assert "Updated at " in first.content.decode()
    make_lead(utm_source="wechat")
    with CaptureQueriesContext(connection) as ctx:
        again = client.get("/en/staff/dashboard/")
    assert sum(w["count"] for w in again.context["weeks"]) == 1  # cached
    # The quotes' figures (counted per request from the quotes tables) aside.
    assert not any("leads_lead" in q["sql"] and "quotes_" not in q["sql"]
                   for q in ctx.captured_queries)
    # Another period or source is another entry; a fresh computation sees the new lead.
    other = client.get("/en/staff/dashboard/?period=30")
    assert sum(w["count"] for w in other.context["weeks"]) == 2
    end = timezone.localdate()
    fresh = queries.dashboard_figures(end - dt.timedelta(days=89), end, use_cache=False)
    assert fresh["funnel"][-1] == 2
