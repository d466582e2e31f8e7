"""From plan to quote, in Chromium against the real services: a qualified lead -> the rep
makes a quote from its plan and gives 10 % off -> the discount is above the company's 5 %
threshold, so the quote waits -> the manager approves -> the rep sends it -> the customer
opens the link on a phone and accepts -> the rep marks the lead won at the accepted total
-> the dashboard counts the quote sent, opened and accepted, its value at "won".
Screenshots of the editor (1280 and 390 px) and the customer's page go to
artifacts/quotes/."""

import datetime as dt
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from selector.content.models import PriceList, UnitPrice
from selector.leads.models import Lead
from selector.leads.snapshots import lead_recommendation
from selector.quotes.models import Quote, QuoteSettings, Status
from selector.staff.permissions import MANAGERS_GROUP, SALES_GROUP
from selector.staff.roles import ensure_roles
from tests.conftest import make_lead

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery-9"


def _login(page, username):
    page.goto("/staff/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click(".staff-login button[type=submit]")
    page.wait_for_url("**/staff/")


@pytest.fixture
def world():
    ensure_roles(apps)
    call_command("load_content", force=True, verbosity=0)
    for name, group in (("wang", SALES_GROUP), ("mia", MANAGERS_GROUP)):
        user = User.objects.create_user(name, f"{name}@example.cn", PASSWORD)
        user.groups.add(Group.objects.get(name=group))
    lead = make_lead(gpus=512, snapshot=True, owner=User.objects.get(username="wang"),
                     status="qualified")
    plan = lead_recommendation(lead).recommended.plan
    price_list = PriceList.objects.create(currency="CNY", as_of=dt.date(2026, 12, 1))
    for n, key in enumerate(dict.fromkeys(line.key for line in plan.bom), start=1):
        UnitPrice.objects.create(price_list=price_list, item_key=key,
                                 amount=Decimal("1999.90") * n)
    QuoteSettings.objects.create(approval_threshold=Decimal("5"))
    return lead


def test_plan_to_accepted_quote(new_page, world, artifacts_dir):
    shots = artifacts_dir("quotes")
    lead = world
    rep = new_page()
    _login(rep, "wang")
    rep.goto(f"/staff/leads/{lead.public_id}/")
    rep.click("#quote-create")
    rep.wait_for_url("**/staff/quotes/**")
    quote = Quote.objects.get(lead=lead)
    assert quote.complete and quote.lines.count() >= 3
    rep.fill("#quote-form input[name=total_discount_percent]", "10")
    assert rep.evaluate("document.querySelector('#quote-form').checkValidity()")
    rep.click("#quote-save")
    rep.wait_for_selector(".staff-messages")
    rep.screenshot(path=str(shots / "editor-1280.png"), full_page=True)
    rep.click("#quote-send")
    rep.wait_for_selector(".quote-pending")
    quote.refresh_from_db()
    assert quote.status == Status.PENDING_APPROVAL and quote.discount_percent == 10

    phone_rep = new_page(width=390, height=844)
    _login(phone_rep, "wang")
    phone_rep.goto(f"/staff/quotes/{quote.public_id}/")
    phone_rep.screenshot(path=str(shots / "editor-390.png"), full_page=True)
    assert phone_rep.evaluate("document.documentElement.scrollWidth") <= 390

    boss = new_page()
    _login(boss, "mia")
    boss.goto(f"/staff/quotes/{quote.public_id}/")
    boss.click("#quote-approve")
    boss.wait_for_selector(".staff-messages")
    quote.refresh_from_db()
    assert quote.status == Status.APPROVED and quote.approved_by.username == "mia"

    rep.goto(f"/staff/quotes/{quote.public_id}/")
    rep.click("#quote-send")
    rep.wait_for_selector("#customer-link")
    link = rep.input_value("#customer-link")
    quote.refresh_from_db()
    assert quote.status == Status.SENT
    lead.refresh_from_db()
    assert (lead.status, lead.deal_value) == ("proposal", quote.total_amount)

    customer = new_page(width=390, height=844)
    customer.goto(urlsplit(link).path)
    assert customer.text_content("[data-testid=quote-total]") == f"¥{quote.total_amount:,.2f}"
    customer.screenshot(path=str(shots / "customer-390.png"), full_page=True)
    assert customer.evaluate("document.documentElement.scrollWidth") <= 390
    customer.fill("#accept-form input[name=name]", "李娜")
    customer.fill("#accept-form input[name=title]", "采购经理")
    customer.check("#accept-form input[name=consent]")
    customer.click("[data-testid=quote-accept]")
    customer.wait_for_selector("[data-testid=quote-accepted]")
    customer.screenshot(path=str(shots / "customer-accepted-390.png"), full_page=True)
    quote.refresh_from_db()
    assert quote.status == Status.ACCEPTED and quote.accepted_name == "李娜"
    assert quote.view_count >= 1

    rep.goto(f"/staff/leads/{lead.public_id}/")
    rep.click("#quote-won")
    rep.wait_for_selector(".status-won")
    lead = Lead.objects.get(pk=lead.pk)
    assert (lead.status, lead.deal_value) == ("won", quote.total_amount)
    rep.goto("/staff/dashboard/")
    assert rep.text_content("[data-figure=sent]") == "1"
    assert rep.text_content("[data-figure=viewed]") == "1"
    assert rep.text_content("[data-figure=accepted]") == "1"
    assert rep.text_content("[data-stage=won]") == f"¥{quote.total_amount:,.2f}"
