"""Quotes: a lead with a frozen plan, the company's price list for part of it, the roles."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command

from selector.content.models import PriceList, UnitPrice
from selector.leads.snapshots import lead_recommendation
from selector.staff.permissions import MANAGERS_GROUP, SALES_GROUP
from tests.conftest import make_lead
from tests.staff.conftest import _default_language, login, make_user  # noqa: F401

__all__ = ["login", "make_user"]


@pytest.fixture
def roles(db, django_db_blocker):
    """The role groups (a data migration makes them; a transactional test flushes them)."""
    from django.apps import apps

    from selector.staff.roles import ensure_roles

    with django_db_blocker.unblock():
        ensure_roles(apps)


@pytest.fixture
def manager(roles):
    return make_user("mia", MANAGERS_GROUP)


@pytest.fixture
def sales(roles):
    return make_user("sam", SALES_GROUP)


@pytest.fixture
def sales2(roles):
    return make_user("sue", SALES_GROUP)


@pytest.fixture
def catalogue(db):
    call_command("load_content", force=True, verbosity=0)


@pytest.fixture
def owned_lead(catalogue, sales):
    """A qualified lead of 1,024 GPUs with its plan frozen, owned by ``sales``."""
    return make_lead(gpus=1024, snapshot=True, owner=sales, status="qualified")


def bom_keys(lead) -> list[str]:
    plan = lead_recommendation(lead).recommended.plan
    assert plan is not None
    return list(dict.fromkeys(line.key for line in plan.bom))


@pytest.fixture
def price_all(owned_lead):
    """A price list with every part of the lead's plan: 1,000.10 yuan more per part."""
    price_list = PriceList.objects.create(currency="CNY", as_of=datetime.date(2026, 12, 1))
    prices = {}
    for n, key in enumerate(bom_keys(owned_lead), start=1):
        prices[key] = Decimal("1000.10") * n
        UnitPrice.objects.create(price_list=price_list, item_key=key, amount=prices[key])
    return prices
