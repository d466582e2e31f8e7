"""RoCE v2 lossless tuning: one profile per switch family, matched to the switch in the plan
(the seed's 三件套, its three parts: PFC, ECN, adaptive routing), with a copyable configuration
snippet whose every line cites the vendor document it comes from.

Pure Python, no Django. One value per setting, the switch family's own; a rule of thumb is
never a second value. Sources: the vendors' documents read on 2026-12-01 (team research
notes, issue 12); citations are ``Citation(source, remark)`` pairs from here to the page.
"""

from __future__ import annotations

import json
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
    "PortGroup",
    "SPINE_SECTION",
    "NIC_SECTION",
    "config_sections",
    "LOSSLESS_MAX_M",
    "tuning_profile",
    "InfinibandTuning",
    "infiniband_tuning",
    "nic_xoff_bytes",
    "bdp_bytes",
]

SPEEDS_GBPS = (100, 200, 400, 800)
CABLE_M_MIN, CABLE_M_MAX = 1, 2000
# Links this long or longer run lossy (ECN only): no vendor headroom profile we read covers
# lossless PFC over a kilometre (the long_link_lossy warning says so).
LOSSLESS_MAX_M = 1000
# GPU links stay within the servers' row (multimode reach), as the bill of materials plans.
GPU_CABLE_MAX_M = 50
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
MLNX_QOS = Source(
    "NVIDIA MLNX_EN Documentation v24.10-1.1.4.0 LTS — Quality of Service (QoS): Trust State, "
    "mlnx_qos",
    "https://docs.nvidia.com/networking/display/mlnxenv24101140lts/quality+of+service+(qos)",
    "2026-12-02", "NVIDIA MLNX_EN 文档：服务质量（信任模式、mlnx_qos，英文）")
NCCL_ENV = Source(
    "NVIDIA NCCL User Guide — Environment Variables: NCCL_IB_TC",
    "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html", "2026-12-02",
    "NVIDIA NCCL 用户指南：环境变量（英文）")
RFC_2474 = Source(
    "RFC 2474: Definition of the Differentiated Services Field (DS Field) in the IPv4 and IPv6 "
    "Headers", "https://www.rfc-editor.org/rfc/rfc2474", "2026-12-02",
    "RFC 2474：IPv4/IPv6 报文头中的区分服务字段（英文）")
IB_ADDR = Source(
    "Linux kernel include/rdma/ib_addr.h — iboe_get_mtu",
    "https://github.com/torvalds/linux/blob/master/include/rdma/ib_addr.h", "2026-12-02",
    "Linux 内核源代码：RoCE MTU 的计算（英文）")
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
class PortGroup:
    """A set of ports that share one lossless setting: ``role`` is ``gpu`` (leaf ports to
    the NICs), ``uplink`` (leaf ports to the spines) or ``fabric`` (every port of a spine
    or core switch). ``ports`` names them as the switch OS does, ``count`` how many
    interfaces that is; ``cable_m`` the plan's longest link on them; ``lossless`` False
    for a lossy (ECN only) group, ``reason`` then says why (``distance`` or
    ``no_headroom_row``)."""

    role: str
    ports: str
    count: int
    cable_m: int
    lossless: bool
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "ports": self.ports, "count": self.count,
                "cable_m": self.cable_m, "lossless": self.lossless, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PortGroup:
        return cls(str(data["role"]), str(data["ports"]), int(data["count"]),
                   int(data["cable_m"]), bool(data["lossless"]), str(data.get("reason", "")))


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
    groups: tuple[PortGroup, ...] = ()
    mtu: int = 0

    @property
    def lossy_groups(self) -> tuple[PortGroup, ...]:
        return tuple(g for g in self.groups if not g.lossless)

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
            "port_groups": [g.to_dict() for g in self.groups],
            "mtu": self.mtu,
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
            groups=tuple(PortGroup.from_dict(g) for g in data.get("port_groups", ())),
            mtu=int(data.get("mtu", 0)),
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


def _nic_lines(dscp: int, priority: int, cnp_dscp: int, cnp_priority: int, pfc: bool,
               remap: bool) -> list[ConfigLine]:
    """What every GPU server's RoCE ports must match: DSCP trust, the RoCE DSCP (NCCL's
    traffic class is the DSCP shifted past the two ECN bits), PFC on the lossless priority
    when the GPU ports run lossless, an MTU whose RoCE MTU reaches 4096."""
    lines = [
        ConfigLine(NIC_SECTION + ", for each RoCE port <netdev>: values that must match "
                   "the switches", None),
        ConfigLine("mlnx_qos -i <netdev> --trust dscp",
                   Citation(MLNX_QOS, "Trust state: classify by DSCP")),
    ]
    if remap:
        lines.append(ConfigLine(f"mlnx_qos -i <netdev> --dscp2prio set,{dscp},{priority}",
                                Citation(MLNX_QOS, "mlnx_qos: DSCP to priority mapping")))
    if pfc:
        flags = ",".join("1" if i == priority else "0" for i in range(8))
        lines.append(ConfigLine(f"mlnx_qos -i <netdev> --pfc {flags}",
                                Citation(MLNX_QOS, "mlnx_qos: PFC per priority")))
    else:
        lines.append(ConfigLine("# No PFC on the NICs: the GPU ports run lossy (ECN only)",
                                None))
    lines += [
        ConfigLine("ip link set dev <netdev> mtu 9000",
                   Citation(IB_ADDR, "RoCE MTU: the largest of 256 to 4096 bytes that fits "
                                     "the interface MTU less the RoCE headers")),
        ConfigLine(f"export NCCL_IB_TC={dscp * 4}",
                   Citation(NCCL_ENV, "NCCL_IB_TC: the traffic class of NCCL's RDMA "
                                      "traffic")),
        ConfigLine(f"# NCCL_IB_TC = DSCP {dscp} x 4: the DSCP is the six high bits of the "
                   f"traffic class; CNPs must leave the NICs with DSCP {cnp_dscp} (priority "
                   f"{cnp_priority}, the switches' strict priority class)", None),
    ]
    return lines


SPINE_SECTION = "# Spine and core switches: every port faces another switch"
NIC_SECTION = "# On every GPU server"


def config_sections(config: tuple[ConfigLine, ...]) -> dict[str, tuple[ConfigLine, ...]]:
    """A snippet's lines by where they go: ``leaf`` (the leaf, or the one switch of a
    plane), ``spine`` (spine and core switches; empty in one tier) and ``nic`` (every GPU
    server), split at the snippet's own section comments."""
    texts = [line.text for line in config]
    nic = next((i for i, t in enumerate(texts) if t.startswith(NIC_SECTION)), len(texts))
    spine = texts.index(SPINE_SECTION) if SPINE_SECTION in texts[:nic] else nic
    return {"leaf": config[:spine], "spine": config[spine + 1:nic] if spine < nic else (),
            "nic": config[nic:]}


def _long_link_warnings(cable_m: int) -> list[Warn]:
    out = []
    if cable_m >= LOSSLESS_MAX_M:
        out.append(Warn("long_link_lossy", {"cable_m": cable_m}))
    elif cable_m > 100:
        out.append(Warn("long_link_headroom", {"cable_m": cable_m}))
    return out


@dataclass(frozen=True)
class LeafPorts:
    """How a leaf uses its front-panel ports: the first ``gpu_ports`` native ports face the
    GPUs, each split ``gpu_split`` ways; the next ``uplink_ports`` go to the spines, each
    split ``uplink_split`` ways (1: native speed). ``uplink_ports`` is 0 on a switch that
    carries a whole plane. ``switch_ports``: the native ports of a spine or core switch of
    the same model (all of them face another switch)."""

    gpu_ports: int
    gpu_split: int = 1
    uplink_ports: int = 0
    uplink_split: int = 1
    switch_ports: int = 64


@dataclass(frozen=True)
class _Span:
    """Native ports ``first``..``first + count - 1``, each split ``split`` ways."""

    role: str
    first: int
    count: int
    split: int
    cable_m: int
    switch: str  # "leaf" | "spine"

    @property
    def interfaces(self) -> int:
        return self.count * self.split


def _spans(leaf: LeafPorts, gpu_cable: int, up_cable: int) -> list[_Span]:
    spans = [_Span("gpu", 1, leaf.gpu_ports, leaf.gpu_split, gpu_cable, "leaf")]
    if leaf.uplink_ports:
        spans.append(_Span("uplink", leaf.gpu_ports + 1, leaf.uplink_ports, leaf.uplink_split,
                           up_cable, "leaf"))
        spans.append(_Span("fabric", 1, leaf.switch_ports, leaf.uplink_split, up_cable,
                           "spine"))
    return [s for s in spans if s.count > 0]


def _swp(first: int, count: int, split: int) -> list[str]:
    """NVUE interface names: ``swp1-32`` for native ports, ``swp1s0-1,swp2s0-1,...`` for
    ports broken out ``split`` ways (Cumulus names the parts swpNs0..swpNs<split-1>)."""
    if count <= 0:
        return []
    if split == 1:
        return [f"swp{first}" if count == 1 else f"swp{first}-{first + count - 1}"]
    return [f"swp{n}s0-{split - 1}" for n in range(first, first + count)]


def _span(first: int, count: int) -> str:
    return f"swp{first}" if count == 1 else f"swp{first}-{first + count - 1}"


def _layout(leaf: LeafPorts, name: Any = _span) -> str:
    layout = f"# Leaf: {name(1, leaf.gpu_ports)} to the GPUs"
    if leaf.gpu_split > 1:
        layout += f" ({leaf.gpu_split} ports each)"
    if leaf.uplink_ports:
        layout += f", {name(leaf.gpu_ports + 1, leaf.uplink_ports)} to the spines"
        if leaf.uplink_split > 1:
            layout += f" ({leaf.uplink_split} ports each)"
    return layout


_NVUE_PROFILE = {"gpu": "roce-gpu", "uplink": "roce-uplink", "fabric": "roce-fabric"}
_ROLE_WORDS = {"gpu": "GPU ports", "uplink": "uplinks", "fabric": "every port"}


def _nvue_group(span: _Span, lossless: bool, pfc_priority: int) -> tuple[PortGroup,
                                                                         list[ConfigLine]]:
    """One PFC profile per port group, with that group's cable length (Cumulus derives the
    headroom from it); a lossy group's profile neither sends nor honours pause frames."""
    ports = ",".join(_swp(span.first, span.count, span.split))
    name = _NVUE_PROFILE[span.role] + ("" if lossless else "-lossy")
    group = PortGroup(span.role, ports, span.interfaces, span.cable_m, lossless,
                      "" if lossless else "distance")
    lines: list[ConfigLine] = []
    if span.split > 1:
        lines.append(ConfigLine(
            f"nv set interface {_span(span.first, span.count)} link breakout {span.split}x",
            Citation(CL_PORTS, "Breakout: 2x splits a port into two interfaces, 4x into "
                               "four")))
    lines.append(ConfigLine(f"nv set interface {ports} link mtu 9216",
                            Citation(CL_PORTS, "MTU per interface: link mtu")))
    lines.append(ConfigLine(f"nv set qos pfc {name} switch-priority {pfc_priority}",
                            Citation(CL_QOS, "PFC profile for a group of ports")))
    if lossless:
        lines.append(ConfigLine(f"nv set qos pfc {name} cable-length {span.cable_m}",
                                Citation(CL_QOS, "PFC profile cable length: the switch "
                                                 "derives the headroom from it")))
    else:
        lines.insert(0, ConfigLine(
            f"# {_ROLE_WORDS[span.role]} {ports}: links of up to {span.cable_m} m run lossy "
            "(ECN only): PFC off, no pause frames sent or honoured", None))
        lines.append(ConfigLine(f"nv set qos pfc {name} tx disable",
                                Citation(CL_QOS, "PFC profile: tx and rx enable or disable")))
        lines.append(ConfigLine(f"nv set qos pfc {name} rx disable",
                                Citation(CL_QOS, "PFC profile: tx and rx enable or disable")))
    lines.append(ConfigLine(f"nv set interface {ports} qos pfc profile {name}",
                            Citation(NVUE_PFC, "Apply a PFC profile to interfaces")))
    if lossless:
        lines.append(ConfigLine(f"nv set interface {ports} qos pfc-watchdog",
                                Citation(CL_QOS, "PFC watchdog")))
    return group, lines


def _spectrum(speed: int, uplink: int, cable_m: int, gpu_cable: int, ar_nic_ok: bool,
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
        "port_groups": (Citation(CL_QOS, "PFC profile for a group of ports"),
                        Citation(CL_QOS, "PFC profile: tx and rx enable or disable")),
        "mtu": (Citation(CL_PORTS, "MTU per interface: link mtu"),),
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
    layout = leaf or LeafPorts(gpu_ports=64)
    spans = _spans(layout, gpu_cable, cable_m)
    groups: list[PortGroup] = []
    leaf_lines: list[ConfigLine] = [ConfigLine(_layout(layout), None)] if leaf else []
    leaf_lines.append(ConfigLine("nv set qos roce mode lossless",
                                 Citation(CL_ROCE, "RoCE lossless (with PFC and ECN)")))
    spine_lines: list[ConfigLine] = []
    for span in spans:
        group, lines = _nvue_group(span, span.cable_m < LOSSLESS_MAX_M, 3)
        groups.append(group)
        (leaf_lines if span.switch == "leaf" else spine_lines).extend(lines)
    ecmp = next((g.ports for g in groups if g.role == "uplink"), "")
    if adaptive and ecmp:
        leaf_lines += [
            ConfigLine("nv set router adaptive-routing state enabled",
                       Citation(CL_ECMP, "Enable adaptive routing")),
            ConfigLine(f"nv set interface {ecmp} router adaptive-routing state enabled",
                       Citation(CL_ECMP, "Enable adaptive routing on the ECMP ports")),
        ]
    apply = [ConfigLine("nv config apply", Citation(CL_ROCE, "Apply the configuration")),
             ConfigLine("nv show qos roce", Citation(CL_ROCE, "Verify RoCE configuration"))]
    lines = [*leaf_lines, *apply]
    if spine_lines:
        lines += [ConfigLine(SPINE_SECTION, None),
                  ConfigLine("nv set qos roce mode lossless",
                             Citation(CL_ROCE, "RoCE lossless (with PFC and ECN)")),
                  *spine_lines, *apply]
    gpu_lossless = next(g.lossless for g in groups if g.role == "gpu")
    lines += _nic_lines(26, 3, 48, 6, gpu_lossless, remap=False)
    cits["nic"] = (Citation(MLNX_QOS, "Trust state: classify by DSCP"),
                   Citation(NCCL_ENV, "NCCL_IB_TC: the traffic class of NCCL's RDMA traffic"),
                   Citation(RFC_2474, "The DSCP is the six most significant bits of the DS "
                                      "field"))
    warnings = _long_link_warnings(max(s.cable_m for s in spans))
    return TuningProfile(
        family="nvidia-spectrum", os=OS_NAMES["nvidia-spectrum"], speed_gbps=speed,
        cable_m=cable_m, pfc_priority=3, roce_dscp=26, cnp_dscp=48, cnp_priority=6,
        roce_udp_port=4791, ecn_min_bytes=150_000, ecn_max_bytes=1_500_000,
        ecn_probability_pct=100, headroom="switch", headroom_bytes=None, headroom_cable="",
        watchdog_detect_ms=300, watchdog_restore_ms=100, watchdog_action="drop",
        adaptive_routing=adaptive, ar_condition=condition, citations=cits,
        config=tuple(lines), warnings=tuple(warnings), groups=tuple(groups), mtu=9216,
    )


def _table_row(switch_key: str, speed: int, cable_m: int) -> tuple[int, int] | None:
    """The SKU table row ``(cable, xoff)`` for ``speed`` with the shortest cable length that
    covers ``cable_m`` (SONiC only accepts cable lengths that are rows of the table)."""
    table = SONIC_PG_TABLE.get(switch_key, {})
    rows = sorted((c, xoff) for (s, c), xoff in table.items() if s == speed and c >= cable_m)
    return rows[0] if rows else None


def _ethernet(first: int, count: int, split: int, lanes: int = 8) -> list[str]:
    """SONiC port names: ``Ethernet<first lane>``, 8 lanes per 800G port, a port broken out
    ``split`` ways takes ``lanes / split`` lanes per part (the platform's platform.json)."""
    step = lanes // split
    return [f"Ethernet{(n - 1) * lanes + i * step}"
            for n in range(first, first + count) for i in range(split)]


def _ethernet_span(first: int, count: int) -> str:
    names = _ethernet(first, count, 1)
    return names[0] if len(names) == 1 else f"{names[0]}-{names[-1]}"


def _sonic_block(spans: list[_Span], switch_key: str, uplink: int, speed: int
                 ) -> tuple[list[PortGroup], list[ConfigLine]]:
    groups: list[PortGroup] = []
    cable: dict[str, str] = {}
    mtu: dict[str, dict[str, str]] = {}
    lossless: list[str] = []
    lossy: list[str] = []
    notes: list[ConfigLine] = []
    for span in spans:
        names = _ethernet(span.first, span.count, span.split)
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
                f"# {_ROLE_WORDS[span.role]} {names[0]}..{names[-1]}: {why}: lossy (ECN "
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
        ConfigLine("{", Citation(SONIC_CFGDOC, "CONFIG_DB tables as JSON")),
        ConfigLine(f'"CABLE_LENGTH": {dump({"AZURE": cable})},',
                   Citation(SONIC_BUFMGR, "Cable length must be a row of the SKU's "
                                          "pg_profile_lookup.ini")),
        ConfigLine(f'"PORT": {dump(mtu)},', Citation(SONIC_CFGDOC, "PORT table: mtu")),
        ConfigLine(f'"PORT_QOS_MAP": {dump(port_qos)},',
                   Citation(SONIC_QOS, "Port QoS map with PFC on 3,4")),
        ConfigLine(f'"QUEUE": {dump({every + "|3": {"scheduler": "scheduler.2", "wred_profile": "AZURE_LOSSLESS"}})}',  # noqa: E501
                   Citation(SONIC_CFGDOC, "Queue 3 with the lossless WRED/ECN profile")),
        ConfigLine("}", Citation(SONIC_CFGDOC, "CONFIG_DB tables as JSON")),
        ConfigLine("sudo config load /etc/sonic/roce-qos.json -y",
                   Citation(SONIC_CMDREF, "config load: load a JSON file into CONFIG_DB")),
    ]
    if lossless:
        lines.append(ConfigLine(
            "sudo config pfcwd start --action drop all 200 --restoration-time 200",
            Citation(SONIC_CMDREF, "config pfcwd start")))
    lines.append(ConfigLine("sudo config save -y", Citation(SONIC_CMDREF, "config save")))
    return groups, lines


def _sonic(speed: int, uplink: int, cable_m: int, gpu_cable: int, switch_key: str,
           leaf: LeafPorts | None = None) -> TuningProfile:
    row = _table_row(switch_key, speed, gpu_cable)
    if row:
        xoff, headroom_cable = row[1], f"{row[0]}m"
    else:
        xoff, headroom_cable = None, ""
    layout = leaf or LeafPorts(gpu_ports=64)
    spans = _spans(layout, gpu_cable, cable_m)
    warnings = _long_link_warnings(max(s.cable_m for s in spans))
    missing = sorted({(speed if s.role == "gpu" else uplink, s.cable_m) for s in spans
                      if s.cable_m < LOSSLESS_MAX_M
                      and _table_row(switch_key, speed if s.role == "gpu" else uplink,
                                     s.cable_m) is None})
    for port_speed, length in reversed(missing):
        warnings.insert(0, Warn("no_headroom_row", {"speed_gbps": port_speed,
                                                    "cable_m": length}))
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
        "port_groups": (Citation(SONIC_BUFMGR, "Cable length must be a row of the SKU's "
                                               "pg_profile_lookup.ini"),
                        Citation(SONIC_QOS, "Port QoS map with PFC on 3,4")),
        "mtu": (Citation(SONIC_CFGDOC, "PORT table: mtu"),),
        "watchdog": (Citation(SONIC_CMDREF, "config pfcwd start: detection and restoration "
                                            "200 ms, action drop"),
                     Citation(GUO_2016, "PFC deadlocks and pause storms at scale")),
        "adaptive_routing": (Citation(SONIC_QOS, "No adaptive routing in the community "
                                                 "template: ECMP"),),
        "nic_buffer": (Citation(MLX5, "NIC receive buffer: (301 + 2.16 x cable m) x Gb/s + "
                                      "2.72 x MTU, computed by the driver"),),
    }
    leaf_spans = [s for s in spans if s.switch == "leaf"]
    spine_spans = [s for s in spans if s.switch == "spine"]
    groups, lines = _sonic_block(leaf_spans, switch_key, uplink, speed)
    if leaf:
        lines.insert(0, ConfigLine(_layout(layout, _ethernet_span), None))
    if spine_spans:
        spine_groups, spine_lines = _sonic_block(spine_spans, switch_key, uplink, speed)
        groups += spine_groups
        lines += [ConfigLine(SPINE_SECTION, None), *spine_lines]
    gpu_lossless = next(g.lossless for g in groups if g.role == "gpu")
    lines += _nic_lines(3, 3, 48, 6, gpu_lossless, remap=True)
    cits["nic"] = (Citation(MLNX_QOS, "Trust state: classify by DSCP"),
                   Citation(MLNX_QOS, "mlnx_qos: DSCP to priority mapping"),
                   Citation(NCCL_ENV, "NCCL_IB_TC: the traffic class of NCCL's RDMA traffic"),
                   Citation(RFC_2474, "The DSCP is the six most significant bits of the DS "
                                      "field"))
    return TuningProfile(
        family="sonic", os=OS_NAMES["sonic"], speed_gbps=speed,
        cable_m=cable_m, pfc_priority=3, roce_dscp=3, cnp_dscp=48, cnp_priority=6,
        roce_udp_port=4791, ecn_min_bytes=1_048_576, ecn_max_bytes=2_097_152,
        ecn_probability_pct=5, headroom="table", headroom_bytes=xoff,
        headroom_cable=headroom_cable, watchdog_detect_ms=200, watchdog_restore_ms=200,
        watchdog_action="drop", adaptive_routing=False, ar_condition="ar_not_documented",
        citations=cits, config=tuple(lines), warnings=tuple(warnings), groups=tuple(groups),
        mtu=9100,
    )


def tuning_profile(family: str, speed_gbps: int, *, uplink_gbps: int | None = None,
                   cable_m: int = 100, gpu_cable_m: int | None = None, switch_key: str = "",
                   spectrum_x_nic: bool = True,
                   leaf: LeafPorts | None = None) -> TuningProfile | None:
    """The lossless profile of ``family`` for GPU links at ``speed_gbps``: the GPU ports'
    links up to ``gpu_cable_m`` (default: ``cable_m`` within the servers' row, 50 m), the
    switch-to-switch links up to ``cable_m``. None for a family without a sourced profile.
    ``spectrum_x_nic``: the NICs accept out-of-order packets (ConnectX-7/-8, BlueField-3),
    which NVIDIA adaptive routing needs."""
    _validate(speed_gbps, cable_m)
    gpu_cable = min(cable_m, GPU_CABLE_MAX_M) if gpu_cable_m is None else gpu_cable_m
    _validate(speed_gbps, gpu_cable)
    uplink = uplink_gbps or speed_gbps
    if family == "nvidia-spectrum":
        return _spectrum(speed_gbps, uplink, cable_m, gpu_cable, spectrum_x_nic, leaf)
    if family == "sonic":
        return _sonic(speed_gbps, uplink, cable_m, gpu_cable, switch_key, leaf)
    return None


# --- InfiniBand (NVIDIA Quantum) ---------------------------------------------------------------

UFM_ROUTING = Source(
    "NVIDIA UFM Enterprise User Manual v6.20.1 — Network Management (routing engines)",
    "https://docs.nvidia.com/networking/display/ufmenterpriseumv6201/Network+Management",
    "2026-12-02", "NVIDIA UFM Enterprise 用户手册：网络管理与路由引擎（英文）")
OPENSM_ROUTING = Source(
    "linux-rdma/opensm doc/current-routing.txt — Current OpenSM Routing",
    "https://github.com/linux-rdma/opensm/blob/master/doc/current-routing.txt", "2026-12-02",
    "OpenSM 路由引擎说明（英文）")
IB_SHIELD = Source(
    "NVIDIA InfiniBand Cluster Bring-up Procedure — SHIELD",
    "https://docs.nvidia.com/networking/display/ibclusterbringupprocedure/shield", "2026-12-02",
    "NVIDIA InfiniBand 集群部署流程：SHIELD 自愈与自适应路由通知（英文）")
HPCX_SHARP = Source(
    "NVIDIA HPC-X Software Toolkit Rev 2.26 — NCCL-RDMA-SHARP Plugins",
    "https://docs.nvidia.com/networking/display/hpcxv226/NCCL-RDMA-SHARP-Plugins", "2026-12-02",
    "NVIDIA HPC-X：NCCL-RDMA-SHARP 插件（英文）")
SHARP_NCCL = Source(
    "NVIDIA SHARP Rev 3.9.1 LTS — Using NVIDIA SHARP with NVIDIA NCCL",
    "https://docs.nvidia.com/networking/display/sharpltsv391/using+nvidia+sharp+with+nvidia+nccl",
    "2026-12-02", "NVIDIA SHARP 文档：与 NCCL 一起使用（英文）")


@dataclass(frozen=True)
class InfinibandTuning:
    """What an NVIDIA Quantum fabric's subnet manager and NCCL are set to, and what a
    customer must not change; ``rows`` are value keys (the pages put them into words),
    each with its citations. Derived from the plan at presentation time: the values are
    documented defaults and choices, not sizes."""

    family: str
    tiers: int
    citations: dict[str, tuple[Citation, ...]]
    config: tuple[ConfigLine, ...]

    def sources(self) -> list[Source]:
        seen: dict[str, Source] = {}
        for cits in self.citations.values():
            for cit in cits:
                seen.setdefault(cit.source.title, cit.source)
        for line in self.config:
            if line.citation:
                seen.setdefault(line.citation.source.title, line.citation.source)
        return list(seen.values())

    def to_dict(self) -> dict[str, Any]:
        return {"family": self.family, "routing_engine": "ftree", "shield": True,
                "sharp": {"nccl": "NCCL_COLLNET_ENABLE=1", "plugin": "nccl-rdma-sharp"},
                "service_level": 0,
                "citations": {k: [c.to_dict() for c in v] for k, v in self.citations.items()},
                "config": [line.to_dict() for line in self.config]}


def infiniband_tuning(tiers: int) -> InfinibandTuning:
    """The subnet-manager and NCCL settings of a rail-optimized NVIDIA Quantum fat tree."""
    cits = {
        "routing_engine": (
            Citation(UFM_ROUTING, "Fat Tree: for a symmetrical or almost symmetrical fat tree, "
                                  "also when leaves are not fully staffed"),
            Citation(OPENSM_ROUTING, "Fat-tree routing is credit-loop-free")),
        "shield": (Citation(IB_SHIELD, "SHIELD and adaptive routing notification are enabled "
                                       "by default (shield_mode)"),),
        "sharp": (Citation(HPCX_SHARP, "NCCL_COLLNET_ENABLE=1 enables SHARP with the plugin; "
                                       "each leaf switch on one rail of every server"),
                  Citation(SHARP_NCCL, "SHARP needs ConnectX-6 HDR and Quantum HDR or later")),
        "service_level": (Citation(NCCL_ENV, "NCCL_IB_SL: the InfiniBand service level, "
                                             "default 0"),),
    }
    lines = (
        ConfigLine("# Subnet manager (UFM, or OpenSM on a management host): opensm.conf", None),
        ConfigLine("routing_engine ftree",
                   Citation(OPENSM_ROUTING, "Fat-tree routing is credit-loop-free")),
        ConfigLine("# Leave shield_mode on (the default): SHIELD reroutes around failed links "
                   "and carries adaptive routing notifications", None),
        ConfigLine("# On every GPU server, with the NCCL-RDMA-SHARP plugin and the SHARP "
                   "aggregation manager running:", None),
        ConfigLine("export NCCL_COLLNET_ENABLE=1",
                   Citation(HPCX_SHARP, "NCCL_COLLNET_ENABLE=1 enables SHARP with the plugin; "
                                        "each leaf switch on one rail of every server")),
        ConfigLine("# Leave NCCL_IB_SL at 0 unless the subnet manager's QoS policy maps another "
                   "service level", None),
    )
    return InfinibandTuning("nvidia-quantum", tiers, cits, lines)
