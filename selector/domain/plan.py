"""A fabric plan an architect can sign: the switch picked from the catalogue, the planes,
the tiers and their counts at the NIC speed, the bill of materials, power and cost.

Pure Python, no Django. How the plan follows the hardware the customer named:

* GPU links run at the NIC speed through the switch's documented breakout (one 800G OSFP
  port = 2 x 400G); uplinks run at the fabric's speed: 800G native for "RoCE v2 800G"
  (rule R6's 800G core), 400G for "RoCE v2 400G", the native NDR/XDR speed on InfiniBand.
* An 800G NIC on Ethernet is two planes: NVIDIA's ConnectX-8 "supports 800Gb/s or XDR IB or
  2 x 400GbE link speeds. Note: 800GbE link speed is not supported on a single port"
  (ConnectX-8 firmware release notes), and NVIDIA's DGX B300 SuperPOD gives "each GPU
  2x 400GbE connectivity through two different planes". Each GPU still gets 800G.
* Small clusters: when a plane fits one switch it is one switch; a cluster that would be
  a single switch gets a redundant pair instead (the rails split over two switches: a
  switch failure stops a running NCCL job on its rails, which restarts on the surviving
  rails at half the bandwidth, every server still connected; cross-rail
  traffic crosses the servers' own NVLink). Several rails share a leaf when it has the
  ports. Every leaf/spine plan has at least two spines and two uplinks per leaf.
* Huge clusters: rails split over more planes until every plane fits three tiers; beyond
  one rail per plane the size is too large and ``FabricTooLarge`` names the largest.
* Inference: a cluster that would need three tiers is built as the fewest identical,
  independent two-tier pods instead (``FabricPlan.pods``): NVIDIA's HGX AI Factory reference
  architecture says "The compute network is not necessarily required for inference
  workloads", since most models fit in one GPU or one server, so no model needs a
  cluster-wide non-blocking fabric; a model served across servers stays within its pod.

The switch for ``vendor="any"`` is the catalogue switch that builds the plan with the
fewest switches, then the lowest known power, then the catalogue priority (admin), then
its key. A vendor preference restricts Ethernet to that vendor's switches when one of them
fits (InfiniBand switches come from NVIDIA only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .bom import BomLine, Cost, Prices, bill_of_materials, cost_of
from .catalogue import VENDOR_ANY, Catalogue, Source, SwitchSpec
from .decision import Answers, Fabric, Phrase, Workload, select_rule
from .sizing import FabricSize, FabricTooLarge, SizingError, leaf_shape, size_plane

__all__ = [
    "FABRIC_TECHNOLOGY",
    "Note",
    "FabricPlan",
    "NOTE_SOURCES",
    "nic_ports",
    "uplink_speed",
    "rail_ports",
    "rail_ports_of",
    "plan_fabric",
    "recommend_fabric",
    "candidate_switches",
]

FABRIC_TECHNOLOGY: dict[Fabric, str] = {
    Fabric.ROCE_400: "ethernet",
    Fabric.ROCE_800: "ethernet",
    Fabric.INFINIBAND: "infiniband",
}


def nic_ports(technology: str, nic_gbps: int) -> tuple[int, int]:
    """``(ports per NIC, port speed)``: an 800G NIC on Ethernet is 2 x 400GbE (ConnectX-8),
    every other NIC one port at its speed."""
    if technology == "ethernet" and nic_gbps == 800:
        return 2, 400
    return 1, nic_gbps


def uplink_speed(fabric: Fabric, nic_gbps: int) -> int:
    """Uplink speed: RoCE 800G runs an 800G core (R6), RoCE 400G a 400G fabric, InfiniBand
    XDR (800G) with 800G NICs, else NDR (400G)."""
    if fabric == Fabric.ROCE_800:
        return 800
    if fabric == Fabric.INFINIBAND and nic_gbps == 800:
        return 800
    return 400


@dataclass(frozen=True)
class Note(Phrase):
    """A fact about the plan the pages put into words."""


HGX_RA_TOPOLOGY = Source(
    "NVIDIA HGX AI Factory, Enterprise Reference Architecture: Networking Physical Topologies",
    "https://docs.nvidia.com/enterprise-reference-architectures/hgx-ai-factory/latest/"
    "networking-physical-topologies.html", "2026-12-03",
    title_zh="NVIDIA HGX AI 工厂企业参考架构：网络物理拓扑")
# The documents a note's claim comes from (the pages list them with the plan's sources).
NOTE_SOURCES: dict[str, tuple[Source, ...]] = {"inference_pods": (HGX_RA_TOPOLOGY,)}


def rail_ports(answers: Answers) -> list[int]:
    """NIC ports on each rail: one per server, one rail per NIC. A partly populated last
    server carries ``ceil(its GPUs x NICs per server / GPUs per server)`` NICs."""
    return rail_ports_of(answers.gpus, answers.servers, answers.gpus_per_server, answers.rails)


def rail_ports_of(gpus: int, servers: int, gpus_per_server: int, rails: int) -> list[int]:
    """``rail_ports`` from the plan's own counts (a frozen plan has no answers)."""
    last_gpus = gpus - (servers - 1) * gpus_per_server
    last_nics = -(-last_gpus * rails // gpus_per_server)
    return [servers if i < last_nics else servers - 1 for i in range(rails)]


def _split[T](values: list[T], parts: int) -> list[list[T]]:
    q, rem = divmod(len(values), parts)
    out: list[list[T]] = []
    start = 0
    for i in range(parts):
        size = q + (1 if i < rem else 0)
        out.append(values[start:start + size])
        start += size
    return [chunk for chunk in out if chunk]


@dataclass(frozen=True)
class FabricPlan:
    """One fabric for the cluster. ``planes`` groups identical planes as ``(count, size)``.
    ``gpu_link_gbps`` is each GPU's NIC speed; ``port_gbps`` the speed of its switch ports
    (400 for a ConnectX-8 on Ethernet: two ports, one per plane); ``uplink_gbps`` the
    leaf-spine-core speed.

    ``pods``: the fabric is that many identical, independent fabrics (no links between
    them), each as ``planes`` describe; switch, link and part counts, power and cost are
    for all of them (``planes`` is one pod's). ``gpus`` and ``servers`` are the cluster's;
    a pod is sized for ``ceil(servers / pods)`` servers, so the last one may have free
    ports. A plan frozen before pods existed reads as one pod."""

    fabric: Fabric
    switch: SwitchSpec
    planes: tuple[tuple[int, FabricSize], ...]
    gpu_link_gbps: int
    port_gbps: int
    ports_per_nic: int
    uplink_gbps: int
    rails: int
    gpus: int
    servers: int
    gpus_per_server: int
    distance: str
    reach_m: int
    notes: tuple[Note, ...] = ()
    bom: tuple[BomLine, ...] = ()
    cost: Cost | None = None
    pods: int = 1
    platform: str = "unsure"  # decision.PLATFORMS: the NIC end's cages (finding 7)

    # --- totals ---------------------------------------------------------------------------
    def _sum(self, name: str) -> int:
        total: int = sum(count * getattr(size, name) for count, size in self.planes)
        return self.pods * total

    @property
    def plane_count(self) -> int:
        return sum(count for count, _ in self.planes)

    @property
    def tiers(self) -> int:
        return max(size.tiers for _, size in self.planes)

    @property
    def leaf(self) -> int:
        return self._sum("leaf")

    @property
    def spine(self) -> int:
        return self._sum("spine")

    @property
    def core(self) -> int:
        return self._sum("core")

    @property
    def switches(self) -> int:
        return self._sum("switches")

    @property
    def links(self) -> dict[str, int]:
        return {key: self.pods * sum(count * size.links[key] for count, size in self.planes)
                for key in ("gpu_leaf", "leaf_spine", "spine_core")}

    @property
    def transceiver_ends(self) -> int:
        return 2 * sum(self.links.values())

    @property
    def design(self) -> str:
        """``single-switch``, ``switch-per-plane``, ``two-tier`` or ``three-tier``."""
        tiers = self.tiers
        if tiers == 1:
            return "single-switch" if self.plane_count == 1 else "switch-per-plane"
        return "two-tier" if tiers == 2 else "three-tier"

    @property
    def largest_plane(self) -> FabricSize:
        return max((size for _, size in self.planes), key=lambda s: (s.switches, s.gpus))

    @property
    def speed_gbps(self) -> int:  # first-release name: the fabric's switch port speed
        return self.uplink_gbps

    @property
    def size(self) -> FabricSize:
        """The whole fabric as one FabricSize (totals; per-leaf shape of the largest plane)."""
        plane = self.largest_plane
        links = self.links
        groups: dict[tuple[int, int], int] = {}
        for count, size in self.planes:
            for n, down, up in size.leaf_groups:
                groups[(down, up)] = groups.get((down, up), 0) + self.pods * count * n
        return FabricSize(
            tiers=self.tiers, leaf=self.leaf, spine=self.spine, core=self.core,
            switches=self.switches, links=links, transceiver_ends=self.transceiver_ends,
            radix=plane.radix, oversubscription=plane.oversubscription,
            leaf_down=plane.leaf_down, leaf_up=plane.leaf_up, servers=self.servers,
            rails=self.rails, gpus=self.gpus, gpus_per_server=self.gpus_per_server,
            leaf_groups=tuple((n, down, up) for (down, up), n in
                              sorted(groups.items(), reverse=True)),
            gpu_gbps=self.port_gbps, uplink_gbps=self.uplink_gbps,
        )

    @property
    def modules(self) -> int:
        """Every optical module of the plan: the BOM's, and the NIC-end modules the plan
        counts but the catalogue has no part for (``no_part`` notes with a ``count``)."""
        listed = sum(line.count for line in self.bom if line.kind == "module")
        return listed + sum(int(note.params.get("count", 0)) for note in self.notes
                            if note.key == "no_part")

    @property
    def cables(self) -> int:
        return sum(line.count for line in self.bom if line.kind == "cable")

    @property
    def power_w(self) -> int:
        """Sum of the power of every line whose part publishes it (see ``power_complete``)."""
        return round(sum(line.power_total for line in self.bom))

    @property
    def power_complete(self) -> bool:
        """False when a switch or part of the plan has no published power figure, or a
        link has no catalogue part: ``power_w`` is then a lower bound."""
        return all(line.power_w is not None for line in self.bom) and not any(
            note.key == "no_part" for note in self.notes)

    def has_note(self, key: str) -> bool:
        return any(note.key == key for note in self.notes)

    # --- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "fabric": self.fabric.value,
            "switch": self.switch.to_dict(),
            "planes": [{"count": count, "size": size.to_dict()} for count, size in self.planes],
            "gpu_link_gbps": self.gpu_link_gbps,
            "port_gbps": self.port_gbps,
            "ports_per_nic": self.ports_per_nic,
            "uplink_gbps": self.uplink_gbps,
            "rails": self.rails,
            "gpus": self.gpus,
            "servers": self.servers,
            "gpus_per_server": self.gpus_per_server,
            "distance": self.distance,
            "reach_m": self.reach_m,
            "notes": [note.to_dict() for note in self.notes],
            "bom": [line.to_dict() for line in self.bom],
            "cost": self.cost.to_dict() if self.cost else None,
            "pods": self.pods,
            "platform": self.platform,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FabricPlan:
        return cls(
            fabric=Fabric(data["fabric"]),
            switch=SwitchSpec.from_dict(data["switch"]),
            planes=tuple((int(p["count"]), FabricSize.from_dict(p["size"]))
                         for p in data["planes"]),
            gpu_link_gbps=int(data["gpu_link_gbps"]), port_gbps=int(data["port_gbps"]),
            ports_per_nic=int(data["ports_per_nic"]), uplink_gbps=int(data["uplink_gbps"]),
            rails=int(data["rails"]), gpus=int(data["gpus"]), servers=int(data["servers"]),
            gpus_per_server=int(data["gpus_per_server"]), distance=str(data["distance"]),
            reach_m=int(data["reach_m"]),
            notes=tuple(Note.from_dict(n) for n in data.get("notes", ())),
            bom=tuple(BomLine.from_dict(line) for line in data.get("bom", ())),
            cost=Cost.from_dict(data["cost"]) if data.get("cost") else None,
            pods=int(data.get("pods", 1)),
            platform=str(data.get("platform", "unsure")),
        )


def candidate_switches(
    catalogue: Sequence[SwitchSpec], technology: str, port_gbps: int, uplink_gbps: int
) -> list[SwitchSpec]:
    """Switches of ``technology`` with ports at the GPU link speed and the uplink speed."""
    return [s for s in catalogue if s.technology == technology and s.supports(port_gbps)
            and s.supports(uplink_gbps) and uplink_gbps >= port_gbps]


def _planes(switch: SwitchSpec, ports: list[int], ports_per_nic: int, port_gbps: int,
            uplink_gbps: int, gpus_per_server: int, oversub: int = 1
            ) -> tuple[list[FabricSize], list[Note]]:
    """Size the planes on ``switch``: the fewest rail splits that fit three tiers, leaves
    at ``oversub``:1."""
    shape = leaf_shape(switch.ports, switch.port_speed_gbps, port_gbps, uplink_gbps,
                       oversub)
    rails = [p for p in ports if p > 0]
    for split in range(1, len(rails) + 1):
        try:
            sizes = [size_plane(chunk, shape, gpus_per_server=gpus_per_server)
                     for chunk in _split(rails, split)]
        except FabricTooLarge:
            continue
        notes: list[Note] = []
        if split == 1 and ports_per_nic == 1 and sizes[0].tiers == 1:
            if len(rails) >= 2:
                halves = _split(rails, 2)
                sizes = [size_plane(chunk, shape, gpus_per_server=gpus_per_server)
                         for chunk in halves]
                notes.append(Note("redundant_pair", {"rails_a": len(halves[0]),
                                                     "rails_b": len(halves[1])}))
            else:
                notes.append(Note("single_switch_one_rail", {}))
        elif split > 1:
            notes.append(Note("planes_for_scale", {"planes": split * ports_per_nic,
                                                   "rails_per_plane": -(-len(rails) // split)}))
        # NVIDIA's published InfiniBand rows wire every spine evenly (DGX SuperPOD H100,
        # B300 XDR); Ethernet plans keep the minimum and the note (the Spectrum-X rows hold).
        headlined = [even_plan(size) if switch.technology == "infiniband" else None
                     for size in sizes]
        for size, found in zip(sizes, headlined, strict=True):
            if found is not None:
                notes.append(Note("even_spines_headlined", {
                    "spines": found[0].spine, "minimum": size.spine,
                    "extra_uplinks": found[1]}))
                break
        sizes = [h[0] if h else size for h, size in zip(headlined, sizes, strict=True)]
        return sizes * ports_per_nic, notes
    k, down = shape.radix, shape.leaf_down
    servers_max = (k * k // 2) * down
    raise FabricTooLarge(sum(ports), servers_max * gpus_per_server, gpus_per_server, k,
                         oversub)


def even_plan(size: FabricSize) -> tuple[FabricSize, int] | None:
    """The published way to wire a 2-tier plane, where it costs little: every leaf cabled
    like the fullest one (a leaf at most one uplink short of it gets that uplink, and so do
    leaves all one short of their uplink budget: NVIDIA cables whole scalable units, the
    DGX SuperPOD H100 3-SU row of 760 GPUs has the cables of 768), and the fewest spines,
    at most a third more than the minimum, that every leaf reaches over the same number of
    links. Returns the plane and the uplinks it adds, or None when the plane is already
    even or no such count exists (then the plan keeps the minimum and the
    ``uneven_spine_links`` note names the even count).

    Published rows this reproduces: H100 (QM9700) 760 GPUs → 24 leaf / 16 spine, 1,016 →
    32 / 16; B300 XDR (Q3400) 2,304 → 32 / 18, 4,608 → 64 / 36."""
    if size.tiers != 2 or not size.leaf_groups:
        return None
    up = max(u for _n, _d, u in size.leaf_groups)
    if all(u == up for _n, _d, u in size.leaf_groups) and up % size.spine == 0:
        return None
    for target in (up, up + 1):  # as the fullest leaf, or one more (1 SU: 31 -> 32)
        if target > size.leaf_up or any(u < target - 1 for _n, _d, u in size.leaf_groups):
            continue
        found = _even_at(size, target)
        if found is not None:
            return found
    return None


def _even_at(size: FabricSize, up: int) -> tuple[FabricSize, int] | None:
    k = size.radix
    total = size.leaf * up
    for spines in range(size.spine, -(-4 * size.spine // 3) + 1):
        if spines <= k and up % spines == 0 and total <= spines * k:
            groups: dict[tuple[int, int], int] = {}
            for n, down, _u in size.leaf_groups:
                groups[(down, up)] = groups.get((down, up), 0) + n
            links = {**size.links, "leaf_spine": total}
            return replace(
                size, spine=spines, switches=size.leaf + spines, links=links,
                transceiver_ends=2 * sum(links.values()),
                leaf_groups=tuple((n, d, u) for (d, u), n in sorted(groups.items(),
                                                                    reverse=True)),
            ), total - size.links["leaf_spine"]
    return None


def even_spines(size: FabricSize) -> tuple[int, int] | None:
    """The fewest spines (more than ``size.spine``, at most the radix) that every leaf of a
    2-tier plane reaches over the same number of links, each leaf rounding its uplinks up
    to a multiple of them within its uplink ports, and the extra uplinks that takes; None
    when no such count exists. (A leaf with fewer uplinks than spines reaches a subset.)"""
    k = size.radix
    for spines in range(size.spine + 1, k + 1):
        total = 0
        for count, _down, up in size.leaf_groups:
            wired = -(-up // spines) * spines if up >= spines else up
            if wired > size.leaf_up:
                break
            total += count * wired
        else:
            if total <= spines * k:
                return spines, total - size.links["leaf_spine"]
    return None


def _size_notes(sizes: list[FabricSize]) -> list[Note]:
    notes: list[Note] = []
    unique: list[FabricSize] = []
    for size in sizes:
        if size not in unique:
            unique.append(size)
    for size in unique:
        if size.tiers == 2:
            for count, _down, up in size.leaf_groups:
                if up < size.spine:
                    notes.append(Note("partial_leaf_ecmp", {"leaves": count, "uplinks": up,
                                                            "spines": size.spine}))
                    break
            for count, _down, up in size.leaf_groups:
                if up >= size.spine and up % size.spine:
                    even, extra = even_spines(size) or (0, 0)
                    notes.append(Note("uneven_spine_links", {
                        "leaves": count, "uplinks": up, "spines": size.spine,
                        "even_spines": even, "extra_uplinks": extra}))
                    break
        if size.tiers >= 2:
            shared = [down for _, down, _ in size.leaf_groups if down > size.servers]
            if shared:
                notes.append(Note("rails_share_leaf", {"rails": max(shared) // size.servers}))
    seen, out = set(), []
    for note in notes:
        key = (note.key, tuple(sorted(note.params.items())))
        if key not in seen:
            seen.add(key)
            out.append(note)
    return out


def _group(sizes: list[FabricSize]) -> tuple[tuple[int, FabricSize], ...]:
    distinct: list[FabricSize] = []  # FabricSize holds a dict: equal, not hashable
    counts: list[int] = []
    for size in sizes:
        if size in distinct:
            counts[distinct.index(size)] += 1
        else:
            distinct.append(size)
            counts.append(1)
    return tuple(zip(counts, distinct, strict=True))


def _sized(switch: SwitchSpec, fabric: Fabric, ports: list[int], ports_per_nic: int,
           port_gbps: int, nic: int, gps: int, oversub: int = 1
           ) -> tuple[int, list[FabricSize], list[Note]]:
    """Sizes at the fabric's uplink speed. An 800G core (R6) on a Spectrum-4 switch runs its
    800G ports as 2 x 400G links at every size: Spectrum-4 has adaptive routing on 200G and
    400G links, not on 800G ones (Cumulus Linux, Adaptive Routing), and NVIDIA's DGX B300
    SuperPOD runs its Spectrum-X fabric that way; the native 800G links are kept only when
    they save a tier (or a plane) in the same comparison. Other 800G switches keep native
    800G links unless splitting them saves a tier (a 64 x 800G spine then has 128 ports)."""
    uplink = uplink_speed(fabric, nic)
    sizes, notes = _planes(switch, ports, ports_per_nic, port_gbps, uplink, gps, oversub)
    if fabric == Fabric.ROCE_800 and port_gbps <= 400 and switch.supports(400):
        try:
            split, split_notes = _planes(switch, ports, ports_per_nic, port_gbps, 400, gps,
                                         oversub)
        except FabricTooLarge:
            return uplink, sizes, notes

        def shape(group: list[FabricSize]) -> tuple[int, int]:
            return (max(s.tiers for s in group), len(group))

        if switch.family == "nvidia-spectrum":
            if shape(sizes) < shape(split):  # 800G saves a tier: say what it costs
                return uplink, sizes, [*notes, Note("core_800g_saves_tier", {})]
            return 400, split, [*split_notes, Note("adaptive_routing_400g", {"native": uplink})]
        if shape(split) < shape(sizes):  # a tier (or a plane) saved, not just a switch
            return 400, split, [*split_notes, Note("core_ports_split", {"native": uplink})]
    return uplink, sizes, notes


def _inference_pods(switch: SwitchSpec, fabric: Fabric, answers: Answers, ports_per_nic: int,
                    port_gbps: int, nic: int
                    ) -> tuple[int, int, tuple[int, list[FabricSize], list[Note]]] | None:
    """The fewest identical two-tier pods for ``answers``: ``(pods, servers per pod, the
    pod's sizes)``, or None when even a one-server pod needs three tiers. Fewer servers
    per pod never need more tiers, so the smallest pod count is found by bisection."""
    servers, gps = answers.servers, answers.gpus_per_server

    def sized(pods: int) -> tuple[int, list[FabricSize], list[Note]] | None:
        pod_servers = -(-servers // pods)
        pod = answers.replace(gpus=min(answers.gpus, pod_servers * gps))
        try:
            found = _sized(switch, fabric, rail_ports(pod), ports_per_nic, port_gbps, nic, gps,
                           answers.oversubscription)
        except FabricTooLarge:
            return None
        return found if max(s.tiers for s in found[1]) <= 2 else None

    if servers < 2 or sized(servers) is None:
        return None
    low, high = 2, servers  # sized(high) fits two tiers
    while low < high:
        mid = (low + high) // 2
        if sized(mid) is not None:
            high = mid
        else:
            low = mid + 1
    pod_servers = -(-servers // low)
    pods = -(-servers // pod_servers)  # the same pod size may need fewer pods
    found = sized(pods)
    assert found is not None
    return pods, pod_servers, found


def _build(fabric: Fabric, switch: SwitchSpec, answers: Answers, catalogue: Catalogue,
           prices: Prices | None, extra_notes: list[Note]) -> FabricPlan:
    technology = FABRIC_TECHNOLOGY[fabric]
    nic = answers.nic_gbps
    ports_per_nic, port_gbps = nic_ports(technology, nic)
    ports = rail_ports(answers)
    pods = 1
    try:
        uplink, sizes, notes = _sized(switch, fabric, ports, ports_per_nic, port_gbps, nic,
                                      answers.gpus_per_server, answers.oversubscription)
        three_tiers = max(s.tiers for s in sizes) > 2
    except FabricTooLarge:
        if answers.workload != Workload.INFERENCE:
            raise
        three_tiers = True
    if answers.workload == Workload.INFERENCE and three_tiers:
        found = _inference_pods(switch, fabric, answers, ports_per_nic, port_gbps, nic)
        if found is None:
            raise FabricTooLarge(answers.gpus, 0, answers.gpus_per_server,
                                 switch.ports, 1)
        pods, pod_servers, (uplink, sizes, notes) = found
        notes = [*notes, Note("inference_pods", {
            "pods": pods, "servers": pod_servers,
            "gpus": min(answers.gpus, pod_servers * answers.gpus_per_server)})]
    if ports_per_nic == 2:
        notes.insert(0, Note("two_planes_per_nic", {"nic_gbps": nic, "port_gbps": port_gbps}))
    if answers.oversubscription > 1 and max(s.tiers for s in sizes) >= 2:
        notes.append(Note("leaf_oversubscription", {"ratio": answers.oversubscription}))
    notes.extend(_size_notes(sizes))
    notes.extend(extra_notes)
    plan = FabricPlan(
        fabric=fabric, switch=switch, planes=_group(sizes), gpu_link_gbps=nic,
        port_gbps=port_gbps, ports_per_nic=ports_per_nic, uplink_gbps=uplink,
        rails=answers.rails, gpus=answers.gpus, servers=answers.servers,
        gpus_per_server=answers.gpus_per_server, distance=answers.distance,
        reach_m=answers.distance_m, notes=tuple(notes), pods=pods,
        platform=answers.platform,
    )
    lines, missing = bill_of_materials(plan, catalogue.parts)
    notes = list(plan.notes) + [Note("no_part", m) for m in missing]
    cost = cost_of(lines, prices, missing) if prices is not None else None
    return FabricPlan(**{**plan.__dict__, "bom": tuple(lines), "notes": tuple(notes),
                         "cost": cost})


def _rank(plan: FabricPlan) -> tuple[int, float, int, str]:
    power = plan.switch.power_w
    return (plan.switches, plan.switches * power if power is not None else float("inf"),
            plan.switch.priority, plan.switch.key)


def plan_fabric(
    fabric: Fabric | str,
    answers: Answers,
    catalogue: Catalogue | Sequence[SwitchSpec],
    prices: Prices | None = None,
) -> FabricPlan | None:
    """Plan ``fabric`` for ``answers`` with a catalogue switch. None for the standard
    network. Raises ``LookupError`` when no catalogue switch offers the speeds, and
    ``FabricTooLarge`` (with the largest size) beyond one rail per three-tier plane."""
    fabric = Fabric(fabric)
    if fabric == Fabric.STANDARD:
        return None
    catalogue = Catalogue.of(catalogue)
    technology = FABRIC_TECHNOLOGY[fabric]
    nic = answers.nic_gbps
    _, port_gbps = nic_ports(technology, nic)
    switches = candidate_switches(catalogue.switches, technology, port_gbps,
                                  uplink_speed(fabric, nic))
    if not switches:
        raise LookupError(f"no {technology} switch with {port_gbps}G ports for {fabric}")
    notes: list[Note] = []
    vendor = answers.vendor
    if vendor != VENDOR_ANY:
        preferred = [s for s in switches if s.vendor_key == vendor]
        if preferred:
            switches = preferred
        elif technology == "infiniband":
            notes.append(Note("infiniband_vendor", {"vendor": vendor}))
        else:
            notes.append(Note("vendor_unavailable", {"vendor": vendor}))
    plans: list[FabricPlan] = []
    too_large: FabricTooLarge | None = None
    for switch in switches:
        try:
            plans.append(_build(fabric, switch, answers, catalogue, prices, notes))
        except FabricTooLarge as exc:
            if too_large is None or exc.max_gpus > too_large.max_gpus:
                too_large = exc
    if not plans:
        assert too_large is not None
        raise too_large
    return min(plans, key=_rank)


def recommend_fabric(
    answers: Answers,
    catalogue: Catalogue | Sequence[SwitchSpec],
    prices: Prices | None = None,
    *,
    fabric: Fabric | str | None = None,
) -> FabricPlan | None:
    """Plan the recommended fabric (or ``fabric``, e.g. the runner-up)."""
    if fabric is None:
        fabric = select_rule(answers).recommendation
    return plan_fabric(fabric, answers, catalogue, prices)


# SizingError is re-exported for callers that catch both.
__all__ += ["SizingError"]
