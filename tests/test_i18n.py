"""Every user-facing string is translatable and translated: extract all msgids the way
`make messages` does (in a scratch copy of the project) and check that the merged catalogues
give each one a Chinese translation."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parent.parent
# Strings that are the same in both languages.
SAME_IN_BOTH = {"EN", "RoCE v2", "InfiniBand", "JSON", "CSV", "XLSX", "PDF", "API", "SVG",
                # docs/glossary.md: the switch tiers keep their English names in Chinese.
                "Leaf", "Spine"}


def _parse_pot(text: str) -> list[tuple[str | None, str, str | None]]:
    """(msgctxt, msgid, msgid_plural) for each entry of a .pot file."""
    entries, field = [], None
    values: dict[str, str] = {}

    def flush():
        if values.get("msgid"):
            entries.append((values.get("msgctxt"), values["msgid"], values.get("msgid_plural")))
        values.clear()

    for line in text.splitlines() + [""]:
        if not line.strip():
            flush()
            field = None
            continue
        if line.startswith("#"):
            continue
        match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
        if match:
            field = match.group(1)
            values[field] = _unescape(match.group(2))
        elif line.startswith('"') and field:
            values[field] = values.get(field, "") + _unescape(line[1:-1])
    return entries


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unescape(s: str) -> str:
    """Undo PO string escapes (the file is UTF-8; only backslash sequences are special)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), s)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    if not shutil.which("xgettext"):
        pytest.fail("gettext is not installed: run `make install`")
    work = tmp_path_factory.mktemp("i18n")
    for name in ("selector", "templates", "manage.py"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, work / name, ignore=shutil.ignore_patterns(
                "locale", "__pycache__"))
        else:
            shutil.copy(src, work / name)
    (work / "selector" / "locale").mkdir(exist_ok=True)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "PYTHONPATH": str(ROOT)}
    # tests.settings imports selector.settings from the copy (cwd first on sys.path).
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "zh_Hans", "--keep-pot",
                    "--no-location"], cwd=work, env=env, check=True, capture_output=True,
                   timeout=120)
    pot = (work / "selector" / "locale" / "django.pot").read_text(encoding="utf-8")
    return _parse_pot(pot)


def test_extraction_finds_the_strings(extracted):
    msgids = {m for _, m, _ in extracted}
    assert "Skip to content" in msgids


def test_extraction_finds_the_domains_remarks(extracted):
    """The pure domain marks its citations' remarks with N_ (no Django import there);
    selector.core's makemessages command adds the keyword, or these would be lost."""
    msgids = {m for _, m, _ in extracted}
    assert {"Port QoS map with PFC on 3,4", "Fat-tree routing is credit-loop-free",
            "Deterministic cuBLAS workspace"} <= msgids


def test_every_string_has_a_chinese_translation(extracted):
    missing = []
    with translation.override("zh-hans"):
        for ctx, msgid, plural in extracted:
            if msgid in SAME_IN_BOTH or not re.search(r"[A-Za-z]", msgid):
                continue
            if plural:
                got = (translation.npgettext(ctx, msgid, plural, 1) if ctx
                       else translation.ngettext(msgid, plural, 1))
            else:
                got = translation.pgettext(ctx, msgid) if ctx else translation.gettext(msgid)
            if got == msgid:
                missing.append(msgid)
    assert not missing, f"{len(missing)} strings lack a zh_Hans translation: {missing[:30]}"
