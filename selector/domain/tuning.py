"""RoCE v2 lossless tuning: one profile per switch family, matched to the switch in the plan
(the seed's 三件套, its three parts: PFC, ECN, adaptive routing), with a copyable configuration
snippet whose every line cites the vendor document it comes from.

Pure Python, no Django. One value per setting, the switch family's own; a rule of thumb is
never a second value. Sources: the vendors' documents read on 2026-12-01 (team research
notes, issue 12); citations are ``Citation(source, remark)`` pairs from here to the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .catalogue import Source
from .decision import Phrase

__all__ = [
    "FAMILIES",
    "SPEEDS_GBPS",
    "CABLE_M_MIN",
    "CABLE_M_MAX",
    "TuningError",
    "Citation",
    "ConfigLine",
    "TuningProfile",
    "LeafPorts",
    "tuning_profile",
    "nic_xoff_bytes",
    "bdp_bytes",
]

SPEEDS_GBPS = (100, 200, 400, 800)
CABLE_M_MIN, CABLE_M_MAX = 1, 2000
_READ = "2026-12-01"

CL_ROCE = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — RDMA over Converged Ethernet - RoCE",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
    "Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE/", _READ,
    "NVIDIA Cumulus Linux 5.18 用户指南：RoCE（英文）")
CL_QOS = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — Quality of Service",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
    "Layer-1-and-Switch-Ports/Quality-of-Service/", _READ,
    "NVIDIA Cumulus Linux 5.18 用户指南：服务质量（英文）")
CL_ECMP = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — Equal Cost Multipath Load Sharing "
    "(Adaptive Routing)",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/Layer-3/Routing/"
    "Equal-Cost-Multipath-Load-Sharing/", _READ,
    "NVIDIA Cumulus Linux 5.18 用户指南：等价多路径与自适应路由（英文）")
CL_PORTS = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — Switch Port Attributes",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
    "Layer-1-and-Switch-Ports/Interface-Configuration-and-Management/Switch-Port-Attributes/",
    _READ, "NVIDIA Cumulus Linux 5.18 用户指南：交换机端口属性（英文）")
NVUE_PFC = Source(
    "NVIDIA NVUE Command Reference — nv set qos pfc <profile-id> cable-length",
    "https://docs.nvidia.com/networking-ethernet-software/nvue-reference/", _READ,
    "NVIDIA NVUE 命令参考：PFC 线缆长度（英文）")
NETOP_SPCX = Source(
    "NVIDIA Network Operator v26.10.0 — NVIDIA Spectrum-X Ethernet Networking Platform",
    "https://docs.nvidia.com/networking/display/kubernetes26100/spectrum-x/spectrum-x.html",
    _READ, "NVIDIA Spectrum-X 以太网平台说明（英文）")
SONIC_QOS = Source(
    "SONiC default QoS template qos_config.j2 (sonic-net/sonic-buildimage)",
    "https://github.com/sonic-net/sonic-buildimage/blob/master/files/build_templates/"
    "qos_config.j2", _READ, "SONiC 默认 QoS 模板（英文）")
SONIC_BUFMGR = Source(
    "SONiC buffer manager cfgmgr/buffermgr.cpp (sonic-net/sonic-swss)",
    "https://github.com/sonic-net/sonic-swss/blob/master/cfgmgr/buffermgr.cpp", _READ,
    "SONiC 缓存管理程序源代码（英文）")
SONIC_PGL_7060X6 = Source(
    "Arista 7060X6-64PE-B (Tomahawk 5) SONiC pg_profile_lookup.ini (sonic-net/sonic-buildimage)",
    "https://github.com/sonic-net/sonic-buildimage/blob/master/device/arista/"
    "x86_64-arista_7060x6_64pe_b/Arista-7060X6-64PE-B-P64/pg_profile_lookup.ini", _READ,
    "Arista 7060X6 SONiC 无损 PG 缓存表（英文）")
SONIC_CMDREF = Source(
    "SONiC Command Line Interface Guide (sonic-utilities doc/Command-Reference.md)",
    "https://github.com/sonic-net/sonic-utilities/blob/master/doc/Command-Reference.md", _READ,
    "SONiC 命令行参考（英文）")
SONIC_CFGDOC = Source(
    "SONiC Configuration (sonic-yang-models doc/Configuration.md)",
    "https://github.com/sonic-net/sonic-buildimage/blob/master/src/sonic-yang-models/doc/"
    "Configuration.md", _READ, "SONiC 配置说明（英文）")
MLX5 = Source(
    "Linux mlx5 driver, drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c",
    "https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlx5/core/en/"
    "port_buffer.c", _READ, "Linux mlx5 网卡驱动源代码（英文）")
GUO_2016 = Source(
    "Guo et al., RDMA over Commodity Ethernet at Scale, ACM SIGCOMM 2016",
    "https://doi.org/10.1145/2934872.2934908", _READ,
    "Guo 等，大规模商用以太网上的 RDMA（SIGCOMM 2016，英文）")


class TuningError(ValueError):
    """Invalid tuning input; ``field`` names the argument, ``code`` is a machine code."""

    def __init__(self, field: str, code: str, message: str | None = None):
        self.field = field
        self.code = code
        super().__init__(message or f"{field}: {code}")


@dataclass(frozen=True)
class Citation:
    """A source and the specific remark it supports (English; the pages translate the known
    remarks). Never an internal path."""

    source: Source
    remark: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source.to_dict(), "remark": self.remark}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Citation:
        return cls(Source.from_dict(data["source"]), str(data.get("remark", "")))


@dataclass(frozen=True)
class ConfigLine:
    """One line of a configuration snippet; ``citation`` is None for comment lines."""

    text: str
    citation: Citation | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text,
                "citation": self.citation.to_dict() if self.citation else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfigLine:
        cit = data.get("citation")
        return cls(str(data["text"]), Citation.from_dict(cit) if cit else None)


@dataclass(frozen=True)
class Warn(Phrase):
    """A caveat of the tuning values the pages put into words."""


@dataclass(frozen=True)
class TuningProfile:
    """The lossless values for one switch family at the plan's GPU link speed.

    ``headroom`` says how PFC headroom is decided: ``switch`` (the switch computes it from
    the cable length; no byte value to set) or ``table`` (the SKU's lookup table row,
    ``headroom_bytes`` per lossless priority group, ``headroom_cable`` its cable length;
    None when the table has no row for the plan). ``adaptive_routing`` is True only when
    the family's conditions hold; ``ar_condition`` names what it needs or lacks.
    """

    family: str
    speed_gbps: int
    cable_m: int
    pfc_priority: int
    roce_dscp: int
    cnp_dscp: int
    cnp_priority: int
    roce_udp_port: int
    ecn_min_bytes: int
    ecn_max_bytes: int
    ecn_probability_pct: int
    headroom: str
    headroom_bytes: int | None
    headroom_cable: str
    watchdog_detect_ms: int
    watchdog_restore_ms: int
    watchdog_action: str
    adaptive_routing: bool
    ar_condition: str
    os: str
    citations: dict[str, tuple[Citation, ...]]
    config: tuple[ConfigLine, ...]
    warnings: tuple[Warn, ...] = ()

    @property
    def pfc_watchdog(self) -> bool:
        return True

    def sources(self) -> list[Source]:
        """Every document the profile cites, once, in order of first use."""
        seen: dict[str, Source] = {}
        for cits in self.citations.values():
            for cit in cits:
                seen.setdefault(cit.source.title, cit.source)
        for line in self.config:
            if line.citation:
                seen.setdefault(line.citation.source.title, line.citation.source)
        return list(seen.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "os": self.os,
            "speed_gbps": self.speed_gbps,
            "cable_m": self.cable_m,
            "pfc_priority": self.pfc_priority,
            "roce_dscp": self.roce_dscp,
            "cnp_dscp": self.cnp_dscp,
            "cnp_priority": self.cnp_priority,
            "roce_udp_port": self.roce_udp_port,
            "ecn": {"min_bytes": self.ecn_min_bytes, "max_bytes": self.ecn_max_bytes,
                    "probability": self.ecn_probability_pct},
            "ecn_min_bytes": self.ecn_min_bytes,
            "ecn_max_bytes": self.ecn_max_bytes,
            "ecn_probability_pct": self.ecn_probability_pct,
            "headroom": self.headroom,
            "pfc_headroom_bytes": self.headroom_bytes,
            "headroom_cable": self.headroom_cable,
            "pfc_watchdog": True,
            "watchdog": {"detect_ms": self.watchdog_detect_ms,
                         "restore_ms": self.watchdog_restore_ms,
                         "action": self.watchdog_action},
            "adaptive_routing": self.adaptive_routing,
            "ar_condition": self.ar_condition,
            "citations": {k: [c.to_dict() for c in v] for k, v in self.citations.items()},
            "config": [line.to_dict() for line in self.config],
            "warnings": [w.to_dict() for w in self.warnings],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TuningProfile:
        ecn = data["ecn"]
        dog = data["watchdog"]
        return cls(
            family=data["family"], os=data.get("os", ""), speed_gbps=int(data["speed_gbps"]),
            cable_m=int(data["cable_m"]), pfc_priority=int(data["pfc_priority"]),
            roce_dscp=int(data["roce_dscp"]), cnp_dscp=int(data["cnp_dscp"]),
            cnp_priority=int(data["cnp_priority"]), roce_udp_port=int(data["roce_udp_port"]),
            ecn_min_bytes=int(ecn["min_bytes"]), ecn_max_bytes=int(ecn["max_bytes"]),
            ecn_probability_pct=int(ecn["probability"]), headroom=data["headroom"],
            headroom_bytes=(None if data.get("pfc_headroom_bytes") is None
                            else int(data["pfc_headroom_bytes"])),
            headroom_cable=data.get("headroom_cable", ""),
            watchdog_detect_ms=int(dog["detect_ms"]), watchdog_restore_ms=int(dog["restore_ms"]),
            watchdog_action=dog["action"], adaptive_routing=bool(data["adaptive_routing"]),
            ar_condition=data.get("ar_condition", ""),
            citations={k: tuple(Citation.from_dict(c) for c in v)
                       for k, v in data.get("citations", {}).items()},
            config=tuple(ConfigLine.from_dict(x) for x in data.get("config", ())),
            warnings=tuple(Warn.from_dict(w) for w in data.get("warnings", ())),
        )


# --- NIC side (not a switch value) -----------------------------------------------------------


def nic_xoff_bytes(speed_gbps: int, cable_m: int, mtu: int) -> int:
    """The mlx5 driver's NIC receive-buffer xoff: ``(301 + 2.16 x cable_m) x speed + 2.72 x
    MTU`` (port_buffer.c). It sizes the NIC's buffer, never a switch's headroom."""
    value = (301 + Decimal("2.16") * cable_m) * speed_gbps + Decimal("2.72") * mtu
    return math.ceil(value)


def bdp_bytes(speed_gbps: int, rtt_us: float) -> int:
    """Bandwidth-delay product, bytes, rounded up: ``rtt x bandwidth``."""
    return math.ceil(Decimal(str(rtt_us)) * speed_gbps * 125)


# --- the families ------------------------------------------------------------------------------

FAMILIES = ("nvidia-spectrum", "sonic")
OS_NAMES = {"nvidia-spectrum": "NVIDIA Cumulus Linux (NVUE)",
            "sonic": "SONiC (community image)"}

# Arista 7060X6-64PE-B-P64 SONiC pg_profile_lookup.ini: (speed Mb/s, cable) -> xoff bytes.
# Its only row; the 64 x 400G SKU of the same switch ships an empty table.
SONIC_PG_TABLE: dict[str, dict[tuple[int, int], int]] = {
    "arista-7060x6-64pe": {(800, 5): 724_662},
}


def _validate(speed_gbps: object, cable_m: object) -> None:
    if not isinstance(speed_gbps, int) or isinstance(speed_gbps, bool):
        raise TuningError("speed_gbps", "invalid")
    if speed_gbps not in SPEEDS_GBPS:
        raise TuningError("speed_gbps", "invalid_choice",
                          f"speed_gbps must be one of {SPEEDS_GBPS}")
    if not isinstance(cable_m, int) or isinstance(cable_m, bool):
        raise TuningError("cable_m", "invalid")
    if not CABLE_M_MIN <= cable_m <= CABLE_M_MAX:
        raise TuningError("cable_m", "out_of_range",
                          f"cable_m must be {CABLE_M_MIN}..{CABLE_M_MAX}")


def _long_link_warnings(cable_m: int, family: str) -> list[Warn]:
    out = []
    if cable_m >= 1000:
        out.append(Warn("long_link_lossy", {"cable_m": cable_m}))
    elif cable_m > 100:
        out.append(Warn("long_link_headroom", {"cable_m": cable_m}))
    return out


@dataclass(frozen=True)
class LeafPorts:
    """How a leaf uses its front-panel ports: the first ``gpu_ports`` native ports face the
    GPUs, each split ``gpu_split`` ways; the next ``uplink_ports`` go to the spines, each
    split ``uplink_split`` ways (1: native speed). ``uplink_ports`` is 0 on a switch that
    carries a whole plane."""

    gpu_ports: int
    gpu_split: int = 1
    uplink_ports: int = 0
    uplink_split: int = 1


def _swp(first: int, count: int, split: int) -> list[str]:
    """NVUE interface names: ``swp1-32`` for native ports, ``swp1s0-1,swp2s0-1,...`` for
    ports broken out ``split`` ways (Cumulus names the parts swpNs0..swpNs<split-1>)."""
    if count <= 0:
        return []
    if split == 1:
        return [f"swp{first}" if count == 1 else f"swp{first}-{first + count - 1}"]
    return [f"swp{n}s0-{split - 1}" for n in range(first, first + count)]


def _spectrum_ports(leaf: LeafPorts | None) -> tuple[list[ConfigLine], str, str]:
    """The breakout lines, every lossless port, and the ECMP (uplink) ports of the leaf."""
    if leaf is None:  # no plan to read the layout from: every native port, unsplit
        return [], "swp1-64", "swp1-64"
    breakout = []
    uplink_first = leaf.gpu_ports + 1
    for first, count, split in ((1, leaf.gpu_ports, leaf.gpu_split),
                                (uplink_first, leaf.uplink_ports, leaf.uplink_split)):
        if count and split > 1:
            breakout.append(ConfigLine(
                f"nv set interface {_span(first, count)} link breakout {split}x",
                Citation(CL_PORTS, "Breakout: 2x splits a port into two interfaces, 4x into "
                                   "four")))
    gpu = _swp(1, leaf.gpu_ports, leaf.gpu_split)
    up = _swp(uplink_first, leaf.uplink_ports, leaf.uplink_split)
    layout = f"# Leaf: {_span(1, leaf.gpu_ports)} to the GPUs"
    if leaf.gpu_split > 1:
        layout += f" ({leaf.gpu_split} ports each)"
    if leaf.uplink_ports:
        layout += f", {_span(uplink_first, leaf.uplink_ports)} to the spines"
        if leaf.uplink_split > 1:
            layout += f" ({leaf.uplink_split} ports each)"
    return [ConfigLine(layout, None), *breakout], ",".join(gpu + up), ",".join(up)


def _span(first: int, count: int) -> str:
    return f"swp{first}" if count == 1 else f"swp{first}-{first + count - 1}"


def _spectrum(speed: int, uplink: int, cable_m: int, ar_nic_ok: bool,
              leaf: LeafPorts | None = None) -> TuningProfile:
    ar_speed_ok = speed in (200, 400) and uplink in (200, 400)
    adaptive = ar_speed_ok and ar_nic_ok
    if not ar_speed_ok:
        condition = "ar_not_800g"
    elif not ar_nic_ok:
        condition = "ar_needs_spectrum_x_nic"
    else:
        condition = "ar_spectrum_x"
    cits = {
        "pfc_priority": (Citation(CL_ROCE, "Enable PFC on switch priority 3 (RoCE)"),),
        "dscp": (Citation(CL_ROCE, "RoCE DSCP 26 to switch priority 3; CNP DSCP 48 to "
                                   "switch priority 6, strict priority"),),
        "udp_port": (Citation(CL_ROCE, "LLDP application TLV: UDP 4791, priority 3"),),
        "ecn": (Citation(CL_QOS, "ECN minimum threshold 150,000 bytes, maximum "
                                 "1,500,000 bytes"),
                Citation(CL_ROCE, "ECN marking probability 100")),
        "headroom": (Citation(CL_QOS, "The switch computes the PFC headroom from the cable "
                                      "length; do not set it by hand"),
                     Citation(NVUE_PFC, "Cable length 1 to 100000 m per PFC profile")),
        "watchdog": (Citation(CL_QOS, "PFC watchdog per PFC port: polling interval 100 ms, "
                                      "3 intervals"),
                     Citation(GUO_2016, "PFC deadlocks and pause storms at scale")),
        "adaptive_routing": (
            Citation(CL_ECMP, "Adaptive routing: Spectrum-4 at 400G and 200G, RoCE unicast, "
                              "Spectrum-X platform; not on 800G links"),
            Citation(NETOP_SPCX, "Spectrum-X NICs: BlueField-3 SuperNIC, ConnectX-7, "
                                 "ConnectX-8")),
        "nic_buffer": (Citation(MLX5, "NIC receive buffer: (301 + 2.16 x cable m) x Gb/s + "
                                      "2.72 x MTU, computed by the driver"),),
    }
    breakout, lossless_ports, ecmp_ports = _spectrum_ports(leaf)
    lines = [
        *breakout,
        ConfigLine("nv set qos roce mode lossless",
                   Citation(CL_ROCE, "RoCE lossless (with PFC and ECN)")),
        ConfigLine(f"nv set qos pfc default-global cable-length {cable_m}",
                   Citation(CL_QOS, "Priority Flow Control (PFC): cable length")),
        ConfigLine(f"nv set interface {lossless_ports} qos pfc-watchdog",
                   Citation(CL_QOS, "PFC watchdog")),
    ]
    if adaptive and ecmp_ports:
        lines += [
            ConfigLine("nv set router adaptive-routing state enabled",
                       Citation(CL_ECMP, "Enable adaptive routing")),
            ConfigLine(f"nv set interface {ecmp_ports} router adaptive-routing state enabled",
                       Citation(CL_ECMP, "Enable adaptive routing on the ECMP ports")),
        ]
    lines += [
        ConfigLine("nv config apply", Citation(CL_ROCE, "Apply the configuration")),
        ConfigLine("nv show qos roce", Citation(CL_ROCE, "Verify RoCE configuration")),
    ]
    return TuningProfile(
        family="nvidia-spectrum", os=OS_NAMES["nvidia-spectrum"], speed_gbps=speed,
        cable_m=cable_m, pfc_priority=3, roce_dscp=26, cnp_dscp=48, cnp_priority=6,
        roce_udp_port=4791, ecn_min_bytes=150_000, ecn_max_bytes=1_500_000,
        ecn_probability_pct=100, headroom="switch", headroom_bytes=None, headroom_cable="",
        watchdog_detect_ms=300, watchdog_restore_ms=100, watchdog_action="drop",
        adaptive_routing=adaptive, ar_condition=condition, citations=cits,
        config=tuple(lines), warnings=tuple(_long_link_warnings(cable_m, "nvidia-spectrum")),
    )


def _table_row(switch_key: str, speed: int, cable_m: int) -> tuple[int, int] | None:
    """The SKU table row ``(cable, xoff)`` for ``speed`` with the shortest cable length that
    covers ``cable_m`` (SONiC only accepts cable lengths that are rows of the table)."""
    table = SONIC_PG_TABLE.get(switch_key, {})
    rows = sorted((c, xoff) for (s, c), xoff in table.items() if s == speed and c >= cable_m)
    return rows[0] if rows else None


def _sonic(speed: int, uplink: int, cable_m: int, switch_key: str) -> TuningProfile:
    warnings = _long_link_warnings(cable_m, "sonic")
    row = _table_row(switch_key, speed, cable_m)
    if row:
        xoff, headroom_cable = row[1], f"{row[0]}m"
    else:
        xoff, headroom_cable = None, ""
    for port_speed in sorted({speed, uplink}):
        if _table_row(switch_key, port_speed, cable_m) is None:
            warnings.insert(0, Warn("no_headroom_row", {"speed_gbps": port_speed,
                                                        "cable_m": cable_m}))
    cits = {
        "pfc_priority": (Citation(SONIC_QOS, "Lossless traffic classes 3 and 4; PFC on 3,4"),),
        "dscp": (Citation(SONIC_QOS, "Default DSCP_TO_TC_MAP AZURE: DSCP 3 to TC 3, DSCP 48 to "
                                     "TC 6; DSCP 26 goes to TC 1 (lossy)"),),
        "udp_port": (Citation(CL_ROCE, "RoCE v2 uses UDP port 4791"),),
        "ecn": (Citation(SONIC_QOS, "WRED_PROFILE AZURE_LOSSLESS: min 1,048,576, max 2,097,152 "
                                    "bytes, probability 5, ecn_all"),),
        "headroom": (Citation(SONIC_BUFMGR, "Headroom from the SKU's pg_profile_lookup.ini by "
                                            "port speed and cable length"),
                     Citation(SONIC_PGL_7060X6, "Rows of this SKU's table")),
        "watchdog": (Citation(SONIC_CMDREF, "config pfcwd start: detection and restoration "
                                            "200 ms, action drop"),
                     Citation(GUO_2016, "PFC deadlocks and pause storms at scale")),
        "adaptive_routing": (Citation(SONIC_QOS, "No adaptive routing in the community "
                                                 "template: ECMP"),),
        "nic_buffer": (Citation(MLX5, "NIC receive buffer: (301 + 2.16 x cable m) x Gb/s + "
                                      "2.72 x MTU, computed by the driver"),),
    }
    lines = [
        ConfigLine(f'"CABLE_LENGTH": {{"AZURE": {{"Ethernet0": "{headroom_cable or "5m"}"}}}}',
                   Citation(SONIC_BUFMGR, "Cable length must be a row of the SKU's "
                                          "pg_profile_lookup.ini")),
        ConfigLine('"PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "AZURE", '
                   '"tc_to_queue_map": "AZURE", "tc_to_pg_map": "AZURE", '
                   '"pfc_to_queue_map": "AZURE", "pfc_enable": "3,4", '
                   '"pfcwd_sw_enable": "3,4"}}',
                   Citation(SONIC_QOS, "Port QoS map with PFC on 3,4")),
        ConfigLine('"QUEUE": {"Ethernet0|3": {"scheduler": "scheduler.2", '
                   '"wred_profile": "AZURE_LOSSLESS"}}',
                   Citation(SONIC_CFGDOC, "Queue 3 with the lossless WRED/ECN profile")),
        ConfigLine("sudo config qos reload", Citation(SONIC_CMDREF, "config qos reload")),
        ConfigLine("sudo config pfcwd start --action drop all 200 --restoration-time 200",
                   Citation(SONIC_CMDREF, "config pfcwd start")),
        ConfigLine("sudo config save -y", Citation(SONIC_CMDREF, "config save")),
    ]
    return TuningProfile(
        family="sonic", os=OS_NAMES["sonic"], speed_gbps=speed,
        cable_m=cable_m, pfc_priority=3, roce_dscp=3, cnp_dscp=48, cnp_priority=6,
        roce_udp_port=4791, ecn_min_bytes=1_048_576, ecn_max_bytes=2_097_152,
        ecn_probability_pct=5, headroom="table", headroom_bytes=xoff,
        headroom_cable=headroom_cable, watchdog_detect_ms=200, watchdog_restore_ms=200,
        watchdog_action="drop", adaptive_routing=False, ar_condition="ar_not_documented",
        citations=cits, config=tuple(lines), warnings=tuple(warnings),
    )


def tuning_profile(family: str, speed_gbps: int, *, uplink_gbps: int | None = None,
                   cable_m: int = 100, switch_key: str = "", spectrum_x_nic: bool = True,
                   leaf: LeafPorts | None = None) -> TuningProfile | None:
    """The lossless profile of ``family`` for GPU links at ``speed_gbps`` and the longest
    link ``cable_m``; None for a family without a sourced profile. ``spectrum_x_nic``: the
    NICs accept out-of-order packets (ConnectX-7/-8, BlueField-3), which NVIDIA adaptive
    routing needs."""
    _validate(speed_gbps, cable_m)
    uplink = uplink_gbps or speed_gbps
    if family == "nvidia-spectrum":
        return _spectrum(speed_gbps, uplink, cable_m, spectrum_x_nic, leaf)
    if family == "sonic":
        return _sonic(speed_gbps, uplink, cable_m, switch_key)
    return None
