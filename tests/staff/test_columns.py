"""Issue 27 part D: the lead list's and the exports' columns come from one registry
(selector.staff.columns): the page's header and cells, the accepted sorts, the exact-value
filters and the export's header and values."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils.html import format_html

from selector.staff import columns, export, forms, queries
from tests.conftest import make_lead

from .conftest import login

URL = "/en/staff/leads/"

# Today's export columns and order (English headers), as before the registry.
EXPORT_HEADER = [
    "Report number", "Created", "Name", "Company", "Job role", "Phone", "E-mail",
    "WeChat ID", "Project timeline", "Total GPUs", "Recommendation", "Rule", "Score",
    "Status", "Deal value", "Lost because", "Next action", "First contact at", "Owner",
    "Language", "utm_source", "utm_medium", "utm_campaign", "Message"]


def test_the_export_keeps_its_columns_and_order(client, manager, db):
    make_lead(name="Ann")
    raw = b"".join(login(client, manager).get(
        "/en/staff/leads/export.csv").streaming_content).decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(raw)))
    assert header == EXPORT_HEADER
    assert [str(label) for _f, label in export.COLUMNS] == [
        str(c.label) for c in columns.EXPORT_COLUMNS]


def test_the_list_header_is_the_registrys_columns_in_order(client, sales, db):
    make_lead(name="Ann")
    body = login(client, sales).get(URL).content.decode()
    thead = body[body.index("<thead"):body.index("</thead>")]
    positions = [thead.index(f">{column.label}<") for column in columns.LIST_COLUMNS]
    assert positions == sorted(positions)
    # Every sortable column links to its first sort; the current one to its reverse.
    assert 'aria-sort="descending"><a href="?sort=created"' in thead
    assert 'aria-sort="none"><a href="?sort=name"' in thead
    assert thead.count("aria-sort=") == sum(bool(c.sorts) for c in columns.LIST_COLUMNS)


def test_the_accepted_sorts_are_the_registrys(client, sales, db):
    assert set(forms.SORTS) == {s.key for c in columns.LIST_COLUMNS for s in c.sorts}
    assert all(order[-1].lstrip("-") == "pk" for order in forms.SORTS.values())
    login(client, sales)
    assert client.get(URL, {"sort": "-company"}).status_code == 200
    assert client.get(URL, {"sort": "gpus"}).status_code == 400  # not a column's sort


def test_exact_filters_come_from_the_columns(client, sales, db):
    assert queries.EXACT_FILTERS == {
        "status": "status", "score": "score", "recommendation": "recommendation",
        "language": "language", "source": "utm_source", "campaign": "utm_campaign"}
    make_lead(name="From Baidu", utm_source="baidu")
    make_lead(name="From WeChat", utm_source="wechat")
    body = login(client, sales).get(URL, {"source": "baidu"}).content.decode()
    assert "From Baidu" in body and "From WeChat" not in body


def test_a_column_added_to_the_registry_shows_in_header_and_rows(client, sales, db,
                                                                  monkeypatch):
    """What a new list column takes: its definition in the registry (and its label's
    translation); the templates loop over the columns."""
    trial = columns.Column(
        "trial", "Trial column", "report_number",
        cell=lambda lead, words: format_html("<i>{}</i>", lead.report_number.lower()))
    monkeypatch.setattr(columns, "LIST_COLUMNS", (*columns.LIST_COLUMNS, trial))
    lead = make_lead(name="Ann")
    body = login(client, sales).get(URL).content.decode()
    assert '<th scope="col">Trial column</th>' in body
    assert (f'<td class="cell-trial" data-label="Trial column"><i>'
            f'{lead.report_number.lower()}</i></td>') in body


@pytest.mark.parametrize("column", columns.LEAD_COLUMNS, ids=lambda c: c.key)
def test_every_column_has_a_label_and_reads_real_fields(column):
    from selector.leads.models import Lead

    assert str(column.label)
    for name in (column.field, *column.reads):
        assert Lead._meta.get_field(name.split("__")[0])
