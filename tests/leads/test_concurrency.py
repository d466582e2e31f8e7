"""Concurrent submits for one wizard session make exactly one lead (real PostgreSQL row
locks and unique constraint), plus control runs with the guard disabled that show the race
is real, so this test can fail (after pretix's concurrency tests)."""

import threading

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, connections
from django.test import Client

from selector.domain import Answers
from selector.leads import services
from selector.leads.models import Lead

from .conftest import ANSWERS, attach, contact_data, make_session

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL row locks and concurrent connections "
                              "(SQLite serialises writers); CI runs these on PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]
THREADS = 6
CONTACT = {k: v for k, v in contact_data(phone="+8613812345678").items()
           if k not in {"consent", "website", "started"}}


@pytest.fixture(autouse=True)
def _content():
    call_command("load_content", force=True, verbosity=0)


def _race(target, n=THREADS):
    """Run ``target(i)`` in n threads, each with its own database connection, released
    together; returns (results, errors)."""
    start = threading.Barrier(n)
    results, errors = [None] * n, []

    def run(i):
        try:
            start.wait(timeout=10)
            results[i] = target(i)
        except Exception as exc:  # collected and asserted by the caller
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results, errors


def _create(ws, **kwargs):
    return services.lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS),
                                contact=CONTACT, language="zh-hans", **kwargs)


def _widen_window(monkeypatch, seconds=0.3):
    """Sleep between "is there a lead?" and the INSERT, so every racer is inside the window
    at once unless something serialises them."""
    import time

    monkeypatch.setattr(services, "_before_insert_hook", lambda: time.sleep(seconds))


def test_concurrent_service_calls_make_exactly_one_lead(monkeypatch):
    ws = make_session()
    _widen_window(monkeypatch)
    results, errors = _race(lambda i: _create(ws))
    assert errors == []
    assert Lead.objects.filter(wizard_session=ws).count() == 1
    assert sum(created for _, created in results) == 1
    assert len({lead.pk for lead, _ in results}) == 1


def test_concurrent_posts_of_the_form_make_exactly_one_lead(monkeypatch, settings):
    settings.LEAD_RATE_LIMIT = 0
    ws = make_session()
    _widen_window(monkeypatch)
    browser = Client()
    attach(browser, ws)
    cookies = browser.cookies

    def post(i):
        tab = Client()
        tab.cookies = cookies  # same browser, several tabs / a double click
        return tab.post("/contact/", contact_data(tab, name=f"Tab {i}")).status_code

    results, errors = _race(post)
    assert errors == []
    assert results == [302] * THREADS
    assert Lead.objects.count() == 1


def test_control_without_the_lock_the_unique_constraint_still_fires(monkeypatch):
    """Guard off, constraint on: the racers all pass the check and collide in the INSERT,
    so without the IntegrityError fallback the visitors would see errors."""
    ws = make_session()
    _widen_window(monkeypatch)
    results, errors = _race(lambda i: _create(ws, _guard=False))
    assert errors and all(isinstance(e, IntegrityError) for e in errors)
    assert Lead.objects.count() == 1


def _unique_constraint_name() -> str:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Lead._meta.db_table)
    return next(name for name, c in constraints.items()
                if c["columns"] == ["wizard_session_id"] and c["unique"] and not c["primary_key"]
                and not c["index"])


def test_control_without_lock_and_constraint_duplicates_happen(monkeypatch):
    """Guard off on a table without the unique constraint: the race makes duplicates. This
    is what the guarded tests above prove cannot happen."""
    table = connection.ops.quote_name(Lead._meta.db_table)
    name = _unique_constraint_name()
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {connection.ops.quote_name(name)}")
    try:
        ws = make_session()
        _widen_window(monkeypatch)
        results, errors = _race(lambda i: _create(ws, _guard=False))
        assert errors == []
        assert Lead.objects.filter(wizard_session=ws).count() == THREADS
    finally:
        Lead.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT "
                           f"{connection.ops.quote_name(name)} UNIQUE (wizard_session_id)")
    assert _unique_constraint_name() == name
