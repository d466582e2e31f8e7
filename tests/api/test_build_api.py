"""The build part in the API (issue 23): /api/fabric and /api/recommend carry
``performance``, ``failure_domains`` and ``racks``; /api/acceptance.txt is the test plan;
bad parameters answer 400 in the /api/fabric error shape."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("content")]
ANSWERS = {"workload": "training", "budget": "balanced", "determinism": "standard"}


def test_fabric_carries_the_estimate_failure_domains_and_racks(client):
    body = client.get("/api/fabric", {"gpus": 16, "fabric": "infiniband", "nic_speed": 200,
                                      "nics_per_server": 4},
                      HTTP_ACCEPT_LANGUAGE="en").json()
    perf = body["performance"]
    assert perf["estimate"] is True and perf["label"] == "Estimate, not a measurement"
    assert perf["allreduce_busbw_gbytes"] == 96.0  # nccl-tests #100 measured 91 GB/s
    assert perf["allreduce_busbw_gbps"] == 768.0
    assert perf["alltoall_busbw_gbps"] == 96.0
    assert perf["message_bytes"] == 14_000_000_000
    assert perf["allreduce_seconds"] > 0
    assert "2(n−1)/n" in perf["formula"]
    assert perf["source"]["url"].endswith("PERFORMANCE.md")
    assert any("same figure" in text for text in perf["assumptions"])
    elements = [row["element"] for row in body["failure_domains"]]
    assert elements == ["nic_link", "leaf", "plane"]
    leaf = body["failure_domains"][1]
    assert (leaf["gpus_disconnected"], leaf["bandwidth_lost_pct"]) == (8, 50.0)
    assert "checkpoint" in leaf["effect"]
    assert body["racks"]["switch_rack_units"] == 1
    assert body["racks"]["racks"] == 1 and body["racks"]["optics_only"] is True


def test_recommend_carries_them_for_both_fabrics(client):
    body = client.get("/api/recommend", {**ANSWERS, "gpus": 1024, "model_params_b": 70,
                                         "rack_kw": 8}).json()
    for key in ("fabric", "runner_up_fabric"):
        fabric = body[key]
        assert fabric["performance"]["message_bytes"] == 140_000_000_000
        assert fabric["performance"]["estimate"] is True
        assert {row["element"] for row in fabric["failure_domains"]} >= {"nic_link", "leaf"}
        assert fabric["racks"]["rack_kw"] == 8
    # RoCE and InfiniBand differ only by an unsourced efficiency: the same number
    assert (body["fabric"]["performance"]["allreduce_busbw_gbps"]
            == body["runner_up_fabric"]["performance"]["allreduce_busbw_gbps"])


def test_message_bytes_sets_the_all_reduce_size(client):
    body = client.get("/api/fabric", {"gpus": 1024, "fabric": "roce-v2-400g",
                                      "message_bytes": 1_000_000_000}).json()
    assert body["performance"]["message_bytes"] == 1_000_000_000
    assert body["performance"]["model_params_b"] is None


@pytest.mark.parametrize(("params", "field"), [
    ({"model_params_b": "0"}, "model_params_b"),
    ({"model_params_b": "abc"}, "model_params_b"),
    ({"model_params_b": "nan"}, "model_params_b"),
    ({"rack_kw": "inf"}, "rack_kw"),
    ({"message_bytes": "1e3"}, "message_bytes"),
    ({"message_bytes": "-1"}, "message_bytes"),
    ({"model_params_b": "7", "message_bytes": "100"}, "message_bytes"),
    ({"rack_kw": "0.1"}, "rack_kw"),
    ({"rack_u": "500"}, "rack_u"),
])
def test_bad_build_parameters_answer_400(client, params, field):
    for url in ("/api/fabric", "/api/recommend", "/api/acceptance.txt"):
        extra = {"fabric": "infiniband"} if "recommend" not in url else ANSWERS
        query = {"gpus": 64, **extra, **params}
        response = client.get(url, query)
        assert response.status_code == 400, (url, params)
        assert field in response.json()["errors"]


def test_acceptance_plan_is_text_with_the_estimate_as_threshold(client):
    response = client.get("/api/acceptance.txt", {"gpus": 1024, "fabric": "roce-v2-400g"},
                          HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert "estimates, not measurements" in text
    assert "ib_write_bw -d mlx5_0 -x <GID index (RoCE v2)> --report_gbits" in text
    assert "ib_send_lat" in text and " -R " in text
    assert "all_reduce_perf -b 8 -e 8G -f 2 -g 1" in text
    assert "mpirun -np 1024 -N 8" in text
    assert "at least 361 GB/s" in text  # 384 GB/s estimate less 6 %
    assert "nv show interface swp1 counters qos pfc-stats" in text
    assert "swp1s0-swp32s1" in text  # the leaf's 64 GPU links on 32 native ports


def test_acceptance_plan_for_infiniband_and_sonic_and_in_chinese(client):
    ib = client.get("/api/acceptance.txt", {"gpus": 512, "fabric": "infiniband"},
                    HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "iblinkinfo" in ib and "ibqueryerrors" in ib and "-x <GID" not in ib
    sonic = client.get("/api/acceptance.txt", {"gpus": 512, "fabric": "roce-v2-400g",
                                               "vendor": "arista"},
                       HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "show pfc counters" in sonic and "show pfcwd stats" in sonic
    zh = client.get("/api/acceptance.txt", {"gpus": 512, "fabric": "infiniband"},
                    HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "验收测试方案" in zh and "估算" in zh


def test_acceptance_plan_refuses_what_has_no_switch(client):
    response = client.get("/api/acceptance.txt", {"gpus": 64, "radix": 64})
    assert response.status_code == 400 and "radix" in response.json()["errors"]
    response = client.get("/api/acceptance.txt", {"gpus": 1_000_000, "fabric": "infiniband",
                                                  "nic_speed": 400, "nics_per_server": 1})
    assert response.status_code == 400 and "gpus" in response.json()["errors"]
