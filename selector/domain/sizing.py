"""Rail-optimized fat-tree (folded Clos) sizing for a GPU back-end fabric.

Pure Python, no Django. Model and sources (shared/docs/domain.md section 2):

* One NIC port per GPU; ``R = gpus_per_server`` rails: NIC *i* of every server
  goes to the leaves of rail *i* (NVIDIA DGX SuperPOD reference architecture,
  docs.nvidia.com/dgx-superpod, "reference architecture scalable infrastructure b200").
* A leaf of radix ``k`` at ``r:1`` oversubscription has
  ``down = floor(k*r/(r+1))`` ports toward GPUs and ``up = k - down`` toward spines
  (k=64 at 3:1 gives 48/16; at 1:1 it is k/2 and k/2).
* Leaves per rail = ``ceil(servers / down)``; the rail's GPUs are spread as evenly
  as possible over them. Each leaf buys ``ceil(its downlinks / r)`` uplinks only,
  so an under-filled leaf does not pay for unused spine ports.
* 2 tiers while ``leaves <= k`` (every spine reaches every leaf):
  ``spines = ceil(uplinks / k)``.
* Otherwise 3 tiers, spines run non-blocking with ``k/2`` down and ``k/2`` up:
  ``spines = ceil(uplinks / (k/2))``, ``core = ceil(uplinks / k)``, and
  ``spine_core`` links = leaf uplinks. With r=1 and full leaves that gives
  spines = leaves and core = leaves/2 (domain.md, derived).
* A 3-tier fat-tree holds at most ``k*k/2`` leaves (k pods of k/2 leaves); a
  non-blocking 2-tier leaf/spine tops out at k^2/2 endpoints and a 3-tier at
  k^3/4 (Al-Fares, Loukissas, Vahdat, "A Scalable, Commodity Data Center Network
  Architecture", SIGCOMM 2008). Beyond 3 tiers ``FabricTooLarge`` is raised.

Partial last server: when ``gpus`` is not a multiple of ``R`` the last server has
fewer GPUs, so some rails carry one GPU less. When ``gpus < R`` (a single,
partly populated server) only ``gpus`` rails exist; ``FabricSize.rails`` reports
the populated rails.

Size: one model, the fat-tree sizing, with its two entry points (a whole fabric; a plane on
a given leaf shape); the rules it implements are stated above, next to their arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "RADIX_MIN",
    "RADIX_MAX",
    "OVERSUB_MIN",
    "OVERSUB_MAX",
    "RAILS_MIN",
    "RAILS_MAX",
    "SizingError",
    "FabricTooLarge",
    "FabricSize",
    "leaf_split",
    "leaf_port_plan",
    "max_gpus",
    "size_fabric",
    "LeafShape",
    "leaf_shape",
    "size_plane",
]

RADIX_MIN, RADIX_MAX = 4, 1024
OVERSUB_MIN, OVERSUB_MAX = 1, 8
# gpus_per_server = rails; same bounds as the wizard (decision.GPS_MIN/GPS_MAX).
RAILS_MIN, RAILS_MAX = 1, 16


class SizingError(ValueError):
    """Invalid sizing input. ``field`` names the argument, ``code`` is a machine code:
    ``invalid``, ``out_of_range``, ``odd_radix``, ``radix_too_small``,
    ``radix_too_large``, ``too_large`` (see ``FabricTooLarge``)."""

    def __init__(self, field: str, code: str, message: str | None = None):
        self.field = field
        self.code = code
        super().__init__(message or f"{field}: {code}")


class FabricTooLarge(SizingError):
    """More GPUs than a 3-tier fat-tree of this radix can connect.

    ``max_gpus`` is the largest GPU count that fits for the same
    gpus_per_server / radix / oversubscription.
    """

    def __init__(
        self, gpus: int, max_gpus: int, gpus_per_server: int, radix: int, oversubscription: int
    ):
        self.gpus = gpus
        self.max_gpus = max_gpus
        super().__init__(
            "gpus",
            "too_large",
            f"{gpus} GPUs exceed the 3-tier fat-tree maximum of max_gpus={max_gpus} "
            f"(radix {radix}, {oversubscription}:1 oversubscription, "
            f"{gpus_per_server} GPUs per server)",
        )


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _check_int(field: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SizingError(field, "invalid", f"{field} must be an integer, got {value!r}")
    return int(value)


def _validate(gpus: object, gpus_per_server: object, radix: object, oversub: object) -> None:
    gpus = _check_int("gpus", gpus)
    if gpus < 1:
        raise SizingError("gpus", "out_of_range", f"gpus must be >= 1, got {gpus}")
    _check_range("gpus_per_server", gpus_per_server, RAILS_MIN, RAILS_MAX)
    _validate_radix_oversub(radix, oversub)


def _check_range(name: str, value: object, lo: int, hi: int) -> None:
    number = _check_int(name, value)
    if not lo <= number <= hi:
        raise SizingError(name, "out_of_range", f"{name} must be {lo}..{hi}, got {number}")


def _validate_radix_oversub(radix: object, oversub: object) -> None:
    radix = _check_int("radix", radix)
    if radix < RADIX_MIN:
        raise SizingError("radix", "radix_too_small", f"radix must be >= {RADIX_MIN}, got {radix}")
    if radix > RADIX_MAX:
        raise SizingError("radix", "radix_too_large", f"radix must be <= {RADIX_MAX}, got {radix}")
    if radix % 2:
        raise SizingError("radix", "odd_radix", f"radix must be even, got {radix}")
    _check_range("oversubscription", oversub, OVERSUB_MIN, OVERSUB_MAX)


def leaf_split(radix: int, oversubscription: int = 1) -> tuple[int, int]:
    """Leaf ports ``(down, up)``: ``down = floor(k*r/(r+1))``, ``up = k - down``
    (domain.md section 2: k=64 at 3:1 gives 48 down / 16 up)."""
    _validate_radix_oversub(radix, oversubscription)
    down = radix * oversubscription // (oversubscription + 1)
    return down, radix - down


@dataclass(frozen=True)
class FabricSize:
    """Switch and link counts for one rail-optimized fat-tree.

    ``links``: ``gpu_leaf`` (= gpus), ``leaf_spine`` (= leaf uplinks) and
    ``spine_core`` (0 in 2 tiers). ``transceiver_ends`` = 2 x all links: both ends
    of every link are counted, the NIC end included. These are link *ends*, not
    optical *modules*: switch-side 400G optics are usually twin-port (one
    2x400G OSFP module serves two ends), so a bill of materials needs fewer
    switch modules than ends (domain.md section 2).

    ``leaf_groups`` is the compact per-leaf plan as ``(count, down, up)``
    triples; ``leaf_ports()`` expands it to one ``(down, up)`` pair per leaf.
    ``leaf_down``/``leaf_up`` are the leaf's port budget from the radix and
    oversubscription, not what every leaf uses.
    """

    tiers: int
    leaf: int
    spine: int
    core: int
    switches: int
    links: dict[str, int]
    transceiver_ends: int
    radix: int
    oversubscription: int
    leaf_down: int
    leaf_up: int
    servers: int
    rails: int
    gpus: int = 0
    gpus_per_server: int = 0
    leaf_groups: tuple[tuple[int, int, int], ...] = ()
    # What ``size_plane`` adds (``size_fabric`` leaves the defaults): GPU-facing and uplink
    # port speeds, and the ports a single switch offers when it carries a whole plane.
    gpu_gbps: int = 0
    uplink_gbps: int = 0

    def leaf_ports(self) -> tuple[tuple[int, int], ...]:
        """``(downlinks, uplinks)`` used by each leaf, one pair per leaf."""
        return tuple(
            (down, up) for count, down, up in self.leaf_groups for _ in range(count)
        )

    def spine_ports(self) -> tuple[tuple[int, int], ...]:
        """``(down, up)`` ports used by each spine, leaf uplinks spread as evenly as
        possible; in 3 tiers every spine sends up as many links as it takes down."""
        per = _spread(self.links["leaf_spine"], self.spine)
        if self.tiers == 2:
            return tuple((down, 0) for down in per)
        return tuple((down, down) for down in per)

    def core_ports(self) -> tuple[int, ...]:
        """Ports used on each core switch (spine uplinks spread evenly); empty in 2 tiers."""
        return _spread(self.links["spine_core"], self.core)

    def spine_port_groups(self) -> tuple[tuple[int, int, int], ...]:
        """``spine_ports()`` grouped as ``(count, down, up)``: identical spines counted once
        (at most two groups), so a bill of materials never walks the switches one by one."""
        groups = _spread_groups(self.links["leaf_spine"], self.spine)
        if self.tiers == 2:
            return tuple((count, down, 0) for count, down in groups)
        return tuple((count, down, down) for count, down in groups)

    def core_port_groups(self) -> tuple[tuple[int, int], ...]:
        """``core_ports()`` grouped as ``(count, ports)``; empty in 2 tiers."""
        return _spread_groups(self.links["spine_core"], self.core)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "tiers": self.tiers,
            "leaf": self.leaf,
            "spine": self.spine,
            "core": self.core,
            "switches": self.switches,
            "links": dict(self.links),
            "transceiver_ends": self.transceiver_ends,
            "radix": self.radix,
            "oversubscription": self.oversubscription,
            "leaf_down": self.leaf_down,
            "leaf_up": self.leaf_up,
            "servers": self.servers,
            "rails": self.rails,
            "gpus": self.gpus,
            "gpus_per_server": self.gpus_per_server,
            "leaf_groups": [
                {"count": count, "down": down, "up": up} for count, down, up in self.leaf_groups
            ],
            "gpu_gbps": self.gpu_gbps,
            "uplink_gbps": self.uplink_gbps,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FabricSize:
        """Inverse of ``to_dict`` (a frozen recommendation is rendered from it)."""
        return cls(
            tiers=int(data["tiers"]),
            leaf=int(data["leaf"]),
            spine=int(data["spine"]),
            core=int(data["core"]),
            switches=int(data["switches"]),
            links={k: int(v) for k, v in data["links"].items()},
            transceiver_ends=int(data["transceiver_ends"]),
            radix=int(data["radix"]),
            oversubscription=int(data["oversubscription"]),
            leaf_down=int(data["leaf_down"]),
            leaf_up=int(data["leaf_up"]),
            servers=int(data["servers"]),
            rails=int(data["rails"]),
            gpus=int(data.get("gpus", 0)),
            gpus_per_server=int(data.get("gpus_per_server", 0)),
            leaf_groups=tuple(
                (int(g["count"]), int(g["down"]), int(g["up"])) for g in data.get("leaf_groups", ())
            ),
            gpu_gbps=int(data.get("gpu_gbps", 0)),
            uplink_gbps=int(data.get("uplink_gbps", 0)),
        )


def _spread(total: int, bins: int) -> tuple[int, ...]:
    if bins == 0:
        return ()
    q, rem = divmod(total, bins)
    return (q + 1,) * rem + (q,) * (bins - rem)


def _spread_groups(total: int, bins: int) -> tuple[tuple[int, int], ...]:
    """``_spread(total, bins)`` as ``(count, value)`` pairs, largest value first."""
    if bins <= 0:
        return ()
    q, rem = divmod(total, bins)
    return tuple((n, v) for n, v in ((rem, q + 1), (bins - rem, q)) if n)


def _plan(
    gpus: int, rails_per_server: int, radix: int, oversub: int
) -> tuple[int, int, int, tuple[tuple[int, int, int], ...]]:
    """Returns servers, populated rails, leaves per rail, leaf groups (count, down, up)."""
    down_max, _ = leaf_split(radix, oversub)
    servers = _ceil_div(gpus, rails_per_server)
    per_rail = _ceil_div(servers, down_max)
    last = gpus - (servers - 1) * rails_per_server  # GPUs in the last server, 1..R
    rail_gpus = [(last, servers)]  # (number of rails, GPUs on each of those rails)
    if servers > 1 and last < rails_per_server:
        rail_gpus.append((rails_per_server - last, servers - 1))
    groups: dict[int, int] = {}
    for rail_count, n in rail_gpus:
        # n >= per_rail always holds (n >= servers - 1 >= ceil(servers / 2) for
        # servers >= 2, since down_max >= 2), so no leaf is left empty.
        q, rem = divmod(n, per_rail)
        for down, leaves in ((q + 1, rem), (q, per_rail - rem)):
            if leaves:
                groups[down] = groups.get(down, 0) + leaves * rail_count
    plan = tuple(
        (count, down, _ceil_div(down, oversub))
        for down, count in sorted(groups.items(), reverse=True)
    )
    populated = sum(rail_count for rail_count, _ in rail_gpus)
    return servers, populated, per_rail, plan


def leaf_port_plan(
    gpus: int, gpus_per_server: int = 8, radix: int = 64, oversubscription: int = 1
) -> tuple[tuple[int, int], ...]:
    """``(downlinks, uplinks)`` per leaf for this fabric (same plan as ``size_fabric``)."""
    return size_fabric(gpus, gpus_per_server, radix, oversubscription).leaf_ports()


def max_gpus(gpus_per_server: int, radix: int, oversubscription: int, tiers: int) -> int:
    """Largest GPU count a ``tiers``-tier (2 or 3) fabric of this shape connects.

    Leaves are limited to ``k`` in 2 tiers and ``k*k/2`` in 3 tiers. With
    ``R <= limit`` that allows ``floor(limit / R)`` leaves per rail of ``down``
    servers each; otherwise only a single partly populated server fits. For r=1 and
    R dividing k this is k^2/2 and k^3/4 (Al-Fares et al., SIGCOMM 2008).
    """
    _validate(1, gpus_per_server, radix, oversubscription)
    tiers = _check_int("tiers", tiers)
    if tiers not in (2, 3):
        raise SizingError("tiers", "out_of_range", f"tiers must be 2 or 3, got {tiers}")
    down, _ = leaf_split(radix, oversubscription)
    limit = radix if tiers == 2 else radix * radix // 2
    if limit < gpus_per_server:
        return limit
    return gpus_per_server * (limit // gpus_per_server) * down


def size_fabric(
    gpus: int, gpus_per_server: int = 8, radix: int = 64, oversubscription: int = 1
) -> FabricSize:
    """Size a rail-optimized fat-tree for ``gpus`` GPUs (one NIC port per GPU).

    Reproduces NVIDIA DGX SuperPOD (docs.nvidia.com/dgx-superpod, B200 reference
    architecture): 512 GPUs, 8 per server, k=64 -> 16 leaf, 8 spine.
    Raises ``SizingError`` for bad input, ``FabricTooLarge`` beyond 3 tiers.
    """
    _validate(gpus, gpus_per_server, radix, oversubscription)
    down_max, up_max = leaf_split(radix, oversubscription)
    servers, rails, per_rail, groups = _plan(gpus, gpus_per_server, radix, oversubscription)
    leaves = rails * per_rail
    uplinks = sum(count * up for count, _, up in groups)
    if leaves <= radix:
        tiers, spines, core, spine_core = 2, _ceil_div(uplinks, radix), 0, 0
    elif leaves <= radix * radix // 2:
        tiers = 3
        spines = _ceil_div(uplinks, radix // 2)
        core = _ceil_div(uplinks, radix)
        spine_core = uplinks
    else:
        raise FabricTooLarge(
            gpus,
            max_gpus(gpus_per_server, radix, oversubscription, 3),
            gpus_per_server,
            radix,
            oversubscription,
        )
    links = {"gpu_leaf": gpus, "leaf_spine": uplinks, "spine_core": spine_core}
    return FabricSize(
        tiers=tiers,
        leaf=leaves,
        spine=spines,
        core=core,
        switches=leaves + spines + core,
        links=links,
        transceiver_ends=2 * sum(links.values()),
        radix=radix,
        oversubscription=oversubscription,
        leaf_down=down_max,
        leaf_up=up_max,
        servers=servers,
        rails=rails,
        gpus=gpus,
        gpus_per_server=gpus_per_server,
        leaf_groups=groups,
    )


# --- planes of a catalogue switch (NIC speed, breakout, native uplinks) -------------------


@dataclass(frozen=True)
class LeafShape:
    """What one switch model offers as a leaf, spine or core at given port speeds.

    GPU-facing ports run at ``gpu_gbps`` through the switch's breakout of its native ports
    (one 800G OSFP port = 2 x 400G = 4 x 200G on a 51.2T switch); uplinks run at
    ``uplink_gbps``, either the native speed or the breakout speed. ``leaf_down`` and
    ``leaf_up`` are the leaf's GPU and uplink ports at ``oversubscription``:1, ``radix``
    the ports of a spine or core switch at the uplink speed and ``single`` the GPU ports
    of one switch that carries a whole plane (no uplinks).
    """

    native_ports: int
    native_gbps: int
    gpu_gbps: int
    uplink_gbps: int
    oversubscription: int
    leaf_down: int
    leaf_up: int
    radix: int
    single: int

    @property
    def breakout(self) -> int:
        """GPU ports per native port (1 when the GPU links run at the native speed)."""
        return self.native_gbps // self.gpu_gbps

    def uplinks_for(self, gpu_ports: int) -> int:
        """Uplinks a leaf with ``gpu_ports`` GPU links needs for ``oversubscription``:1."""
        return _ceil_div(gpu_ports * self.gpu_gbps, self.uplink_gbps * self.oversubscription)

    def native_ports_used(self, gpu_ports: int, uplinks: int) -> int:
        """Native ports a leaf uses: GPU links and uplinks each packed by their breakout."""
        return (_ceil_div(gpu_ports, self.breakout)
                + _ceil_div(uplinks, self.native_gbps // self.uplink_gbps))


def leaf_shape(
    native_ports: int, native_gbps: int, gpu_gbps: int, uplink_gbps: int,
    oversubscription: int = 1,
) -> LeafShape:
    """The shape of a leaf of ``native_ports`` x ``native_gbps`` with GPU links at
    ``gpu_gbps`` and uplinks at ``uplink_gbps``, both the native speed or one of its
    breakouts (a divisor of it). The native ports split ``r:1`` between GPUs and uplinks: a
    64 x 800G switch with 400G GPU links and 800G uplinks has 32 ports (64 x 400G) down and
    32 x 800G up (domain.md section 2: "the radix that counts is ports at the GPU link
    speed")."""
    for name, value in (("native_ports", native_ports), ("native_gbps", native_gbps),
                        ("gpu_gbps", gpu_gbps), ("uplink_gbps", uplink_gbps)):
        if _check_int(name, value) < 1:
            raise SizingError(name, "out_of_range", f"{name} must be >= 1, got {value}")
    _validate_radix_oversub(2 * max(2, native_ports // 2), oversubscription)
    for name, speed in (("gpu_gbps", gpu_gbps), ("uplink_gbps", uplink_gbps)):
        if native_gbps % speed:
            raise SizingError(name, "invalid_choice",
                              f"{speed}G is not a breakout of a {native_gbps}G port")
    if uplink_gbps < gpu_gbps:
        raise SizingError("uplink_gbps", "invalid_choice", "uplinks slower than GPU links")
    gpu_split, up_split = native_gbps // gpu_gbps, native_gbps // uplink_gbps
    r = oversubscription
    down_ports = native_ports * r // (r + 1)
    leaf_down = down_ports * gpu_split
    leaf_up = (native_ports - down_ports) * up_split
    radix = native_ports * up_split
    if leaf_down < 1 or leaf_up < 1 or radix < 4:
        raise SizingError("native_ports", "radix_too_small", "too few ports for a leaf")
    return LeafShape(native_ports, native_gbps, gpu_gbps, uplink_gbps, r, leaf_down, leaf_up,
                     radix, native_ports * gpu_split)


def _balanced(total: int, bins: int) -> list[int]:
    q, rem = divmod(total, bins)
    return [q + 1] * rem + [q] * (bins - rem)


def size_plane(
    rail_ports: tuple[int, ...] | list[int], shape: LeafShape, *, gpus_per_server: int = 0,
) -> FabricSize:
    """Size one plane: ``rail_ports[i]`` GPU links on rail *i* (one per server).

    * The whole plane on one switch when it has the ports (``tiers == 1``): no uplinks.
    * Otherwise a rail-optimized leaf/spine: several rails share a leaf when the ports
      allow (a leaf never splits a rail it can hold), else each rail spreads evenly over
      ``ceil(servers / leaf_down)`` leaves; each leaf buys the uplinks its GPU links need
      at ``oversubscription``:1, at least two, so that no leaf hangs on one spine.
    * Two tiers while the leaves fit the spine radix, with at least two spines; then three
      (spines ``uplinks / (radix/2)``, core ``uplinks / radix``, at least two), up to
      ``radix^2/2`` leaves (Al-Fares et al., SIGCOMM 2008). Beyond: ``FabricTooLarge``
      (``max_gpus`` 0: the caller knows the planes and computes the real maximum).
    """
    ports = [int(p) for p in rail_ports if p > 0]
    if not ports:
        raise SizingError("gpus", "out_of_range", "a plane needs at least one GPU link")
    total = sum(ports)
    servers = max(ports)
    common = {
        "radix": shape.radix, "oversubscription": shape.oversubscription,
        "leaf_down": shape.leaf_down, "leaf_up": shape.leaf_up, "servers": servers,
        "rails": len(ports), "gpus": total, "gpus_per_server": gpus_per_server,
        "gpu_gbps": shape.gpu_gbps, "uplink_gbps": shape.uplink_gbps,
    }
    if total <= shape.single:
        links = {"gpu_leaf": total, "leaf_spine": 0, "spine_core": 0}
        return FabricSize(tiers=1, leaf=1, spine=0, core=0, switches=1, links=links,
                          transceiver_ends=2 * total, leaf_groups=((1, total, 0),), **common)
    sizes: dict[int, int] = {}  # GPU links on a leaf -> number of such leaves
    if servers <= shape.leaf_down:
        per_leaf = min(len(ports), shape.leaf_down // servers)
        start = 0
        for size in _balanced(len(ports), _ceil_div(len(ports), per_leaf)):
            n = sum(ports[start:start + size])
            sizes[n] = sizes.get(n, 0) + 1
            start += size
    else:
        per_rail = _ceil_div(servers, shape.leaf_down)
        if len(ports) * per_rail > shape.radix * shape.radix // 2:
            raise FabricTooLarge(total, 0, gpus_per_server, shape.radix,
                                 shape.oversubscription)
        for n in ports:
            q, rem = divmod(n, per_rail)
            for down, count in ((q + 1, rem), (q, per_rail - rem)):
                if count:
                    sizes[down] = sizes.get(down, 0) + count
    floor_up = min(2, shape.leaf_up)
    groups: dict[tuple[int, int], int] = {}
    for n, count in sizes.items():
        key = (n, max(floor_up, shape.uplinks_for(n)))
        groups[key] = groups.get(key, 0) + count
    leaf_groups = tuple((count, down, up) for (down, up), count in sorted(groups.items(),
                                                                        reverse=True))
    leaves = sum(sizes.values())
    uplinks = sum(count * up for count, _, up in leaf_groups)
    k = shape.radix
    if leaves <= k:
        tiers, spines, core, spine_core = 2, max(2, _ceil_div(uplinks, k)), 0, 0
    elif leaves <= k * k // 2:
        tiers = 3
        spines = max(2, _ceil_div(uplinks, k // 2))
        core = max(2, _ceil_div(uplinks, k))
        spine_core = uplinks
    else:
        raise FabricTooLarge(total, 0, gpus_per_server, k, shape.oversubscription)
    links = {"gpu_leaf": total, "leaf_spine": uplinks, "spine_core": spine_core}
    return FabricSize(tiers=tiers, leaf=leaves, spine=spines, core=core,
                      switches=leaves + spines + core, links=links,
                      transceiver_ends=2 * sum(links.values()), leaf_groups=leaf_groups,
                      **common)
