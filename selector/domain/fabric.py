"""A fabric plan as data: what a frozen recommendation keeps of the fabric (the switch, the
planes and their counts, the notes, the bill of materials and cost), and the rail
arithmetic the plan and the build share. Pure Python, no Django; the planning itself is
``selector.domain.plan``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .bom import BomLine, Cost
from .catalogue import SwitchSpec
from .decision import Fabric, Phrase
from .sizing import FabricSize

__all__ = ["Note", "FabricPlan", "rail_ports_of", "split_evenly"]


@dataclass(frozen=True)
class Note(Phrase):
    """A fact about the plan the pages put into words."""


def rail_ports_of(gpus: int, servers: int, gpus_per_server: int, rails: int) -> list[int]:
    """``rail_ports`` from the plan's own counts (a frozen plan has no answers)."""
    last_gpus = gpus - (servers - 1) * gpus_per_server
    last_nics = -(-last_gpus * rails // gpus_per_server)
    return [servers if i < last_nics else servers - 1 for i in range(rails)]


def split_evenly[T](values: list[T], parts: int) -> list[list[T]]:
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
