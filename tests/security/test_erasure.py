"""Erasure that leaves nothing (issue 21, M5): after a lead is deleted on the customer's
request (a merged duplicate included) and another is purged by retention, no table, no
cache entry and no log line holds the person's name, phone number or e-mail address."""

from __future__ import annotations

import base64
import logging
import pickle
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from selector.leads.models import Lead, ReportPdf
from selector.leads.report.services import report_pdf
from selector.staff import services as staff_services
from selector.staff.permissions import MANAGERS_GROUP
from tests.conftest import make_lead
from tests.staff.conftest import login, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("content")]

# One person, the way they typed it twice, and someone else whose lead is purged.
PERSON = {"name": "欧阳消除", "phone": "+8613912345678", "email": "erase.me@example.cn",
          "wechat": "erase_me_wx", "company": "消除测试科技有限公司"}
PURGED = {"name": "司马过期", "phone": "+8613687654321", "email": "expired@example.cn",
          "wechat": "expired_wx", "company": "过期数据有限公司"}


@pytest.fixture
def manager(db):
    from django.apps import apps

    from selector.staff.roles import ensure_roles

    ensure_roles(apps)
    return make_user("mia", MANAGERS_GROUP)


NEEDLES = ["欧阳消除", "13912345678", "erase.me@example.cn", "erase_me_wx",
           "司马过期", "13687654321", "expired@example.cn", "expired_wx"]


def _text_of_every_table() -> dict[str, str]:
    """Every row of every table of the database, as text (bytea as escaped text)."""
    found = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT t::text FROM "{table}" t')  # noqa: S608 (our table names)
            found[table] = "\n".join(row[0] for row in cursor.fetchall())
    return found


def _text_of_the_cache() -> str:
    """Every value in the shared cache (the database cache in the tests: base64 pickles)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT cache_key, value FROM selector_cache")
        rows = cursor.fetchall()
    texts = []
    for key, value in rows:
        try:
            texts.append(f"{key} {pickle.loads(base64.b64decode(value))!r}")  # noqa: S301
        except Exception:  # noqa: BLE001 (anything undecodable is shown raw)
            texts.append(f"{key} {value}")
    return "\n".join(texts)


def test_deleted_and_purged_leads_leave_no_personal_data(client, manager, caplog):
    caplog.set_level(logging.DEBUG)
    first = make_lead(snapshot=True, **PERSON, message="请联系 erase.me@example.cn")
    second = make_lead(snapshot=True, **{**PERSON, "email": "ERASE.ME@example.cn",
                                         "wechat": ""})
    old = make_lead(snapshot=True, **PURGED)
    for lead in (first, second, old):
        report_pdf(lead, "zh-hans")  # a cached PDF carrying the customer's name
        cache.set(f"seen-{lead.pk}", {"name": lead.name})  # the worst case
    assert ReportPdf.objects.count() == 3

    login(client, manager)
    # A manager searches for the person by phone, by e-mail and by name, and exports.
    for q in ("13912345678", "erase.me@example.cn", "欧阳消除", "expired@example.cn"):
        assert client.get("/staff/leads/", {"q": q}).status_code == 200
        body = b"".join(client.get("/staff/leads/export.csv", {"q": q}).streaming_content)
        assert body  # the export itself went to the manager, not into the database
    # The duplicate is merged, then the customer asks to be deleted.
    staff_services.leads_merge(survivor=first, other=second, actor=manager)
    staff_services.lead_delete_on_request(lead=Lead.objects.get(pk=first.pk), actor=manager,
                                          reason="customer asked by phone")
    # The other lead is past its retention.
    Lead.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=800))
    call_command("purge", verbosity=0)
    for lead in (first, second, old):
        cache.delete(f"seen-{lead.pk}")  # the test's own entries; the app's must be gone

    assert not Lead.objects.filter(pk__in=[first.pk, second.pk, old.pk]).exists()
    assert ReportPdf.objects.count() == 0
    tables = _text_of_every_table()
    cache_text = _text_of_the_cache()
    for needle in NEEDLES:
        holding = [name for name, text in tables.items() if needle.lower() in text.lower()]
        assert holding == [], f"{needle!r} is still in {holding}"
        assert needle.lower() not in cache_text.lower(), f"{needle!r} is still in the cache"
        assert needle.lower() not in caplog.text.lower(), f"{needle!r} was logged"


def test_the_export_log_keeps_filters_and_report_numbers_but_no_contact_detail():
    assert staff_services.logged_filters({"q": "13912345678", "status": "new"}) == {
        "q": staff_services.SEARCH_MARK, "status": "new"}
    assert staff_services.logged_filters({"q": "erase.me@example.cn"})["q"] == \
        staff_services.SEARCH_MARK
    assert staff_services.logged_filters({"q": "欧阳消除"})["q"] == staff_services.SEARCH_MARK
    assert staff_services.logged_filters({"q": "NS-20261130-7KQ2XW"})["q"] == \
        "NS-20261130-7KQ2XW"
    assert staff_services.logged_filters({"q": "", "owner": None}) == {}


def test_a_merge_names_the_merged_lead_by_its_report_number_only(manager):
    survivor = make_lead(**PERSON)
    other = make_lead(**{**PERSON, "email": "other@example.cn"})
    staff_services.leads_merge(survivor=survivor, other=other, actor=manager)
    event = survivor.events.get(kind="merged")
    assert event.data["merged"] == {"report_number": other.report_number}
    assert "other@example.cn" not in str(event.data)
