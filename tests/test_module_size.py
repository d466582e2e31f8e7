"""Rooms of a size: no module of the product is over 500 lines unless its docstring says
why (a line starting ``Size:``). A long module is usually two concepts sharing a file; where
it is one declaration (a schema, a table of words) the docstring says so and the reviewer
can judge the reason."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LIMIT = 500
ROOT = Path(__file__).resolve().parent.parent / "selector"
MODULES = sorted(p for p in ROOT.rglob("*.py") if "migrations" not in p.parts)


def _reason(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return next((line for line in doc.splitlines() if line.startswith("Size:")), "")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_the_limit_without_a_reason(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if lines > LIMIT:
        assert len(_reason(path)) > len("Size: ") + 20, (
            f"{path.relative_to(ROOT)} has {lines} lines (limit {LIMIT}): split it, or say "
            "why not in a 'Size:' line of its docstring")


def test_the_check_can_fail(tmp_path):
    long = tmp_path / "long.py"
    long.write_text('"""A module."""\n' + "x = 1\n" * (LIMIT + 1), encoding="utf-8")
    assert _reason(long) == ""
    long.write_text('"""A module.\n\nSize: one declaration of the whole schema, read top to '
                    'bottom."""\n', encoding="utf-8")
    assert _reason(long).startswith("Size: one declaration")
