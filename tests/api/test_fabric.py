import pytest

# Every answer carries an ETag of the content version (selector.content.httpcache): one query.
pytestmark = pytest.mark.django_db


def test_it_reproduces_the_superpod_figures(client):
    body = client.get("/api/fabric", {"gpus": 512}).json()
    assert (body["tiers"], body["leaf"], body["spine"], body["core"]) == (2, 16, 8, 0)
    assert body["switches"] == 24
    body = client.get("/api/fabric", {"gpus": 1024, "radix": 64}).json()
    assert (body["leaf"], body["spine"]) == (32, 16)
    assert body["links"] == {"gpu_leaf": 1024, "leaf_spine": 1024, "spine_core": 0}
    assert body["transceiver_ends"] == 4096
    body = client.get("/api/fabric", {"gpus": 1024, "radix": 128}).json()
    assert (body["leaf"], body["spine"]) == (16, 8)


def test_it_sizes_three_tiers_and_oversubscription(client):
    body = client.get("/api/fabric", {"gpus": 4096, "radix": 64}).json()
    assert body["tiers"] == 3
    assert body["spine"] == body["leaf"] == 128
    assert body["core"] == 64
    body = client.get("/api/fabric", {"gpus": 1536, "radix": 64, "oversubscription": 3}).json()
    assert (body["leaf_down"], body["leaf_up"]) == (48, 16)


def test_a_cluster_too_big_names_the_largest_size(client):
    response = client.get("/api/fabric", {"gpus": 1_000_000, "radix": 64},
                          HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    message = response.json()["errors"]["gpus"][0]
    assert "65536" in message


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({}, "gpus"),
        ({"gpus": "0"}, "gpus"),
        ({"gpus": "-1"}, "gpus"),
        ({"gpus": "abc"}, "gpus"),
        ({"gpus": "2000000"}, "gpus"),
        ({"gpus": "64", "radix": "63"}, "radix"),
        ({"gpus": "64", "radix": "2"}, "radix"),
        ({"gpus": "64", "radix": "x"}, "radix"),
        ({"gpus": "64", "radix": "4096"}, "radix"),
        ({"gpus": "64", "oversubscription": "0"}, "oversubscription"),
        ({"gpus": "64", "oversubscription": "9"}, "oversubscription"),
        ({"gpus": "64", "gpus_per_server": "32"}, "gpus_per_server"),
    ],
)
def test_it_refuses_bad_input(client, params, field):
    response = client.get("/api/fabric", params, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_odd_radix_message_is_specific(client):
    response = client.get("/api/fabric", {"gpus": 64, "radix": 63}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.json()["errors"]["radix"] == ["The radix must be an even number of ports."]


def test_with_a_fabric_it_plans_on_a_catalogue_switch(client, content):
    body = client.get("/api/fabric", {"gpus": 1024, "fabric": "roce-v2-800g",
                                      "nic_speed": 400}).json()
    assert (body["leaf"], body["spine"], body["switches"]) == (16, 8, 24)
    assert body["switch"]["model"] == "Spectrum-4 SN5600"
    assert body["bom"] and body["power_w"] > 0 and body["cost"] is None
    body = client.get("/api/fabric", {"gpus": 16, "fabric": "infiniband"}).json()
    assert body["switches"] <= 2
    response = client.get("/api/fabric", {"gpus": 1_000_000, "fabric": "infiniband"},
                          HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "524,288" in response.json()["errors"]["gpus"][0]


def test_a_fabric_and_a_radix_together_are_refused(client, content):
    response = client.get("/api/fabric", {"gpus": 64, "fabric": "infiniband", "radix": 64})
    assert response.status_code == 400 and "radix" in response.json()["errors"]


def test_a_catalogue_plan_takes_a_leaf_oversubscription(client, content):
    """Issue 22 finding 11: the API refused it; 1, 2 or 3 is a catalogue plan's choice."""
    full = client.get("/api/fabric", {"gpus": "2048", "fabric": "roce-v2-400g"}).json()
    half = client.get("/api/fabric", {"gpus": "2048", "fabric": "roce-v2-400g",
                                      "oversubscription": "2"}).json()
    assert half["oversubscription"] == 2 and full["oversubscription"] == 1
    assert half["links"]["leaf_spine"] * 2 <= full["links"]["leaf_spine"] + half["leaf"]
    assert half["switches"] < full["switches"]
    assert any(n["key"] == "leaf_oversubscription" for n in half["notes"])
    refused = client.get("/api/fabric", {"gpus": "2048", "fabric": "roce-v2-400g",
                                         "oversubscription": "4"},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "1, 2 or 3" in refused.json()["errors"]["oversubscription"][0]
    both = client.get("/api/fabric", {"gpus": "2048", "fabric": "roce-v2-400g", "radix": "64"})
    assert both.status_code == 400 and "radix" in both.json()["errors"]
    rec = client.get("/api/recommend", {"gpus": "2048", "workload": "training",
                                        "budget": "balanced", "determinism": "standard",
                                        "oversubscription": "3"}).json()
    assert rec["fabric"]["oversubscription"] == 3
