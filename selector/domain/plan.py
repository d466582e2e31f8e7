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

from .answers import Answers, Workload
from .bom import Prices, bill_of_materials, cost_of
from .catalogue import VENDOR_ANY, Catalogue, Source, SwitchSpec
from .decision import Fabric, select_rule
from .fabric import FabricPlan, Note, rail_ports_of, split_evenly
from .sizing import FabricSize, FabricTooLarge, SizingError, leaf_shape, size_plane
from .spines import even_plan, even_spines

__all__ = [
    "FABRIC_TECHNOLOGY",
    "NOTE_SOURCES",
    "nic_ports",
    "uplink_speed",
    "rail_ports",
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
                     for chunk in split_evenly(rails, split)]
        except FabricTooLarge:
            continue
        notes: list[Note] = []
        if split == 1 and ports_per_nic == 1 and sizes[0].tiers == 1:
            if len(rails) >= 2:
                halves = split_evenly(rails, 2)
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
