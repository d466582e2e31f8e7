"""The workspace's quote pages: who may see and change a lead's quotes (owner, managers,
approvers; not the other reps, not anonymous visitors), the editor's plain forms (no
JavaScript), the send/approve flow over HTTP, the versions with their differences."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from selector.leads.models import Lead
from selector.quotes import services
from selector.quotes.models import Quote, QuoteEvent, QuoteLine, QuoteSettings, Status

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def approver(sales2):
    sales2.user_permissions.add(Permission.objects.get(codename="approve_quote"))
    return type(sales2).objects.get(pk=sales2.pk)  # a fresh permission cache


@pytest.fixture
def quote(owned_lead, sales, price_all):
    return services.quote_from_lead(lead=owned_lead, actor=sales)


def editor(quote):
    return reverse("quotes:editor", args=[quote.public_id])


def form_data(quote, **header):
    """The editor's form as the page posts it: the saved lines, two empty rows."""
    lines = list(quote.lines.all())
    data = {"lines-TOTAL_FORMS": str(len(lines) + 2), "lines-INITIAL_FORMS": str(len(lines)),
            "lines-MIN_NUM_FORMS": "0", "lines-MAX_NUM_FORMS": "200",
            "total_discount_percent": str(quote.total_discount_percent),
            "valid_until": quote.valid_until.isoformat(), "terms": quote.terms}
    for n, line in enumerate(lines):
        data.update({f"lines-{n}-kind": line.kind, f"lines-{n}-description": line.description,
                     f"lines-{n}-quantity": str(line.quantity),
                     f"lines-{n}-unit_price": "" if line.unit_price is None
                     else str(line.unit_price),
                     f"lines-{n}-discount_percent": str(line.discount_percent),
                     f"lines-{n}-part_key": line.part_key})
    for n in (len(lines), len(lines) + 1):
        data.update({f"lines-{n}-kind": "switch", f"lines-{n}-description": "",
                     f"lines-{n}-quantity": "", f"lines-{n}-unit_price": "",
                     f"lines-{n}-discount_percent": "", f"lines-{n}-part_key": ""})
    data.update(header)
    return data


# -- the permission matrix ------------------------------------------------------------------

def test_anonymous_visitors_get_the_login_page_and_change_nothing(client, quote, owned_lead):
    for response in (client.get(editor(quote)),
                     client.post(reverse("quotes:create", args=[owned_lead.public_id])),
                     client.post(reverse("quotes:send", args=[quote.public_id])),
                     client.post(editor(quote), form_data(quote, total_discount_percent="50"))):
        assert response.status_code == 302 and "/staff/login/" in response["Location"]
    quote.refresh_from_db()
    assert quote.status == Status.DRAFT and quote.total_discount_percent == 0
    assert Quote.objects.count() == 1


def test_another_rep_sees_the_lead_but_not_its_quotes(client, quote, owned_lead, sales2):
    login(client, sales2)
    page = client.get(reverse("staff:lead_detail", args=[owned_lead.public_id]))
    assert page.status_code == 200 and 'id="quotes"' not in page.content.decode()
    assert str(quote.total_amount) not in page.content.decode()
    assert client.get(editor(quote)).status_code == 403
    assert client.post(editor(quote), form_data(
        quote, total_discount_percent="50")).status_code == 403
    assert client.post(reverse("quotes:send", args=[quote.public_id])).status_code == 403
    assert client.post(reverse("quotes:create",
                               args=[owned_lead.public_id])).status_code == 403
    quote.refresh_from_db()
    assert quote.status == Status.DRAFT and quote.total_discount_percent == 0
    assert not QuoteEvent.objects.filter(actor=sales2).exists()


def test_the_owner_makes_edits_and_sends(client, owned_lead, sales, price_all):
    login(client, sales)
    page = client.get(reverse("staff:lead_detail", args=[owned_lead.public_id])).content.decode()
    assert 'id="quote-create"' in page
    response = client.post(reverse("quotes:create", args=[owned_lead.public_id]))
    quote = Quote.objects.get(lead=owned_lead)
    assert response.status_code == 302 and response["Location"] == editor(quote)
    html = client.get(editor(quote)).content.decode()
    assert quote.number in html and f"¥{quote.total_amount:,.2f}" in html
    data = form_data(quote)
    n = quote.lines.count()
    data.update({f"lines-{n}-kind": "service", f"lines-{n}-description": "安装调试",
                 f"lines-{n}-quantity": "1", f"lines-{n}-unit_price": "8000.00",
                 f"lines-{n}-discount_percent": "0", "lines-0-DELETE": "on"})
    assert client.post(editor(quote), data).status_code == 302
    quote.refresh_from_db()
    kept = QuoteLine.objects.filter(quote=quote)
    assert kept.count() == n and kept.last().description == "安装调试"
    assert kept.last().unit_price == Decimal("8000.00") and quote.complete
    response = client.post(reverse("quotes:send", args=[quote.public_id]))
    assert response.status_code == 302
    quote.refresh_from_db()
    owned_lead.refresh_from_db()
    assert quote.status == Status.SENT
    assert (owned_lead.status, owned_lead.deal_value) == ("proposal", quote.total_amount)


def test_a_manager_sees_and_approves(client, quote, manager, sales):
    QuoteSettings.objects.create(approval_threshold=Decimal("5"))
    login(client, sales)
    client.post(editor(quote), form_data(quote, total_discount_percent="12"))
    assert client.post(reverse("quotes:send", args=[quote.public_id])).status_code == 302
    quote.refresh_from_db()
    assert quote.status == Status.PENDING_APPROVAL
    # The rep cannot approve it, nor send it.
    assert client.post(reverse("quotes:approve", args=[quote.public_id]),
                       {"decision": "approve"}).status_code == 403
    login(client, manager)
    html = client.get(editor(quote)).content.decode()
    assert 'id="quote-approve"' in html
    assert client.post(reverse("quotes:approve", args=[quote.public_id]),
                       {"decision": "approve"}).status_code == 302
    quote.refresh_from_db()
    assert (quote.status, quote.approved_by) == (Status.APPROVED, manager)
    login(client, sales)
    client.post(reverse("quotes:send", args=[quote.public_id]))
    assert Quote.objects.get(pk=quote.pk).status == Status.SENT


def test_an_approver_sees_and_approves_but_does_not_edit(client, quote, approver, sales):
    services.quote_edit(quote=quote, actor=sales, total_discount_percent=Decimal("30"))
    quote = services.quote_submit(quote=quote, actor=sales)
    login(client, approver)
    assert client.get(editor(quote)).status_code == 200
    assert client.post(editor(quote), form_data(
        quote, total_discount_percent="50")).status_code == 403
    assert client.post(reverse("quotes:approve", args=[quote.public_id]),
                       {"decision": "refuse", "note": "太低"}).status_code == 302
    quote.refresh_from_db()
    assert quote.status == Status.DRAFT and quote.total_discount_percent == Decimal("30.00")
    assert QuoteEvent.objects.get(quote=quote, kind="rejected").actor == approver


def test_sending_an_unpriced_quote_is_refused_and_says_why(client, owned_lead, sales):
    quote = services.quote_from_lead(lead=owned_lead, actor=sales)  # no price list
    login(client, sales)
    response = client.post(reverse("quotes:send", args=[quote.public_id]))
    assert response.status_code == 409
    assert "每一行都需要" in response.content.decode()
    assert Quote.objects.get(pk=quote.pk).status == Status.DRAFT
    assert Lead.objects.get(pk=owned_lead.pk).status == "qualified"


def test_an_invalid_form_changes_nothing(client, quote, sales):
    login(client, sales)
    before = list(quote.lines.values_list("quantity", "unit_price"))
    response = client.post(editor(quote), form_data(quote, **{"lines-0-quantity": "0",
                                                              "total_discount_percent": "101"}))
    assert response.status_code == 400
    assert list(quote.lines.values_list("quantity", "unit_price")) == before
    assert Quote.objects.get(pk=quote.pk).total_discount_percent == 0


def test_saving_a_sent_version_makes_the_next_one_and_the_lead_lists_both(client, quote, sales,
                                                                          owned_lead):
    login(client, sales)
    client.post(reverse("quotes:send", args=[quote.public_id]))
    sent_total = Quote.objects.get(pk=quote.pk).total_amount
    quote.refresh_from_db()
    response = client.post(editor(quote), form_data(quote, total_discount_percent="2"))
    v2 = Quote.objects.get(lead=owned_lead, version=2)
    assert response["Location"] == editor(v2)
    quote.refresh_from_db()
    assert quote.status == Status.SENT and quote.total_amount == sent_total
    assert quote.total_discount_percent == 0 and v2.total_discount_percent == Decimal("2.00")
    page = client.get(reverse("staff:lead_detail", args=[owned_lead.public_id])).content.decode()
    assert "V1" in page and "V2" in page
    delta = v2.total_amount - sent_total
    assert f"−¥{-delta:,.2f}" in page and "整单折扣 0.00% → 2.00%" in page


def test_the_validity_date_is_drawn_in_iso_for_the_date_input(client, quote, sales):
    """<input type="date"> takes only YYYY-MM-DD: a localised date left it empty, and the
    browser then refused to submit the editor."""
    login(client, sales)
    html = client.get(editor(quote)).content.decode()
    assert f'type="date" name="valid_until" value="{quote.valid_until.isoformat()}"' in html


def test_a_sent_version_points_to_the_version_in_preparation(client, quote, sales,
                                                             owned_lead):
    login(client, sales)
    client.post(reverse("quotes:send", args=[quote.public_id]))
    quote.refresh_from_db()
    client.post(editor(quote), form_data(quote, total_discount_percent="2"))
    v2 = Quote.objects.get(lead=owned_lead, version=2)
    html = client.get(editor(quote)).content.decode()
    assert 'id="quote-form"' not in html and editor(v2) in html
    # A stale form of V1 posted anyway lands in V2 without making a V3.
    client.post(editor(quote), form_data(quote, total_discount_percent="4"))
    assert Quote.objects.filter(lead=owned_lead).count() == 2
