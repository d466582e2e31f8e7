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

import bisect
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..bom import BomLine, links_per_part, tier_reach
from ..catalogue import Catalogue, PartSpec
from ..fabric import FabricPlan, rail_ports_of, split_evenly
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
    return plan.pods


def _pod_rails(plan: FabricPlan) -> list[int]:
    """NIC ports per rail of one pod. With several pods each is sized for
    ``ceil(servers / pods)`` full servers (FabricPlan.pods): the pods are identical, so a
    last pod with fewer servers keeps those positions cabled and free."""
    if plan.pods == 1:
        return rail_ports_of(plan.gpus, plan.servers, plan.gpus_per_server, plan.rails)
    servers = -(-plan.servers // plan.pods)
    return rail_ports_of(servers * plan.gpus_per_server, servers, plan.gpus_per_server,
                         plan.rails)


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
    rails = [(i + 1, p) for i, p in enumerate(_pod_rails(plan)) if p > 0]
    sizes: list[FabricSize] = [size for count, size in plan.planes for _ in range(count)]
    chunks_per_port = max(1, len(sizes) // plan.ports_per_nic)
    chunks = split_evenly(rails, chunks_per_port)
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
    """``(device name, role, plane)`` of every switch of the plan, pod by pod: leaf,
    spine, core."""
    layouts = plane_layouts(plan)
    for pod in range(1, _pods(plan) + 1):
        for layout in layouts:
            for leaf in layout.leaves:
                yield _pod(leaf.name, pod), "leaf", layout
            for name in layout.spines:
                yield _pod(name, pod), "spine", layout
            for name in layout.cores:
                yield _pod(name, pod), "core", layout


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
    for wiring in _wirings(plan, Catalogue.of(catalogue)):
        yield from wiring.links()


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


class _Wiring:
    """The links of one plane of one pod, addressable by either end: uplink ``c`` (counted
    over the plane's leaves in order) goes to spine ``c % spines`` as that spine's link
    ``c // spines`` (round-robin), spine uplink ``d`` to core ``d % cores`` as its link
    ``d // cores``; so ``iter_links`` and the per-switch view are the same links."""

    def __init__(self, pod: int, layout: PlaneLayout, namer: naming.PortNamer,
                 gpu_split: int, up_split: int, up_first: int, radix: int,
                 tiers: dict[str, _TierParts], nic_port: int):
        self.pod, self.layout, self.namer = pod, layout, namer
        self.gpu_split, self.up_split, self.up_first, self.half = (
            gpu_split, up_split, up_first, radix // 2)
        self.tiers, self.nic_port = tiers, nic_port
        self.leaves = [_pod(leaf.name, pod) for leaf in layout.leaves]
        self.spines = [_pod(name, pod) for name in layout.spines]
        self.cores = [_pod(name, pod) for name in layout.cores]
        self.up_first_of = list(itertools.accumulate(
            (leaf.up for leaf in layout.leaves), initial=0))
        uplinks = self.up_first_of[-1]
        spines = max(1, len(self.spines))
        self.spine_down = [uplinks // spines + (1 if s < uplinks % spines else 0)
                           for s in range(len(self.spines))]
        three = layout.size.tiers >= 3
        self.spine_up = self.spine_down if three else [0] * len(self.spines)
        self.spine_up_first = list(itertools.accumulate(self.spine_up, initial=0))
        total = self.spine_up_first[-1]
        cores = max(1, len(self.cores))
        self.core_down = [total // cores + (1 if c < total % cores else 0)
                          for c in range(len(self.cores))]

    def gpu_links(self, index: int) -> Iterator[Link]:
        leaf, name, gpu = self.layout.leaves[index], self.leaves[index], self.tiers["gpu"]
        j = 0
        for rail, first, count in leaf.segments:
            for server in range(first, first + count):
                native, sub = divmod(j, self.gpu_split)
                mod = f"{name}/{gpu.keys[0]}/m{j // gpu.per_module}" if gpu.switch_module \
                    else ""
                nic = naming.nic_name(self.pod, server, rail)
                yield Link(name, self.namer.name(native + 1, sub, self.gpu_split), nic,
                           naming.nic_port(self.nic_port), "gpu", self.layout.number, rail,
                           gpu.keys[0], gpu.keys[1], gpu.keys[2], gpu.reach_m,
                           _length_class(gpu.cable), mod,
                           f"{nic}/{self.nic_port}" if gpu.far_module else "",
                           _cable_units(gpu, name, j))
                j += 1

    def leaf_up(self, index: int, j: int) -> Link:
        ls, name = self.tiers["leaf_spine"], self.leaves[index]
        c = self.up_first_of[index] + j
        s, k = c % len(self.spines), c // len(self.spines)
        spine = self.spines[s]
        native, sub = divmod(j, self.up_split)
        snative, ssub = divmod(k, self.up_split)
        return Link(name, self.namer.name(self.up_first + native + 1, sub, self.up_split),
                    spine, self.namer.name(snative + 1, ssub, self.up_split), "leaf_spine",
                    self.layout.number, 0, ls.keys[0], ls.keys[1], ls.keys[2], ls.reach_m,
                    _length_class(ls.cable),
                    f"{name}/{ls.keys[0]}/u{j // ls.per_module}" if ls.switch_module else "",
                    f"{spine}/{ls.keys[1]}/d{k // ls.per_module}" if ls.far_module else "",
                    _cable_units(ls, name + "/u", j))

    def spine_down_link(self, s: int, k: int) -> Link:
        c = k * len(self.spines) + s
        index = bisect.bisect_right(self.up_first_of, c) - 1
        return self.leaf_up(index, c - self.up_first_of[index])

    def spine_up_link(self, s: int, j: int) -> Link:
        sc, spine = self.tiers["spine_core"], self.spines[s]
        d = self.spine_up_first[s] + j
        c, k = d % len(self.cores), d // len(self.cores)
        core = self.cores[c]
        native, sub = divmod(self.half + j, self.up_split)
        cnative, csub = divmod(k, self.up_split)
        return Link(spine, self.namer.name(native + 1, sub, self.up_split), core,
                    self.namer.name(cnative + 1, csub, self.up_split), "spine_core",
                    self.layout.number, 0, sc.keys[0], sc.keys[1], sc.keys[2], sc.reach_m,
                    _length_class(sc.cable),
                    f"{spine}/{sc.keys[0]}/u{j // sc.per_module}" if sc.switch_module else "",
                    f"{core}/{sc.keys[1]}/d{k // sc.per_module}" if sc.far_module else "",
                    _cable_units(sc, spine + "/u", j))

    def core_down_link(self, c: int, k: int) -> Link:
        d = k * len(self.cores) + c
        s = bisect.bisect_right(self.spine_up_first, d) - 1
        return self.spine_up_link(s, d - self.spine_up_first[s])

    def links(self) -> Iterator[Link]:
        for index in range(len(self.leaves)):
            yield from self.gpu_links(index)
        for index, leaf in enumerate(self.layout.leaves):
            for j in range(leaf.up):
                yield self.leaf_up(index, j)
        for s, count in enumerate(self.spine_up):
            for j in range(count):
                yield self.spine_up_link(s, j)

    def switch_ports(self) -> Iterator[tuple[str, str, list[Link]]]:
        """``(device, role, links)`` per switch of the plane, each link once per end on
        it (the switch is ``a`` or ``b``: compare ``a_device``)."""
        for index, leaf in enumerate(self.layout.leaves):
            links = list(self.gpu_links(index))
            links += [self.leaf_up(index, j) for j in range(leaf.up)]
            yield self.leaves[index], "leaf", links
        for s, name in enumerate(self.spines):
            links = [self.spine_down_link(s, k) for k in range(self.spine_down[s])]
            links += [self.spine_up_link(s, j) for j in range(self.spine_up[s])]
            yield name, "spine", links
        for c, name in enumerate(self.cores):
            yield name, "core", [self.core_down_link(c, k) for k in range(self.core_down[c])]


def _wirings(plan: FabricPlan, catalogue: Catalogue) -> Iterator[_Wiring]:
    switch = plan.switch
    namer = naming.port_namer(switch.family, switch.ports, switch.cage_count)
    gpu_split = max(1, switch.port_speed_gbps // plan.port_gbps)
    up_split = max(1, switch.port_speed_gbps // plan.uplink_gbps)
    up_first = leaf_ports(plan).gpu_ports  # uplinks start after the fullest leaf's GPU ports
    tiers = _tier_parts(plan, catalogue)
    radix = switch.ports * up_split
    layouts = plane_layouts(plan)
    for pod in range(1, _pods(plan) + 1):
        for layout in layouts:
            yield _Wiring(pod, layout, namer, gpu_split, up_split, up_first, radix, tiers,
                          layout.nic_port)


def iter_switch_ports(plan: FabricPlan, catalogue: Catalogue | Sequence[Any]
                      ) -> Iterator[tuple[str, str, int, list[Link]]]:
    """``(device, role, plane, links)`` for every switch, in device order, one switch in
    memory at a time (the per-switch configurations read this)."""
    for wiring in _wirings(plan, Catalogue.of(catalogue)):
        for name, role, links in wiring.switch_ports():
            yield name, role, wiring.layout.number, links


def link_count(plan: FabricPlan) -> int:
    """Rows ``iter_links`` yields: every link of every pod (the plan's totals count every
    pod)."""
    return sum(plan.links.values())


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
            out[(line.tier, line.key)] += line.count
    return out


def summary(plan: FabricPlan) -> dict[str, Any]:
    """What the downloads include shows: links per tier and the parts per planned reach,
    read from the plan (no rows are generated)."""
    reach = tier_reach(plan)
    tiers = []
    for tier, (gbps, metres) in reach.items():
        key = {"gpu": "gpu_leaf"}.get(tier, tier)
        tiers.append({
            "tier": tier, "gbps": gbps, "reach_m": metres,
            "links": plan.links[key],
            "modules": sum(ln.count for ln in plan.bom
                           if ln.tier == tier and ln.kind == "module"),
            "cables": sum(ln.count for ln in plan.bom
                          if ln.tier == tier and ln.kind == "cable"),
        })
    return {"links": link_count(plan), "switches": plan.switches, "tiers": tiers}
