"""Fragment-cache keys carry the code's version (templates, code, compiled translations,
library pins), so a deploy never serves markup an older version cached in the shared
cache; nothing is bumped by hand."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings

from selector.core.codeversion import code_version, digest_files
from selector.domain import Answers
from selector.planner.presenter import present
from selector.planner.services import fresh

ROOT = Path(settings.BASE_DIR)


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(ROOT / "templates", root / "templates")
    (root / "selector" / "core").mkdir(parents=True)
    shutil.copy(ROOT / "selector" / "core" / "codeversion.py", root / "selector" / "core")
    mo = next(ROOT.glob("selector/**/*.mo"))
    (root / mo.parent.relative_to(ROOT)).mkdir(parents=True, exist_ok=True)
    shutil.copy(mo, root / mo.relative_to(ROOT))
    shutil.copy(ROOT / "requirements.txt", root)
    return root


def test_a_changed_template_gives_a_new_version(tmp_path):
    root = _copy(tmp_path)
    before = digest_files(root)
    assert digest_files(root) == before  # stable for the same files
    template = root / "templates" / "wizard" / "result.html"
    template.write_text(template.read_text() + "<!-- changed -->")
    assert digest_files(root) != before


def test_changed_code_or_translations_give_a_new_version(tmp_path):
    root = _copy(tmp_path)
    before = digest_files(root)
    code = root / "selector" / "core" / "codeversion.py"
    code.write_text(code.read_text() + "\n# changed\n")
    after_code = digest_files(root)
    assert after_code != before
    mo = next(root.glob("selector/**/*.mo"))
    mo.write_bytes(mo.read_bytes() + b"\0")
    assert digest_files(root) != after_code


def test_a_new_library_pin_gives_a_new_version(tmp_path):
    """A library upgrade (a line of requirements.txt) can change markup the project draws
    through it (form widgets, the htmx script tag's static name)."""
    root = _copy(tmp_path)
    before = digest_files(root)
    pins = root / "requirements.txt"
    pins.write_text(pins.read_text().replace("django-htmx==", "django-htmx==0.0.0+", 1))
    assert "django-htmx==0.0.0+" in pins.read_text()
    assert digest_files(root) != before


def test_a_renamed_file_gives_a_new_version(tmp_path):
    root = _copy(tmp_path)
    before = digest_files(root)
    template = root / "templates" / "wizard" / "result.html"
    template.rename(template.with_name("result2.html"))
    assert digest_files(root) != before


@pytest.mark.django_db
def test_the_plan_fragment_key_carries_the_code_version(content):
    view = present(fresh(Answers(gpus=64)))
    assert view.fragment_key.startswith(code_version() + "-")
    assert code_version() == digest_files(ROOT)
