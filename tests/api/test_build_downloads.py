"""The build downloads over the API: /api/cabling.csv, /api/cabling.xlsx, /api/configs.zip.
Same query parameters as /api/fabric; 400 in its error shape, 413 beyond the limit."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from openpyxl import load_workbook

from selector.domain import DEFAULT_CATALOGUE, Answers
from selector.domain.build.cabling import CSV_HEADER, iter_links
from selector.domain.decision import Fabric
from selector.domain.plan import plan_fabric
from selector.planner import downloads

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("content")]

QUERY = {"gpus": 1024, "fabric": "roce-v2-400g", "nic_speed": 400, "nics_per_server": 8}


def _body(response) -> bytes:
    assert response.streaming
    return b"".join(response.streaming_content)


def test_the_csv_has_the_header_and_one_row_per_link(client):
    response = client.get("/api/cabling.csv", QUERY)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = _body(response).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert ",".join(rows[0]) == "a_device,a_port,b_device,b_port,tier,plane,part_a,part_b," \
                                "reach_m,label"
    plan = plan_fabric(Fabric.ROCE_400, Answers(1024, nic_speed=400, nics_per_server=8),
                       DEFAULT_CATALOGUE)
    assert len(rows) - 1 == sum(plan.links.values())
    first = next(iter_links(plan, DEFAULT_CATALOGUE))
    assert rows[1] == list(first.csv_row())
    assert rows[1][:4] == ["p1-leaf-r1-01", "swp1s0", "p1-su01-node001-nic1", "port1"]


def test_the_workbook_holds_the_same_rows(client):
    response = client.get("/api/cabling.xlsx", {**QUERY, "gpus": 64})
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(_body(response)), read_only=True)
    rows = list(book.active.iter_rows(values_only=True))
    assert tuple(rows[0]) == CSV_HEADER
    csv_rows = list(csv.reader(io.StringIO(_body(client.get(
        "/api/cabling.csv", {**QUERY, "gpus": 64})).decode("utf-8-sig"))))
    assert len(rows) == len(csv_rows)
    assert [str(c) for c in rows[1]] == csv_rows[1]


@pytest.mark.parametrize("path", ["/api/cabling.csv", "/api/cabling.xlsx", "/api/configs.zip"])
@pytest.mark.parametrize(("params", "field"), [
    ({}, "gpus"),
    ({"gpus": "0", "fabric": "infiniband"}, "gpus"),
    ({"gpus": "64"}, "fabric"),  # a textbook fat-tree has no cabling plan
    ({"gpus": "64", "fabric": "token-ring"}, "fabric"),
    ({"gpus": "64", "fabric": "infiniband", "radix": "64"}, "radix"),
])
def test_bad_parameters_are_a_400_in_the_fabric_shape(client, path, params, field):
    response = client.get(path, params, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert field in errors and all(isinstance(m, str) and m for m in errors[field])


def test_a_plan_beyond_the_limit_is_a_413_that_names_it(client, monkeypatch):
    monkeypatch.setattr(downloads, "LINKS_MAX", 10)
    monkeypatch.setattr(downloads, "XLSX_LINKS_MAX", 10)
    monkeypatch.setattr(downloads, "SWITCHES_MAX", 1)
    for path, word in (("/api/cabling.csv", "links"), ("/api/cabling.xlsx", "links"),
                       ("/api/configs.zip", "switches")):
        response = client.get(path, {**QUERY, "gpus": 64}, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 413, path
        body = response.json()
        assert body["limit"] in (10, 1)
        assert word in body["errors"]["gpus"][0] and str(body["limit"]) in \
            body["errors"]["gpus"][0]


def test_the_limit_lets_a_100k_gpu_csv_stream():
    plan = plan_fabric(Fabric.ROCE_400, Answers(100_000, nic_speed=400, nics_per_server=8),
                       DEFAULT_CATALOGUE)
    assert downloads.too_large(plan, "cabling") is None
    assert downloads.too_large(plan, "xlsx") is None
    assert downloads.too_large(plan, "configs") is None
    bigger = plan_fabric(Fabric.ROCE_800, Answers(100_000, nic_speed=800, nics_per_server=8),
                         DEFAULT_CATALOGUE)  # 600,000 links, 7,826 switches
    assert downloads.too_large(bigger, "cabling") is None
    assert downloads.too_large(bigger, "configs") is None
    assert downloads.too_large(bigger, "xlsx").status_code == 413


def test_formula_cells_are_neutralised():
    from selector.core.spreadsheet import csv_lines

    text = b"".join(csv_lines(("a",), [("=HYPERLINK(1)",)])).decode("utf-8-sig")
    assert "'=HYPERLINK(1)" in text


def test_the_configs_zip_has_one_file_per_switch(client):
    response = client.get("/api/configs.zip", {**QUERY, "gpus": 64})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(_body(response)))
    plan = plan_fabric(Fabric.ROCE_400, Answers(64, nic_speed=400, nics_per_server=8),
                       DEFAULT_CATALOGUE)
    names = archive.namelist()
    assert len(names) == plan.switches + 1  # + README.txt
    assert "README.txt" in names
    leaf = next(n for n in names if "-leaf-" in n)
    text = archive.read(leaf).decode()
    assert "nv set system hostname " + leaf.split(".", 1)[0] + "\n" in text
