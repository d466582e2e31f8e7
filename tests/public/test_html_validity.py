"""The main pages are valid HTML by the Nu Html Checker (vnu.jar, the W3C's checker, from
npm's vnu-jar package, run on Debian's Java; `make install-dev` installs both): 0 errors
on the landing page, FAQ, comparison, privacy notice, every wizard step, a result and
the contact page, in both languages (issue 26, item 6). htmx attributes are spelt
``data-hx-*``, which htmx reads and HTML allows."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from tests.leads.conftest import attach, make_session

VNU = Path(settings.BASE_DIR) / ".venv" / "node" / "node_modules" / "vnu-jar" / "build" / \
    "dist" / "vnu.jar"
PAGES = ("/", "/faq/", "/compare/", "/privacy/", "/wizard/scale/", "/wizard/workload/",
         "/wizard/budget/", "/wizard/determinism/", "/wizard/nic-speed/", "/wizard/result/",
         "/wizard/result/what-if/?budget=performance", "/contact/")

pytestmark = pytest.mark.django_db


def _checked(files: list[Path]) -> list[dict]:
    assert VNU.exists(), "run `make install-dev` (it installs the Nu Html Checker)"
    java = shutil.which("java")
    assert java, "run `make install-dev` (it installs Debian's Java runtime)"
    result = subprocess.run([java, "-Xss4m", "-jar", str(VNU), "--format", "json",
                             "--errors-only", *map(str, files)],
                            capture_output=True, text=True, timeout=300)
    return json.loads(result.stderr or '{"messages": []}')["messages"]


def test_the_main_pages_have_no_html_errors(client, content, tmp_path):
    attach(client, make_session())  # a finished wizard: every step, the result, contact
    files = []
    for prefix in ("", "/en"):
        for path in PAGES:
            response = client.get(prefix + path)
            assert response.status_code == 200, (prefix + path, response.status_code)
            name = re.sub(r"[^\w-]", "_", (prefix + path).strip("/")) or "home"
            file = tmp_path / f"{name}.html"
            file.write_bytes(response.content)
            files.append(file)
    errors = [f"{Path(m.get('url', '')).name}:{m.get('lastLine')}: {m.get('message')}"
              for m in _checked(files) if m.get("type") == "error"]
    assert errors == [], "\n".join(errors[:200]) + f"\n({len(errors)} errors)"
