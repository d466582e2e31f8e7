"""Hostile and awkward input through every form and API field: XSS, SQL metacharacters,
NUL bytes, over-long strings and Unicode edge cases (RTL override, U+2011, emoji, ZWJ).

Nothing may produce a 500. Text that is accepted is stored verbatim and comes out escaped
(or exactly, where the format has no markup) in every output: the staff page (HTML), the
customer's result page, the CSV and XLSX exports, the sales e-mail and the PDF."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core import mail
from django.test import Client, override_settings
from pypdf import PdfReader

from selector.leads.models import Lead
from selector.leads.report.services import generate
from selector.staff.export import is_dangerous, unneutralise_csv
from selector.staff.permissions import MANAGERS_GROUP
from selector.staff.roles import ensure_roles
from tests.leads.conftest import attach, contact_data, make_session

XSS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "</script><!--"]
SQL = ["'; DROP TABLE leads_lead; --", "1' OR '1'='1", 'Robert"); --']
UNICODE = ["\u202eevil\u202c", "RoCE\u2011v2", "🚀 集群 👩\u200d💻", "مرحبا"]
FORMULA = ['=HYPERLINK("http://evil.example")', "+1+1", "-2", "@SUM(1)"]
ACCEPTED = XSS + SQL + UNICODE + FORMULA
REFUSED = ["a\x00b", "x" * 10_000]

API_FIELDS = {
    "/api/recommend": ["gpus", "gpus_per_server", "workload", "budget", "determinism",
                       "throughput_limited", "nic_speed", "cable_m", "nics_per_server",
                       "vendor", "distance"],
    "/api/fabric": ["gpus", "gpus_per_server", "radix", "oversubscription", "fabric",
                    "nic_speed", "nics_per_server", "vendor", "distance"],
}
BASE_QUERY = {"gpus": "64", "workload": "training", "budget": "balanced",
              "determinism": "standard"}


@pytest.mark.parametrize("payload", ACCEPTED + REFUSED)
def test_api_fields_answer_400_never_500(client, content, payload):
    for path, fields in API_FIELDS.items():
        for field in fields:
            response = client.get(path, {**BASE_QUERY, field: payload})
            assert response.status_code == 400, (path, field)
            errors = response.json()["errors"]
            assert field in errors
            assert payload not in response.content.decode()  # never echoed


@pytest.mark.parametrize("payload", ACCEPTED + REFUSED)
def test_wizard_fields_give_a_field_error_never_500(client, content, payload):
    client.get("/wizard/", follow=True)
    for step, fields in [("scale", ["gpus", "gpus_per_server"]), ("workload", ["workload"])]:
        if step == "workload":  # reach the step first
            client.post("/wizard/scale/", {"gpus": "64", "gpus_per_server": "8"})
        for field in fields:
            data = {"gpus": "64", "gpus_per_server": "8", "workload": "training",
                    field: payload}
            response = client.post(f"/wizard/{step}/", data, follow=True)
            assert response.status_code in (200, 400), (step, field)
            body = response.content.decode()
            assert 'class="errorlist' in body or "aria-invalid" in body, (step, field)
            for raw in XSS:
                assert raw not in body


TEXT_FIELDS = ["name", "company", "role", "message"]


@pytest.fixture
def manager(db):
    ensure_roles(apps)
    user = User.objects.create_user("boss", password="pw-boss-12345")
    user.groups.add(Group.objects.get(name=MANAGERS_GROUP))
    return user


def _submit(client, **fields) -> object:
    ws = make_session()
    attach(client, ws)
    return client.post("/contact/", contact_data(client, **fields))


@pytest.mark.parametrize("payload", REFUSED)
@pytest.mark.parametrize("field", TEXT_FIELDS + ["phone", "email", "wechat", "timeline"])
@override_settings(LEAD_RATE_LIMIT=0)
def test_contact_fields_refuse_nul_and_over_long_text(client, content, field, payload):
    response = _submit(client, **{field: payload})
    # Refused: back to the form (Post/Redirect/Get), which shows the field's error.
    assert response.status_code == 303 and response["Location"] == "/contact/"
    page = client.get("/contact/")
    assert field in page.context["form"].errors
    assert not Lead.objects.exists()


@pytest.mark.parametrize("payload", ACCEPTED)
@override_settings(LEAD_RATE_LIMIT=0, SALES_NOTIFY_EMAILS=["sales@example.com"])
def test_accepted_text_is_stored_verbatim_and_escaped_everywhere(
        client, content, manager, payload, django_capture_on_commit_callbacks):
    long_enough = payload if len(payload) <= 90 else payload[:90]
    fields = {"name": long_enough, "company": long_enough, "role": long_enough[:90],
              "message": payload}
    with django_capture_on_commit_callbacks(execute=True):
        response = _submit(client, **fields)
    if response.status_code == 303:
        # Single-line fields may refuse control characters (the RTL override); the
        # refusal is a field error, and nothing is stored.
        assert "\u202e" in payload
        assert not Lead.objects.exists()
        return
    assert response.status_code == 302
    lead = Lead.objects.get()
    assert (lead.name, lead.company, lead.message) == (long_enough, long_enough, payload)

    # HTML: the staff lead page escapes it.
    staff = Client()
    staff.force_login(manager)
    page = staff.get(f"/en/staff/leads/{lead.public_id}/").content.decode()
    for raw in XSS:
        if raw in payload:
            assert raw not in page
            assert "&lt;" in page  # shown, escaped

    # CSV: reading the file back gives the exact text.
    data = staff.get("/en/staff/leads/export.csv")
    text = b"".join(data.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    cells = {unneutralise_csv(cell) for row in rows[1:] for cell in row}
    assert long_enough in cells and payload in cells
    for row in rows[1:]:
        for cell in row:
            # A real formula start is neutralised; "+86 138 ..." (a "+" and digits and
            # spaces only) is a phone number, kept as typed (selector.staff.export).
            assert not is_dangerous(cell), "formula not neutralised"

    # XLSX: string cells with the exact text.
    from openpyxl import load_workbook

    xlsx = staff.get("/en/staff/leads/export.xlsx")
    content_bytes = b"".join(xlsx.streaming_content) if xlsx.streaming else xlsx.content
    sheet = load_workbook(io.BytesIO(content_bytes), read_only=True).active
    values = {cell for row in sheet.iter_rows(min_row=2, values_only=True) for cell in row}
    assert payload in values

    # E-mail to sales: the HTML part escapes, the text part is plain.
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    html = next(body for body, kind in message.alternatives if kind == "text/html")
    for raw in XSS:
        if raw in payload:
            assert raw not in html
    if len(payload) > 4:  # the subject carries no user text ("-2" is in report numbers)
        assert payload not in message.subject

    # PDF: printed literally, nothing fetched.
    _name, content_type, pdf = generate(lead)
    assert content_type == "application/pdf"
    pages = PdfReader(io.BytesIO(pdf)).pages
    printed = re.sub(r"\s+", "", "".join(page.extract_text() for page in pages))
    visible = re.sub(r"\s+", "", long_enough.replace("\u200d", ""))
    if visible.isascii():
        assert visible in printed
