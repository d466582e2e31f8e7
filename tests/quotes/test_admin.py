"""The company's quote rules live in the admin, with the VAT rate's source in its help; the
quotes themselves are read-only there (they change only through the workspace)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from selector.quotes.models import QuoteSettings

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x-9-long-pw"))
    return client


def test_the_vat_rate_shows_its_source(admin_client):
    html = admin_client.get("/en/admin/quotes/quotesettings/add/").content.decode()
    assert "Value-Added Tax Law of the PRC" in html and "2026-01-01" in html
    html = admin_client.get("/admin/quotes/quotesettings/add/").content.decode()
    assert "《中华人民共和国增值税法》" in html


def test_one_settings_row_and_its_defaults(admin_client):
    rules = QuoteSettings.current()
    assert rules.pk is None and rules.vat_rate == Decimal("0.1300")
    assert rules.approval_threshold == Decimal("0.00") and rules.validity_days == 30
    response = admin_client.post("/en/admin/quotes/quotesettings/add/", {
        "vat_rate": "0.1300", "approval_threshold": "12.50", "validity_days": "14",
        "terms_zh": "付款方式：合同签订后 30 日内付清。", "terms_en": ""})
    assert response.status_code == 302
    assert QuoteSettings.current().approval_threshold == Decimal("12.50")
    assert admin_client.get("/en/admin/quotes/quotesettings/add/").status_code == 403


def test_quotes_are_read_only_in_the_admin(admin_client):
    assert admin_client.get("/en/admin/quotes/quote/add/").status_code == 403
