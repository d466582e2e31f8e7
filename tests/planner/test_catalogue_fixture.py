"""The catalogue has one source, ``selector/domain/catalogue/data.py``: the admin-editable
rows of ``fixtures/content.json`` are generated from it, and the vendor choices are its
vendors."""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from selector.content.catalogue_fixture import FIXTURE, dumps, regenerate
from selector.content.models import Part, Switch
from selector.core import choices
from selector.domain import DEFAULT_CATALOGUE, VENDORS, Catalogue
from selector.domain.catalogue import VENDOR_NAMES

ROWS = json.loads(Path(FIXTURE).read_text(encoding="utf-8"))


def test_the_fixture_is_generated_from_the_domain_catalogue(capsys):
    call_command("catalogue_fixture", "--check")
    assert "up to date" in capsys.readouterr().out
    assert dumps(regenerate(ROWS)) == Path(FIXTURE).read_text(encoding="utf-8")


def test_a_stale_fixture_is_caught(tmp_path, monkeypatch):
    stale = [row for row in ROWS if row["fields"].get("key") != "nvidia-qm9700"]
    (tmp_path / "fixtures").mkdir()
    (tmp_path / FIXTURE).write_text(dumps(stale), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CommandError, match="differs from the domain catalogue"):
        call_command("catalogue_fixture", "--check")
    call_command("catalogue_fixture")  # writes it back
    call_command("catalogue_fixture", "--check")
    written = json.loads((tmp_path / FIXTURE).read_text(encoding="utf-8"))
    qm = [r for r in written if r["fields"].get("key") == "nvidia-qm9700"]
    assert len(qm) == 1 and qm[0]["pk"] not in {r["pk"] for r in stale
                                                if r["model"] == "content.switch"}


def test_a_new_row_gets_the_next_key_and_keeps_everything_else():
    new = dataclasses.replace(DEFAULT_CATALOGUE.switches[0], key="example-new-switch")
    catalogue = Catalogue((*DEFAULT_CATALOGUE.switches, new), DEFAULT_CATALOGUE.parts)
    out = regenerate(ROWS, catalogue, today=datetime.date(2027, 1, 2))
    switches = [r for r in out if r["model"] == "content.switch"]
    assert switches[-1]["fields"]["key"] == "example-new-switch"
    assert switches[-1]["pk"] == max(r["pk"] for r in switches[:-1]) + 1
    assert switches[-1]["fields"]["updated_at"] == "2027-01-02T00:00:00Z"
    assert [r for r in out if r["model"] not in ("content.switch", "content.part")] == [
        r for r in ROWS if r["model"] not in ("content.switch", "content.part")]


@pytest.mark.parametrize("spec", DEFAULT_CATALOGUE.switches, ids=lambda s: s.key)
def test_switch_rows_round_trip(spec):
    assert Switch.from_spec(spec).to_spec() == spec


@pytest.mark.parametrize("spec", DEFAULT_CATALOGUE.parts, ids=lambda s: s.key)
def test_part_rows_round_trip(spec):
    assert Part.from_spec(spec).to_spec() == spec


def test_the_vendor_choices_are_the_catalogues_ethernet_vendors_each_named_in_both_languages():
    ethernet = [s.vendor_key for s in DEFAULT_CATALOGUE.switches if s.technology == "ethernet"]
    assert ("any", *dict.fromkeys(ethernet)) == VENDORS
    assert set(VENDORS[1:]) <= set(VENDOR_NAMES)
    from django.utils.translation import override

    for key, (english, chinese) in VENDOR_NAMES.items():
        with override("en"):
            assert str(choices.VENDOR_LABELS[key]) == english
        with override("zh-hans"):
            assert str(choices.VENDOR_LABELS[key]) == chinese
    unnamed = dataclasses.replace(DEFAULT_CATALOGUE.switches[0], vendor_key="any")
    assert any("not a vendor choice" in p or "no name" in p
               for p in Catalogue((unnamed,)).problems())
