"""The OpenAPI 3.1 description of the public API, built from the same limits the forms use.

Size: one declaration (every path, parameter and schema of the API, in the order the
document lists them); splitting it would scatter one document over several files.
"""

from selector.core.forms import FALSE_VALUES, TRUE_VALUES
from selector.domain import (
    DEFAULT_DISTANCE,
    DEFAULT_PLATFORM,
    DISTANCES,
    ENGINE_VERSION,
    GPS_MAX,
    GPS_MIN,
    GPUS_MAX,
    GPUS_MIN,
    NIC_SPEEDS,
    OVERSUBSCRIPTIONS,
    PLATFORMS,
    VENDORS,
)
from selector.domain.answers import Budget, Determinism, Workload
from selector.domain.build.cabling import CSV_HEADER
from selector.domain.build.failure import ELEMENTS
from selector.domain.build.performance import (
    DEFAULT_MODEL_PARAMS_B,
    MESSAGE_BYTES_MAX,
    MESSAGE_BYTES_MIN,
    MODEL_PARAMS_B_MAX,
    MODEL_PARAMS_B_MIN,
)
from selector.domain.build.racks import (
    RACK_KW_DEFAULT,
    RACK_KW_MAX,
    RACK_KW_MIN,
    RACK_U_DEFAULT,
    RACK_U_MAX,
    RACK_U_MIN,
)
from selector.domain.decision import Fabric
from selector.domain.sizing import OVERSUB_MAX, OVERSUB_MIN, RADIX_MAX, RADIX_MIN
from selector.planner.downloads import LINKS_MAX, SWITCHES_MAX, XLSX_LINKS_MAX


def _int(name, lo, hi, required, description, default=None):
    schema = {"type": "integer", "minimum": lo, "maximum": hi}
    if default is not None:
        schema["default"] = default
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema}


def _enum(name, values, required, description, default=None, case_insensitive=False):
    schema = {"type": "string", "enum": [str(v) for v in values]}
    if default is not None:
        schema["default"] = default
    if case_insensitive:  # an annotation for readers and tests/api/test_openapi.py
        schema["x-case-insensitive"] = True
        description += " (case and surrounding spaces are ignored)"
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema}


ERROR_RESPONSE = {
    "description": "Invalid input; messages follow the request's Accept-Language.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
}
RATE_LIMITED_RESPONSE = {
    "description": "Too many requests from this address (RFC 6585 section 4): wait the "
                   "Retry-After seconds. The limit is per client address, shared by every "
                   "API URL.",
    "headers": {"Retry-After": {"description": "Seconds until requests are answered again",
                                "schema": {"type": "integer", "minimum": 1}}},
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RateLimited"}}},
}
HARDWARE_PARAMETERS = [
    _enum("nic_speed", [*NIC_SPEEDS, "unsure", "none"], False, "NIC speed per GPU in Gb/s "
          "(empty, unsure or none: not sure, planned as 400). An 800G NIC on Ethernet is "
          "2 x 400GbE (NVIDIA ConnectX-8), planned as two planes."),
    _int("nics_per_server", GPS_MIN, GPS_MAX, False, "NICs per server, one rail each "
         "(default: one per GPU)"),
    _enum("vendor", VENDORS, False, "Switch vendor preference for Ethernet ('any': the "
          "vendor-neutral pick, fewest switches, then lowest power, then catalogue priority)",
          "any"),
    _enum("distance", list(DISTANCES), False, "Longest link: " + ", ".join(
        f"{k} (up to {v} m)" for k, v in DISTANCES.items()), DEFAULT_DISTANCE),
    _enum("platform", PLATFORMS, False, "Server platform, for the NIC end of the GPU links: "
          "dgx (DGX/HGX, twin-port OSFP at the server: one module per two NIC ports), "
          "pcie-osfp (ConnectX-7/OSFP), bluefield3 (QSFP112 only), unsure (planned as "
          "pcie-osfp)", DEFAULT_PLATFORM),
]
LEAF_OVERSUBSCRIPTION = _enum("oversubscription", OVERSUBSCRIPTIONS, False, "Leaf "
                              "oversubscription r:1 of the catalogue plan (1 non-blocking, "
                              "2, 3)", "1")


def _number(name, lo, hi, description, default=None):
    schema = {"type": "number", "minimum": lo, "maximum": hi}
    if default is not None:
        schema["default"] = default
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema}


BUILD_PARAMETERS = [
    _number("model_params_b", MODEL_PARAMS_B_MIN, MODEL_PARAMS_B_MAX, "Model size in billions "
            "of parameters: the all-reduce message of the estimate is its bf16 gradients (2 "
            "bytes per parameter)", DEFAULT_MODEL_PARAMS_B),
    _int("message_bytes", MESSAGE_BYTES_MIN, MESSAGE_BYTES_MAX, False, "The all-reduce "
         "message in bytes (instead of model_params_b, not with it)"),
    _number("rack_kw", RACK_KW_MIN, RACK_KW_MAX, "Power budget of one network rack, kW",
            RACK_KW_DEFAULT),
    _int("rack_u", RACK_U_MIN, RACK_U_MAX, False, "Usable height of one rack, rack units",
         RACK_U_DEFAULT),
]
SOURCE = {"type": "object", "required": ["title"], "properties": {
    "title": {"type": "string"}, "url": {"type": "string"},
    "date": {"type": "string", "description": "The date the document was read (ISO)."},
    "title_zh": {"type": "string"}}}
SWITCH = {"type": "object", "properties": {
    "key": {"type": "string"}, "vendor": {"type": "string"}, "model": {"type": "string"},
    "asic": {"type": "string"}, "technology": {"type": "string"},
    "ports": {"type": "integer", "description": "Native ports"},
    "port_speed_gbps": {"type": "integer", "description": "Native port speed"},
    "breakout": {"type": "array", "items": {"type": "object", "properties": {
        "speed_gbps": {"type": "integer"}, "ports": {"type": "integer"}}}},
    "cages": {"type": "integer", "description": "Physical port cages (an OSFP cage of an "
              "800G switch carries two 400G ports on some models)"},
    "power_w": {"type": ["integer", "null"], "description": "Datasheet maximum; null where "
                                                              "no document we read gives it"},
    "family": {"type": "string", "description": "Tuning family (the configuration syntax)"},
    "vendor_key": {"type": "string", "description": "The vendor as the vendor parameter "
                   "names it"},
    "priority": {"type": "integer", "description": "Catalogue order among equal picks"},
    "rack_units": {"type": ["integer", "null"], "description": "Height from the switch's own "
                   "documents; null where none gives it (not known)"},
    "source": SOURCE,
    "sources": {"type": "array", "items": SOURCE,
                "description": "Every document the figures come from; source is the first"},
    "speed_gbps": {"type": "integer", "description": "= port_speed_gbps (first release)"},
    "radix": {"type": "integer", "description": "= ports (first release)"}}}
BOM_LINE = {"type": "object", "properties": {
    "part": {"type": "string"}, "kind": {"type": "string", "enum": ["switch", "module", "cable"]},
    "tier": {"type": "string", "enum": ["switch", "gpu", "leaf_spine", "spine_core"]},
    "vendor": {"type": "string"}, "model": {"type": "string"},
    "reach_m": {"type": ["integer", "null"]}, "count": {"type": "integer"},
    "power_w": {"type": ["number", "null"], "description": "Per unit"}, "source": SOURCE}}
COST = {"type": ["object", "null"], "description": "Indicative CAPEX at the company's unit "
        "prices; null without a complete price list (price on request).", "properties": {
            "currency": {"type": "string"}, "amount": {"type": "string"},
            "as_of": {"type": "string"}, "is_example": {"type": "boolean"}}}
PLAN_PROPERTIES = {
    "fabric": {"type": "string", "enum": ["roce-v2-400g", "roce-v2-800g", "infiniband"]},
    "planes": {"type": "integer"},
    "pods": {"type": "integer", "description": "Identical, independent fabrics (no links "
             "between them), each of `planes` planes; every count is for all of them. More "
             "than 1 for a large inference cluster: the fewest two-tier pods."},
    "design": {"type": "string", "enum": ["single-switch", "switch-per-plane", "two-tier",
                                          "three-tier"]},
    "gpu_link_gbps": {"type": ["integer", "null"], "description": "Each GPU's NIC speed"},
    "port_gbps": {"type": "integer", "description": "Switch-port speed of a GPU link (400 for "
                                                   "an 800G NIC on Ethernet: two ports)"},
    "ports_per_nic": {"type": "integer", "description": "Switch ports one NIC takes (2 for "
                      "an 800G NIC on Ethernet)"},
    "uplink_gbps": {"type": ["integer", "null"]},
    "speed_gbps": {"type": "integer", "description": "= uplink_gbps (first release)"},
    "distance": {"type": "string", "enum": list(DISTANCES), "description": "The distance "
                 "class the optics and cables are chosen for"},
    "reach_m": {"type": "integer", "description": "The longest link of that class, metres"},
    "switch": {"oneOf": [SWITCH, {"type": "null"}]},
    "bom": {"type": "array", "items": BOM_LINE},
    "modules": {"type": "integer"}, "cables": {"type": "integer"},
    "power_w": {"type": ["integer", "null"], "description": "Switches and optics with a "
                "published power figure (power_complete says whether that is all)"},
    "power_complete": {"type": "boolean"},
    "cost": COST,
    "notes": {"type": "array", "items": {"type": "object"}},
}
NUMBER = {"type": "number"}
BUILD_PROPERTIES = {
    "performance": {"type": "object", "description": "Collective-bandwidth estimate (an "
                    "estimate, not a measurement): nccl-tests bus bandwidth per GPU the fabric "
                    "allows, and the time of one all-reduce", "required": [
                        "allreduce_busbw_gbps", "alltoall_busbw_gbps", "allreduce_seconds",
                        "message_bytes", "formula", "assumptions", "source", "estimate"],
                    "properties": {
        "allreduce_busbw_gbps": {**NUMBER, "description": "All-reduce busbw per GPU, Gb/s"},
        "alltoall_busbw_gbps": {**NUMBER, "description": "All-to-all busbw per GPU, Gb/s"},
        "allreduce_busbw_gbytes": {**NUMBER, "description": "The same in GB/s (nccl-tests' "
                                   "unit)"},
        "alltoall_busbw_gbytes": {**NUMBER, "description": "The same in GB/s"},
        "allreduce_seconds": {**NUMBER, "description": "One all-reduce of message_bytes "
                              "(bandwidth term only)"},
        "message_bytes": {"type": "integer"},
        "model_params_b": {"type": ["number", "null"]},
        "gpus": {"type": "integer", "description": "Ranks of the all-reduce (every GPU)"},
        "link_efficiency": NUMBER, "oversubscription": {"type": "integer"},
        "planes": {"type": "integer"},
        "formula": {"type": "string"},
        "assumptions": {"type": "array", "items": {"type": "string"}},
        "assumption_keys": {"type": "array", "items": {"type": "object"}},
        "label": {"type": "string", "description": "\"Estimate, not a measurement\" in the "
                  "request's language"},
        "source": SOURCE, "sources": {"type": "array", "items": SOURCE},
        "same_for_roce_and_infiniband": {"type": "boolean"},
        "estimate": {"type": "boolean", "const": True}}},
    "failure_domains": {"type": "array", "description": "The loss of one element: GPUs that "
                        "lose their NIC path, the share of bandwidth lost, what a running job "
                        "does (sourced)", "items": {"type": "object", "required": [
                            "element", "gpus_disconnected", "bandwidth_lost_pct", "effect"],
                            "properties": {
        "element": {"type": "string", "enum": list(ELEMENTS)},
        "gpus_disconnected": {"type": "integer"}, "gpus_affected": {"type": "integer"},
        "gpu_links_lost": {"type": "integer"}, "uplinks_lost": {"type": "integer"},
        "bandwidth_lost_pct": {**NUMBER, "description": "Of the plan's GPU links (NIC link, "
                               "leaf, plane) or of the tier's uplinks (spine, core)"},
        "effect": {"type": "string"}, "effect_key": {"type": "object"},
        "sources": {"type": "array", "items": SOURCE}}}},
    "racks": {"type": "object", "required": ["switch_rack_units", "racks", "kw_per_rack"],
              "properties": {
        "switch_rack_units": {"type": ["integer", "null"], "description": "null: not known"},
        "switch_model": {"type": "string"},
        "rack_units_total": {"type": ["integer", "null"]},
        "switches": {"type": "integer"},
        "racks": {"type": ["integer", "null"], "description": "null: neither the switch's "
                  "power nor its height is known"},
        "switches_per_rack": {"type": ["integer", "null"]},
        "kw_per_rack": {**NUMBER, "description": "Switches and their optics (the optics only "
                        "where optics_only)"},
        "watts_per_switch": NUMBER, "rack_kw": NUMBER, "rack_u": {"type": "integer"},
        "limited_by": {"type": "string", "enum": ["power", "space", "cluster", "unknown"]},
        "optics_only": {"type": "boolean"},
        "text": {"type": "array", "items": {"type": "string"}}}},
}
FABRIC_ERROR = {"type": ["object", "null"], "description": "Why there is no fabric plan: "
                "too_large (with max_gpus) or no_switch", "properties": {
                    "code": {"type": "string", "enum": ["too_large", "no_switch"]},
                    "max_gpus": {"type": ["integer", "null"]}, "message": {"type": "string"}}}
SIZE_PROPERTIES = {
    "tiers": {"type": "integer", "enum": [1, 2, 3], "description": "1: a single switch"},
    "leaf": {"type": "integer"}, "spine": {"type": "integer"}, "core": {"type": "integer"},
    "switches": {"type": "integer"},
    "links": {"type": "object", "properties": {
        "gpu_leaf": {"type": "integer"}, "leaf_spine": {"type": "integer"},
        "spine_core": {"type": "integer"}}},
    "transceiver_ends": {"type": "integer",
                         "description": "Both ends of every link, NIC end included."},
    "radix": {"type": "integer", "description": "Switch ports at the fabric's speed"},
    "oversubscription": {"type": "integer", "description": "Leaf oversubscription r (r:1)"},
    "leaf_down": {"type": "integer", "description": "Ports per leaf towards the GPUs"},
    "leaf_up": {"type": "integer", "description": "Ports per leaf towards the spines"},
    "servers": {"type": "integer"}, "rails": {"type": "integer"},
    "gpus": {"type": "integer"}, "gpus_per_server": {"type": "integer"},
    "leaf_groups": {"type": "array", "description": "Leaves with the same port use",
                    "items": {"type": "object", "properties": {
                        "count": {"type": "integer"}, "down": {"type": "integer"},
                        "up": {"type": "integer"}}}},
    "gpu_gbps": {"type": "integer", "description": "GPU link speed the size is for (0: the "
                 "textbook fat-tree, no speed)"},
}


TOO_LARGE_RESPONSE = {
    "description": "The plan is larger than the download's documented limit (links for the "
                   "cabling plan, switches for the configurations); the message and "
                   "``limit`` name it.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TooLarge"}}},
}


def _fabric_parameters(fabric_required: bool) -> list[dict]:
    return [
        _int("gpus", GPUS_MIN, GPUS_MAX, True, "Total GPUs"),
        _int("gpus_per_server", GPS_MIN, GPS_MAX, False, "GPUs per server", 8),
        _int("radix", RADIX_MIN, RADIX_MAX, False,
             "Switch ports at fabric speed (even)", 64),
        _int("oversubscription", OVERSUB_MIN, OVERSUB_MAX, False,
             "Leaf oversubscription r (r:1); with fabric, 1, 2 or 3", 1),
        _enum("fabric", ["roce-v2-400g", "roce-v2-800g", "infiniband"], fabric_required,
              "Plan this fabric on a catalogue switch (then leave out radix)"
              + ("" if fabric_required else "; without it, a textbook fat-tree of radix")),
        *HARDWARE_PARAMETERS,
    ]


def _download(operation_id: str, summary: str, media: str, description: str) -> dict:
    return {"get": {
        "operationId": operation_id,
        "summary": summary,
        "description": description + f" Same parameters as /api/fabric (``fabric`` "
                       f"required). Limits: {LINKS_MAX:,} links for the CSV, "
                       f"{XLSX_LINKS_MAX:,} for the XLSX, {SWITCHES_MAX:,} Ethernet switches "
                       "for the configurations.",
        "parameters": _fabric_parameters(True),
        "responses": {
            "200": {"description": "The file, streamed (Content-Disposition: attachment)",
                    "content": {media: {"schema": {"type": "string",
                                                   "contentMediaType": media}}}},
            "400": ERROR_RESPONSE,
            "413": TOO_LARGE_RESPONSE,
            "429": RATE_LIMITED_RESPONSE,
        },
    }}


CSV_DESCRIPTION = ("One row per link of the catalogue plan, header " + ",".join(CSV_HEADER)
                   + "; UTF-8 with BOM; a cell that a spreadsheet could run as a formula "
                   "starts with an apostrophe.")


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
                    _enum("throughput_limited", ["true", "false", *sorted(
                        (TRUE_VALUES | FALSE_VALUES) - {"true", "false"})], False,
                          "Is training throughput limited today?", "false",
                          case_insensitive=True),
                    *HARDWARE_PARAMETERS,
                    LEAF_OVERSUBSCRIPTION,
                    _int("cable_m", 1, 2000, False, "Deprecated (first release): the longest "
                         "cable in metres; picks the smallest distance that covers it"),
                    *BUILD_PARAMETERS,
                ],
                "responses": {
                    "200": {"description": "The recommendation", "content": {
                        "application/json": {"schema": {
                            "$ref": "#/components/schemas/Recommendation"}}}},
                    "400": ERROR_RESPONSE,
                    "429": RATE_LIMITED_RESPONSE,
                },
            }},
            "/api/fabric": {"get": {
                "operationId": "fabric",
                "summary": "Size a rail-optimized fat-tree",
                "parameters": [*_fabric_parameters(False), *BUILD_PARAMETERS],
                "responses": {
                    "200": {"description": "The fabric size", "content": {
                        "application/json": {"schema": {
                            "$ref": "#/components/schemas/FabricSize"}}}},
                    "400": ERROR_RESPONSE,
                    "429": RATE_LIMITED_RESPONSE,
                },
            }},
            "/api/acceptance.txt": {"get": {
                "operationId": "acceptance",
                "summary": "The acceptance test plan of a catalogue plan, as text in the "
                           "request's language: link checks per port group, perftest per "
                           "link class, nccl-tests with the estimate as the pass threshold, "
                           "the counters to read",
                "description": "The same query parameters as /api/fabric (a fabric, or the "
                               "recommended fabric of the cluster; radix is refused).",
                "parameters": [
                    _int("gpus", GPUS_MIN, GPUS_MAX, True, "Total GPUs"),
                    _int("gpus_per_server", GPS_MIN, GPS_MAX, False, "GPUs per server", 8),
                    _enum("fabric", ["roce-v2-400g", "roce-v2-800g", "infiniband"], False,
                          "The fabric to test (default: the recommended one)"),
                    *HARDWARE_PARAMETERS,
                    *BUILD_PARAMETERS,
                ],
                "responses": {
                    "200": {"description": "The test plan", "content": {
                        "text/plain": {"schema": {"type": "string"}}}},
                    "400": ERROR_RESPONSE,
                    "429": RATE_LIMITED_RESPONSE,
                },
            }},
            "/api/cabling.csv": _download(
                "cabling_csv", "The cabling plan as CSV", "text/csv", CSV_DESCRIPTION),
            "/api/cabling.xlsx": _download(
                "cabling_xlsx", "The cabling plan as an XLSX workbook",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "The same rows as /api/cabling.csv, every text an explicit string cell."),
            "/api/configs.zip": _download(
                "configs_zip", "One configuration file per switch, zipped",
                "application/zip",
                "One file per switch named by its device name (NVUE or SONiC, with the "
                "lossless QoS and eBGP unnumbered underlay), or opensm.conf for "
                "InfiniBand, and README.txt."),
        },
        "components": {"schemas": {
            "TooLarge": {"type": "object", "required": ["errors", "limit"], "properties": {
                "errors": {"type": "object", "additionalProperties": {
                    "type": "array", "items": {"type": "string"}}},
                "limit": {"type": "integer", "minimum": 1}}},
            "Errors": {"type": "object", "required": ["errors"], "properties": {
                "errors": {"type": "object", "additionalProperties": {
                    "type": "array", "items": {"type": "string"}}}}},
            "RateLimited": {"type": "object", "required": ["errors", "retry_after"],
                            "properties": {
                "errors": {"type": "object", "required": ["rate_limit"],
                           "additionalProperties": {"type": "array",
                                                    "items": {"type": "string"}}},
                "retry_after": {"type": "integer", "minimum": 1}}},
            "FabricSize": {"type": "object", "required": [
                "tiers", "leaf", "spine", "core", "switches", "links", "transceiver_ends"],
                           "properties": {**SIZE_PROPERTIES, **PLAN_PROPERTIES,
                                          **BUILD_PROPERTIES}},
            "Tuning": {"type": "object", "properties": {
                "family": {"type": "string"},
                "os": {"type": "string", "description": "The switch operating system the "
                       "configuration lines are written for"},
                "speed_gbps": {"type": "integer",
                               "description": "The GPU links' port speed the values are for"},
                "cable_m": {"type": "integer"},
                "pfc_priority": {"type": "integer"}, "roce_dscp": {"type": "integer"},
                "cnp_dscp": {"type": "integer"}, "cnp_priority": {"type": "integer"},
                "roce_udp_port": {"type": "integer"},
                "ecn": {"type": "object", "properties": {
                    "min_bytes": {"type": "integer"}, "max_bytes": {"type": "integer"},
                    "probability": {"type": "integer"}}},
                "ecn_min_bytes": {"type": "integer", "description": "= ecn.min_bytes"},
                "ecn_max_bytes": {"type": "integer", "description": "= ecn.max_bytes"},
                "ecn_probability_pct": {"type": "integer", "description": "= ecn.probability"},
                "headroom": {"type": "string", "enum": ["switch", "table"]},
                "pfc_headroom_bytes": {"type": ["integer", "null"]},
                "headroom_cable": {"type": "string", "description": "The cable length of the "
                                   "headroom table row used (headroom: table)"},
                "pfc_watchdog": {"type": "boolean"},
                "watchdog": {"type": "object", "properties": {
                    "detect_ms": {"type": "integer"}, "restore_ms": {"type": "integer"},
                    "action": {"type": "string"}}},
                "adaptive_routing": {"type": "boolean"},
                "ar_condition": {"type": "string", "description": "What adaptive routing "
                                 "needs or lacks here"},
                "citations": {"type": "object", "description": "The documents behind each "
                              "value, by value name", "additionalProperties": {
                                  "type": "array", "items": {"$ref": "#/components/schemas/"
                                                                     "Citation"}}},
                "config": {"type": "array", "items": {"type": "object", "properties": {
                    "text": {"type": "string"}, "citation": {"oneOf": [
                        {"$ref": "#/components/schemas/Citation"}, {"type": "null"}]}}}},
                "warnings": {"type": "array", "items": {"type": "object"}},
                "port_groups": {"type": "array", "description": "Every port the configuration "
                                "sets, by group: the fullest leaf's GPU ports and uplinks, "
                                "every spine/core port; a group runs lossless (PFC and ECN) "
                                "or lossy (ECN only, with the reason)", "items": {
                                    "type": "object", "required": [
                                        "role", "ports", "count", "cable_m", "lossless"],
                                    "properties": {
                                        "role": {"type": "string",
                                                 "enum": ["gpu", "uplink", "fabric"]},
                                        "ports": {"type": "string", "description":
                                                  "Interface names as the switch OS "
                                                  "writes them"},
                                        "count": {"type": "integer"},
                                        "cable_m": {"type": "integer", "description":
                                                    "The plan's longest link on them"},
                                        "lossless": {"type": "boolean"},
                                        "reason": {"type": "string", "enum": [
                                            "", "distance", "no_headroom_row"]}}}},
                "mtu": {"type": "integer", "description": "The switch ports' MTU, bytes"}}},
            "Citation": {"type": "object", "properties": {
                "source": SOURCE, "remark": {"type": "string"}}},
            "Recommendation": {"type": "object", "required": [
                "recommendation", "rule", "servers", "reasons", "runner_up", "what_if",
                "fabric", "tuning", "engine_version"], "properties": {
                "recommendation": {"type": "string", "enum": [f.value for f in Fabric]},
                "recommendation_label": {"type": "string"},
                "rule": {"type": "string", "pattern": "^R[1-7]$"},
                "rule_title": {"type": "string"},
                "seed_quote": {"type": "string", "description": "The sentence of the "
                               "company's article the rule follows"},
                "servers": {"type": "integer"},
                "reasons": {"type": "array", "items": {"type": "string"}},
                "reason_keys": {"type": "array", "description": "The reasons, machine-readable",
                                "items": {"type": "object", "properties": {
                                    "key": {"type": "string"}, "params": {"type": "object"}}}},
                "runner_up": {"type": "string", "enum": [f.value for f in Fabric]},
                "what_if": {"type": "array", "items": {"type": "object", "properties": {
                    "field": {"type": "string"}, "value": {},
                    "recommendation": {"type": "string"}, "rule": {"type": "string"},
                    "text": {"type": "string"}}}},
                "fabric": {"oneOf": [{"$ref": "#/components/schemas/FabricSize"},
                                     {"type": "null"}]},
                "runner_up_fabric": {"oneOf": [{"$ref": "#/components/schemas/FabricSize"},
                                               {"type": "null"}]},
                "fabric_error": FABRIC_ERROR,
                "runner_up_fabric_error": FABRIC_ERROR,
                "tuning": {"oneOf": [{"$ref": "#/components/schemas/Tuning"},
                                     {"type": "null"}]},
                "infiniband_tuning": {"oneOf": [{"type": "null"}, {
                    "type": "object", "description": "For an InfiniBand recommendation: the "
                    "subnet manager's routing engine, SHIELD, SHARP and the service level, "
                    "with what must stay at its default, each value cited",
                    "properties": {
                        "family": {"type": "string"},
                        "routing_engine": {"type": "string"},
                        "shield": {"type": "boolean"},
                        "sharp": {"type": "object"},
                        "service_level": {"type": "integer"},
                        "citations": {"type": "object"},
                        "config": {"type": "array", "items": {"type": "object"}},
                        "rows": {"type": "array", "items": {"type": "object"}}}}]},
                "answers": {"type": "object", "description": "The answers as the engine "
                            "read them, defaults filled in"},
                "catalogue_version": {"type": "string"},
                "engine_version": {"type": "string"},
            }},
        }},
    }
