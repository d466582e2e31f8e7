"""The collective-bandwidth estimate of a fabric plan: the all-reduce and all-to-all bus
bandwidth the fabric allows each GPU, and the time of one all-reduce of a message.

An estimate, not a measurement: every figure the pages show says so. Pure Python.

The model (nccl-tests, doc/PERFORMANCE.md):

* nccl-tests report a *bus bandwidth* per rank, ``busbw = algbw x 2(n-1)/n`` for
  all-reduce and ``busbw = algbw x (n-1)/n`` for all-to-all (``algbw = S / t``), chosen so
  that busbw "should reflect the speed of the hardware bottleneck: NVLink, PCI, QPI, or
  network" independent of the rank count ``n``.
* Across servers the bottleneck of an all-reduce is the servers' NICs: NCCL runs one ring
  channel per NIC, so a rank's all-reduce busbw is the sum of its server's NIC links times
  the link efficiency (NVLink inside the server is faster). An NVIDIA engineer: "On an
  Nvidia DGX-A100 system we have 8x200Gbit/s IB cards and we measure 192GB/s AllReduce
  BusBW" (8 x 25 GB/s x 0.96).
* All-to-all "cannot aggregate the bandwidth of multiple NICs, so the performance you should
  see is the performance of a single NIC" (NCCL maintainer, nccl-tests issue #267): the
  GPU's own share of the server's NIC links times the efficiency.
* Link efficiency 0.96: one HDR 200 Gb/s NIC gives "24GB/s inter-node" (NCCL maintainer,
  NVIDIA/nccl issue #412: 24 / 25), and "CX-7 NICs at NDR rate (400Gbps) should achieve up
  to 48-49GB/s per NIC" (nccl-tests issue #267, asked about RoCE: 48 / 50). Both fabrics
  get this one efficiency: no document we read gives RoCE v2 and InfiniBand different
  figures, so the estimate is the same number for both and says so.
* Oversubscription ``r:1`` of the leaves: the worst case, every byte crosses the leaf
  uplinks, divides both figures by ``r``. Planes: an 800G NIC on Ethernet runs as two
  400G ports in two planes (ConnectX-8); NCCL uses both, so the GPU's bandwidth is their
  sum.
* One all-reduce of ``S`` bytes on ``n`` GPUs takes ``t = S x 2(n-1)/n / busbw`` (the
  bandwidth term only: large messages, latency left out). The default message is the bf16
  gradients of a 7-billion-parameter model (2 bytes per parameter); the customer sets the
  model size or the message size.

Reproduced (tests/domain/test_build_performance.py): NVIDIA's DGX A100 figure above (192
GB/s, estimate 192 GB/s) and nccl-tests issue #100, two HGX A100 servers, 16 GPUs, four
ConnectX-6 200 Gb/s InfiniBand NICs per server, measured 91 GB/s busbw: estimate 96 GB/s,
within the stated tolerance of 6 %. (An estimate from line rate is a ceiling: a healthy
cluster measures at or a few per cent below it.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..catalogue import Source
from ..decision import Phrase
from ..fabric import FabricPlan

__all__ = [
    "LINK_EFFICIENCY",
    "DEFAULT_MODEL_PARAMS_B",
    "BYTES_PER_PARAM",
    "MODEL_PARAMS_B_MIN",
    "MODEL_PARAMS_B_MAX",
    "MESSAGE_BYTES_MIN",
    "MESSAGE_BYTES_MAX",
    "FORMULA",
    "NCCL_PERFORMANCE",
    "Assumption",
    "Estimate",
    "estimate",
    "busbw_factor",
]

_READ = "2026-12-03"
NCCL_PERFORMANCE = Source(
    "NVIDIA/nccl-tests: doc/PERFORMANCE.md — Performance reported by NCCL tests",
    "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md", _READ,
    "NVIDIA nccl-tests 文档：NCCL 测试报告的性能（英文）")
NCCL_HDR_EFFICIENCY = Source(
    "NVIDIA/nccl issue #412: How will NCCL behave when there are multiple NICs on a node? "
    "(maintainer: ~24GB/s inter-node on HDR 200G)",
    "https://github.com/NVIDIA/nccl/issues/412", _READ,
    "NVIDIA NCCL 议题 #412：HDR 200G 跨节点约 24 GB/s（维护者答复，英文）")
NCCL_ALLTOALL_NIC = Source(
    "NVIDIA/nccl-tests issue #267: how overall throughout calculate about all2all "
    "(maintainers: alltoall cannot aggregate NICs; CX-7 at NDR 48-49GB/s per NIC)",
    "https://github.com/NVIDIA/nccl-tests/issues/267", _READ,
    "NVIDIA nccl-tests 议题 #267：all-to-all 不能聚合多网卡带宽（维护者答复，英文）")
DGX_A100_192 = Source(
    "NVIDIA/nccl issue #812 (NVIDIA engineer): \"On an Nvidia DGX-A100 system we have "
    "8x200Gbit/s IB cards and we measure 192GB/s AllReduce BusBW\"",
    "https://github.com/NVIDIA/nccl/issues/812#issuecomment-1491249504", _READ,
    "NVIDIA NCCL 议题 #812：DGX A100（8×200G IB）实测 all-reduce 总线带宽 192 GB/s（英文）")
HGX_A100_91 = Source(
    "NVIDIA/nccl-tests issue #100: HGX A100 can not reach peak bandwidth on 2nd Gen "
    "NVSwitch? (2 servers, 4 x ConnectX-6 200Gbps IB each: 91GB/s busbw)",
    "https://github.com/NVIDIA/nccl-tests/issues/100", _READ,
    "NVIDIA nccl-tests 议题 #100：2 台 HGX A100、每台 4 张 200G IB 网卡实测 91 GB/s（英文）")
SOURCES = (NCCL_PERFORMANCE, NCCL_HDR_EFFICIENCY, NCCL_ALLTOALL_NIC, DGX_A100_192)

# 24 GB/s of 25 GB/s (HDR 200G) and 48 GB/s of 50 GB/s (NDR 400G): see the module text.
LINK_EFFICIENCY = 0.96
BYTES_PER_PARAM = 2  # bf16 gradients
DEFAULT_MODEL_PARAMS_B = 7.0
MODEL_PARAMS_B_MIN, MODEL_PARAMS_B_MAX = 0.001, 100_000.0
MESSAGE_BYTES_MIN, MESSAGE_BYTES_MAX = 1, 10**15
FORMULA = ("all-reduce: busbw = algbw × 2(n−1)/n; all-to-all: busbw = algbw × (n−1)/n; "
           "algbw = S/t, so t = S × 2(n−1)/n ÷ busbw (nccl-tests PERFORMANCE.md)")


@dataclass(frozen=True)
class Assumption(Phrase):
    """One assumption of the estimate, put into words by the pages (planner.words)."""


def busbw_factor(collective: str, n: int) -> float:
    """nccl-tests' correction factor from algbw to busbw (PERFORMANCE.md, Summary)."""
    if n <= 1:
        return 0.0
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective == "all_to_all":
        return (n - 1) / n
    raise ValueError(collective)


@dataclass(frozen=True)
class Estimate:
    """The estimate for one planned fabric. Bandwidths in Gb/s (``*_gbps``, the unit of the
    plan's links) and GB/s (``*_gbytes``, the unit nccl-tests prints), per GPU (rank)."""

    fabric: str
    gpus: int
    servers: int
    line_gbps_per_gpu: float  # the GPU's share of its server's NIC links, line rate
    server_line_gbps: int  # the server's NIC links together
    efficiency: float
    oversubscription: int
    planes: int
    ports_per_nic: int
    allreduce_busbw_gbps: float
    alltoall_busbw_gbps: float
    message_bytes: int
    model_params_b: float | None
    allreduce_seconds: float
    assumptions: tuple[Assumption, ...] = field(default=())

    @property
    def allreduce_busbw_gbytes(self) -> float:
        return self.allreduce_busbw_gbps / 8

    @property
    def alltoall_busbw_gbytes(self) -> float:
        return self.alltoall_busbw_gbps / 8

    @property
    def within_one_server(self) -> bool:
        return self.servers <= 1

    @property
    def source(self) -> Source:
        return NCCL_PERFORMANCE

    @property
    def sources(self) -> tuple[Source, ...]:
        return SOURCES

    def to_dict(self) -> dict[str, Any]:
        """The API's ``performance`` object (the words are added by the presenter)."""
        return {
            "allreduce_busbw_gbps": round(self.allreduce_busbw_gbps, 1),
            "alltoall_busbw_gbps": round(self.alltoall_busbw_gbps, 1),
            "allreduce_busbw_gbytes": round(self.allreduce_busbw_gbytes, 1),
            "alltoall_busbw_gbytes": round(self.alltoall_busbw_gbytes, 1),
            "allreduce_seconds": round(self.allreduce_seconds, 4),
            "message_bytes": self.message_bytes,
            "model_params_b": self.model_params_b,
            "gpus": self.gpus,
            "link_efficiency": self.efficiency,
            "oversubscription": self.oversubscription,
            "planes": self.planes,
            "formula": FORMULA,
            "assumption_keys": [a.to_dict() for a in self.assumptions],
            "source": NCCL_PERFORMANCE.to_dict(),
            "sources": [s.to_dict() for s in SOURCES],
            "same_for_roce_and_infiniband": True,
            "estimate": True,
        }


def message_size(model_params_b: float | None = None, message_bytes: int | None = None
                 ) -> tuple[int, float | None]:
    """``(bytes, model size)``: the message given, else the bf16 gradients of the model
    (default 7B parameters)."""
    if message_bytes is not None:
        if not MESSAGE_BYTES_MIN <= message_bytes <= MESSAGE_BYTES_MAX:
            raise ValueError("message_bytes out of range")
        return int(message_bytes), None
    params = DEFAULT_MODEL_PARAMS_B if model_params_b is None else float(model_params_b)
    if not MODEL_PARAMS_B_MIN <= params <= MODEL_PARAMS_B_MAX:
        raise ValueError("model_params_b out of range")
    return round(params * 1e9 * BYTES_PER_PARAM), params


def estimate(plan: FabricPlan, *, model_params_b: float | None = None,
             message_bytes: int | None = None) -> Estimate:
    """The estimate for ``plan`` (see the module text for the model and its sources)."""
    size, params = message_size(model_params_b, message_bytes)
    gps = max(1, plan.gpus_per_server)
    server_line = plan.rails * plan.gpu_link_gbps  # NICs x NIC speed (both planes' ports)
    per_gpu = server_line / gps
    oversub = max(1, max(s.oversubscription for _n, s in plan.planes))
    allreduce = server_line * LINK_EFFICIENCY / oversub
    alltoall = per_gpu * LINK_EFFICIENCY / oversub
    n = plan.gpus
    seconds = 0.0
    if n > 1 and allreduce > 0:
        seconds = size * busbw_factor("all_reduce", n) / (allreduce / 8 * 1e9)
    assumptions = [
        Assumption("efficiency", {"efficiency_pct": round(LINK_EFFICIENCY * 100)}),
        Assumption("same_roce_ib", {}),
        Assumption("ring_bottleneck", {"nics": plan.rails, "nic_gbps": plan.gpu_link_gbps,
                                       "gpus_per_server": gps}),
        Assumption("alltoall_one_nic", {}),
        Assumption("oversubscription", {"ratio": oversub}),
        Assumption("bandwidth_term", {"bytes_per_param": BYTES_PER_PARAM}),
    ]
    if plan.ports_per_nic > 1:
        assumptions.insert(3, Assumption("planes_summed", {
            "ports": plan.ports_per_nic, "port_gbps": plan.port_gbps}))
    if plan.servers <= 1:
        assumptions.append(Assumption("one_server", {}))
    return Estimate(
        fabric=plan.fabric.value, gpus=n, servers=plan.servers, line_gbps_per_gpu=per_gpu,
        server_line_gbps=server_line, efficiency=LINK_EFFICIENCY, oversubscription=oversub,
        planes=plan.plane_count, ports_per_nic=plan.ports_per_nic,
        allreduce_busbw_gbps=allreduce, alltoall_busbw_gbps=alltoall, message_bytes=size,
        model_params_b=params, allreduce_seconds=seconds, assumptions=tuple(assumptions),
    )
