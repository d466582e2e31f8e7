"""The switch families with a sourced RoCE profile: every module of this package that
defines a ``FAMILY`` (a ``model.Family``). ``FAMILIES``, ``OS_NAMES`` and the page labels
are derived from them and ``tuning_profile`` looks the family up among them.

Adding a family: a module beside this one whose ``FAMILY`` holds its key, switch OS, page
label and builder, with its values and sources; the catalogue's switches that run it
(``SwitchSpec.family``); the Chinese translations of its label and remarks. Nothing else
lists the families.

Pure Python, no Django."""

from __future__ import annotations

import importlib
import pkgutil

from . import infiniband
from .model import GPU_CABLE_MAX_M, Family, LeafPorts, TuningProfile, TuningRequest, validate

_PACKAGE = __name__.rpartition(".")[0]
_FOUND = (getattr(importlib.import_module(f"{_PACKAGE}.{info.name}"), "FAMILY", None)
          for info in pkgutil.iter_modules(importlib.import_module(_PACKAGE).__path__))
# Every family, in the order of their keys (the order the pages and tests sweep them).
REGISTERED: tuple[Family, ...] = tuple(sorted(
    (found for found in _FOUND if isinstance(found, Family)), key=lambda f: f.key))

BY_KEY: dict[str, Family] = {family.key: family for family in REGISTERED}
FAMILIES: tuple[str, ...] = tuple(BY_KEY)
OS_NAMES: dict[str, str] = {family.key: family.os_name for family in REGISTERED}
# What the pages call each family (msgids: the page translates them).
LABELS: dict[str, str] = {**{family.key: family.label for family in REGISTERED},
                          infiniband.KEY: infiniband.LABEL}


def tuning_profile(family: str, speed_gbps: int, *, uplink_gbps: int | None = None,
                   cable_m: int = 100, gpu_cable_m: int | None = None, switch_key: str = "",
                   spectrum_x_nic: bool = True,
                   leaf: LeafPorts | None = None) -> TuningProfile | None:
    """The lossless profile of ``family`` for GPU links at ``speed_gbps``: the GPU ports'
    links up to ``gpu_cable_m`` (default: ``cable_m`` within the servers' row, 50 m), the
    switch-to-switch links up to ``cable_m``. None for a family without a sourced profile
    (an InfiniBand family, a switch with no family); ``TuningError`` for invalid input.
    ``spectrum_x_nic``: the NICs accept out-of-order packets (ConnectX-7/-8, BlueField-3),
    which NVIDIA adaptive routing needs."""
    validate(speed_gbps, cable_m)
    gpu_cable = min(cable_m, GPU_CABLE_MAX_M) if gpu_cable_m is None else gpu_cable_m
    validate(speed_gbps, gpu_cable)
    entry = BY_KEY.get(family)
    if entry is None:
        return None
    return entry.build(TuningRequest(
        speed_gbps=speed_gbps, uplink_gbps=uplink_gbps or speed_gbps, cable_m=cable_m,
        gpu_cable_m=gpu_cable, switch_key=switch_key, spectrum_x_nic=spectrum_x_nic,
        leaf=leaf))
