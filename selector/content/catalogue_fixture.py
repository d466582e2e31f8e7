"""``fixtures/content.json``'s catalogue rows, generated from the domain catalogue
(``selector.domain.catalogue.data``, the one source): the admin-editable switch and optics
rows a new deployment loads are the rows the planner's tests and benchmarks use.

``manage.py catalogue_fixture`` rewrites them; ``--check`` (run by the test suite) fails while
the file and the domain differ. Rows keep their primary keys and dates; a new row gets the
next free key and today's date.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from typing import Any

from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model

from selector.content.models import Part, Switch
from selector.domain.catalogue import DEFAULT_CATALOGUE, Catalogue

FIXTURE = "fixtures/content.json"
_LABELS: dict[type[Model], str] = {Switch: "content.switch", Part: "content.part"}


def _rows(model: type[Model], objects: Iterable[Model], old: list[dict[str, Any]],
          today: str) -> list[dict[str, Any]]:
    label = _LABELS[model]
    previous = {row["fields"]["key"]: row for row in old if row["model"] == label}
    next_pk = max((row["pk"] for row in previous.values()), default=0) + 1
    out = []
    for obj in objects:
        fields = serializers.serialize("python", [obj])[0]["fields"]
        before = previous.get(fields["key"])
        if before is None:
            pk, next_pk = next_pk, next_pk + 1
            fields["updated_at"] = today
        else:
            pk = before["pk"]
            fields["is_active"] = before["fields"].get("is_active", True)
            fields["updated_at"] = before["fields"]["updated_at"]
        out.append({"model": label, "pk": pk, "fields": fields})
    return json.loads(json.dumps(out, cls=DjangoJSONEncoder))


def regenerate(rows: list[dict[str, Any]], catalogue: Catalogue = DEFAULT_CATALOGUE,
               today: datetime.date | None = None) -> list[dict[str, Any]]:
    """``rows`` (the fixture's) with its switch and part rows replaced by ``catalogue``'s,
    in the catalogue's order, where the first of them stood; other rows are untouched."""
    stamp = f"{(today or datetime.date.today()).isoformat()}T00:00:00Z"
    generated = {
        "content.switch": _rows(Switch, map(Switch.from_spec, catalogue.switches), rows, stamp),
        "content.part": _rows(Part, map(Part.from_spec, catalogue.parts), rows, stamp),
    }
    placed: set[str] = set()
    out: list[dict[str, Any]] = []
    for row in rows:
        label = row["model"]
        if label not in generated:
            out.append(row)
        elif label not in placed:
            out.extend(generated[label])
            placed.add(label)
    for label, rest in generated.items():
        if label not in placed:
            out.extend(rest)
    return out


def dumps(rows: list[dict[str, Any]]) -> str:
    """The file's text, as it is written (two-space indent, Chinese as is)."""
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
