"""The cabling plan: every link of a fabric plan, one row each, streamed.

Pure Python, no Django. ``iter_links(plan, catalogue)`` yields one ``Link`` per link of the
plan, plane by plane, GPU links first, then leaf-spine, then spine-core, so that a
100,000-GPU plan streams in constant memory. How the links are laid out (the same rules
the sizing and the tuning use, so that the rows are the plan's counts and the switch ports
are those the configuration's port groups name):

* Rails are split over planes as the planner splits them (consecutive rails per plane; an
  800G NIC on Ethernet has one port in each of two planes); within a plane, a leaf carries
  whole rails when it has the ports, else each rail spreads evenly over
  ``ceil(servers / leaf_down)`` leaves of consecutive servers (``sizing.size_plane``).
* A leaf's GPU links take its first native ports, broken out to the NIC speed; its uplinks
  start on the native port after the fullest leaf's GPU ports (``recommend.leaf_ports``:
  the layout the tuning snippet's port groups use) at the uplink speed.
* Uplinks are spread round-robin over the plane's spines, spine uplinks round-robin over
  its core switches, so every spine and core carries the count ``FabricSize.spine_ports``
  and ``core_ports`` give. In three tiers a spine's first half of ports face the leaves,
  the second half the core.
* The part at each end and the cable come from the plan's own bill of materials (the
  frozen choice by reach); a module serves as many links as the BOM counts it for
  (``bom.links_per_part``), in port order on its switch, so the parts of the rows add up to
  the BOM (``part_totals``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..bom import BomLine, links_per_part, tier_reach
from ..catalogue import Catalogue, PartSpec
from ..plan import FabricPlan, _split, rail_ports_of
from ..recommend import leaf_ports
from ..sizing import FabricSize
from . import naming

__all__ = ["CSV_HEADER", "Link", "Leaf", "PlaneLayout", "iter_links", "plane_layouts",
           "switch_devices", "part_totals", "bom_part_totals", "link_count", "summary"]

CSV_HEADER = ("a_device", "a_port", "b_device", "b_port", "tier", "plane", "part_a",
              "part_b", "reach_m", "label")


@dataclass(frozen=True, slots=True)
class Link:
    """One link: ``a`` is the switch nearer the GPUs (the leaf, or the spine of a
    spine-core link), ``b`` the NIC or the switch above. ``part_a``/``part_b`` are the
    catalogue keys of the module at each end ("" for copper or a part the catalogue does
    not have), ``cable`` the fibre or copper cable; ``reach_m`` the planned length of the
    link's tier and ``length_class`` the reach of the cable part. ``a_unit``, ``b_unit``
    and ``cable_units`` identify the physical part a link shares with its neighbours (a
    twin-port module carries two links)."""

    a_device: str
    a_port: str
    b_device: str
    b_port: str
    tier: str
    plane: int
    rail: int
    part_a: str
    part_b: str
    cable: str
    reach_m: int
    length_class: str
    a_unit: str = ""
    b_unit: str = ""
    cable_units: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The same label on both ends of the cable."""
        return f"{self.a_device}:{self.a_port} <> {self.b_device}:{self.b_port}"

    def csv_row(self) -> tuple[str, ...]:
        return (self.a_device, self.a_port, self.b_device, self.b_port, self.tier,
                str(self.plane), self.part_a, self.part_b, str(self.reach_m), self.label)


@dataclass(frozen=True)
class Leaf:
    """A leaf of a plane: its name, the rails it carries as ``(rail, first server, servers)``
    segments (rail 1-based, servers 0-based) and its uplink count."""

    name: str
    segments: tuple[tuple[int, int, int], ...]
    down: int
    up: int


@dataclass(frozen=True)
class PlaneLayout:
    number: int
    nic_port: int
    size: FabricSize
    leaves: tuple[Leaf, ...]
    spines: tuple[str, ...]
    cores: tuple[str, ...]


def _pods(plan: FabricPlan) -> int:
    return int(getattr(plan, "pods", 1) or 1)


def _balanced(total: int, bins: int) -> list[int]:
    q, rem = divmod(total, bins)
    return [q + 1] * rem + [q] * (bins - rem)


def _leaf_segments(rails: list[tuple[int, int]], size: FabricSize
                   ) -> list[list[tuple[int, int, int]]]:
    """The leaves of one plane as segments, as ``sizing.size_plane`` sizes them. ``rails``
    holds ``(rail number, ports)``."""
    if size.tiers == 1:
        return [[(rail, 0, ports) for rail, ports in rails]]
    servers = max(ports for _r, ports in rails)
    leaves: list[list[tuple[int, int, int]]] = []
    if servers <= size.leaf_down:
        per_leaf = min(len(rails), size.leaf_down // servers)
        start = 0
        for count in _balanced(len(rails), -(-len(rails) // per_leaf)):
            leaves.append([(rail, 0, ports) for rail, ports in rails[start:start + count]])
            start += count
        return leaves
    per_rail = -(-servers // size.leaf_down)
    for rail, ports in rails:
        q, rem = divmod(ports, per_rail)
        first = 0
        for down in [q + 1] * rem + [q] * (per_rail - rem):
            if down:
                leaves.append([(rail, first, down)])
            first += down
    return leaves


def _ups(size: FabricSize, downs: list[int]) -> list[int] | None:
    """The uplinks of each leaf from the plane's leaf groups, matched by GPU links."""
    pool: dict[int, list[int]] = {}
    for count, down, up in size.leaf_groups:
        pool.setdefault(down, []).extend([up] * count)
    out = []
    for down in downs:
        if not pool.get(down):
            return None
        out.append(pool[down].pop())
    return out if not any(pool.values()) else None


def plane_layouts(plan: FabricPlan) -> list[PlaneLayout]:
    """Every plane of the plan with its named leaves, spines and cores (cheap: one entry
    per switch, never per link)."""
    rails = [(i + 1, p) for i, p in enumerate(
        rail_ports_of(plan.gpus, plan.servers, plan.gpus_per_server, plan.rails)) if p > 0]
    sizes: list[FabricSize] = [size for count, size in plan.planes for _ in range(count)]
    chunks_per_port = max(1, len(sizes) // plan.ports_per_nic)
    chunks = _split(rails, chunks_per_port)
    pool = list(sizes)
    plane_total = len(sizes)
    pod = 1
    out: list[PlaneLayout] = []
    number = 0
    for nic_port in range(1, plan.ports_per_nic + 1):
        for chunk in chunks:
            key = (len(chunk), sum(p for _r, p in chunk), max(p for _r, p in chunk))
            size = next((s for s in pool if (s.rails, s.gpus, s.servers) == key), None)
            if size is None:
                raise ValueError(f"no plane of the plan carries rails {chunk}")
            pool.remove(size)
            number += 1
            segs = _leaf_segments(list(chunk), size)
            downs = [sum(n for _r, _f, n in seg) for seg in segs]
            ups = _ups(size, downs)
            if ups is None:  # not the planner's layout: fill its leaves in order
                segs, ups = _fill(list(chunk), size)
                downs = [sum(n for _r, _f, n in seg) for seg in segs]
            leaves = _name_leaves(pod, number, plane_total, segs, downs, ups)
            sd, cd = naming.width(size.spine), naming.width(size.core)
            out.append(PlaneLayout(
                number, nic_port, size, tuple(leaves),
                tuple(naming.spine_name(pod, number, plane_total, i + 1, sd)
                      for i in range(size.spine)),
                tuple(naming.core_name(pod, number, plane_total, i + 1, cd)
                      for i in range(size.core))))
    return out


def _fill(rails: list[tuple[int, int]], size: FabricSize
          ) -> tuple[list[list[tuple[int, int, int]]], list[int]]:
    segs: list[list[tuple[int, int, int]]] = []
    ups: list[int] = []
    queue = [(rail, 0, ports) for rail, ports in rails]
    for down, up in size.leaf_ports():
        seg: list[tuple[int, int, int]] = []
        need = down
        while need and queue:
            rail, first, left = queue.pop(0)
            take = min(need, left)
            seg.append((rail, first, take))
            if left > take:
                queue.insert(0, (rail, first + take, left - take))
            need -= take
        segs.append(seg)
        ups.append(up)
    return segs, ups


def _name_leaves(pod: int, plane: int, planes: int, segs: list[list[tuple[int, int, int]]],
                 downs: list[int], ups: list[int]) -> list[Leaf]:
    per_rail = Counter(seg[0][0] for seg in segs if len(seg) == 1)
    digits = naming.width(max(per_rail.values(), default=1))
    index: Counter[int] = Counter()
    out = []
    for seg, down, up in zip(segs, downs, ups, strict=True):
        first = seg[0][0]
        rails = len({r for r, _f, _n in seg})
        index[first] += 1
        name = naming.leaf_name(pod, plane, planes, first, rails, index[first], digits)
        out.append(Leaf(name, tuple(seg), down, up))
    return out


def switch_devices(plan: FabricPlan) -> Iterator[tuple[str, str, PlaneLayout]]:
    """``(device name, role, plane)`` of every switch of the plan: leaf, spine, core."""
    for layout in plane_layouts(plan):
        for leaf in layout.leaves:
            yield leaf.name, "leaf", layout
        for name in layout.spines:
            yield name, "spine", layout
        for name in layout.cores:
            yield name, "core", layout


@dataclass
class _TierParts:
    switch_module: PartSpec | None
    far_module: PartSpec | None  # NIC module, or the switch module at the far switch
    cable: PartSpec | None
    per_module: int
    per_cable: int  # copper: links per cable; fibre: 0 (counted by bandwidth)
    cable_capacity: int  # fibre: Gb/s one fibre carries (links x link_gbps)
    reach_m: int
    gbps: int
    keys: tuple[str, str, str]


def _tier_parts(plan: FabricPlan, catalogue: Catalogue) -> dict[str, _TierParts]:
    parts = {p.key: p for p in catalogue.parts}
    technology = plan.switch.technology
    out: dict[str, _TierParts] = {}
    for tier, (gbps, reach) in tier_reach(plan).items():
        lines: list[BomLine] = [line for line in plan.bom if line.tier == tier]
        near = next((ln for ln in lines if ln.kind == "module" and ln.end == "switch"), None)
        nic = next((ln for ln in lines if ln.kind == "module" and ln.end == "nic"), None)
        cable = next((ln for ln in lines if ln.kind == "cable"), None)
        module = parts.get(near.key) if near else None
        far = (parts.get(nic.key) if nic else None) if tier == "gpu" else module
        cable_part = parts.get(cable.key) if cable else None
        per_module = links_per_part(module, gbps, technology) if module else 0
        per_cable = cap = 0
        if cable_part is not None:
            if module is None:
                per_cable = links_per_part(cable_part, gbps, technology) or 1
            else:
                cap = cable_part.links * cable_part.link_gbps
        a_key = near.key if near else ""
        b_key = (nic.key if nic else "") if tier == "gpu" else a_key
        if near is None and cable is not None:  # copper: the cable is the part at both ends
            a_key = b_key = cable.key
        out[tier] = _TierParts(module, far, cable_part, per_module or 1, per_cable, cap,
                               reach, gbps, (a_key, b_key, cable.key if cable else ""))
    return out


def _length_class(part: PartSpec | None) -> str:
    if part is None:
        return ""
    return f"{part.medium} <= {part.reach_m} m"


def iter_links(plan: FabricPlan, catalogue: Catalogue | Sequence[Any]) -> Iterator[Link]:
    """One ``Link`` per link of ``plan`` (see the module's layout rules), streamed."""
    catalogue = Catalogue.of(catalogue)
    switch = plan.switch
    namer = naming.port_namer(switch.family, switch.ports, switch.cage_count)
    gpu_split = max(1, switch.port_speed_gbps // plan.port_gbps)
    up_split = max(1, switch.port_speed_gbps // plan.uplink_gbps)
    layout_ports = leaf_ports(plan)
    up_first = layout_ports.gpu_ports  # uplinks start after the fullest leaf's GPU ports
    tiers = _tier_parts(plan, catalogue)
    radix = switch.ports * up_split
    pods = _pods(plan)
    for pod in range(1, pods + 1):
        for layout in plane_layouts(plan):
            yield from _plane_links(plan, pod, layout, namer, gpu_split, up_split, up_first,
                                    radix, tiers)


def _pod(name: str, pod: int) -> str:
    return name if pod == 1 else f"p{pod}" + name[name.index("-"):]


def _cable_units(t: _TierParts, near: str, index: int) -> tuple[str, ...]:
    if t.cable is None:
        return ()
    if t.per_cable:
        return (f"{near}/{t.keys[2]}/c{index // t.per_cable}",)
    cap, gbps = t.cable_capacity, t.gbps
    first, last = index * gbps // cap, -(-(index + 1) * gbps // cap) - 1
    return tuple(f"{near}/{t.keys[2]}/f{i}" for i in range(first, last + 1))


def _plane_links(plan: FabricPlan, pod: int, layout: PlaneLayout, namer: naming.PortNamer,
                 gpu_split: int, up_split: int, up_first: int, radix: int,
                 tiers: dict[str, _TierParts]) -> Iterator[Link]:
    plane = layout.number
    gpu = tiers["gpu"]
    for leaf in layout.leaves:
        lname = _pod(leaf.name, pod)
        j = 0
        for rail, first, count in leaf.segments:
            for server in range(first, first + count):
                native, sub = divmod(j, gpu_split)
                mod = f"{lname}/{gpu.keys[0]}/m{j // gpu.per_module}" if gpu.switch_module else ""
                nic = naming.nic_name(pod, server, rail)
                yield Link(lname, namer.name(native + 1, sub, gpu_split), nic,
                           naming.nic_port(layout.nic_port), "gpu", plane, rail, gpu.keys[0],
                           gpu.keys[1], gpu.keys[2], gpu.reach_m, _length_class(gpu.cable),
                           mod, f"{nic}/{layout.nic_port}" if gpu.far_module else "",
                           _cable_units(gpu, lname, j))
                j += 1
    if layout.size.tiers < 2:
        return
    ls = tiers["leaf_spine"]
    spines = layout.spines
    spine_used = [0] * len(spines)
    counter = 0
    for leaf in layout.leaves:
        lname = _pod(leaf.name, pod)
        for j in range(leaf.up):
            s = counter % len(spines)
            counter += 1
            native, sub = divmod(j, up_split)
            k = spine_used[s]
            spine_used[s] += 1
            sname = _pod(spines[s], pod)
            snative, ssub = divmod(k, up_split)
            yield Link(lname, namer.name(up_first + native + 1, sub, up_split), sname,
                       namer.name(snative + 1, ssub, up_split), "leaf_spine", plane, 0,
                       ls.keys[0], ls.keys[1], ls.keys[2], ls.reach_m,
                       _length_class(ls.cable),
                       f"{lname}/{ls.keys[0]}/u{j // ls.per_module}" if ls.switch_module else "",
                       f"{sname}/{ls.keys[1]}/d{k // ls.per_module}" if ls.far_module else "",
                       _cable_units(ls, lname + "/u", j))
    if layout.size.tiers < 3:
        return
    sc = tiers["spine_core"]
    cores = layout.cores
    core_used = [0] * len(cores)
    half = radix // 2
    counter = 0
    for s, spine in enumerate(spines):
        sname = _pod(spine, pod)
        for j in range(spine_used[s]):  # a spine sends up as many links as it takes down
            c = counter % len(cores)
            counter += 1
            k = core_used[c]
            core_used[c] += 1
            cname = _pod(cores[c], pod)
            native, sub = divmod(half + j, up_split)
            cnative, csub = divmod(k, up_split)
            yield Link(sname, namer.name(native + 1, sub, up_split), cname,
                       namer.name(cnative + 1, csub, up_split), "spine_core", plane, 0,
                       sc.keys[0], sc.keys[1], sc.keys[2], sc.reach_m,
                       _length_class(sc.cable),
                       f"{sname}/{sc.keys[0]}/u{j // sc.per_module}" if sc.switch_module else "",
                       f"{cname}/{sc.keys[1]}/d{k // sc.per_module}" if sc.far_module else "",
                       _cable_units(sc, sname + "/u", j))


def link_count(plan: FabricPlan) -> int:
    """Rows ``iter_links`` yields: every link of every pod."""
    return _pods(plan) * sum(plan.links.values())


def part_totals(links: Iterator[Link] | Sequence[Link]) -> Counter[tuple[str, str]]:
    """``(tier, part key) -> count`` of the physical parts the rows use (a part two links
    share counted once)."""
    units: dict[tuple[str, str], set[str]] = {}
    for link in links:
        for part, unit in ((link.part_a, link.a_unit), (link.part_b, link.b_unit)):
            if part and unit:
                units.setdefault((link.tier, part), set()).add(unit)
        for unit in link.cable_units:
            units.setdefault((link.tier, link.cable), set()).add(unit)
    return Counter({key: len(value) for key, value in units.items()})


def bom_part_totals(plan: FabricPlan) -> Counter[tuple[str, str]]:
    """The same totals from the plan's bill of materials (modules and cables)."""
    out: Counter[tuple[str, str]] = Counter()
    for line in plan.bom:
        if line.kind != "switch":
            out[(line.tier, line.key)] += line.count * _pods(plan)
    return out


def summary(plan: FabricPlan) -> dict[str, Any]:
    """What the downloads include shows: links per tier and the parts per planned reach,
    read from the plan (no rows are generated)."""
    reach = tier_reach(plan)
    pods = _pods(plan)
    tiers = []
    for tier, (gbps, metres) in reach.items():
        key = {"gpu": "gpu_leaf"}.get(tier, tier)
        tiers.append({
            "tier": tier, "gbps": gbps, "reach_m": metres,
            "links": pods * plan.links[key],
            "modules": pods * sum(ln.count for ln in plan.bom
                                  if ln.tier == tier and ln.kind == "module"),
            "cables": pods * sum(ln.count for ln in plan.bom
                                 if ln.tier == tier and ln.kind == "cable"),
        })
    return {"links": link_count(plan), "switches": pods * plan.switches, "tiers": tiers}
