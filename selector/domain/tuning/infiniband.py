"""InfiniBand (NVIDIA Quantum): no PFC or ECN to tune; the card says what the subnet
manager and NCCL are set to and what a customer must not change, each with its source
(UFM, OpenSM, the cluster bring-up procedure, HPC-X and SHARP documents, read on
2026-12-02).

Pure Python, no Django."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..catalogue import Source
from .model import N_, Citation, ConfigLine, cited_sources
from .nic import NCCL_ENV

# The catalogue's family of the NVIDIA InfiniBand switches, and what the page calls it.
KEY = "nvidia-quantum"
LABEL = N_("NVIDIA Quantum InfiniBand (subnet manager and NCCL)")

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
        return cited_sources(self.citations, self.config)

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
            Citation(UFM_ROUTING, N_("Fat Tree: for a symmetrical or almost symmetrical fat tree, "
                                  "also when leaves are not fully staffed")),
            Citation(OPENSM_ROUTING, N_("Fat-tree routing is credit-loop-free"))),
        "shield": (Citation(IB_SHIELD, N_("SHIELD and adaptive routing notification are enabled "
                                       "by default (shield_mode)")),),
        "sharp": (Citation(HPCX_SHARP, N_("NCCL_COLLNET_ENABLE=1 enables SHARP with the plugin; "
                                       "each leaf switch on one rail of every server")),
                  Citation(SHARP_NCCL, N_("SHARP needs ConnectX-6 HDR and Quantum HDR or later"))),
        "service_level": (Citation(NCCL_ENV, N_("NCCL_IB_SL: the InfiniBand service level, "
                                             "default 0")),),
    }
    lines = (
        ConfigLine("# Subnet manager (UFM, or OpenSM on a management host): opensm.conf", None),
        ConfigLine("routing_engine ftree",
                   Citation(OPENSM_ROUTING, N_("Fat-tree routing is credit-loop-free"))),
        ConfigLine("# Leave shield_mode on (the default): SHIELD reroutes around failed links "
                   "and carries adaptive routing notifications", None),
        ConfigLine("# On every GPU server, with the NCCL-RDMA-SHARP plugin and the SHARP "
                   "aggregation manager running:", None),
        ConfigLine("export NCCL_COLLNET_ENABLE=1",
                   Citation(HPCX_SHARP, N_("NCCL_COLLNET_ENABLE=1 enables SHARP with the plugin; "
                                        "each leaf switch on one rail of every server"))),
        ConfigLine("# Leave NCCL_IB_SL at 0 unless the subnet manager's QoS policy maps another "
                   "service level", None),
    )
    return InfinibandTuning(KEY, tiers, cits, lines)
