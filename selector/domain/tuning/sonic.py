"""SONiC (the community image's QoS defaults): the family's lossless values, its sources
(sonic-buildimage's QoS template, sonic-swss's buffer manager, the SKU's headroom table,
the command and configuration references, read on 2026-12-01), the CONFIG_DB snippet
(cable lengths that are rows of the SKU's table, PFC on 3,4, the lossless WRED profile)
and ``FAMILY`` for the registry.

Pure Python, no Django."""

from __future__ import annotations

import json
from typing import Any

from ..catalogue import Source
from .model import (
    CL_ROCE,
    GUO_2016,
    LOSSLESS_MAX_M,
    N_,
    READ,
    ROLE_WORDS,
    SPINE_SECTION,
    Citation,
    ConfigLine,
    Family,
    LeafPorts,
    PortGroup,
    Span,
    TuningProfile,
    TuningRequest,
    Warn,
    layout_comment,
    long_link_warnings,
    port_spans,
)
from .nic import MLNX_QOS, MLX5, NCCL_ENV, RFC_2474, nic_lines

KEY = "sonic"
OS_NAME = "SONiC (community image)"

SONIC_QOS = Source(
    "SONiC default QoS template qos_config.j2 (sonic-net/sonic-buildimage)",
    "https://github.com/sonic-net/sonic-buildimage/blob/master/files/build_templates/"
    "qos_config.j2", READ, "SONiC 默认 QoS 模板（英文）")
SONIC_BUFMGR = Source(
    "SONiC buffer manager cfgmgr/buffermgr.cpp (sonic-net/sonic-swss)",
    "https://github.com/sonic-net/sonic-swss/blob/master/cfgmgr/buffermgr.cpp", READ,
    "SONiC 缓存管理程序源代码（英文）")
SONIC_PGL_7060X6 = Source(
    "Arista 7060X6-64PE-B (Tomahawk 5) SONiC pg_profile_lookup.ini (sonic-net/sonic-buildimage)",
    "https://github.com/sonic-net/sonic-buildimage/blob/master/device/arista/"
    "x86_64-arista_7060x6_64pe_b/Arista-7060X6-64PE-B-P64/pg_profile_lookup.ini", READ,
    "Arista 7060X6 SONiC 无损 PG 缓存表（英文）")
SONIC_CMDREF = Source(
    "SONiC Command Line Interface Guide (sonic-utilities doc/Command-Reference.md)",
    "https://github.com/sonic-net/sonic-utilities/blob/master/doc/Command-Reference.md", READ,
    "SONiC 命令行参考（英文）")
SONIC_CFGDOC = Source(
    "SONiC Configuration (sonic-yang-models doc/Configuration.md)",
    "https://github.com/sonic-net/sonic-buildimage/blob/master/src/sonic-yang-models/doc/"
    "Configuration.md", READ, "SONiC 配置说明（英文）")

# Arista 7060X6-64PE-B-P64 SONiC pg_profile_lookup.ini: (speed Gb/s, cable m) -> xoff bytes
# (the file writes the speed in Mb/s).
# Its only row; the 64 x 400G SKU of the same switch ships an empty table.
SONIC_PG_TABLE: dict[str, dict[tuple[int, int], int]] = {
    "arista-7060x6-64pe": {(800, 5): 724_662},
}


def _table_row(switch_key: str, speed: int, cable_m: int) -> tuple[int, int] | None:
    """The SKU table row ``(cable, xoff)`` for ``speed`` with the shortest cable length that
    covers ``cable_m`` (SONiC only accepts cable lengths that are rows of the table)."""
    table = SONIC_PG_TABLE.get(switch_key, {})
    rows = sorted((c, xoff) for (s, c), xoff in table.items() if s == speed and c >= cable_m)
    return rows[0] if rows else None


def ethernet_ports(first: int, count: int, split: int, lanes: int = 8) -> list[str]:
    """SONiC port names: ``Ethernet<first lane>``, 8 lanes per 800G port, a port broken out
    ``split`` ways takes ``lanes / split`` lanes per part (the platform's platform.json)."""
    step = lanes // split
    return [f"Ethernet{(n - 1) * lanes + i * step}"
            for n in range(first, first + count) for i in range(split)]


def _ethernet_span(first: int, count: int) -> str:
    names = ethernet_ports(first, count, 1)
    return names[0] if len(names) == 1 else f"{names[0]}-{names[-1]}"


def _sonic_block(spans: list[Span], switch_key: str, uplink: int, speed: int
                 ) -> tuple[list[PortGroup], list[ConfigLine]]:
    groups: list[PortGroup] = []
    cable: dict[str, str] = {}
    mtu: dict[str, dict[str, str]] = {}
    lossless: list[str] = []
    lossy: list[str] = []
    notes: list[ConfigLine] = []
    for span in spans:
        names = ethernet_ports(span.first, span.count, span.split)
        port_speed = speed if span.role == "gpu" else uplink
        row = _table_row(switch_key, port_speed, span.cable_m)
        if span.cable_m >= LOSSLESS_MAX_M:
            ok, reason = False, "distance"
        elif row is None:
            ok, reason = False, "no_headroom_row"
        else:
            ok, reason = True, ""
        length = f"{row[0]}m" if ok and row else f"{span.cable_m}m"
        for name in names:
            cable[name] = length
            mtu[name] = {"mtu": "9100"}
        (lossless if ok else lossy).extend(names)
        groups.append(PortGroup(span.role, ",".join(names), len(names), span.cable_m, ok,
                                reason))
        if not ok:
            why = (f"links of up to {span.cable_m} m" if reason == "distance" else
                   f"the switch's headroom table has no row for {port_speed}G, "
                   f"{span.cable_m} m")
            notes.append(ConfigLine(
                f"# {ROLE_WORDS[span.role]} {names[0]}..{names[-1]}: {why}: lossy (ECN "
                "only), no PFC", None))
    qos = {"dscp_to_tc_map": "AZURE", "tc_to_queue_map": "AZURE", "tc_to_pg_map": "AZURE",
           "pfc_to_queue_map": "AZURE"}
    port_qos: dict[str, dict[str, str]] = {}
    if lossless:
        port_qos[",".join(lossless)] = {**qos, "pfc_enable": "3,4", "pfcwd_sw_enable": "3,4"}
    if lossy:
        port_qos[",".join(lossy)] = dict(qos)
    every = ",".join(lossless + lossy)

    def dump(value: Any) -> str:
        return json.dumps(value, separators=(", ", ": "))

    lines = [
        *notes,
        ConfigLine("# Write the tables below into one file, /etc/sonic/roce-qos.json, and load "
                   "it with config load; do not run config qos reload afterwards: it "
                   "regenerates the buffer and QoS tables from templates over them", None),
        ConfigLine("{", Citation(SONIC_CFGDOC, N_("CONFIG_DB tables as JSON"))),
        ConfigLine(f'"CABLE_LENGTH": {dump({"AZURE": cable})},',
                   Citation(SONIC_BUFMGR, N_("Cable length must be a row of the SKU's "
                                          "pg_profile_lookup.ini"))),
        ConfigLine(f'"PORT": {dump(mtu)},', Citation(SONIC_CFGDOC, N_("PORT table: mtu"))),
        ConfigLine(f'"PORT_QOS_MAP": {dump(port_qos)},',
                   Citation(SONIC_QOS, N_("Port QoS map with PFC on 3,4"))),
        ConfigLine(f'"QUEUE": {dump({every + "|3": {"scheduler": "scheduler.2", "wred_profile": "AZURE_LOSSLESS"}})}',  # noqa: E501
                   Citation(SONIC_CFGDOC, N_("Queue 3 with the lossless WRED/ECN profile"))),
        ConfigLine("}", Citation(SONIC_CFGDOC, N_("CONFIG_DB tables as JSON"))),
        ConfigLine("sudo config load /etc/sonic/roce-qos.json -y",
                   Citation(SONIC_CMDREF, N_("config load: load a JSON file into CONFIG_DB"))),
    ]
    # The two remarks below are the Command Reference's headings, not marked N_: the page
    # words them (selector.planner.words.REMARK_WORDS).
    if lossless:
        lines.append(ConfigLine(
            "sudo config pfcwd start --action drop all 200 --restoration-time 200",
            Citation(SONIC_CMDREF, "config pfcwd start")))
    lines.append(ConfigLine("sudo config save -y", Citation(SONIC_CMDREF, "config save")))
    return groups, lines


def build(request: TuningRequest) -> TuningProfile:
    """The CONFIG_DB profile: the community template's lossless classes and WRED profile,
    the headroom from the SKU's table (a port group without a row runs lossy), ECMP."""
    speed, uplink, cable_m = request.speed_gbps, request.uplink_gbps, request.cable_m
    gpu_cable, switch_key, leaf = request.gpu_cable_m, request.switch_key, request.leaf
    row = _table_row(switch_key, speed, gpu_cable)
    if row:
        xoff, headroom_cable = row[1], f"{row[0]}m"
    else:
        xoff, headroom_cable = None, ""
    layout = leaf or LeafPorts(gpu_ports=64)
    spans = port_spans(layout, gpu_cable, cable_m)
    warnings = long_link_warnings(max(s.cable_m for s in spans))
    missing = sorted({(speed if s.role == "gpu" else uplink, s.cable_m) for s in spans
                      if s.cable_m < LOSSLESS_MAX_M
                      and _table_row(switch_key, speed if s.role == "gpu" else uplink,
                                     s.cable_m) is None})
    for port_speed, length in reversed(missing):
        warnings.insert(0, Warn("no_headroom_row", {"speed_gbps": port_speed,
                                                    "cable_m": length}))
    cits = {
        "pfc_priority": (Citation(SONIC_QOS, N_("Lossless traffic classes 3 and 4; PFC on 3,4")),),
        "dscp": (Citation(SONIC_QOS, N_("Default DSCP_TO_TC_MAP AZURE: DSCP 3 to TC 3, DSCP 48 to "
                                     "TC 6; DSCP 26 goes to TC 1 (lossy)")),),
        "udp_port": (Citation(CL_ROCE, N_("RoCE v2 uses UDP port 4791")),),
        "ecn": (Citation(SONIC_QOS, N_("WRED_PROFILE AZURE_LOSSLESS: min 1,048,576, max 2,097,152 "
                                    "bytes, probability 5, ecn_all")),),
        "headroom": (Citation(SONIC_BUFMGR, N_("Headroom from the SKU's pg_profile_lookup.ini by "
                                            "port speed and cable length")),
                     Citation(SONIC_PGL_7060X6, N_("Rows of this SKU's table"))),
        "port_groups": (Citation(SONIC_BUFMGR, N_("Cable length must be a row of the SKU's "
                                               "pg_profile_lookup.ini")),
                        Citation(SONIC_QOS, N_("Port QoS map with PFC on 3,4"))),
        "mtu": (Citation(SONIC_CFGDOC, N_("PORT table: mtu")),),
        "watchdog": (Citation(SONIC_CMDREF, N_("config pfcwd start: detection and restoration "
                                            "200 ms, action drop")),
                     Citation(GUO_2016, N_("PFC deadlocks and pause storms at scale"))),
        "adaptive_routing": (Citation(SONIC_QOS, N_("No adaptive routing in the community "
                                                 "template: ECMP")),),
        "nic_buffer": (Citation(MLX5, N_("NIC receive buffer: (301 + 2.16 x cable m) x Gb/s + "
                                      "2.72 x MTU, computed by the driver")),),
    }
    leaf_spans = [s for s in spans if s.switch == "leaf"]
    spine_spans = [s for s in spans if s.switch == "spine"]
    groups, lines = _sonic_block(leaf_spans, switch_key, uplink, speed)
    if leaf:
        lines.insert(0, ConfigLine(layout_comment(layout, _ethernet_span), None))
    if spine_spans:
        spine_groups, spine_lines = _sonic_block(spine_spans, switch_key, uplink, speed)
        groups += spine_groups
        lines += [ConfigLine(SPINE_SECTION, None), *spine_lines]
    gpu_lossless = next(g.lossless for g in groups if g.role == "gpu")
    lines += nic_lines(3, 3, 48, 6, gpu_lossless, remap=True)
    cits["nic"] = (Citation(MLNX_QOS, N_("Trust state: classify by DSCP")),
                   Citation(MLNX_QOS, N_("mlnx_qos: DSCP to priority mapping")),
                   Citation(NCCL_ENV, N_("NCCL_IB_TC: the traffic class of NCCL's RDMA traffic")),
                   Citation(RFC_2474, N_("The DSCP is the six most significant bits of the DS "
                                      "field")))
    return TuningProfile(
        family=KEY, os=OS_NAME, speed_gbps=speed,
        cable_m=cable_m, pfc_priority=3, roce_dscp=3, cnp_dscp=48, cnp_priority=6,
        roce_udp_port=4791, ecn_min_bytes=1_048_576, ecn_max_bytes=2_097_152,
        ecn_probability_pct=5, headroom="table", headroom_bytes=xoff,
        headroom_cable=headroom_cable, watchdog_detect_ms=200, watchdog_restore_ms=200,
        watchdog_action="drop", adaptive_routing=False, ar_condition="ar_not_documented",
        citations=cits, config=tuple(lines), warnings=tuple(warnings), groups=tuple(groups),
        mtu=9100,
    )


FAMILY = Family(key=KEY, os_name=OS_NAME, label=N_("SONiC (community QoS defaults)"), build=build)
