def test_it_describes_both_endpoints(client):
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {"/api/recommend", "/api/fabric"}
    params = {p["name"]: p for p in doc["paths"]["/api/recommend"]["get"]["parameters"]}
    assert params["gpus"]["required"] is True
    assert params["gpus"]["schema"]["maximum"] == 1_000_000
    assert params["workload"]["schema"]["enum"] == ["training", "inference", "mixed"]
    fabric_params = {p["name"] for p in doc["paths"]["/api/fabric"]["get"]["parameters"]}
    assert fabric_params == {"gpus", "gpus_per_server", "radix", "oversubscription", "fabric",
                             "nic_speed", "nics_per_server", "vendor", "distance"}
    assert {"nic_speed", "nics_per_server", "vendor", "distance"} <= set(params)
    schemas = doc["components"]["schemas"]
    for name in ("tiers", "planes", "leaf", "spine", "core", "switches", "gpu_link_gbps",
                 "uplink_gbps", "switch", "bom", "power_w", "cost"):
        assert name in schemas["FabricSize"]["properties"], name
    assert set(schemas["Tuning"]["properties"]["ecn"]["properties"]) == {
        "min_bytes", "max_bytes", "probability"}
    assert "400" in doc["paths"]["/api/fabric"]["get"]["responses"]


def test_every_documented_parameter_is_accepted(client, db):
    """The document and the forms agree: the documented parameters give a 200."""
    from selector.content.models import Switch  # noqa: F401  (content not needed: defaults)

    response = client.get("/api/fabric", {"gpus": 64, "gpus_per_server": 8, "radix": 64,
                                          "oversubscription": 1})
    assert response.status_code == 200
