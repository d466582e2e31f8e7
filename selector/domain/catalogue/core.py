"""The catalogue the planner is given: switches and parts, with a version that a frozen
recommendation keeps. Pure Python, no Django.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .data import DEFAULT_PARTS, DEFAULT_SWITCHES, VENDOR_NAMES, VENDORS
from .specs import PartSpec, Source, SwitchSpec, internal_path

__all__ = ["Catalogue", "DEFAULT_CATALOGUE"]


@dataclass(frozen=True)
class Catalogue:
    """Switches and parts the planner may use. ``version`` is a digest of the rows, frozen
    with every recommendation so a lead says which catalogue it was planned with."""

    switches: tuple[SwitchSpec, ...]
    parts: tuple[PartSpec, ...] = ()
    version: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.version:
            object.__setattr__(self, "version", self.digest())

    def __hash__(self) -> int:
        return hash(self.version)

    def digest(self) -> str:
        payload = json.dumps([sorted((s.to_dict() for s in self.switches),
                                     key=lambda d: d["key"]),
                              sorted((p.to_dict() for p in self.parts), key=lambda d: d["key"])],
                             sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    def __iter__(self) -> Iterator[SwitchSpec]:
        # A Catalogue reads like the plain switch sequence it replaced.
        return iter(self.switches)

    def __len__(self) -> int:
        return len(self.switches)

    def problems(self) -> list[str]:
        """What keeps a row from shipping: no source (a title and the date it was read), an
        internal path where a customer would read it, a vendor preference no one can pick."""
        out = []
        rows: list[tuple[str, tuple[Source, ...], list[str]]] = []
        for s in self.switches:
            rows.append((s.key, s.sources, [s.vendor, s.model, s.asic]))
            if s.vendor_key not in VENDORS:
                out.append(f"{s.key}: vendor_key {s.vendor_key!r} is not a vendor choice")
            elif s.vendor_key not in VENDOR_NAMES:
                out.append(f"{s.key}: vendor_key {s.vendor_key!r} has no name")
        for p in self.parts:
            rows.append((p.key, p.sources, [p.vendor, p.model, p.description,
                                            p.description_zh]))
        for key, sources, texts in rows:
            if not sources:
                out.append(f"{key}: no source")
            for src in sources:
                if not src.title.strip():
                    out.append(f"{key}: a source without a title")
                if not src.date.strip():
                    out.append(f"{key}: a source without the date it was read")
                texts += [src.title, src.title_zh, src.url]
            for text in texts:
                if internal_path(text):
                    out.append(f"{key}: internal path in {text!r}")
        return out

    @classmethod
    def of(cls, value: Catalogue | Sequence[SwitchSpec]) -> Catalogue:
        if isinstance(value, Catalogue):
            return value
        return cls(tuple(value), DEFAULT_PARTS)


DEFAULT_CATALOGUE = Catalogue(DEFAULT_SWITCHES, DEFAULT_PARTS)
