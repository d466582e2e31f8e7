"""Cost is company data: without prices every page says "price on request"; with a price
list the plan shows an indicative CAPEX per fabric and the RoCE/InfiniBand ratio; example
prices say they are examples."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.management import call_command

from selector.content.examples import load_example_prices
from selector.content.models import PriceList, UnitPrice
from selector.core.sharing import share_token
from selector.domain import Answers
from selector.planner.services import fresh

pytestmark = pytest.mark.django_db
QUERY = {"gpus": 1024, "workload": "training", "budget": "balanced", "determinism": "standard"}


def test_without_prices_it_is_price_on_request(client, content):
    body = client.get("/api/recommend", QUERY).json()
    assert body["fabric"]["cost"] is None and body["runner_up_fabric"]["cost"] is None
    html = client.get(f"/wizard/r/{share_token(Answers(1024))}/").content.decode()
    assert "价格请咨询" in html
    html = client.get(f"/en/wizard/r/{share_token(Answers(1024))}/").content.decode()
    assert "Price on request" in html


def test_a_price_list_gives_a_capex_estimate_and_the_ratio(client, content):
    load_example_prices()
    rec = fresh(Answers(1024))
    roce, ib = rec.recommended.plan, rec.runner_up.plan
    prices = {u.item_key: u.amount for u in UnitPrice.objects.all()}
    expected = sum(prices[line.key] * line.count for line in roce.bom)
    assert roce.cost.complete and roce.cost.amount == expected
    assert roce.cost.is_example and roce.cost.currency == "CNY"
    assert rec.cost_ratio() == (roce.cost.amount / ib.cost.amount).quantize(Decimal("0.01"))
    body = client.get("/api/recommend", QUERY).json()
    assert Decimal(body["fabric"]["cost"]["amount"]) == expected
    assert body["fabric"]["cost"]["is_example"] is True
    html = client.get(f"/en/wizard/r/{share_token(Answers(1024))}/").content.decode()
    assert f"¥{expected:,.0f}" in html
    assert "Example prices for demonstration, not a quote." in html
    assert "RoCE costs" in html and "InfiniBand at these prices (indicative)" in html


def test_a_missing_unit_price_means_price_on_request(content):
    load_example_prices()
    UnitPrice.objects.filter(item_key="nvidia-sn5600").delete()
    rec = fresh(Answers(1024))
    cost = rec.recommended.plan.cost
    assert not cost.complete and "nvidia-sn5600" in cost.missing
    assert rec.cost_ratio() is None


def test_seed_demo_loads_example_prices_marked_as_examples(content):
    call_command("seed_demo", leads=0, example_prices=True, verbosity=0)
    price_list = PriceList.objects.get()
    assert price_list.is_example and "示例" in price_list.note_zh
    assert PriceList.current().is_example
