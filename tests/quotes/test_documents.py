"""The quote as a PDF (tagged PDF/A-3u carrying its Offer JSON-LD, both languages) and as
an XLSX for the ERP (amounts as numbers to the fen, texts never formulas)."""

from __future__ import annotations

import json
from decimal import Decimal
from io import BytesIO

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from selector.quotes import services
from selector.quotes.links import quote_token
from selector.quotes.models import LineKind
from selector.quotes.services import LineData

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(owned_lead, sales, manager, price_all):
    quote = services.quote_from_lead(lead=owned_lead, actor=sales)
    lines = [services._line_data(ln) for ln in quote.lines.all()]
    lines.append(LineData(kind=LineKind.SERVICE, description="=HYPERLINK(\"http://x\")",
                          quantity=1, unit_price=Decimal("0.05"),
                          discount_percent=Decimal("50")))
    quote = services.quote_edit(quote=quote, actor=sales, lines=lines,
                                total_discount_percent=Decimal("3"),
                                terms="付款：合同签订后 30 日内。")
    quote = services.quote_submit(quote=quote, actor=sales)  # the discounts need approval
    quote = services.quote_approve(quote=quote, actor=manager)
    return services.quote_send(quote=quote, actor=sales)


def text_of(pdf: bytes) -> str:
    reader = PdfReader(BytesIO(pdf))
    return "".join("".join(page.extract_text().split()) for page in reader.pages)


@pytest.mark.parametrize("language,words", [("zh-hans", ["报价单", "价税合计", "有效期至"]),
                                            ("en", ["Quotation", "Totalwith", "Validuntil"])])
def test_the_pdf_in_both_languages_is_tagged_pdfa_with_its_offer(client, sent, sales,
                                                                 language, words):
    login(client, sales)
    response = client.get(reverse("quotes:pdf", args=[sent.public_id]) + f"?lang={language}")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = text_of(response.content)
    for word in [sent.number, f"¥{sent.total_amount:,.2f}", *words]:
        assert word in text, word
    reader = PdfReader(BytesIO(response.content))
    catalog = reader.trailer["/Root"]
    assert "/StructTreeRoot" in catalog  # tagged
    xmp = catalog["/Metadata"].get_object().get_data().decode()
    assert 'pdfaid:part="3"' in xmp
    offer = json.loads(reader.attachments["quote.jsonld"][0])
    assert offer["@type"] == "Offer" and Decimal(offer["price"]) == sent.total_amount
    assert offer["priceValidUntil"] == sent.valid_until.isoformat()
    assert [item.get_object()["/AFRelationship"] for item in catalog["/AF"]] == ["/Data"]


def test_the_customer_gets_the_same_pdf_and_an_unknown_language_is_a_404(client, sent):
    url = f"/quote/{quote_token(sent)}/pdf/"
    response = client.get(url)
    assert response.status_code == 200 and sent.number in text_of(response.content)
    assert client.get(url + "?lang=fr").status_code == 404


def test_other_reps_get_no_pdf_or_xlsx(client, sent, sales2):
    login(client, sales2)
    assert client.get(reverse("quotes:pdf", args=[sent.public_id])).status_code == 403
    assert client.get(reverse("quotes:xlsx", args=[sent.public_id])).status_code == 403


def test_the_xlsx_has_the_lines_and_totals_as_numbers_and_no_formula(client, sent, sales):
    login(client, sales)
    response = client.get(reverse("quotes:xlsx", args=[sent.public_id]))
    assert response.status_code == 200
    sheet = load_workbook(BytesIO(response.content)).active
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    header = rows.index(["#", "类别", "料号", "描述", "数量", "不含税单价", "折扣（%）",
                         "不含税金额"])
    lines = list(sent.lines.all())
    body = rows[header + 1: header + 1 + len(lines)]
    totals = sent.totals(lines)
    assert [(r[4], Decimal(str(r[7]))) for r in body] == [
        (ln.quantity, a.net_amount) for ln, a in zip(lines, totals.lines, strict=True)]
    assert body[-1][3] == '=HYPERLINK("http://x")'  # text, not a formula
    cell = sheet.cell(row=header + 1 + len(lines), column=4)
    assert cell.data_type == "s" and cell.quotePrefix
    assert Decimal(str(body[-1][7])) == Decimal("0.03")  # 0.05 x 50 % = 0.025 -> 0.03
    last = rows[-1]
    assert last[0] == "价税合计" and Decimal(str(last[7])) == sent.total_amount


def test_the_quote_list_export_is_for_managers_and_formula_safe(client, sent, sales, manager):
    import csv as csv_module

    type(sent.lead).objects.filter(pk=sent.lead_id).update(company="=cmd|' /C calc'!A0")
    login(client, sales)
    assert client.get(reverse("quotes:list_csv")).status_code == 403
    login(client, manager)
    response = client.get(reverse("quotes:list_csv"))
    assert response.status_code == 200
    rows = list(csv_module.reader(response.content.decode("utf-8-sig").splitlines()))
    assert rows[0][0] == "报价单号" and len(rows) == 2
    assert rows[1][0] == sent.number and rows[1][1] == "'=cmd|' /C calc'!A0"
    assert rows[1][9] == str(sent.total_amount)
    sheet = load_workbook(BytesIO(client.get(reverse("quotes:list_xlsx")).content)).active
    cell = sheet.cell(row=2, column=2)
    assert cell.value == "=cmd|' /C calc'!A0" and cell.data_type == "s" and cell.quotePrefix


def test_expired_quotes_are_marked_by_the_daily_command(sent):
    import datetime

    from django.core.management import call_command
    from django.utils import timezone

    from selector.quotes.models import Quote, Status

    Quote.objects.filter(pk=sent.pk).update(valid_until=timezone.localdate()
                                            - datetime.timedelta(days=1))
    call_command("quotes_expire", verbosity=0)
    assert Quote.objects.get(pk=sent.pk).status == Status.EXPIRED
    assert sent.events.filter(kind="expired").count() == 1


def test_staff_pdf_downloads_are_audited(client, sent, sales):
    login(client, sales)
    client.get(reverse("quotes:pdf", args=[sent.public_id]))
    assert sent.events.filter(kind="exported", actor=sales, data__format="pdf").count() == 1
