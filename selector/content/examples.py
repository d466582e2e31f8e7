"""Example unit prices for demonstrations (``manage.py seed_demo --example-prices``).

These are NOT prices: the company enters its own in the admin (Price lists). The list is
marked ``is_example``, so every page that shows a cost estimate says it is an example.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import transaction

from selector.content.models import Part, PriceList, Switch, UnitPrice

# Round illustrative figures in CNY, by kind, never presented as real prices.
EXAMPLE_SWITCH = {"ethernet": Decimal("400000"), "infiniband": Decimal("500000")}
EXAMPLE_PART = {"module": Decimal("6000"), "cable": Decimal("300")}


@transaction.atomic
def load_example_prices(today: date | None = None) -> PriceList:
    """An active example price list covering every catalogue row (replaces an older example
    list; a real price list, if any, is left alone and stays first when it is newer)."""
    PriceList.objects.filter(is_example=True).delete()
    price_list = PriceList.objects.create(
        currency="CNY", as_of=today or date.today(), is_example=True,
        note_zh="示例价格，仅用于演示，不构成报价。",
        note_en="Example prices for demonstration only; not a quote.",
    )
    rows = [UnitPrice(price_list=price_list, item_key=s.key,
                      amount=EXAMPLE_SWITCH.get(s.technology, Decimal("400000")))
            for s in Switch.objects.all()]
    rows += [UnitPrice(price_list=price_list, item_key=p.key, amount=EXAMPLE_PART[p.kind])
             for p in Part.objects.all()]
    UnitPrice.objects.bulk_create(rows)
    return price_list
