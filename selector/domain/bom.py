"""Bill of materials: switches, optical modules and cables you could order, counted per
link tier, with their power, and the cost when the company has entered unit prices.

Pure Python, no Django. Counting rules (NVIDIA LinkX documents, read 2026-12-01):

* A twin-port 800G OSFP module in a switch cage carries two 400G links, or one 800G
  switch-to-switch link ("Twin-port transceivers can be linked to each other forming an
  800Gb/s link and can be linked to two or four 400G QSFP112 or OSFP transceivers using two
  straight or 1:2 splitter fiber cables"). Modules are counted per switch (an odd number of
  GPU links on a leaf still fills a whole module).
* A NIC takes one single-port module per link; every 400G optical path is one MPO fibre
  ("Twin-Port transceivers require ordering two fibers"); a 1:2 splitter fibre serves two
  200G links.
* Copper DAC where the reach allows (to 3 m for splitters, 2 m straight): no modules.
* GPU links are planned in the servers' row (at most the "row" reach); uplinks at the
  distance the customer chose (the longest link of the fabric).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from .catalogue import PartSpec, Source

if TYPE_CHECKING:
    from .fabric import FabricPlan

__all__ = ["BomLine", "Prices", "Cost", "GPU_REACH_MAX_M", "bill_of_materials", "cost_of",
           "missing_part_key", "links_per_part", "tier_reach"]

# GPU-to-leaf links stay within the row of the servers (multimode reach).
GPU_REACH_MAX_M = 50
TIERS = ("switch", "gpu", "leaf_spine", "spine_core")


@dataclass(frozen=True)
class BomLine:
    """``count`` of one part (or switch) in one tier. ``power_w`` per unit (None when the
    document gives none)."""

    key: str
    kind: str  # switch | module | cable
    tier: str  # switch | gpu | leaf_spine | spine_core
    vendor: str
    model: str
    count: int
    power_w: float | None
    reach_m: int | None
    source: Source
    description: str = ""
    description_zh: str = ""
    end: str = ""  # switch | nic | "" (cables, switches)

    @property
    def power_total(self) -> float:
        return self.count * (self.power_w or 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "part": self.key, "kind": self.kind, "tier": self.tier, "vendor": self.vendor,
            "model": self.model, "count": self.count, "power_w": self.power_w,
            "reach_m": self.reach_m, "end": self.end, "description": self.description,
            "description_zh": self.description_zh, "source": self.source.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BomLine:
        power = data.get("power_w")
        reach = data.get("reach_m")
        return cls(
            key=data["part"], kind=data["kind"], tier=data["tier"], vendor=data["vendor"],
            model=data["model"], count=int(data["count"]),
            power_w=None if power is None else float(power),
            reach_m=None if reach is None else int(reach),
            source=Source.from_dict(data["source"]), description=data.get("description", ""),
            description_zh=data.get("description_zh", ""), end=data.get("end", ""),
        )


@dataclass(frozen=True)
class Prices:
    """The company's unit prices (admin data): ``unit`` maps a switch or part key to its
    price in ``currency``. ``is_example`` marks demo prices that must say so."""

    currency: str
    as_of: str
    unit: dict[str, Decimal] = field(default_factory=dict)
    note: str = ""
    note_zh: str = ""
    is_example: bool = False


@dataclass(frozen=True)
class Cost:
    """An indicative CAPEX estimate: ``amount`` over the priced lines; ``missing`` lists the
    keys without a price (then the amount is incomplete and the pages say "on request")."""

    currency: str
    amount: Decimal
    as_of: str
    missing: tuple[str, ...] = ()
    note: str = ""
    note_zh: str = ""
    is_example: bool = False

    @property
    def complete(self) -> bool:
        return not self.missing

    def to_dict(self) -> dict[str, Any]:
        return {"currency": self.currency, "amount": str(self.amount), "as_of": self.as_of,
                "missing": list(self.missing), "complete": self.complete, "note": self.note,
                "note_zh": self.note_zh, "is_example": self.is_example}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Cost:
        return cls(currency=data["currency"], amount=Decimal(data["amount"]),
                   as_of=data["as_of"], missing=tuple(data.get("missing", ())),
                   note=data.get("note", ""), note_zh=data.get("note_zh", ""),
                   is_example=bool(data.get("is_example")))


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _spread(total: int, bins: int) -> list[int]:
    if bins <= 0:
        return []
    q, rem = divmod(total, bins)
    return [q + 1] * rem + [q] * (bins - rem)


@dataclass
class _Option:
    switch_module: PartSpec | None = None
    far_module: PartSpec | None = None  # NIC module, or the same module at a far switch
    cable: PartSpec | None = None  # fibre or copper


def _per_module(part: PartSpec, gbps: int, technology: str = "ethernet") -> int:
    """Links of ``gbps`` one module or copper cable carries (0 when it cannot). A twin-port
    2 x 400G module carries two 400G links, one 800G Ethernet switch link, or four 200G
    links over splitter fibres; a copper cable only its own split. An 800G InfiniBand (XDR)
    link runs 200G-PAM4 lanes: a 2 x 400G (100G-PAM4) module never carries it (NVIDIA's
    XDR optics are their own part list)."""
    if part.link_gbps == gbps:
        return part.links
    if part.link_gbps * part.links == gbps:
        return 1 if technology == "ethernet" else 0
    if part.kind == "module" and part.link_gbps % gbps == 0:
        return part.links * (part.link_gbps // gbps)
    return 0


def links_per_part(part: PartSpec, gbps: int, technology: str = "ethernet") -> int:
    """Links of ``gbps`` one module or copper cable carries, as the bill of materials counts
    them (the cabling plan groups its links the same way)."""
    return _per_module(part, gbps, technology)


def tier_reach(plan: FabricPlan) -> dict[str, tuple[int, int]]:
    """``tier -> (link speed, planned reach in metres)`` for the plan's link tiers: GPU links
    within the servers' row, uplinks at the distance the customer chose."""
    out = {"gpu": (plan.port_gbps, min(plan.reach_m, GPU_REACH_MAX_M))}
    if plan.tiers >= 2:
        out["leaf_spine"] = (plan.uplink_gbps, plan.reach_m)
    if plan.tiers >= 3:
        out["spine_core"] = (plan.uplink_gbps, plan.reach_m)
    return out


def _fibre_fits(cable: PartSpec, gbps: int) -> bool:
    """A straight fibre carries one path of ``link_gbps`` (an 800G link takes two); a
    splitter fibre (``links`` > 1) serves links of exactly its speed."""
    if cable.links == 1:
        return gbps >= cable.link_gbps and gbps % cable.link_gbps == 0
    return gbps == cable.link_gbps


def _fibres(cable: PartSpec, ports: int, gbps: int) -> int:
    """Fibres for ``ports`` links of ``gbps`` on one switch: each carries ``links`` paths of
    ``link_gbps`` (an 800G link takes two 400G fibres, two 200G links share a splitter)."""
    return _ceil_div(ports * gbps, cable.links * cable.link_gbps)


def _choose(parts: Sequence[PartSpec], technology: str, vendor_key: str, gbps: int,
            reach: int, far: str, nic: str) -> _Option | None:
    """The shortest-reach way to build one link tier: copper when it reaches, else
    matching optics (same medium at both ends) and their fibre."""
    usable = [p for p in parts if p.fits(technology) and p.reach_m >= reach
              and (not p.fits_vendor or p.fits_vendor == vendor_key)]
    options: list[tuple[tuple[int, int, float], _Option]] = []
    end = "switch-nic" if far == "nic" else "switch-switch"
    for cable in usable:
        if cable.kind == "cable" and cable.end == end and cable.medium in ("dac", "acc") \
                and _per_module(cable, gbps, technology):
            options.append(((cable.reach_m, 0, cable.power_w or 0), _Option(cable=cable)))
    for module in usable:
        if module.kind != "module" or module.end != "switch" \
                or not _per_module(module, gbps, technology):
            continue
        fars: list[PartSpec | None]
        if far == "nic":
            fars = [m for m in usable if m.kind == "module" and m.end == "nic"
                    and m.medium == module.medium and m.link_gbps == gbps and m.nic == nic]
            # No catalogue module for this NIC (e.g. a ConnectX-8 on Ethernet): still count
            # the switch end and the fibres; the NIC end is reported as missing.
            fars = fars or [None]
        else:
            fars = [module]
        fibres = [c for c in usable if c.kind == "cable" and c.end == "fibre"
                  and c.medium == module.medium and _fibre_fits(c, gbps)]
        for far_module in fars:
            for fibre in fibres:
                far_power = far_module.power_w or 0 if far_module else 0
                rank = (module.reach_m, 1 if far_module else 2, (module.power_w or 0) + far_power)
                options.append((rank, _Option(module, far_module, fibre)))
    if not options:
        return None
    return min(options, key=lambda item: item[0])[1]


class _Lines:
    def __init__(self) -> None:
        self.lines: dict[tuple[str, str, str], tuple[PartSpec, int]] = {}

    def add(self, part: PartSpec, tier: str, count: int, end: str = "") -> None:
        if count <= 0:
            return
        key = (part.key, tier, end)
        counted = self.lines.get(key)
        self.lines[key] = (part, count + (counted[1] if counted else 0))

    def result(self) -> list[BomLine]:
        out = []
        for (key, tier, end), (part, count) in self.lines.items():
            out.append(BomLine(key=key, kind=part.kind, tier=tier, vendor=part.vendor,
                               model=part.model, count=count, power_w=part.power_w,
                               reach_m=part.reach_m, source=part.source,
                               description=part.description,
                               description_zh=part.description_zh, end=end))
        return out


def bill_of_materials(plan: FabricPlan, parts: Sequence[PartSpec]
                      ) -> tuple[list[BomLine], list[dict[str, Any]]]:
    """BOM lines for ``plan`` and, for each tier no catalogue part can build, a dict
    ``{"tier", "gbps", "reach_m"}`` (the pages say our engineers specify those parts)."""
    technology = plan.switch.technology
    vendor_key = plan.switch.vendor_key
    switch = plan.switch
    lines = [BomLine(key=switch.key, kind="switch", tier="switch", vendor=switch.vendor,
                     model=switch.model, count=plan.switches, power_w=switch.power_w,
                     reach_m=None, source=switch.source)]
    acc = _Lines()
    missing: list[dict[str, Any]] = []
    nic = ("cx8-eth" if plan.ports_per_nic == 2 else "qsfp112"
           if plan.platform == "bluefield3" else "osfp")
    # DGX/HGX: the NICs sit behind twin-port OSFP cages, one module serves two NIC ports
    # (DGX B200: "4 x OSFP ports for 8 x ConnectX-7 single port cards"). NVIDIA publishes no
    # part number for that server-side module in the documents we read: it is counted, and
    # reported as a part our engineers specify.
    twin_nic = plan.platform == "dgx" and plan.ports_per_nic == 1
    tiers = [(tier, gbps, reach, "nic" if tier == "gpu" else "switch")
             for tier, (gbps, reach) in tier_reach(plan).items()]
    for tier, gbps, reach, far in tiers:
        option = _choose(parts, technology, vendor_key, gbps, reach, far, nic)
        if option is None:
            missing.append({"tier": tier, "gbps": gbps, "reach_m": reach})
            continue
        if tier == "gpu" and twin_nic and option.switch_module is not None:
            option = _Option(option.switch_module, None, option.cable)
            missing.append({"tier": tier, "gbps": gbps, "reach_m": reach, "end": "nic",
                            "form": "twin-port-osfp", "count": _twin_nic_modules(plan)})
        elif option.switch_module is not None and option.far_module is None:
            missing.append({"tier": tier, "gbps": gbps, "reach_m": reach, "end": "nic"})
        for count, size in plan.planes:
            count *= plan.pods  # identical, independent pods: every count multiplies
            if tier == "gpu":
                near = [(n, down) for n, down, _ in size.leaf_groups]
                far_ports = [(1, size.links["gpu_leaf"])]
            elif tier == "leaf_spine":
                near = [(n, up) for n, _, up in size.leaf_groups]
                far_ports = [(n, down) for n, down, _ in size.spine_port_groups()]
            else:
                near = [(n, up) for n, _, up in size.spine_port_groups()]
                far_ports = list(size.core_port_groups())
            _count(acc, option, tier, gbps, far, count, near, far_ports)
    return lines + acc.result(), missing


def _twin_nic_modules(plan: FabricPlan) -> int:
    """Twin-port OSFP modules at the servers: one per two NIC ports of each server (a
    partly populated last server rounds its own ports up)."""
    full = plan.servers - 1
    gpus_last = plan.gpus - full * plan.gpus_per_server
    last_nics = -(-gpus_last * plan.rails // plan.gpus_per_server)
    return full * _ceil_div(plan.rails, 2) + _ceil_div(last_nics, 2)


def _count(acc: _Lines, option: _Option, tier: str, gbps: int, far: str,
           planes: int, near: list[tuple[int, int]], far_ports: list[tuple[int, int]]) -> None:
    if option.switch_module is None:  # copper: one cable per `links` links on the near switch
        cable = option.cable
        assert cable is not None
        per = _per_module(cable, gbps)
        acc.add(cable, tier, planes * sum(n * _ceil_div(ports, per) for n, ports in near))
        return
    module = option.switch_module
    per = _per_module(module, gbps)
    acc.add(module, tier, planes * sum(n * _ceil_div(ports, per) for n, ports in near),
            "switch")
    assert option.cable is not None
    if far == "nic":
        if option.far_module is not None:
            acc.add(option.far_module, tier, planes * sum(n * ports for n, ports in far_ports),
                    "nic")
    else:
        assert option.far_module is not None  # switch to switch: the same module both ends
        acc.add(option.far_module, tier,
                planes * sum(n * _ceil_div(ports, per) for n, ports in far_ports), "switch")
    acc.add(option.cable, tier,
            planes * sum(n * _fibres(option.cable, ports, gbps) for n, ports in near))


def missing_part_key(part: dict[str, Any]) -> str:
    """The key a part the catalogue cannot supply stands under in ``Cost.missing``:
    ``part:<tier>`` (the whole tier), ``part:<tier>:nic`` (its NIC-end modules)."""
    return f"part:{part['tier']}" + (f":{part['end']}" if part.get("end") else "")


def cost_of(lines: Sequence[BomLine], prices: Prices,
            missing_parts: Sequence[dict[str, Any]] = ()) -> Cost:
    """The cost of ``lines`` at ``prices``. A line without a price, or a part the plan
    needs and the catalogue cannot supply (``missing_parts``, from ``bill_of_materials``),
    makes the cost incomplete: the amount then covers only what is priced."""
    amount = Decimal(0)
    missing: list[str] = [missing_part_key(part) for part in missing_parts]
    for line in lines:
        price = prices.unit.get(line.key)
        if price is None:
            if line.key not in missing:
                missing.append(line.key)
            continue
        amount += price * line.count
    return Cost(currency=prices.currency, amount=amount, as_of=prices.as_of,
                missing=tuple(missing), note=prices.note, note_zh=prices.note_zh,
                is_example=prices.is_example)
