"""The tuning families are a registry: one list (registry.REGISTERED) that FAMILIES,
OS_NAMES and tuning_profile's dispatch come from; each family module holds its own values,
sources and snippet, so adding a family is a module and its entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from selector.domain import DEFAULT_CATALOGUE
from selector.domain.tuning import (
    FAMILIES,
    OS_NAMES,
    Family,
    TuningError,
    registry,
    sonic,
    spectrum,
    tuning_profile,
)

PACKAGE = Path(registry.__file__).parent


def test_families_and_os_names_come_from_the_one_list():
    assert registry.REGISTERED == (spectrum.FAMILY, sonic.FAMILY)
    assert FAMILIES == ("nvidia-spectrum", "sonic")
    assert OS_NAMES == {"nvidia-spectrum": "NVIDIA Cumulus Linux (NVUE)",
                        "sonic": "SONiC (community image)"}
    assert len(set(FAMILIES)) == len(registry.REGISTERED)


@pytest.mark.parametrize("family", registry.REGISTERED, ids=lambda f: f.key)
def test_each_family_builds_its_own_profile(family: Family):
    profile = tuning_profile(family.key, 400, cable_m=50)
    assert profile is not None
    assert (profile.family, profile.os) == (family.key, family.os_name)


def test_every_ethernet_switch_in_the_catalogue_has_a_registered_family():
    for switch in DEFAULT_CATALOGUE.switches:
        if switch.technology == "ethernet":
            assert switch.family in FAMILIES, switch.key
        else:
            assert tuning_profile(switch.family, 400) is None, switch.key


def test_an_unknown_family_has_no_profile_but_bad_input_is_still_refused():
    assert tuning_profile("no-such-family", 400) is None
    with pytest.raises(TuningError) as err:
        tuning_profile("no-such-family", 300)
    assert (err.value.field, err.value.code) == ("speed_gbps", "invalid_choice")


def test_every_module_of_the_package_stays_under_500_lines():
    for path in PACKAGE.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) < 500, path.name


def test_every_family_module_is_found_and_every_catalogue_family_has_a_label():
    """The registry lists the package's modules that define a FAMILY, so adding a family
    is a module (and the catalogue rows that run it), not an edit of a list."""
    import importlib
    import pkgutil

    from selector.domain import DEFAULT_CATALOGUE
    from selector.domain.tuning import LABELS

    defined = []
    for info in pkgutil.iter_modules([str(PACKAGE)]):
        module = importlib.import_module(f"selector.domain.tuning.{info.name}")
        if isinstance(getattr(module, "FAMILY", None), Family):
            defined.append(module.FAMILY)
    assert sorted(defined, key=lambda f: f.key) == list(registry.REGISTERED)
    assert {s.family for s in DEFAULT_CATALOGUE.switches} <= set(LABELS)


def test_the_family_labels_read_in_chinese():
    from django.utils.translation import override

    from selector.domain.tuning import LABELS
    from selector.planner.words import family_label

    for key, label in LABELS.items():
        with override("zh-hans"):
            assert family_label(key) != label, key
        with override("en"):
            assert family_label(key) == label
