"""Concurrent submits for one wizard session make exactly one lead (real PostgreSQL row
locks and unique constraint), after pretix's concurrency tests.

No hook in the production code widens the race window: the test holds a SHARE lock on
the leads table, which lets every racer read but stops each one at its INSERT, so all of
them are inside lead_create at once. pg_stat_activity then shows where each one waits:
with the wizard session's row lock, one racer waits at the INSERT and the others at the
row lock. The control runs do the same check-then-insert without that lock and show the
race is real (every racer reaches the INSERT; the unique constraint refuses all but one,
and without the constraint duplicates are made), so the guarded tests can fail."""

import threading
import time

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, connections, transaction
from django.test import Client

from selector.domain import Answers
from selector.leads import services
from selector.leads.models import Lead
from tests.conftest import make_lead

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


def _lock_waits() -> dict[str, int]:
    """The other sessions of this database waiting for a lock, by what they wait for
    ("relation": a table lock, here the INSERT; "tuple"/"transactionid": a row lock)."""
    with connection.cursor() as cursor:
        # Inside a transaction PostgreSQL keeps the first view of pg_stat_activity.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT wait_event, count(*) FROM pg_stat_activity WHERE datname = "
            "current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' "
            "GROUP BY wait_event")
        return dict(cursor.fetchall())


def _race(target, n=THREADS):
    """Run ``target(i)`` in n threads, each with its own database connection, while this
    connection holds a SHARE lock on the leads table: reads go on, every INSERT waits.
    Once all n racers wait for a lock, the lock goes. Returns (results, errors, waits):
    ``waits`` is what the racers waited for at that moment (see _lock_waits)."""
    results, errors = [None] * n, []

    def run(i):
        try:
            results[i] = target(i)
        except Exception as exc:  # collected and asserted by the caller
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    table = connection.ops.quote_name(Lead._meta.db_table)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {table} IN SHARE MODE")
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while sum((waits := _lock_waits()).values()) < n:
            if time.monotonic() > deadline or errors:
                break
            time.sleep(0.02)
    for t in threads:
        t.join(timeout=60)
    return results, errors, waits


def _create(ws):
    return services.lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS),
                                contact=CONTACT, language="zh-hans")


def _unguarded_insert(ws):
    """lead_create's check-then-insert without its row lock (the control)."""
    with transaction.atomic():
        if Lead.objects.filter(wizard_session_id=ws.pk).exists():
            return False
        make_lead(wizard_session_id=ws.pk)
        return True


def test_concurrent_service_calls_make_exactly_one_lead():
    ws = make_session()
    results, errors, waits = _race(lambda i: _create(ws))
    assert errors == []
    # All six were inside lead_create at once; the session's row lock held five back.
    assert waits.get("relation") == 1
    assert waits.get("tuple", 0) + waits.get("transactionid", 0) == THREADS - 1
    assert Lead.objects.filter(wizard_session=ws).count() == 1
    assert sum(created for _, created in results) == 1
    assert len({lead.pk for lead, _ in results}) == 1


def test_concurrent_posts_of_the_form_make_exactly_one_lead(settings):
    settings.LEAD_RATE_LIMIT = 0
    ws = make_session()
    browser = Client()
    attach(browser, ws)
    cookies = browser.cookies

    def post(i):
        tab = Client()
        tab.cookies = cookies  # same browser, several tabs / a double click
        return tab.post("/contact/", contact_data(tab, name=f"Tab {i}")).status_code

    results, errors, waits = _race(post)
    assert errors == []
    assert waits.get("relation") == 1
    assert results == [302] * THREADS
    assert Lead.objects.count() == 1


def test_control_without_the_lock_the_unique_constraint_still_fires():
    """No row lock, constraint on: the racers all pass the check and collide in the
    INSERT, so without lead_create's lock and IntegrityError fallback the visitors would
    see errors."""
    ws = make_session()
    results, errors, waits = _race(lambda i: _unguarded_insert(ws))
    assert waits == {"relation": THREADS}  # every racer passed the check
    assert errors and all(isinstance(e, IntegrityError) for e in errors)
    assert Lead.objects.count() == 1


def _unique_constraint_name() -> str:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Lead._meta.db_table)
    return next(name for name, c in constraints.items()
                if c["columns"] == ["wizard_session_id"] and c["unique"] and not c["primary_key"]
                and not c["index"])


def test_control_without_lock_and_constraint_duplicates_happen():
    """No row lock, on a table without the unique constraint: the race makes duplicates.
    This is what the guarded tests above prove cannot happen."""
    table = connection.ops.quote_name(Lead._meta.db_table)
    name = _unique_constraint_name()
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {connection.ops.quote_name(name)}")
    try:
        ws = make_session()
        results, errors, waits = _race(lambda i: _unguarded_insert(ws))
        assert waits == {"relation": THREADS}
        assert errors == []
        assert results == [True] * THREADS
        assert Lead.objects.filter(wizard_session=ws).count() == THREADS
    finally:
        Lead.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT "
                           f"{connection.ops.quote_name(name)} UNIQUE (wizard_session_id)")
    assert _unique_constraint_name() == name
