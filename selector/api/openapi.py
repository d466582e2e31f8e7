"""The OpenAPI 3.1 description of the public API, built from the same limits the forms use."""

from selector.domain import ENGINE_VERSION, GPS_MAX, GPS_MIN, GPUS_MAX, GPUS_MIN, NIC_SPEEDS
from selector.domain.decision import Budget, Determinism, Fabric, Workload
from selector.domain.sizing import OVERSUB_MAX, OVERSUB_MIN, RADIX_MAX, RADIX_MIN


def _int(name, lo, hi, required, description, default=None):
    schema = {"type": "integer", "minimum": lo, "maximum": hi}
    if default is not None:
        schema["default"] = default
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema}


def _enum(name, values, required, description, default=None):
    schema = {"type": "string", "enum": [str(v) for v in values]}
    if default is not None:
        schema["default"] = default
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema}


ERROR_RESPONSE = {
    "description": "Invalid input; messages follow the request's Accept-Language.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
}
SIZE_PROPERTIES = {
    "tiers": {"type": "integer", "enum": [2, 3]},
    "leaf": {"type": "integer"}, "spine": {"type": "integer"}, "core": {"type": "integer"},
    "switches": {"type": "integer"},
    "links": {"type": "object", "properties": {
        "gpu_leaf": {"type": "integer"}, "leaf_spine": {"type": "integer"},
        "spine_core": {"type": "integer"}}},
    "transceiver_ends": {"type": "integer",
                         "description": "Both ends of every link, NIC end included."},
}


def openapi_document(server_url: str) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "AI cluster network selector API",
            "version": ENGINE_VERSION,
            "description": "Recommends RoCE v2 or InfiniBand for an AI cluster and sizes a "
                           "rail-optimized fat-tree. Read-only, no side effects.",
        },
        "servers": [{"url": server_url.rstrip("/")}],
        "paths": {
            "/api/recommend": {"get": {
                "operationId": "recommend",
                "summary": "Recommend a fabric for the cluster described by the answers",
                "parameters": [
                    _int("gpus", GPUS_MIN, GPUS_MAX, True, "Total GPUs"),
                    _int("gpus_per_server", GPS_MIN, GPS_MAX, False, "GPUs per server (rails)",
                         8),
                    _enum("workload", Workload, True, "Workload"),
                    _enum("budget", Budget, True, "Budget"),
                    _enum("determinism", Determinism, True, "Determinism requirement"),
                    _enum("throughput_limited", ["true", "false"], False,
                          "Is training throughput limited today?", "false"),
                    _enum("nic_speed", NIC_SPEEDS, False, "NIC speed per GPU in Gb/s"),
                    _int("cable_m", 1, 2000, False, "Longest cable in metres (PFC headroom)",
                         100),
                ],
                "responses": {
                    "200": {"description": "The recommendation", "content": {
                        "application/json": {"schema": {
                            "$ref": "#/components/schemas/Recommendation"}}}},
                    "400": ERROR_RESPONSE,
                },
            }},
            "/api/fabric": {"get": {
                "operationId": "fabric",
                "summary": "Size a rail-optimized fat-tree",
                "parameters": [
                    _int("gpus", GPUS_MIN, GPUS_MAX, True, "Total GPUs"),
                    _int("gpus_per_server", GPS_MIN, GPS_MAX, False, "GPUs per server", 8),
                    _int("radix", RADIX_MIN, RADIX_MAX, False,
                         "Switch ports at fabric speed (even)", 64),
                    _int("oversubscription", OVERSUB_MIN, OVERSUB_MAX, False,
                         "Leaf oversubscription r (r:1)", 1),
                ],
                "responses": {
                    "200": {"description": "The fabric size", "content": {
                        "application/json": {"schema": {
                            "$ref": "#/components/schemas/FabricSize"}}}},
                    "400": ERROR_RESPONSE,
                },
            }},
        },
        "components": {"schemas": {
            "Errors": {"type": "object", "required": ["errors"], "properties": {
                "errors": {"type": "object", "additionalProperties": {
                    "type": "array", "items": {"type": "string"}}}}},
            "FabricSize": {"type": "object", "required": list(SIZE_PROPERTIES),
                           "properties": SIZE_PROPERTIES},
            "Recommendation": {"type": "object", "required": [
                "recommendation", "rule", "servers", "reasons", "runner_up", "what_if",
                "fabric", "tuning", "engine_version"], "properties": {
                "recommendation": {"type": "string", "enum": [f.value for f in Fabric]},
                "rule": {"type": "string", "pattern": "^R[1-7]$"},
                "servers": {"type": "integer"},
                "reasons": {"type": "array", "items": {"type": "string"}},
                "runner_up": {"type": "string", "enum": [f.value for f in Fabric]},
                "what_if": {"type": "array", "items": {"type": "object", "properties": {
                    "field": {"type": "string"}, "value": {},
                    "recommendation": {"type": "string"}, "rule": {"type": "string"},
                    "text": {"type": "string"}}}},
                "fabric": {"oneOf": [{"$ref": "#/components/schemas/FabricSize"},
                                     {"type": "null"}]},
                "tuning": {"oneOf": [{"type": "object"}, {"type": "null"}]},
                "engine_version": {"type": "string"},
            }},
        }},
    }
