"""The dashboard's quote figures: sent, opened, accepted and their totals in the period,
and the latest sent version's value by the lead's stage; a rep counts their own leads'
quotes only, managers all."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from selector.quotes import services
from tests.conftest import make_lead

from .conftest import login

pytestmark = pytest.mark.django_db


def _send(lead, actor, price="1000.00"):
    quote = services.quote_from_lead(lead=lead, actor=actor)
    quote = services.quote_edit(quote=quote, actor=actor, lines=[services.LineData(
        kind="service", description="安装调试", quantity=1, unit_price=Decimal(price))])
    return services.quote_send(quote=services.quote_submit(quote=quote, actor=actor),
                               actor=actor)


def figures(client, user):
    login(client, user)
    response = client.get(reverse("staff:dashboard"))
    return response.context["figures"], response


def test_the_dashboard_counts_quotes_sent_viewed_accepted(client, catalogue, sales, sales2,
                                                          manager):
    mine = _send(make_lead(gpus=64, snapshot=True, owner=sales, status="qualified"), sales)
    theirs = _send(make_lead(gpus=64, snapshot=True, owner=sales2, status="qualified"),
                   sales2, "2000.00")
    services.quote_viewed(quote=mine)
    services.quote_accept(quote=mine, name="李娜", title="", consent="yes")
    data, response = figures(client, manager)
    assert (data["sent"], data["viewed"], data["accepted"]) == (2, 1, 1)
    assert data["sent_value"] == mine.total_amount + theirs.total_amount
    assert data["accepted_value"] == mine.total_amount == Decimal("1130.00")
    proposal = next(s for s in data["stages"] if s["status"] == "proposal")
    assert (proposal["leads"], proposal["value"]) == (2, Decimal("3390.00"))
    html = response.content.decode()
    assert 'data-figure="sent">2<' in html and "¥3,390.00" in html
    data, _ = figures(client, sales)
    assert (data["sent"], data["sent_value"]) == (1, Decimal("1130.00"))


def test_only_the_latest_sent_version_counts_for_the_stage_value(client, catalogue, sales,
                                                                 manager):
    v1 = _send(make_lead(gpus=64, snapshot=True, owner=sales, status="qualified"), sales)
    v2 = services.quote_edit(quote=v1, actor=sales, lines=[services.LineData(
        kind="service", description="安装调试", quantity=2, unit_price=Decimal("1000.00"))])
    v2 = services.quote_send(quote=services.quote_submit(quote=v2, actor=sales), actor=sales)
    data, _ = figures(client, manager)
    assert data["sent"] == 2
    proposal = next(s for s in data["stages"] if s["status"] == "proposal")
    assert (proposal["leads"], proposal["value"]) == (1, v2.total_amount)
