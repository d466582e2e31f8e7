"""NVIDIA Spectrum switches with Cumulus Linux (NVUE): the family's lossless values, its
sources (the Cumulus Linux 5.18 user guide and the NVUE command reference, read on
2026-12-01), the NVUE snippet (one PFC profile per port group, adaptive routing on the ECMP
ports when its conditions hold) and ``FAMILY`` for the registry.

Pure Python, no Django."""

from __future__ import annotations

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
    layout_comment,
    long_link_warnings,
    port_spans,
)
from .nic import MLNX_QOS, MLX5, NCCL_ENV, RFC_2474, nic_lines

KEY = "nvidia-spectrum"
OS_NAME = "NVIDIA Cumulus Linux (NVUE)"

CL_QOS = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — Quality of Service",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
    "Layer-1-and-Switch-Ports/Quality-of-Service/", READ,
    "NVIDIA Cumulus Linux 5.18 用户指南：服务质量（英文）")
CL_ECMP = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — Equal Cost Multipath Load Sharing "
    "(Adaptive Routing)",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/Layer-3/Routing/"
    "Equal-Cost-Multipath-Load-Sharing/", READ,
    "NVIDIA Cumulus Linux 5.18 用户指南：等价多路径与自适应路由（英文）")
CL_PORTS = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — Switch Port Attributes",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
    "Layer-1-and-Switch-Ports/Interface-Configuration-and-Management/Switch-Port-Attributes/",
    READ, "NVIDIA Cumulus Linux 5.18 用户指南：交换机端口属性（英文）")
NVUE_PFC = Source(
    "NVIDIA NVUE Command Reference — nv set qos pfc <profile-id> cable-length",
    "https://docs.nvidia.com/networking-ethernet-software/nvue-reference/", READ,
    "NVIDIA NVUE 命令参考：PFC 线缆长度（英文）")
NETOP_SPCX = Source(
    "NVIDIA Network Operator v26.10.0 — NVIDIA Spectrum-X Ethernet Networking Platform",
    "https://docs.nvidia.com/networking/display/kubernetes26100/spectrum-x/spectrum-x.html",
    READ, "NVIDIA Spectrum-X 以太网平台说明（英文）")


def swp_ports(first: int, count: int, split: int) -> list[str]:
    """NVUE interface names: ``swp1-32`` for native ports, ``swp1s0-1,swp2s0-1,...`` for
    ports broken out ``split`` ways (Cumulus names the parts swpNs0..swpNs<split-1>)."""
    if count <= 0:
        return []
    if split == 1:
        return [f"swp{first}" if count == 1 else f"swp{first}-{first + count - 1}"]
    return [f"swp{n}s0-{split - 1}" for n in range(first, first + count)]


def _span(first: int, count: int) -> str:
    return f"swp{first}" if count == 1 else f"swp{first}-{first + count - 1}"


_NVUE_PROFILE = {"gpu": "roce-gpu", "uplink": "roce-uplink", "fabric": "roce-fabric"}


def _nvue_group(span: Span, lossless: bool, pfc_priority: int) -> tuple[PortGroup,
                                                                         list[ConfigLine]]:
    """One PFC profile per port group, with that group's cable length (Cumulus derives the
    headroom from it); a lossy group's profile neither sends nor honours pause frames."""
    ports = ",".join(swp_ports(span.first, span.count, span.split))
    name = _NVUE_PROFILE[span.role] + ("" if lossless else "-lossy")
    group = PortGroup(span.role, ports, span.interfaces, span.cable_m, lossless,
                      "" if lossless else "distance")
    lines: list[ConfigLine] = []
    if span.split > 1:
        lines.append(ConfigLine(
            f"nv set interface {_span(span.first, span.count)} link breakout {span.split}x",
            Citation(CL_PORTS, N_("Breakout: 2x splits a port into two interfaces, 4x into "
                               "four"))))
    lines.append(ConfigLine(f"nv set interface {ports} link mtu 9216",
                            Citation(CL_PORTS, N_("MTU per interface: link mtu"))))
    lines.append(ConfigLine(f"nv set qos pfc {name} switch-priority {pfc_priority}",
                            Citation(CL_QOS, N_("PFC profile for a group of ports"))))
    if lossless:
        lines.append(ConfigLine(f"nv set qos pfc {name} cable-length {span.cable_m}",
                                Citation(CL_QOS, N_("PFC profile cable length: the switch "
                                                 "derives the headroom from it"))))
    else:
        lines.insert(0, ConfigLine(
            f"# {ROLE_WORDS[span.role]} {ports}: links of up to {span.cable_m} m run lossy "
            "(ECN only): PFC off, no pause frames sent or honoured", None))
        lines.append(ConfigLine(f"nv set qos pfc {name} tx disable",
                                Citation(CL_QOS, N_("PFC profile: tx and rx enable or disable"))))
        lines.append(ConfigLine(f"nv set qos pfc {name} rx disable",
                                Citation(CL_QOS, N_("PFC profile: tx and rx enable or disable"))))
    lines.append(ConfigLine(f"nv set interface {ports} qos pfc profile {name}",
                            Citation(NVUE_PFC, N_("Apply a PFC profile to interfaces"))))
    if lossless:
        lines.append(ConfigLine(f"nv set interface {ports} qos pfc-watchdog",
                                Citation(CL_QOS, N_("PFC watchdog"))))
    return group, lines


def build(request: TuningRequest) -> TuningProfile:
    """The NVUE profile: PFC and ECN per Cumulus's RoCE lossless mode, the headroom left
    to the switch (cable length per port group), adaptive routing on Spectrum-4 at 200G
    and 400G with Spectrum-X NICs."""
    speed, uplink, cable_m = request.speed_gbps, request.uplink_gbps, request.cable_m
    gpu_cable, ar_nic_ok, leaf = request.gpu_cable_m, request.spectrum_x_nic, request.leaf
    ar_speed_ok = speed in (200, 400) and uplink in (200, 400)
    adaptive = ar_speed_ok and ar_nic_ok
    if not ar_speed_ok:
        condition = "ar_not_800g"
    elif not ar_nic_ok:
        condition = "ar_needs_spectrum_x_nic"
    else:
        condition = "ar_spectrum_x"
    cits = {
        "pfc_priority": (Citation(CL_ROCE, N_("Enable PFC on switch priority 3 (RoCE)")),),
        "dscp": (Citation(CL_ROCE, N_("RoCE DSCP 26 to switch priority 3; CNP DSCP 48 to "
                                   "switch priority 6, strict priority")),),
        "udp_port": (Citation(CL_ROCE, N_("LLDP application TLV: UDP 4791, priority 3")),),
        "ecn": (Citation(CL_QOS, N_("ECN minimum threshold 150,000 bytes, maximum "
                                 "1,500,000 bytes")),
                Citation(CL_ROCE, N_("ECN marking probability 100"))),
        "headroom": (Citation(CL_QOS, N_("The switch computes the PFC headroom from the cable "
                                      "length; do not set it by hand")),
                     Citation(NVUE_PFC, N_("Cable length 1 to 100000 m per PFC profile"))),
        "port_groups": (Citation(CL_QOS, N_("PFC profile for a group of ports")),
                        Citation(CL_QOS, N_("PFC profile: tx and rx enable or disable"))),
        "mtu": (Citation(CL_PORTS, N_("MTU per interface: link mtu")),),
        "watchdog": (Citation(CL_QOS, N_("PFC watchdog per PFC port: polling interval 100 ms, "
                                      "3 intervals")),
                     Citation(GUO_2016, N_("PFC deadlocks and pause storms at scale"))),
        "adaptive_routing": (
            Citation(CL_ECMP, N_("Adaptive routing: Spectrum-4 at 400G and 200G, RoCE unicast, "
                              "Spectrum-X platform; not on 800G links")),
            Citation(NETOP_SPCX, N_("Spectrum-X NICs: BlueField-3 SuperNIC, ConnectX-7, "
                                 "ConnectX-8"))),
        "nic_buffer": (Citation(MLX5, N_("NIC receive buffer: (301 + 2.16 x cable m) x Gb/s + "
                                      "2.72 x MTU, computed by the driver")),),
    }
    layout = leaf or LeafPorts(gpu_ports=64)
    spans = port_spans(layout, gpu_cable, cable_m)
    groups: list[PortGroup] = []
    leaf_lines: list[ConfigLine] = [ConfigLine(layout_comment(layout, _span), None)] if leaf else []
    leaf_lines.append(ConfigLine("nv set qos roce mode lossless",
                                 Citation(CL_ROCE, N_("RoCE lossless (with PFC and ECN)"))))
    spine_lines: list[ConfigLine] = []
    for span in spans:
        group, lines = _nvue_group(span, span.cable_m < LOSSLESS_MAX_M, 3)
        groups.append(group)
        (leaf_lines if span.switch == "leaf" else spine_lines).extend(lines)
    ecmp = next((g.ports for g in groups if g.role == "uplink"), "")
    if adaptive and ecmp:
        leaf_lines += [
            ConfigLine("nv set router adaptive-routing state enabled",
                       Citation(CL_ECMP, N_("Enable adaptive routing"))),
            ConfigLine(f"nv set interface {ecmp} router adaptive-routing state enabled",
                       Citation(CL_ECMP, N_("Enable adaptive routing on the ECMP ports"))),
        ]
    apply = [ConfigLine("nv config apply", Citation(CL_ROCE, N_("Apply the configuration"))),
             ConfigLine("nv show qos roce", Citation(CL_ROCE, N_("Verify RoCE configuration")))]
    lines = [*leaf_lines, *apply]
    if spine_lines:
        lines += [ConfigLine(SPINE_SECTION, None),
                  ConfigLine("nv set qos roce mode lossless",
                             Citation(CL_ROCE, N_("RoCE lossless (with PFC and ECN)"))),
                  *spine_lines, *apply]
    gpu_lossless = next(g.lossless for g in groups if g.role == "gpu")
    lines += nic_lines(26, 3, 48, 6, gpu_lossless, remap=False)
    cits["nic"] = (Citation(MLNX_QOS, N_("Trust state: classify by DSCP")),
                   Citation(NCCL_ENV, N_("NCCL_IB_TC: the traffic class of NCCL's RDMA traffic")),
                   Citation(RFC_2474, N_("The DSCP is the six most significant bits of the DS "
                                      "field")))
    warnings = long_link_warnings(max(s.cable_m for s in spans))
    return TuningProfile(
        family=KEY, os=OS_NAME, speed_gbps=speed,
        cable_m=cable_m, pfc_priority=3, roce_dscp=26, cnp_dscp=48, cnp_priority=6,
        roce_udp_port=4791, ecn_min_bytes=150_000, ecn_max_bytes=1_500_000,
        ecn_probability_pct=100, headroom="switch", headroom_bytes=None, headroom_cable="",
        watchdog_detect_ms=300, watchdog_restore_ms=100, watchdog_action="drop",
        adaptive_routing=adaptive, ar_condition=condition, citations=cits,
        config=tuple(lines), warnings=tuple(warnings), groups=tuple(groups), mtu=9216,
    )


FAMILY = Family(key=KEY, os_name=OS_NAME,
                label=N_("NVIDIA Spectrum with Cumulus Linux (NVUE)"), build=build)
