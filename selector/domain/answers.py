"""The wizard's answers as the engine reads them: the value domains (workloads, budgets,
NIC speeds, distances, platforms, oversubscription, the size limits), the validation with
its error codes, and ``Answers``, validated on construction. Pure Python, no Django; the
rules that decide on them are ``selector.domain.decision``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, TypeIs

from .catalogue import VENDORS

__all__ = [
    "Answers",
    "Budget",
    "DEFAULT_DISTANCE",
    "DEFAULT_NIC_SPEED",
    "DEFAULT_PLATFORM",
    "DISTANCES",
    "Determinism",
    "ERROR_CODES",
    "GPS_MAX",
    "GPS_MIN",
    "GPUS_MAX",
    "GPUS_MIN",
    "InvalidAnswers",
    "NIC_SPEEDS",
    "NON_FIELD_ERRORS",
    "OVERSUBSCRIPTIONS",
    "PLAN_FIELDS",
    "PLATFORMS",
    "Workload",
    "VENDORS",
]


class Workload(StrEnum):
    TRAINING = "training"
    INFERENCE = "inference"
    MIXED = "mixed"


class Budget(StrEnum):
    SENSITIVE = "sensitive"
    BALANCED = "balanced"
    PERFORMANCE = "performance"


class Determinism(StrEnum):
    STANDARD = "standard"
    STRICT = "strict"


# NIC port speeds offered in the wizard, Gb/s. ConnectX-7 is 400G, ConnectX-8 is
# 800G XDR IB (domain.md section 3, public NVIDIA datasheets); 200G covers older NICs.
NIC_SPEEDS = (200, 400, 800)
# "Not sure" plans today's common build: 8 x 400G NICs per 8-GPU server (domain.md section 3:
# DGX H100/H200/B200 carry 8 x 400G compute NICs).
DEFAULT_NIC_SPEED = 400
# Longest link in the fabric, by where the switches sit: metres each choice stands for. The
# reach classes of the optics (LinkX 100G-PAM4 overview): copper DAC to 3 m, multimode to
# 50 m, single-mode DR to 100 m and 500 m, FR4 to 2 km.
DISTANCES = {"rack": 3, "row": 50, "hall": 100, "building": 500, "campus": 2000}
DEFAULT_DISTANCE = "row"
# The server platform, for the NIC end of the GPU links (issue 22 finding 7): NVIDIA DGX/HGX
# with twin-port OSFP cages ("4 x OSFP ports for 8 x NVIDIA ConnectX-7 Single Port Cards",
# DGX B200 User Guide; the DGX H100 compute ports "use a two-port transceiver", DGX SuperPOD
# H100 RA), a PCIe NIC with an OSFP cage (ConnectX-7/OSFP), a BlueField-3 SuperNIC ("BlueField-3
# only accepts QSFP112s", NVIDIA MMA1Z00-NS400 specification), or not known (planned as a
# PCIe NIC with OSFP, one module per NIC port, and the page says so).
PLATFORMS = ("unsure", "dgx", "pcie-osfp", "bluefield3")
DEFAULT_PLATFORM = "unsure"
# Leaf oversubscription r:1 (GPU-facing bandwidth over uplink bandwidth) an architect may
# choose for a catalogue plan (issue 22 finding 11); 1 is non-blocking, the default.
OVERSUBSCRIPTIONS = (1, 2, 3)
GPUS_MIN, GPUS_MAX = 1, 1_000_000
# Up to 16 GPUs per server: DGX/HGX boxes carry 8 (domain.md section 3), 16-GPU
# chassis exist; this is also the maximum number of rails the sizing supports.
GPS_MIN, GPS_MAX = 1, 16


# Machine error codes carried by InvalidAnswers.errors.
ERROR_CODES = ("required", "invalid", "out_of_range", "invalid_choice", "unknown_field")
# Key used for errors that belong to no single field (same spelling as Django's).
NON_FIELD_ERRORS = "__all__"


class InvalidAnswers(ValueError):
    """Raised when answers fail validation.

    ``errors`` maps each offending field name to a list of machine codes
    (see ``ERROR_CODES``), e.g. ``{"gpus": ["out_of_range"]}``. All field errors
    are collected before raising.
    """

    def __init__(self, errors: Mapping[str, list[str]]):
        self.errors: dict[str, list[str]] = {k: list(v) for k, v in errors.items()}
        detail = "; ".join(f"{k}: {', '.join(v)}" for k, v in self.errors.items())
        super().__init__(f"invalid answers ({detail})")


def _is_int(value: object) -> TypeIs[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _clean_int(value: object, lo: int, hi: int) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not _is_int(value):
        return value, "invalid"
    if not lo <= value <= hi:
        return value, "out_of_range"
    return int(value), None


def _clean_choice(value: object, enum: type[StrEnum]) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not isinstance(value, str):
        return value, "invalid"
    try:
        return enum(value), None
    except ValueError:
        return value, "invalid_choice"


def _clean_bool(value: object) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not isinstance(value, bool):
        return value, "invalid"
    return value, None


def _clean_nic(value: object) -> tuple[object, str | None]:
    if value is None:
        return None, None  # "not known / let the engine choose" is a valid answer
    if not _is_int(value):
        return value, "invalid"
    if value not in NIC_SPEEDS:
        return value, "invalid_choice"
    return int(value), None


def _clean_optional_int(value: object, lo: int, hi: int) -> tuple[object, str | None]:
    if value is None:
        return None, None  # "one per GPU" (nics_per_server)
    return _clean_int(value, lo, hi)


def _clean_int_choice(value: object, choices: Collection[int]) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not _is_int(value):
        return value, "invalid"
    if value not in choices:
        return value, "invalid_choice"
    return int(value), None


def _clean_str_choice(value: object, choices: Collection[str]) -> tuple[object, str | None]:
    if value is None:
        return value, "required"
    if not isinstance(value, str):
        return value, "invalid"
    if value not in choices:
        return value, "invalid_choice"
    return value, None


_CLEANERS: dict[str, Callable[[object], tuple[object, str | None]]] = {
    "gpus": lambda v: _clean_int(v, GPUS_MIN, GPUS_MAX),
    "gpus_per_server": lambda v: _clean_int(v, GPS_MIN, GPS_MAX),
    "workload": lambda v: _clean_choice(v, Workload),
    "budget": lambda v: _clean_choice(v, Budget),
    "determinism": lambda v: _clean_choice(v, Determinism),
    "throughput_limited": _clean_bool,
    "nic_speed": _clean_nic,
    "nics_per_server": lambda v: _clean_optional_int(v, GPS_MIN, GPS_MAX),
    "vendor": lambda v: _clean_str_choice(v, VENDORS),
    "distance": lambda v: _clean_str_choice(v, DISTANCES),
    "platform": lambda v: _clean_str_choice(v, PLATFORMS),
    "oversubscription": lambda v: _clean_int_choice(v, OVERSUBSCRIPTIONS),
}
# The hardware answers: they shape the plan, never the rule.
PLAN_FIELDS = ("nics_per_server", "vendor", "distance", "platform", "oversubscription")


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


@dataclass(frozen=True)
class Answers:
    """The wizard's answers, validated on construction.

    Enum fields accept the enum member or its string value (normalised to the
    member). ``bool`` is rejected where an int is expected and vice versa.
    ``nic_speed=None`` means "not specified" (planned as ``DEFAULT_NIC_SPEED``);
    ``nics_per_server=None`` means one NIC per GPU (a rail per GPU).
    """

    gpus: int
    gpus_per_server: int = 8
    workload: Workload = Workload.TRAINING
    budget: Budget = Budget.BALANCED
    determinism: Determinism = Determinism.STANDARD
    throughput_limited: bool = False
    nic_speed: int | None = None
    nics_per_server: int | None = None
    vendor: str = "any"
    distance: str = DEFAULT_DISTANCE
    platform: str = DEFAULT_PLATFORM
    oversubscription: int = 1

    def __post_init__(self) -> None:
        errors: dict[str, list[str]] = {}
        for name, clean in _CLEANERS.items():
            value, code = clean(getattr(self, name))
            if code is not None:
                errors[name] = [code]
            else:
                object.__setattr__(self, name, value)
        if errors:
            raise InvalidAnswers(errors)

    @property
    def servers(self) -> int:
        """Number of servers: ``ceil(gpus / gpus_per_server)``."""
        return -(-self.gpus // self.gpus_per_server)

    @property
    def nic_gbps(self) -> int:
        """The NIC speed the plan uses: the answer, or 400G when not known."""
        return self.nic_speed or DEFAULT_NIC_SPEED

    @property
    def rails(self) -> int:
        """NICs per server (one rail each): the answer, or one per GPU."""
        return self.nics_per_server or self.gpus_per_server

    @property
    def distance_m(self) -> int:
        return DISTANCES[self.distance]

    def replace(self, **changes: Any) -> Answers:
        """Return a copy with ``changes`` applied (validated like the constructor)."""
        unknown = sorted(set(changes) - set(_CLEANERS))
        if unknown:
            raise InvalidAnswers({name: ["unknown_field"] for name in unknown})
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (enums as their string values), every field in declaration order;
        inverse of ``from_dict``."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: object) -> Answers:
        """Build from a mapping such as ``to_dict()`` produced.

        Missing optional keys take their defaults; a missing ``gpus`` is
        ``required``; unknown keys are ``unknown_field``; a non-mapping is a
        non-field error. Raises ``InvalidAnswers`` carrying all errors at once.
        """
        if not isinstance(data, Mapping):
            raise InvalidAnswers({NON_FIELD_ERRORS: ["invalid"]})
        errors: dict[str, list[str]] = {}
        for key in data:
            if key not in _CLEANERS:
                errors[str(key)] = ["unknown_field"]
        kwargs = {k: v for k, v in data.items() if k in _CLEANERS}
        kwargs.setdefault("gpus", None)
        try:
            answers = cls(**kwargs)
        except InvalidAnswers as exc:
            errors = {**exc.errors, **errors}
        if errors:
            # Report in field order, unknown keys last.
            order = list(_CLEANERS)
            keys = sorted(errors, key=lambda k: (order.index(k) if k in order else len(order), k))
            raise InvalidAnswers({k: errors[k] for k in keys})
        return answers


assert set(_CLEANERS) == {f.name for f in dataclasses.fields(Answers)}, "a cleaner per answer"
