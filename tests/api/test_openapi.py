"""The OpenAPI document says what the API does: it is a valid OpenAPI 3.1 document, it
names every API route, and the real answers to requests built from it (every documented
parameter, values across its documented range or enum, and values outside them) have a
documented status and validate against that status's schema, with every property they
carry documented (the document's object schemas are closed for the check)."""

import copy
import json

import pytest
from django.urls import URLPattern, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from openapi_spec_validator import validate as validate_openapi
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from selector.api import urls as api_urls
from selector.api.openapi import BUILD_PARAMETERS, openapi_document

DOC = openapi_document("http://testserver/")
# Answers in JSON or plain text (/api/acceptance.txt); the downloads (a streamed file on
# 200) are checked below.
OPERATIONS = [(path, item["get"]) for path, item in DOC["paths"].items()
              if {"application/json", "text/plain"} & set(item["get"]["responses"]["200"][
                  "content"])]
DOWNLOADS = [(path, item["get"]) for path, item in DOC["paths"].items()
             if (path, item["get"]) not in OPERATIONS]
EXAMPLES = settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                           HealthCheck.too_slow])


def _closed(node):
    """The schema with every object that lists its properties closed to others: a
    property the API sends and the document does not name fails the validation."""
    if isinstance(node, dict):
        node = {key: _closed(value) for key, value in node.items()}
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        return node
    if isinstance(node, list):
        return [_closed(item) for item in node]
    return node


REGISTRY = Registry().with_resource(
    "urn:selector-openapi", Resource.from_contents(_closed(DOC),
                                                   default_specification=DRAFT202012))


def _check_against_document(operation: dict, response) -> dict:
    """The response's status is documented for the operation and its body validates."""
    documented = operation["responses"]
    assert str(response.status_code) in documented, (response.status_code, response.content)
    content = documented[str(response.status_code)]["content"]
    assert response["Content-Type"].split(";")[0] in content
    if response["Content-Type"].startswith("text/plain"):  # /api/acceptance.txt
        assert content["text/plain"]["schema"] == {"type": "string"} and response.content
        return {}
    schema = content["application/json"]["schema"]
    body = json.loads(response.content)
    pointer = schema["$ref"].replace("#", "urn:selector-openapi#", 1)
    validator = Draft202012Validator({"$ref": pointer}, registry=REGISTRY)
    error = best_match(validator.iter_errors(body))
    assert error is None, f"{list(error.absolute_path)}: {error.message[:300]}"
    return body


def _value(schema: dict) -> st.SearchStrategy[str]:
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if schema["type"] == "number":
        return st.floats(schema["minimum"], schema["maximum"]).map(lambda x: f"{x:.6g}").filter(
            lambda text: schema["minimum"] <= float(text) <= schema["maximum"])
    assert schema["type"] == "integer", schema
    return st.integers(schema["minimum"], schema["maximum"]).map(str)


def _outside(schema: dict) -> st.SearchStrategy[str]:
    if "enum" in schema:
        if schema.get("x-case-insensitive"):
            values = {v.lower() for v in schema["enum"]}
            return st.text(min_size=1, max_size=8).filter(
                lambda s: s.strip().lower() not in values)
        return st.text(min_size=1, max_size=8).filter(lambda s: s not in schema["enum"])
    if schema["type"] == "number":
        return st.one_of(st.floats(max_value=schema["minimum"] / 2, allow_nan=False,
                                   allow_infinity=False),
                         st.floats(min_value=schema["maximum"] * 2, allow_nan=False,
                                   allow_infinity=False)).map(repr)
    return st.one_of(st.integers(max_value=schema["minimum"] - 1),
                     st.integers(min_value=schema["maximum"] + 1)).map(str)


@st.composite
def _query(draw, operation: dict) -> dict[str, str]:
    """Every required parameter and some optional ones, each within its schema."""
    query = {}
    for parameter in operation["parameters"]:
        if parameter["required"] or draw(st.booleans()):
            query[parameter["name"]] = draw(_value(parameter["schema"]))
    return query


def test_the_document_is_valid_openapi_and_names_every_api_route():
    validate_openapi(copy.deepcopy(DOC))
    routes = {"/api/" + str(p.pattern) for p in get_resolver(api_urls).url_patterns
              if isinstance(p, URLPattern)} - {"/api/openapi.json"}
    assert set(DOC["paths"]) == routes == {"/api/recommend", "/api/fabric",
                                           "/api/acceptance.txt", "/api/cabling.csv",
                                           "/api/cabling.xlsx", "/api/configs.zip"}


def test_the_served_document_is_the_document_of_this_host(client):
    response = client.get("/api/openapi.json")
    assert response["Content-Type"] == "application/json"
    served = response.json()
    assert served["servers"] == [{"url": "http://testserver"}]
    assert served == json.loads(json.dumps(DOC))


@pytest.mark.parametrize(("path", "operation"), OPERATIONS, ids=[p for p, _o in OPERATIONS])
@EXAMPLES
@given(data=st.data())
def test_answers_to_documented_requests_are_documented(client, content, path, operation,
                                                       data):
    query = data.draw(_query(operation))
    body = _check_against_document(operation, client.get(path, query))
    if "errors" in body:  # a documented refusal names documented parameters (or none)
        assert set(body["errors"]) <= {p["name"] for p in operation["parameters"]} | {
            "__all__"}


@pytest.mark.parametrize(("path", "operation"), OPERATIONS, ids=[p for p, _o in OPERATIONS])
@EXAMPLES
@given(data=st.data())
def test_a_value_outside_its_documented_schema_is_a_documented_400_naming_it(
        client, content, path, operation, data):
    parameter = data.draw(st.sampled_from(operation["parameters"]))
    query = {p["name"]: data.draw(_value(p["schema"]))
             for p in operation["parameters"] if p["required"]}
    query[parameter["name"]] = data.draw(_outside(parameter["schema"]))
    response = client.get(path, query, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, (query, response.content[:300])
    body = _check_against_document(operation, response)
    assert parameter["name"] in body["errors"]


@pytest.mark.parametrize(("path", "operation"), OPERATIONS, ids=[p for p, _o in OPERATIONS])
def test_the_required_parameters_alone_give_the_documented_200(client, content, path,
                                                               operation):
    query = {"gpus": "512", "workload": "training", "budget": "balanced",
             "determinism": "standard"}
    required = {p["name"] for p in operation["parameters"] if p["required"]}
    response = client.get(path, {k: v for k, v in query.items() if k in required})
    assert response.status_code == 200
    body = _check_against_document(operation, response)
    if path == "/api/acceptance.txt":  # the recommended fabric's test plan, as text
        assert "all_reduce_perf" in response.content.decode()
        return
    # 512 GPUs: a textbook radix-64 tree (16 leaves, 8 spines), or the recommended 400G
    # links on a 64 x 800G switch split into 128 x 400G ports (8 leaves, 4 spines).
    fabric = body.get("fabric", body)
    expected = (2, 8, 4) if path == "/api/recommend" else (2, 16, 8)
    assert (fabric["tiers"], fabric["leaf"], fabric["spine"]) == expected


@pytest.mark.parametrize(("path", "operation"), DOWNLOADS, ids=[p for p, _o in DOWNLOADS])
def test_a_download_takes_the_fabric_parameters_and_answers_its_documented_file(
        client, content, path, operation):
    # /api/fabric's parameters but the estimate's and the racks' (a file has no use for them).
    fabric = {p["name"] for p in DOC["paths"]["/api/fabric"]["get"]["parameters"]}
    assert {p["name"] for p in operation["parameters"]} == fabric - {
        p["name"] for p in BUILD_PARAMETERS}
    response = client.get(path, {"gpus": "64", "fabric": "roce-v2-400g"})
    assert response.status_code == 200
    media = response["Content-Type"].split(";")[0]
    assert media in operation["responses"]["200"]["content"]
    assert b"".join(response.streaming_content)


@pytest.mark.parametrize(("path", "operation"), DOWNLOADS, ids=[p for p, _o in DOWNLOADS])
@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_download_outside_its_schema_is_a_documented_400_naming_it(
        client, content, path, operation, data):
    parameter = data.draw(st.sampled_from(operation["parameters"]))
    query = {"gpus": "64", "fabric": "infiniband"}
    query[parameter["name"]] = data.draw(_outside(parameter["schema"]))
    response = client.get(path, query, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, (query, response.content[:300])
    body = _check_against_document(operation, response)
    assert parameter["name"] in body["errors"]


def test_a_download_too_large_is_a_documented_413(client, content, monkeypatch):
    from selector.planner import downloads

    monkeypatch.setattr(downloads, "LINKS_MAX", 1)
    path, operation = DOWNLOADS[0]
    response = client.get(path, {"gpus": "64", "fabric": "roce-v2-400g"})
    assert response.status_code == 413
    _check_against_document(operation, response)
