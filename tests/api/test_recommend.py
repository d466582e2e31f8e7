import pytest

from selector.domain import Answers, decide

BASE = {"gpus": "1024", "workload": "training", "budget": "balanced", "determinism": "standard"}


@pytest.fixture
def get(client, content):
    def _get(lang="en", **params):
        query = {**BASE, **params}
        query = {k: v for k, v in query.items() if v is not None}
        return client.get("/api/recommend", query, HTTP_ACCEPT_LANGUAGE=lang)
    return _get


def test_it_recommends_roce_800_for_a_thousand_gpus(get):
    response = get()
    assert response.status_code == 200
    body = response.json()
    assert body["recommendation"] == "roce-v2-800g"
    assert body["rule"] == "R6"
    assert body["servers"] == 128
    assert body["runner_up"] == "infiniband"
    assert body["engine_version"] == decide(Answers(gpus=1024)).engine_version
    assert any("1024" in reason for reason in body["reasons"])
    # The fabric is sized with an 800G Ethernet catalogue switch of radix 64.
    fabric = body["fabric"]
    assert (fabric["tiers"], fabric["leaf"], fabric["spine"], fabric["core"]) == (2, 32, 16, 0)
    assert fabric["switch"]["technology"] == "ethernet"
    assert fabric["switch"]["speed_gbps"] == 800
    assert fabric["links"] == {"gpu_leaf": 1024, "leaf_spine": 1024, "spine_core": 0}
    assert fabric["transceiver_ends"] == 4096
    assert body["tuning"]["pfc_priority"] == 3
    assert body["tuning"]["roce_dscp"] == 26
    assert response["Content-Type"] == "application/json"


def test_what_if_items_flip_the_decision(get):
    body = get().json()
    assert body["what_if"], "a thousand-GPU cluster has answers that change the result"
    for item in body["what_if"]:
        changed = Answers(gpus=1024).replace(**{item["field"]: item["value"]})
        assert decide(changed).recommendation.value == item["recommendation"]
        assert item["text"]


def test_it_gives_no_fabric_and_no_tuning_for_one_server(get):
    body = get(gpus="8").json()
    assert body["recommendation"] == "standard-network"
    assert body["rule"] == "R1"
    assert body["fabric"] is None
    assert body["tuning"] is None


def test_infiniband_has_a_fabric_but_no_roce_tuning(get):
    body = get(determinism="strict").json()
    assert body["recommendation"] == "infiniband"
    assert body["fabric"]["switch"]["technology"] == "infiniband"
    assert body["tuning"] is None


def test_throughput_limited_and_nic_speed_are_read(get):
    assert get(gpus="32", throughput_limited="false").json()["rule"] == "R3"
    assert get(gpus="32", throughput_limited="true").json()["rule"] == "R7"
    assert get(gpus="64", nic_speed="800").json()["rule"] == "R6"


def test_reasons_follow_the_request_language(get):
    english = get(lang="en").json()
    chinese = get(lang="zh-hans").json()
    assert english["recommendation_label"].startswith("RoCE v2")
    assert "无损" in chinese["recommendation_label"]
    assert english["reasons"] != chinese["reasons"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"gpus": None}, "gpus"),
        ({"gpus": ""}, "gpus"),
        ({"gpus": "0"}, "gpus"),
        ({"gpus": "-8"}, "gpus"),
        ({"gpus": "eight"}, "gpus"),
        ({"gpus": "1.5"}, "gpus"),
        ({"gpus": "1000001"}, "gpus"),
        ({"gpus": "9" * 10000}, "gpus"),
        ({"gpus": "8\x00"}, "gpus"),
        ({"gpus_per_server": "0"}, "gpus_per_server"),
        ({"gpus_per_server": "17"}, "gpus_per_server"),
        ({"workload": "gaming"}, "workload"),
        ({"workload": None}, "workload"),
        ({"budget": "unlimited"}, "budget"),
        ({"determinism": "<script>"}, "determinism"),
        ({"throughput_limited": "maybe"}, "throughput_limited"),
        ({"nic_speed": "100"}, "nic_speed"),
        ({"nic_speed": "fast"}, "nic_speed"),
        ({"cable_m": "0"}, "cable_m"),
    ],
)
def test_it_refuses_bad_input_with_a_400_and_a_message(get, params, field):
    response = get(**params)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert list(errors) == [field]
    assert errors[field] and all(isinstance(m, str) and m for m in errors[field])


def test_errors_are_in_the_request_language(get):
    assert get(lang="en", gpus="x").json()["errors"]["gpus"] == ["Enter a whole number."]
    assert get(lang="zh-hans", gpus="x").json()["errors"]["gpus"] == ["请输入整数。"]


def test_user_input_is_not_echoed(get):
    body = get(workload="<script>alert(1)</script>").content.decode()
    assert "<script>" not in body


def test_it_refuses_post(client):
    assert client.post("/api/recommend", BASE).status_code == 405
