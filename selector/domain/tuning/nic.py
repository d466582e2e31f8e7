"""The NIC side of a RoCE profile (not a switch value): what every GPU server's RoCE ports
must match (DSCP trust and mapping, PFC, MTU, NCCL's traffic class), the mlx5 driver's
receive-buffer formula and the bandwidth-delay product. Shared by the Ethernet families.

Pure Python, no Django."""

from __future__ import annotations

import math
from decimal import Decimal

from ..catalogue import Source
from .model import N_, NIC_SECTION, READ, Citation, ConfigLine

MLX5 = Source(
    "Linux mlx5 driver, drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c",
    "https://github.com/torvalds/linux/blob/master/drivers/net/ethernet/mellanox/mlx5/core/en/"
    "port_buffer.c", READ, "Linux mlx5 网卡驱动源代码（英文）")
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


def nic_xoff_bytes(speed_gbps: int, cable_m: int, mtu: int) -> int:
    """The mlx5 driver's NIC receive-buffer xoff: ``(301 + 2.16 x cable_m) x speed + 2.72 x
    MTU`` (port_buffer.c). It sizes the NIC's buffer, never a switch's headroom."""
    value = (301 + Decimal("2.16") * cable_m) * speed_gbps + Decimal("2.72") * mtu
    return math.ceil(value)


def bdp_bytes(speed_gbps: int, rtt_us: float) -> int:
    """Bandwidth-delay product, bytes, rounded up: ``rtt x bandwidth``."""
    return math.ceil(Decimal(str(rtt_us)) * speed_gbps * 125)


def nic_lines(dscp: int, priority: int, cnp_dscp: int, cnp_priority: int, pfc: bool,
               remap: bool) -> list[ConfigLine]:
    """What every GPU server's RoCE ports must match: DSCP trust, the RoCE DSCP (NCCL's
    traffic class is the DSCP shifted past the two ECN bits), PFC on the lossless priority
    when the GPU ports run lossless, an MTU whose RoCE MTU reaches 4096."""
    lines = [
        ConfigLine(NIC_SECTION + ", for each RoCE port <netdev>: values that must match "
                   "the switches", None),
        ConfigLine("mlnx_qos -i <netdev> --trust dscp",
                   Citation(MLNX_QOS, N_("Trust state: classify by DSCP"))),
    ]
    if remap:
        lines.append(ConfigLine(f"mlnx_qos -i <netdev> --dscp2prio set,{dscp},{priority}",
                                Citation(MLNX_QOS, N_("mlnx_qos: DSCP to priority mapping"))))
    if pfc:
        flags = ",".join("1" if i == priority else "0" for i in range(8))
        lines.append(ConfigLine(f"mlnx_qos -i <netdev> --pfc {flags}",
                                Citation(MLNX_QOS, N_("mlnx_qos: PFC per priority"))))
    else:
        lines.append(ConfigLine("# No PFC on the NICs: the GPU ports run lossy (ECN only)",
                                None))
    lines += [
        ConfigLine("ip link set dev <netdev> mtu 9000",
                   Citation(IB_ADDR, N_("RoCE MTU: the largest of 256 to 4096 bytes that fits "
                                     "the interface MTU less the RoCE headers"))),
        ConfigLine(f"export NCCL_IB_TC={dscp * 4}",
                   Citation(NCCL_ENV, N_("NCCL_IB_TC: the traffic class of NCCL's RDMA "
                                      "traffic"))),
        ConfigLine(f"# NCCL_IB_TC = DSCP {dscp} x 4: the DSCP is the six high bits of the "
                   f"traffic class; CNPs must leave the NICs with DSCP {cnp_dscp} (priority "
                   f"{cnp_priority}, the switches' strict priority class)", None),
    ]
    return lines
