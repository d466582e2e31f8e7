"""Failure domains of a fabric plan: for the loss of one NIC link, one leaf, one spine, one
core switch and one plane, the GPUs that lose their fabric connectivity, the share of
bandwidth lost and what a running job does.

Pure Python; reads only the plan (the cabling plan's ``iter_links`` must agree with it, a
cross-check test does that). The rail layout is the planner's (selector.domain.sizing,
``size_plane``): NIC *i* of every server is rail *i*; a plane holds a consecutive block of
rails (plane *p* of an 800G Ethernet NIC holds port *p* of every NIC); a leaf holds either
several whole rails (small clusters: ``per_leaf`` rails of every server) or one rail of
``down`` servers.

GPUs and NICs: with ``R`` NICs and ``G`` GPUs per server, NIC *i* serves GPU
``i * G // R`` when ``R >= G`` (several NICs per GPU), and GPU *g* uses NIC ``g * R // G``
when ``R < G`` (several GPUs per NIC). A GPU loses connectivity when every NIC port it
uses is down; "bandwidth lost" is the share of the plan's GPU links (for a leaf, a NIC link
or a plane) or of the tier's uplinks (a spine or core switch) that the loss takes away.

What a running job does (NVIDIA NCCL User Guide, "Error handling and communicator abort";
NCCL environment variables NCCL_IB_TIMEOUT / NCCL_IB_RETRY_CNT): a rank whose network
connection fails gets an error (``ncclSystemError``, found with ``ncclCommGetAsyncError``);
the application aborts the communicator (``ncclCommAbort``) and recreates it, in practice
the job restarts from its last checkpoint without the failed GPUs (or on the remaining
rails). A switch failure above the leaves disconnects no GPU: routing moves the flows to
the remaining spines/cores; RDMA transfers on the failed paths are retransmitted by the
NIC, and the job goes on at the lower bandwidth when the path is back within the verbs
retry time, else NCCL reports an error and the job aborts as above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..catalogue import Source
from ..decision import Phrase
from ..fabric import FabricPlan
from ..sizing import FabricSize

__all__ = ["ELEMENTS", "FailureDomain", "failure_domains", "gpus_of_nics", "leaf_layout",
           "NCCL_ERRORS", "NCCL_ENV"]

ELEMENTS = ("nic_link", "leaf", "spine", "core", "plane")
_READ = "2026-12-03"
NCCL_ERRORS = Source(
    "NVIDIA NCCL User Guide — Creating a Communicator: Error handling and communicator abort",
    "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html",
    _READ, "NVIDIA NCCL 用户指南：错误处理与通信器中止（英文）")
NCCL_ABORT_RELEASE = Source(
    "NVIDIA/nccl release v2.4.2-1: Add ncclCommAbort() and ncclCommGetAsyncError() to "
    "properly handle network errors", "https://github.com/NVIDIA/nccl/releases/tag/v2.4.2-1",
    _READ, "NVIDIA NCCL 2.4.2-1 发行说明：ncclCommAbort 处理网络错误（英文）")
NCCL_ENV = Source(
    "NVIDIA NCCL User Guide — Environment Variables (NCCL_IB_TIMEOUT, NCCL_IB_RETRY_CNT)",
    "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html", _READ,
    "NVIDIA NCCL 用户指南：环境变量（英文）")


@dataclass(frozen=True)
class FailureDomain:
    """The loss of one ``element``. ``gpu_links_lost`` counts NIC ports (GPU-leaf links)
    taken down, ``uplinks_lost`` links above the leaves; ``effect`` is a phrase key the
    pages put into words."""

    element: str
    gpus_disconnected: int
    gpus_affected: int
    gpu_links_lost: int
    uplinks_lost: int
    bandwidth_lost_pct: float
    effect: Phrase

    @property
    def sources(self) -> tuple[Source, ...]:
        if self.element in ("spine", "core"):
            return (NCCL_ENV, NCCL_ERRORS)
        return (NCCL_ERRORS, NCCL_ABORT_RELEASE)

    def to_dict(self) -> dict[str, Any]:
        return {"element": self.element, "gpus_disconnected": self.gpus_disconnected,
                "gpus_affected": self.gpus_affected, "gpu_links_lost": self.gpu_links_lost,
                "uplinks_lost": self.uplinks_lost,
                "bandwidth_lost_pct": round(self.bandwidth_lost_pct, 2),
                "effect_key": self.effect.to_dict(),
                "sources": [s.to_dict() for s in self.sources]}


def gpus_of_nics(nics: set[int], rails: int, gpus_per_server: int) -> tuple[int, int]:
    """``(GPUs whose every NIC is in nics, GPUs with at least one NIC in nics)`` on one
    server (the mapping in the module text)."""
    uses: dict[int, set[int]] = {}
    if rails >= gpus_per_server:
        for nic in range(rails):
            uses.setdefault(nic * gpus_per_server // rails, set()).add(nic)
    else:
        for gpu in range(gpus_per_server):
            uses.setdefault(gpu, set()).add(gpu * rails // gpus_per_server)
    only = sum(1 for used in uses.values() if used <= nics)
    some = sum(1 for used in uses.values() if used & nics)
    return only, some


def leaf_layout(size: FabricSize) -> tuple[int, int, int]:
    """The fullest leaf of a plane: ``(rails on it, servers on it, GPU links)``."""
    links = max(down for _n, down, _up in size.leaf_groups)
    rails = max(1, size.rails)
    if size.tiers == 1:
        return rails, size.servers, links
    if size.servers <= size.leaf_down:
        per_leaf = min(rails, size.leaf_down // size.servers)
        leaves = -(-rails // per_leaf)
        chunk = -(-rails // leaves)
        return chunk, size.servers, links
    return 1, links, links


def failure_domains(plan: FabricPlan) -> list[FailureDomain]:
    """One row per element the plan has (no core row in two tiers, no spine row for a
    switch per plane, no plane row for a single plane)."""
    gps = max(1, plan.gpus_per_server)
    total_gpu_links = plan.links["gpu_leaf"]
    ppn = plan.ports_per_nic
    rows: list[FailureDomain] = []

    def pct(part: int, whole: int) -> float:
        return 100.0 * part / whole if whole else 0.0

    # One NIC link: one port of one NIC.
    only, some = gpus_of_nics({0}, plan.rails, gps)
    rows.append(FailureDomain(
        "nic_link", only if ppn == 1 else 0, some, 1, 0, pct(1, total_gpu_links),
        Phrase("abort_restart" if ppn == 1 else "abort_restart_other_plane",
               {"gpus": some})))
    # One leaf: the fullest leaf of the largest plane (rails 0.. of its first block).
    size = plan.largest_plane
    rails_on, servers_on, links = leaf_layout(size)
    only, some = gpus_of_nics(set(range(rails_on)), plan.rails, gps)
    rows.append(FailureDomain(
        "leaf", min(plan.gpus, servers_on * only) if ppn == 1 else 0,
        min(plan.gpus, servers_on * some), links, 0,
        pct(links, total_gpu_links),
        Phrase("leaf_abort", {"links": links, "servers": servers_on})))
    if plan.spine:
        per_spine = max(size.spine_ports(), key=lambda p: p[0] + p[1])
        lost = per_spine[0]
        rows.append(FailureDomain(
            "spine", 0, 0, 0, lost, pct(lost, plan.links["leaf_spine"]),
            Phrase("reroute", {"tier": "leaf_spine"})))
    if plan.core:
        core_ports = size.core_ports()
        lost = max(core_ports) if core_ports else 0
        rows.append(FailureDomain(
            "core", 0, 0, 0, lost, pct(lost, plan.links["spine_core"]),
            Phrase("reroute", {"tier": "spine_core"})))
    if plan.plane_count > 1:
        plane_links = size.links["gpu_leaf"]
        if ppn == 1:
            only, some = gpus_of_nics(set(range(size.rails)), plan.rails, gps)
            disconnected = min(plan.gpus, size.servers * only)
            affected = min(plan.gpus, size.servers * some)
        else:
            disconnected, affected = 0, plan.gpus
        rows.append(FailureDomain(
            "plane", disconnected, affected, plane_links, 0, pct(plane_links, total_gpu_links),
            Phrase("plane_abort" if ppn == 1 else "plane_abort_other_plane",
                   {"planes": plan.plane_count})))
    return rows
