"""The customer's side: a signed, expiring link to one sent version showing that quote and
nothing else of the lead; accept (name, title, consent, time, IP; once) or ask for changes
(a message to the owner); opening the link is counted. Tampered, foreign and expired links
give nothing away."""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal

import pytest
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from selector.core.sharing import share_token
from selector.domain import Answers
from selector.leads.models import LeadEvent
from selector.quotes import services
from selector.quotes.links import SALT, quote_token
from selector.quotes.models import Quote, QuoteEvent, Status

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(owned_lead, sales, price_all):
    quote = services.quote_from_lead(lead=owned_lead, actor=sales)
    quote = services.quote_edit(quote=quote, actor=sales, terms="付款：合同签订后 30 日内。")
    return services.quote_send(quote=services.quote_submit(quote=quote, actor=sales),
                               actor=sales)


def sign(data, salt=SALT):
    return signing.Signer(salt=salt).sign_object(data)


def page(quote, language="zh-hans"):
    prefix = "/en" if language == "en" else ""
    return f"{prefix}/quote/{quote_token(quote)}/"


def test_the_page_shows_the_quote_and_nothing_else_of_the_lead(client, sent, owned_lead):
    type(owned_lead).objects.filter(pk=owned_lead.pk).update(message="机房在深圳南山")
    owned_lead.refresh_from_db()
    response = client.get(page(sent), REMOTE_ADDR="203.0.113.9")
    assert response["Referrer-Policy"] == "same-origin"  # the token goes to no other site
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    body = response.content.decode()
    assert sent.number in body and f"¥{sent.total_amount:,.2f}" in body
    assert "付款：合同签订后 30 日内。" in body and owned_lead.company in body
    assert "增值税（税率 13%）" in body  # the rate as an invoice prints it, not "0.13"
    for private in (owned_lead.name, owned_lead.phone, owned_lead.email, owned_lead.role,
                    owned_lead.message, str(owned_lead.public_id),
                    share_token(Answers.from_dict(owned_lead.answers)), "sam"):
        assert private not in body, private
    english = client.get(page(sent, "en")).content.decode()
    assert "Accept this quote" in english and "Total with VAT" in english


def test_opening_the_link_is_counted_and_audited(client, sent):
    client.get(page(sent), REMOTE_ADDR="203.0.113.9")
    client.get(page(sent), REMOTE_ADDR="198.51.100.7")
    sent.refresh_from_db()
    assert sent.view_count == 2 and sent.first_viewed_at < sent.last_viewed_at
    assert list(QuoteEvent.objects.filter(quote=sent, kind="viewed").values_list(
        "ip", flat=True).order_by("pk")) == ["203.0.113.9", "198.51.100.7"]


def test_the_json_ld_offer_carries_the_total_and_its_validity(client, sent):
    body = client.get(page(sent)).content.decode()
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', body,
                                re.S).group(1))
    assert data["@type"] == "Offer" and data["priceCurrency"] == "CNY"
    assert Decimal(data["price"]) == sent.total_amount
    assert data["priceValidUntil"] == sent.valid_until.isoformat()
    assert [(s["valueAddedTaxIncluded"], Decimal(s["price"]))
            for s in data["priceSpecification"][:2]] == [(False, sent.net_amount),
                                                         (True, sent.total_amount)]
    assert len(data["itemOffered"]) == sent.lines.count()


def test_a_tampered_link_is_a_404_and_counts_nothing(client, sent):
    token = quote_token(sent)
    tampered = token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]
    for bad in (tampered, token[:-5], "x" * 400, "not-a-token"):
        assert client.get(f"/quote/{bad}/").status_code == 404
    # A well-signed token naming another version, or made with another salt.
    other = sign({"q": sent.public_id.hex, "v": 2, "e": "2099-01-01"})
    assert client.get(f"/quote/{other}/").status_code == 404
    forged = sign({"q": sent.public_id.hex, "v": 1, "e": "2099-01-01"},
                           salt="selector.wizard.share.v1")
    assert client.get(f"/quote/{forged}/").status_code == 404
    sent.refresh_from_db()
    assert sent.view_count == 0


def test_a_draft_has_no_customer_page(client, owned_lead, sales, price_all):
    draft = services.quote_from_lead(lead=owned_lead, actor=sales)
    assert client.get(page(draft)).status_code == 404


def test_an_expired_link_shows_nothing_of_the_quote(client, sent):
    assert client.get(page(sent)).status_code == 200
    # The link carries the quote's last valid day, signed: a day later it shows nothing.
    expired = sign({"q": sent.public_id.hex, "v": 1,
                             "e": (timezone.localdate() - datetime.timedelta(days=1))
                             .isoformat()})
    response = client.get(f"/quote/{expired}/")
    body = response.content.decode()
    assert response.status_code == 410 and "已过期" in body
    assert f"{sent.total_amount:,.2f}" not in body and sent.number not in body
    assert client.post(f"/quote/{expired}/accept/", {"name": "李娜", "consent": "on"}
                       ).status_code == 410
    sent.refresh_from_db()
    assert sent.status == Status.SENT and sent.view_count == 1


def test_the_customer_accepts_and_it_is_recorded_once(client, sent, owned_lead,
                                                      django_capture_on_commit_callbacks):
    url = page(sent) + "accept/"
    form = {"name": "李娜", "title": "采购经理", "consent": "on"}
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, form, REMOTE_ADDR="203.0.113.9")
        second = client.post(url, form, REMOTE_ADDR="203.0.113.9")
    assert first.status_code == second.status_code == 302
    sent.refresh_from_db()
    assert (sent.status, sent.accepted_name, sent.accepted_title, sent.accepted_ip) == (
        Status.ACCEPTED, "李娜", "采购经理", "203.0.113.9")
    assert "我代表公司接受本报价" in sent.accepted_consent
    assert abs(sent.accepted_at - timezone.now()) < datetime.timedelta(minutes=1)
    assert QuoteEvent.objects.filter(quote=sent, kind="accepted").count() == 1
    assert LeadEvent.objects.filter(lead=owned_lead, data__outcome="accepted").count() == 1
    assert [m.to for m in mail.outbox] == [[owned_lead.owner.email]]
    assert "李娜" in mail.outbox[0].body
    body = client.get(page(sent)).content.decode()
    assert "李娜" in body and 'id="accept-form"' not in body


def test_acceptance_needs_a_name_and_the_consent(client, sent):
    response = client.post(page(sent) + "accept/", {"name": "李娜", "title": ""})
    assert response.status_code == 400
    assert client.post(page(sent) + "accept/", {"name": "", "consent": "on"}
                       ).status_code == 400
    sent.refresh_from_db()
    assert sent.status == Status.SENT and not sent.accepted_name


def test_asking_for_changes_reaches_the_owner(client, sent, owned_lead,
                                              django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page(sent) + "changes/",
                               {"name": "李娜", "message": "请把光模块改为 800G"})
    assert response.status_code == 302
    sent.refresh_from_db()
    assert sent.status == Status.CHANGES_REQUESTED
    assert QuoteEvent.objects.get(quote=sent, kind="changes_requested").data["message"] == (
        "请把光模块改为 800G")
    assert "请把光模块改为 800G" in mail.outbox[-1].body
    assert mail.outbox[-1].to == [owned_lead.owner.email]
    assert client.post(page(sent) + "accept/", {"name": "李娜", "consent": "on"}
                       ).status_code == 409


def test_an_older_version_points_to_the_newest_and_cannot_be_accepted(client, sent, sales):
    v2 = services.quote_edit(quote=sent, actor=sales, total_discount_percent=Decimal("0"))
    v2 = services.quote_send(quote=services.quote_submit(quote=v2, actor=sales), actor=sales)
    body = client.get(page(sent)).content.decode()
    assert reverse("quotes:customer", args=[quote_token(v2)]) in body
    response = client.post(page(sent) + "accept/", {"name": "李娜", "consent": "on"})
    assert response.status_code == 409
    assert not Quote.objects.filter(status=Status.ACCEPTED).exists()


def test_the_first_opening_tells_the_owner_once(client, sent, owned_lead,
                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        client.get(page(sent))
        client.get(page(sent))
    assert len(mail.outbox) == 1 and sent.number in mail.outbox[0].subject


def test_the_rep_sees_the_link_and_the_views(client, sent, sales):
    from .conftest import login

    client.get(page(sent))
    login(client, sales)
    body = client.get(reverse("quotes:editor", args=[sent.public_id])).content.decode()
    assert quote_token(sent) in body and "已打开 1 次" in body


@pytest.mark.parametrize("action, form", [
    ("accept/", {"name": "李娜", "title": "采购经理", "consent": "on"}),
    ("changes/", {"name": "李娜", "message": "请把交换机数量改为 20 台"}),
])
def test_the_customer_forms_need_the_pages_csrf_token(sent, action, form):
    """A third-party page cannot make a visitor's browser accept a quote (or send a
    message) with the link it learnt: the forms carry the page's CSRF token; without it
    the post is refused and nothing is recorded. With the token the page gave, it works."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    url = page(sent) + action
    refused = browser.post(url, form)
    assert refused.status_code == 403
    sent.refresh_from_db()
    assert sent.status == Status.SENT and not sent.accepted_name
    assert not QuoteEvent.objects.filter(quote=sent, kind__in=["accepted",
                                                               "changes_requested"]).exists()
    body = browser.get(page(sent)).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    accepted = browser.post(url, {**form, "csrfmiddlewaretoken": token})
    assert accepted.status_code == 302
    assert QuoteEvent.objects.filter(quote=sent, kind__in=["accepted",
                                                           "changes_requested"]).count() == 1
