"""The acceptance test plan an engineer runs after cabling: link checks per switch port
group, perftest per link class, nccl-tests across the cluster with the estimate as the pass
threshold, and the PFC/ECN counters to read (RoCE) or the port error counters (InfiniBand).

Pure Python: steps as data (a phrase key and its parameters, the commands, the source);
the Django layer puts the words around them in the reader's language
(selector.planner.build). Per-port rows come from the cabling plan's CSV; here each step
covers a port group (a range on every switch of a role).

Sources: perftest's own usage text (linux-rdma/perftest: ``-d`` device, ``-x`` GID index,
"Default: IB - no gid. ETH - 0", ``-R`` connect with rdma_cm, ``--report_gbits``);
nccl-tests' README (``all_reduce_perf -b 8 -e 8G -f 2 -g 1``); the NVUE command reference
and the Cumulus Linux RoCE guide (``nv show interface <id> counters qos pfc-stats``,
``nv show interface <id> qos roce counters``); the SONiC command reference (``show pfc
counters``, ``show queue counters``, ``show pfcwd stats``, ``show interfaces status``);
infiniband-diags (``iblinkinfo``, ``ibqueryerrors``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..catalogue import Source
from ..fabric import FabricPlan
from ..tuning import CL_ROCE, SONIC_CMDREF
from .performance import Estimate

__all__ = ["PASS_TOLERANCE", "Step", "acceptance_plan", "PERFTEST", "NCCL_TESTS",
           "IB_DIAGS", "NVUE_SHOW"]

_READ = "2026-12-03"
PERFTEST = Source(
    "linux-rdma/perftest — usage of ib_write_bw / ib_send_lat (-d, -x GID index, -R rdma_cm, "
    "--report_gbits)", "https://github.com/linux-rdma/perftest", _READ,
    "linux-rdma perftest：ib_write_bw / ib_send_lat 参数说明（英文）")
NCCL_TESTS = Source(
    "NVIDIA/nccl-tests README — all_reduce_perf -b 8 -e 8G -f 2 -g 1",
    "https://github.com/NVIDIA/nccl-tests", _READ, "NVIDIA nccl-tests 使用说明（英文）")
IB_DIAGS = Source(
    "linux-rdma/rdma-core infiniband-diags — iblinkinfo, ibqueryerrors",
    "https://github.com/linux-rdma/rdma-core/tree/master/infiniband-diags", _READ,
    "linux-rdma infiniband-diags 工具说明（英文）")
NVUE_SHOW = Source(
    "NVIDIA NVUE Command Reference — nv show interface <interface-id> counters qos pfc-stats; "
    "nv show interface <interface-id> qos roce counters",
    "https://docs.nvidia.com/networking-ethernet-software/nvue-reference/", _READ,
    "NVIDIA NVUE 命令参考：接口 PFC 与 RoCE 计数器（英文）")
# The pass threshold sits this far below the estimate: the estimate reproduced nccl-tests
# issue #100 within 6 % (selector.domain.build.performance).
PASS_TOLERANCE = 0.06


@dataclass(frozen=True)
class Step:
    section: str  # links | perftest | nccl | counters
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    commands: tuple[str, ...] = ()
    source: Source | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.section, "key": self.key, "params": dict(self.params),
                "commands": list(self.commands),
                "source": self.source.to_dict() if self.source else None}


def _nvue(first: int, count: int, split: int) -> str:
    if count <= 0:
        return ""
    if split == 1:
        return f"swp{first}" if count == 1 else f"swp{first}-{first + count - 1}"
    last = first + count - 1
    return f"swp{first}s0-swp{last}s{split - 1}"


def _sonic(first: int, count: int, lanes: int = 8) -> str:
    start = (first - 1) * lanes
    end = (first + count - 2) * lanes
    return f"Ethernet{start}" if count == 1 else f"Ethernet{start}-Ethernet{end}"


def _groups(plan: FabricPlan) -> list[dict[str, Any]]:
    """Port groups per switch role: the fullest leaf's GPU ports and uplinks, the spine and
    core ports (native port ranges, each split ``split`` ways)."""
    switch = plan.switch
    size = plan.largest_plane
    _n, down, up = max(size.leaf_groups, key=lambda g: (g[1], g[2]))
    gpu_split = switch.port_speed_gbps // plan.port_gbps
    up_split = switch.port_speed_gbps // plan.uplink_gbps
    gpu_ports = -(-down // gpu_split)
    groups = [{"role": "leaf", "group": "gpu", "switches": plan.leaf, "first": 1,
               "count": gpu_ports, "split": gpu_split, "links": down,
               "gbps": plan.port_gbps}]
    if up:
        groups.append({"role": "leaf", "group": "uplink", "switches": plan.leaf,
                       "first": gpu_ports + 1, "count": -(-up // up_split),
                       "split": up_split, "links": up, "gbps": plan.uplink_gbps})
    if plan.spine:
        spine_down, spine_up = max(size.spine_ports(), key=lambda p: p[0] + p[1])
        used = spine_down + spine_up
        groups.append({"role": "spine", "group": "fabric", "switches": plan.spine,
                       "first": 1, "count": -(-used // up_split), "split": up_split,
                       "links": used, "gbps": plan.uplink_gbps})
    if plan.core:
        core = max(size.core_ports())
        groups.append({"role": "core", "group": "fabric", "switches": plan.core,
                       "first": 1, "count": -(-core // up_split), "split": up_split,
                       "links": core, "gbps": plan.uplink_gbps})
    return groups


def acceptance_plan(plan: FabricPlan, estimate: Estimate) -> list[Step]:
    ib = plan.switch.technology == "infiniband"
    family = plan.switch.family
    steps: list[Step] = []
    # 1. Links, per port group.
    for g in _groups(plan):
        params = {k: g[k] for k in ("role", "group", "switches", "links", "gbps")}
        if ib:
            rng = f"{g['first']}-{g['first'] + g['count'] - 1}"
            steps.append(Step("links", "links_ib", {**params, "ports": rng},
                              ("iblinkinfo",), IB_DIAGS))
        elif family == "nvidia-spectrum":
            rng = _nvue(g["first"], g["count"], g["split"])
            steps.append(Step("links", "links_eth", {**params, "ports": rng},
                              ("nv show interface",), NVUE_SHOW))
        else:
            rng = _sonic(g["first"], g["count"])
            steps.append(Step("links", "links_eth", {**params, "ports": rng},
                              ("show interfaces status",), SONIC_CMDREF))
    # 2. perftest per link class.
    port_gbps = plan.port_gbps
    threshold = round(port_gbps * estimate.efficiency)
    classes = ["same_leaf"]
    if plan.tiers >= 2:
        classes.append("via_spine")
    if plan.tiers >= 3:
        classes.append("via_core")
    gid = "" if ib else " -x <GID index (RoCE v2)>"
    for link_class in classes:
        steps.append(Step("perftest", f"perftest_{link_class}", {
            "gbps": port_gbps, "threshold_gbps": threshold,
            "efficiency_pct": round(estimate.efficiency * 100)}, (
            f"ib_write_bw -d mlx5_0{gid} --report_gbits",
            f"ib_write_bw -d mlx5_0{gid} --report_gbits <server-a>",
            f"ib_send_lat -d mlx5_0{gid}",
            f"ib_send_lat -d mlx5_0{gid} <server-a>",
        ), PERFTEST))
    if not ib:
        steps.append(Step("perftest", "perftest_rdma_cm", {}, (
            "ib_write_bw -d mlx5_0 -R --report_gbits",
            "ib_write_bw -d mlx5_0 -R --report_gbits <server-a>"), PERFTEST))
    # 3. nccl-tests across the cluster, the estimate as the pass threshold.
    gps = plan.gpus_per_server
    allreduce = estimate.allreduce_busbw_gbytes
    alltoall = estimate.alltoall_busbw_gbytes
    steps.append(Step("nccl", "nccl_all_reduce", {
        "gpus": plan.gpus, "estimate_gbytes": round(allreduce, 1),
        "threshold_gbytes": round(allreduce * (1 - PASS_TOLERANCE), 1),
        "tolerance_pct": round(PASS_TOLERANCE * 100)}, (
        f"mpirun -np {plan.gpus} -N {gps} ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1",),
        NCCL_TESTS))
    steps.append(Step("nccl", "nccl_alltoall", {
        "gpus": plan.gpus, "estimate_gbytes": round(alltoall, 1),
        "threshold_gbytes": round(alltoall * (1 - PASS_TOLERANCE), 1),
        "tolerance_pct": round(PASS_TOLERANCE * 100)}, (
        f"mpirun -np {plan.gpus} -N {gps} ./build/alltoall_perf -b 8 -e 8G -f 2 -g 1",),
        NCCL_TESTS))
    # 4. Counters after the run.
    if ib:
        steps.append(Step("counters", "counters_ib", {}, ("ibqueryerrors",), IB_DIAGS))
    elif family == "nvidia-spectrum":
        rng = _nvue(1, 1, 1)
        steps.append(Step("counters", "counters_nvue", {}, (
            f"nv show interface {rng} counters qos pfc-stats",
            f"nv show interface {rng} qos roce counters"), NVUE_SHOW))
        steps.append(Step("counters", "counters_nvue_guide", {}, (), CL_ROCE))
    else:
        steps.append(Step("counters", "counters_sonic", {}, (
            "show pfc counters", "show queue counters", "show pfcwd stats"), SONIC_CMDREF))
    return steps
