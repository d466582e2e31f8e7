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
    assert any("1,024" in reason for reason in body["reasons"])
    # 400G GPU links on a 64 x 800G switch (2 x 400G breakout), the 800G uplink ports as
    # 2 x 400G too (Spectrum-4 keeps adaptive routing): 16 / 8.
    fabric = body["fabric"]
    assert (fabric["tiers"], fabric["leaf"], fabric["spine"], fabric["core"]) == (2, 16, 8, 0)
    assert (fabric["planes"], fabric["gpu_link_gbps"], fabric["uplink_gbps"]) == (1, 400, 400)
    assert fabric["switches"] == 24
    switch = fabric["switch"]
    assert (switch["vendor"], switch["model"]) == ("NVIDIA", "Spectrum-4 SN5600")
    assert (switch["ports"], switch["port_speed_gbps"], switch["asic"]) == (
        64, 800, "NVIDIA Spectrum-4")
    assert {"speed_gbps": 400, "ports": 128} in switch["breakout"]
    assert switch["source"]["title"] and switch["source"]["url"].startswith("https://")
    assert switch["source"]["date"] == "2026-12-01"
    assert "power_w" in switch
    assert fabric["links"] == {"gpu_leaf": 1024, "leaf_spine": 1024, "spine_core": 0}
    kinds = {line["kind"] for line in fabric["bom"]}
    assert kinds == {"switch", "module", "cable"}
    for line in fabric["bom"]:
        assert set(line) >= {"part", "kind", "reach_m", "count", "power_w"}
    assert fabric["power_w"] > 0
    assert fabric["cost"] is None  # no price list: price on request
    assert body["runner_up_fabric"]["switch"]["technology"] == "infiniband"
    tuning = body["tuning"]
    assert tuning["speed_gbps"] == fabric["gpu_link_gbps"] == 400
    assert tuning["ecn"] == {"min_bytes": 150_000, "max_bytes": 1_500_000, "probability": 100}
    assert tuning["pfc_priority"] == 3
    assert tuning["roce_dscp"] == 26
    assert any("nv set qos roce" in line["text"] for line in tuning["config"])
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


def test_the_hardware_inputs_shape_the_plan(get):
    body = get(gpus="2048", workload="inference", nic_speed="800").json()
    assert body["rule"] == "R4"
    fabric = body["fabric"]
    assert (fabric["gpu_link_gbps"], fabric["planes"], fabric["port_gbps"]) == (800, 2, 400)
    assert body["tuning"]["speed_gbps"] == fabric["port_gbps"]
    arista = get(vendor="arista").json()
    assert arista["fabric"]["switch"]["vendor"] == "Arista"
    assert arista["tuning"]["family"] == "sonic"
    four = get(nics_per_server="4").json()["fabric"]
    assert four["links"]["gpu_leaf"] == 128 * 4 and four["rails"] == 4
    far = get(distance="campus").json()
    assert far["tuning"]["cable_m"] == 2000
    assert far["tuning"]["warnings"][0]["text"]
    old = get(cable_m="70").json()
    assert old["answers"]["distance"] == "hall" and old["tuning"]["cable_m"] == 100


def test_a_huge_cluster_gets_a_plan_and_one_too_big_a_message(get):
    body = get(gpus="100000").json()
    assert body["fabric"]["tiers"] == 3 and body["fabric"]["core"] > 0
    body = get(gpus="1000000", determinism="strict").json()
    assert body["fabric"] is None
    assert body["fabric_error"]["code"] == "too_large"
    assert body["fabric_error"]["max_gpus"] == 524_288
    assert "524,288" in body["fabric_error"]["message"]


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
        ({"nics_per_server": "0"}, "nics_per_server"),
        ({"nics_per_server": "99"}, "nics_per_server"),
        ({"vendor": "cisco"}, "vendor"),
        ({"distance": "moon"}, "distance"),
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
