"""No module of ours reaches into another library's internals or changes a library for the
process, so upgrading a library is a change of its pin, not a porting job.

Three checks over every Python file of the project (selector/, tests/, bench/, deploy/,
devtools/, tools/):

1. No import of a private name (``from x import _y``, ``import x._y``) of another library.
2. A library with a documented public API is imported only through it: WeasyPrint's is
   its root package plus the modules its API reference documents (PUBLIC_MODULES).
3. No attribute ``._name`` that the project does not define itself, except the documented
   ones in DOCUMENTED (Django's ``Model._meta``...); and no assignment to an attribute of
   another library's module (monkeypatching it for the process).

And one run: importing and using the project (a PDF rendered) leaves every attribute of
WeasyPrint's, pydyf's, cssselect2's, tinycss2's and tinyhtml5's modules as it was.

ALLOWED lists the exceptions that remain, each with what pays for it. Tests may look at
WeasyPrint's laid-out boxes (it has no public layout API): that is an exception a test
names, never the application.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("selector", "tests", "bench", "deploy", "devtools", "tools")

# Documented modules below a library's root (WeasyPrint 70, docs/api_reference.rst).
PUBLIC_MODULES = {
    "weasyprint": {"weasyprint", "weasyprint.document", "weasyprint.urls",
                   "weasyprint.text.fonts", "weasyprint.css.counters"},
}

# Underscore attributes that are documented public API of the library that has them.
DOCUMENTED = {
    "_meta": "Django's Model _meta API (docs: ref/models/meta)",
    "_default_manager": "Django's Model._default_manager (docs: topics/db/managers)",
}

# (file, what) -> why it stays. "what" is the module imported or the attribute read.
ALLOWED: dict[tuple[str, str], str] = {
    ("selector/core/logredact.py", "gunicorn.glogging._AtomsDict"):
        "type checking only: the stubs' name (types-gunicorn) for what Logger.atoms returns",
    ("tests/reports/test_layout.py", "weasyprint.formatting_structure"):
        "test only: the parts-list columns are checked on WeasyPrint's laid-out boxes",
    ("tests/reports/test_layout.py", "._page_box"):
        "test only: the page's box tree, where the parts table's cells are",
    ("tests/reports/test_pdfa.py", "weasyprint.formatting_structure.boxes"):
        "test only: how full the last page is, from the laid-out boxes (margin boxes skipped)",
    ("tests/reports/test_pdfa.py", "._page_box"):
        "test only: the last page's box tree",
    ("tests/staff/test_translations.py", "._catalog"):
        "test only: the standard library's gettext has no public way to list a catalogue",
}


def _files():
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if ".venv" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text("utf-8"))


# The project's own top-level packages and modules (selector, tests, bench, devtools...).
OURS = {path.stem for path in ROOT.iterdir()
        if path.suffix == ".py" or (path.is_dir() and any(path.glob("*.py")))}


def _ours(module: str) -> bool:
    return module.split(".")[0] in OURS | {"__future__", ""}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _defined_names() -> set[str]:
    """Every name the project itself defines or assigns (functions, classes, attributes)."""
    names: set[str] = set()
    for _path, tree in _files():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    names.add(node.attr)
            elif isinstance(node, ast.alias) and node.asname:
                names.add(node.asname)
    return names


def findings() -> list[tuple[str, str, int]]:
    """(file, what, line) for every reach into a library's internals."""
    defined = _defined_names()
    out = []
    for path, tree in _files():
        modules: dict[str, str] = {}  # local name -> another library's module
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if not _ours(alias.name):
                        modules[alias.asname or alias.name.split(".")[0]] = alias.name
                        targets = [alias.name]
                        out += [(path, t, node.lineno) for t in targets if _bad_module(t)]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                module = node.module or ""
                if _ours(module):
                    continue
                if _bad_module(module):
                    out.append((path, module, node.lineno))
                    continue
                for alias in node.names:
                    name = f"{module}.{alias.name}"  # a name, or a submodule of module
                    if _private(alias.name) or (_bad_module(name) and _is_module(name)):
                        out.append((path, name, node.lineno))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr)
                    and node.attr not in defined and node.attr not in DOCUMENTED):
                out.append((path, f".{node.attr}", node.lineno))
            # Monkeypatching: assigning to (or setattr on) another library's module.
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                assigned = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in assigned:
                    base = target
                    while isinstance(base, (ast.Attribute, ast.Subscript)):
                        base = base.value
                    if (base is not target and isinstance(base, ast.Name)
                            and base.id in modules and not _environment(target)):
                        out.append((path, f"{modules[base.id]} (assigned)", node.lineno))
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "setattr" and node.args
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in modules):
                out.append((path, f"{modules[node.args[0].id]} (setattr)", node.lineno))
    return out


def _environment(target: ast.expr) -> bool:
    """``os.environ[...] = ...``: setting an environment variable, not patching ``os``."""
    return (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)
            and target.value.attr == "environ")


def _bad_module(module: str) -> bool:
    top = module.split(".")[0]
    if any(_private(part) for part in module.split(".")):
        return True
    return top in PUBLIC_MODULES and module not in PUBLIC_MODULES[top]


def _is_module(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def test_nothing_reaches_into_another_library():
    unexpected = sorted({(path, what) for path, what, _line in findings()} - set(ALLOWED))
    assert unexpected == [], "\n".join(f"{p}: {w}" for p, w in unexpected)


def test_every_allowed_exception_still_exists():
    """An entry of ALLOWED that nothing needs any more is stale: drop it."""
    assert set(ALLOWED) <= {(path, what) for path, what, _line in findings()}


def test_the_application_itself_has_no_exception():
    """Outside the tests, nothing reaches into a library when the code runs: an exception
    there may only be a name the type checker reads."""
    assert [key for key, why in ALLOWED.items() if not key[0].startswith("tests/")
            and not why.startswith("type checking only:")] == []


# The check itself can fail: each of these is found.
def _check(source: str) -> list[str]:
    tree = ast.parse(source)
    found = []
    path = ROOT / "selector" / "_probe.py"
    try:
        path.write_text(source, "utf-8")
        found = [what for p, what, _line in findings() if p == "selector/_probe.py"]
    finally:
        path.unlink()
    del tree
    return found


def test_the_check_finds_each_kind_of_reach():
    assert _check("from weasyprint import _find_base_url\n") == ["weasyprint._find_base_url"]
    assert _check("import weasyprint.svg\n") == ["weasyprint.svg"]
    assert _check("from weasyprint.text import ffi\n") == ["weasyprint.text"]
    assert _check("import os\nos.environ['X'] = '1'\n") == []
    assert _check("import pydyf\npydyf.zlib = None\n") == ["pydyf (assigned)"]
    assert _check("import weasyprint.urls as u\nu.TAGS['text'] = 1\n") == [
        "weasyprint.urls (assigned)"]
    assert _check("import pydyf\nsetattr(pydyf, 'zlib', None)\n") == ["pydyf (setattr)"]
    assert _check("def f(doc):\n    return doc._ua_stylesheets()\n") == ["._ua_stylesheets"]
    assert _check("from weasyprint import HTML, CSS\nfrom weasyprint.urls import URLFetcher\n"
                  "def f(m):\n    return m._meta\n") == []


LIBRARIES = ("weasyprint", "pydyf", "cssselect2", "tinycss2", "tinyhtml5")

SNAPSHOT = f"""
import os, sys
sys.path.insert(0, {str(ROOT)!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
import pkgutil, importlib
import weasyprint, pydyf, cssselect2, tinycss2, tinyhtml5
for lib in {LIBRARIES!r}:
    package = importlib.import_module(lib)
    for info in pkgutil.walk_packages(package.__path__, lib + "."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)

def identity(value):
    # A module-level dict (a registry such as weasyprint.svg.TAGS) counts by its items;
    # keys a library adds as it works (a cache) are not a change, a replaced value is.
    if isinstance(value, dict):
        return {{repr(k): id(v) for k, v in value.items()}}
    return id(value)


def changed(old, new):
    if isinstance(old, dict) and isinstance(new, dict):
        return any(new.get(k, v) != v for k, v in old.items())
    return old != new

def snapshot():
    return {{(name, attr): identity(value) for name, module in list(sys.modules.items())
            if name.split(".")[0] in {LIBRARIES!r}
            for attr, value in vars(module).items()}}

before = snapshot()
import django
django.setup()
for info in pkgutil.walk_packages([os.path.join({str(ROOT)!r}, "selector")], "selector."):
    if ".management" not in info.name and ".migrations" not in info.name:
        importlib.import_module(info.name)
from datetime import datetime
from selector.documents.document import html_to_pdf, string_stylesheet
pdf = html_to_pdf("<p>试一试 <svg width='20' height='20'><text x='1' y='9'>x</text></svg></p>",
                  stylesheets=[string_stylesheet("p {{ color: red }}")],
                  created=datetime(2026, 1, 1))
assert pdf.content.startswith(b"%PDF")
after = snapshot()
found = sorted(f"{{n}}.{{a}}" for (n, a) in set(before) & set(after)
               if changed(before[n, a], after[n, a]))
print("\\n".join(found))
"""


def test_using_the_project_changes_no_library_module():
    result = subprocess.run([sys.executable, "-c", SNAPSHOT], capture_output=True, text=True,
                            cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "", result.stdout
