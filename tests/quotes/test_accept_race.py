"""Two submits of "accept" at the same moment (a double click, two tabs) record one
acceptance: real PostgreSQL row locks, two threads with their own connections.

The test holds the quote's row lock itself while both racers start, so both are inside
quote_accept at once and wait for that lock (pg_stat_activity shows them waiting); then it
lets go. The guarded service reads the quote under its own lock, so the second racer finds
it accepted and writes nothing. The control run shows the race is real: without the lock
(reading the status first, as a naive service would) both racers write."""

from __future__ import annotations

import threading
import time
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction

from selector.leads.models import LeadEvent
from selector.quotes import services
from selector.quotes.models import Quote, QuoteEvent, Status
from selector.quotes.services import QuoteError
from tests.conftest import make_lead

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL row locks and concurrent connections"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def sent(roles, sales):
    call_command("load_content", force=True, verbosity=0)
    lead = make_lead(gpus=64, snapshot=True, owner=sales, status="qualified")
    quote = services.quote_from_lead(lead=lead, actor=sales)
    quote = services.quote_edit(quote=quote, actor=sales, lines=[services.LineData(
        kind="service", description="安装调试", quantity=1, unit_price=Decimal("100.00"))])
    quote = services.quote_submit(quote=quote, actor=sales)
    return services.quote_send(quote=quote, actor=sales)


def _lock_waits() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                       "current_database() AND pid <> pg_backend_pid() AND "
                       "wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


def _race(quote, target, n=2):
    """``target(i)`` in n threads while this connection holds the quote's row lock; once
    all n wait for a lock, it goes."""
    errors: list[Exception] = []

    def run(i):
        try:
            target(i)
        except Exception as exc:  # collected for the caller
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    with transaction.atomic():
        Quote.objects.select_for_update().get(pk=quote.pk)
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while _lock_waits() < n:
            assert time.monotonic() < deadline and not errors, errors
            time.sleep(0.02)
    for t in threads:
        t.join(60)
    return errors


def test_a_double_accept_records_one_acceptance(sent):
    errors = _race(sent, lambda i: services.quote_accept(
        quote=Quote.objects.get(pk=sent.pk), name=f"李娜{i}", title="采购经理",
        consent="我接受", ip=f"203.0.113.{i + 1}"))
    assert errors == []
    quote = Quote.objects.get(pk=sent.pk)
    assert quote.status == Status.ACCEPTED
    assert QuoteEvent.objects.filter(quote=sent, kind="accepted").count() == 1
    event = QuoteEvent.objects.get(quote=sent, kind="accepted")
    assert (event.data["name"], event.ip) == (quote.accepted_name, quote.accepted_ip)
    assert LeadEvent.objects.filter(lead=sent.lead, data__outcome="accepted").count() == 1


def test_control_without_the_lock_both_racers_write(sent):
    """The same two submits through a check-then-write without the row lock: both see
    "sent", both write (the race the lock closes)."""

    def naive(i):
        quote = Quote.objects.get(pk=sent.pk)
        if quote.status != Status.SENT:
            raise QuoteError(quote.status)
        with transaction.atomic():
            Quote.objects.filter(pk=sent.pk).update(status=Status.ACCEPTED,
                                                    accepted_name=f"李娜{i}")
            QuoteEvent.objects.create(quote=quote, kind="accepted", data={"name": i})

    assert _race(sent, naive) == []
    assert QuoteEvent.objects.filter(quote=sent, kind="accepted").count() == 2
