"""The build downloads for the customer (the signed share link) and for staff (the lead
page, the lead's frozen plan), and the include on the result, shared and lead pages."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from django.urls import reverse

from selector.core.sharing import share_token
from selector.domain import DEFAULT_CATALOGUE, Answers
from selector.domain.build.cabling import iter_links
from selector.planner.services import freeze, fresh
from tests.conftest import make_lead

from .conftest import login

pytestmark = pytest.mark.django_db
ANSWERS = Answers(gpus=512, nic_speed=400, nics_per_server=8, throughput_limited=True)


def _rows(response) -> list[list[str]]:
    assert response.status_code == 200, response.status_code
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_the_share_link_downloads_the_shared_plan(client, content):
    token = share_token(ANSWERS)
    rows = _rows(client.get(reverse("wizard:shared_cabling_csv", args=[token])))
    plan = fresh(ANSWERS).recommended.plan
    assert len(rows) - 1 == sum(plan.links.values())
    assert rows[1] == list(next(iter_links(plan, DEFAULT_CATALOGUE)).csv_row())
    archive = zipfile.ZipFile(io.BytesIO(b"".join(client.get(
        reverse("wizard:shared_configs_zip", args=[token])).streaming_content)))
    assert len(archive.namelist()) == plan.switches + 1


def test_a_tampered_share_link_is_a_404(client, content):
    token = share_token(ANSWERS)
    for name in ("wizard:shared_cabling_csv", "wizard:shared_cabling_xlsx",
                 "wizard:shared_configs_zip"):
        assert client.get(reverse(name, args=[token[:-2] + "xx"])).status_code == 404


def test_a_result_without_a_fabric_has_no_download(client, content):
    token = share_token(Answers(gpus=8))  # one server: the standard network
    assert fresh(Answers(gpus=8)).recommended.plan is None
    assert client.get(reverse("wizard:shared_cabling_csv", args=[token])).status_code == 404
    page = client.get(reverse("wizard:shared", args=[token])).content.decode()
    assert 'data-testid="build-downloads"' not in page


def test_the_shared_result_shows_the_downloads_and_a_summary(client, content):
    token = share_token(ANSWERS)
    page = client.get(reverse("wizard:shared", args=[token]))
    body = page.content.decode()
    assert 'data-testid="build-downloads"' in body
    assert reverse("wizard:shared_cabling_csv", args=[token]) in body
    assert reverse("wizard:shared_configs_zip", args=[token]) in body
    plan = fresh(ANSWERS).recommended.plan
    assert f"{sum(plan.links.values()):,} 条链路" in body  # Chinese first (the default)


def test_staff_download_the_leads_frozen_plan(client, sales, outsider, content):
    rec = fresh(ANSWERS)
    frozen = freeze(rec)
    lead = make_lead(answers=ANSWERS.to_dict(), frozen_recommendation=frozen)
    url = reverse("staff:lead_cabling_csv", args=[lead.public_id])
    assert client.get(url).status_code == 404  # signed out: nothing says it exists
    assert login(client, outsider).get(url).status_code == 404
    rows = _rows(login(client, sales).get(url))
    assert len(rows) - 1 == sum(rec.recommended.plan.links.values())
    page = client.get(reverse("staff:lead_detail", args=[lead.public_id])).content.decode()
    assert url in page
    assert reverse("staff:lead_configs_zip", args=[lead.public_id]) in page
