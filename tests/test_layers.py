"""Imports run one way: each app of selector/ imports only from the layers below it.

    env < settings < domain < core < content < planner < documents < wizard | api < leads
        < public | staff < quotes < urls

Apps on one line (wizard | api, public | staff) may not import each other. ``selector.settings``
reads only ``selector.env``; ``selector.urls`` (the URLconf) composes every app. What each
layer holds and why the order is this one: docs/architecture.md ("Layers"), the one place
the reasons are written.

Every import counts, also those inside functions, classes and ``if TYPE_CHECKING:``.
An import inside a function that reaches another app is refused whatever its direction
(such imports were how the old leads <-> reports cycle hid). Inside a function, only these
remain: an ``AppConfig.ready()`` importing its own app (Django's place for registering
checks and signals, which cannot run while the app registry loads) and LAZY below.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "selector"

LAYERS: list[set[str]] = [
    {"env"},
    {"settings"},
    {"domain"},
    {"core"},
    {"content"},
    {"planner"},
    {"documents"},
    {"wizard", "api"},
    {"leads"},
    {"public", "staff"},
    {"quotes"},
    {"urls", "wsgi"},
]
LEVEL = {name: n for n, names in enumerate(LAYERS) for name in names}

# Function-local imports kept on purpose: (importing file, imported module) -> why.
LAZY: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Import:
    path: str  # relative to the project, e.g. "selector/leads/services.py"
    line: int
    target: str  # the imported module, e.g. "selector.leads.report.tasks"
    function: str | None  # the enclosing function, None at module or class level
    in_ready: bool  # inside an AppConfig.ready()


def _app(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "selector" and len(parts) > 1 else None


def _module_of(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_in(source: str, path: str) -> list[Import]:
    """Every import of a selector module in ``source`` (the file at ``path``)."""
    module = _module_of(ROOT / path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, function: str | None, in_ready: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name, in_ready or child.name == "ready")
                continue
            targets: list[str] = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    prefix = ".".join(base)
                    targets = [f"{prefix}.{child.module}" if child.module else prefix]
                else:
                    targets = [child.module or ""]
                # "from selector.leads import tasks" imports selector.leads.tasks.
                if targets[0] in ("selector", *(f"selector.{a}" for a in LEVEL)):
                    targets = [f"{targets[0]}.{alias.name}" for alias in child.names]
            for target in targets:  # targets only from an import statement, which has a line
                if target == "selector" or target.startswith("selector."):
                    assert isinstance(child, ast.stmt)
                    found.append(Import(path, child.lineno, target, function, in_ready))
            visit(child, function, in_ready)

    visit(ast.parse(source), None, False)
    return found


def problems(source: str, path: str) -> list[str]:
    """What is wrong with the imports of one file (empty: nothing)."""
    own = _app(_module_of(ROOT / path)) or ""
    out = []
    for imp in imports_in(source, path):
        target = _app(imp.target)
        where = f"{path}:{imp.line} imports {imp.target}"
        if target is None or own not in LEVEL or target not in LEVEL:
            if target is not None and (own not in LEVEL or target not in LEVEL):
                out.append(f"{where}: app not in LAYERS (add it where it belongs)")
            continue
        if target != own:
            if LEVEL[target] > LEVEL[own]:
                out.append(f"{where}: {own} may not import {target}, a layer above it")
            elif LEVEL[target] == LEVEL[own]:
                out.append(f"{where}: {own} and {target} are peers and stay independent")
        if imp.function is not None:
            allowed = (imp.in_ready and target == own) or (path, imp.target) in LAZY
            if not allowed:
                out.append(f"{where} inside {imp.function}(): import at the top of the "
                           f"module (a function-local import hides a dependency)")
    return out


def _sources():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def test_every_app_is_in_a_layer():
    apps = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    apps |= {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert apps - set(LEVEL) == set(), "add the new app to LAYERS (and say why there)"


def test_imports_run_one_way():
    found = [problem for path, source in _sources() for problem in problems(source, path)]
    assert found == []


def test_production_code_imports_no_development_tools():
    """devtools/ (the demo data) is installed in development and the tests only: nothing the
    production process runs may import it."""
    found = []
    for path, source in _sources():
        for node in ast.walk(ast.parse(source)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path}:{node.lineno} {n}" for n in names if n.split(".")[0] == "devtools"]
    assert found == []


def test_the_domain_core_imports_no_django():
    found = []
    for path, source in _sources():
        if not path.startswith("selector/domain/"):
            continue
        for node in ast.walk(ast.parse(source)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path}:{node.lineno} {n}" for n in names if n.split(".")[0] == "django"]
    assert found == []


def test_lazy_exceptions_still_exist():
    """An entry of LAZY that no longer matches an import is stale: drop it."""
    lazy_found = {(imp.path, imp.target) for path, source in _sources()
                  for imp in imports_in(source, path) if imp.function is not None}
    assert set(LAZY) <= lazy_found


# The check itself can fail: each of these is refused.
@pytest.mark.parametrize("path,source,expected", [
    ("selector/leads/services.py",
     "def f():\n    from selector.staff.services import lead_assign\n",
     ["leads may not import staff, a layer above it", "import at the top"]),
    ("selector/leads/report/links.py", "import selector.staff.permissions\n",
     ["leads may not import staff"]),
    ("selector/leads/report/render.py", "from ...public import views\n",
     ["leads may not import public"]),
    ("selector/wizard/views.py", "from selector.leads.lifecycle import submit_lead\n",
     ["wizard may not import leads"]),
    ("selector/wizard/views.py", "from selector.api.views import recommend\n",
     ["peers and stay independent"]),
    ("selector/staff/views/lead_page.py", "from selector.public import views\n",
     ["peers and stay independent"]),
    ("selector/core/errors.py", "if True:\n    from selector.content.models import X\n",
     ["core may not import content"]),
    ("selector/core/sharing.py", "from selector.wizard.models import WizardSession\n",
     ["core may not import wizard"]),
    ("selector/staff/views/lead_page.py",
     "def f():\n    from selector.core.sharing import share_token\n",
     ["import at the top"]),
    ("selector/staff/apps.py",
     "class C:\n    def ready(self):\n        from selector.leads import signals\n",
     ["import at the top"]),
    ("selector/documents/document.py", "from selector.leads.models import Lead\n",
     ["documents may not import leads"]),
    ("selector/documents/fonts.py", "from selector.wizard import state\n",
     ["documents may not import wizard"]),
    ("selector/reports/render.py", "from selector.leads.models import Lead\n",
     ["app not in LAYERS"]),
    ("selector/staff/views/lead_page.py", "from selector.quotes.models import Quote\n",
     ["staff may not import quotes"]),
    ("selector/leads/services.py", "from selector.quotes import services\n",
     ["leads may not import quotes"]),
])
def test_the_check_refuses(path, source, expected):
    found = " | ".join(problems(source, path))
    for text in expected:
        assert text in found, found


@pytest.mark.parametrize("path,source", [
    ("selector/staff/views/lead_page.py", "from selector.leads.report import views\n"),
    ("selector/documents/apps.py",
     "class C:\n    def ready(self):\n        from selector.documents import checks\n"),
    ("selector/leads/report/render.py", "from selector.documents.fetcher import asset_url\n"),
    ("selector/leads/contact.py", "from selector.leads.lifecycle import submit_lead\n"),
    ("selector/leads/contact.py", "from selector.wizard.state import completed_answers\n"),
    ("selector/wizard/views.py", "from selector.core.sharing import share_token\n"),
    ("selector/staff/lockout.py", "from selector.core.request import client_ip\n"),
    ("selector/leads/tasks.py", "from . import notify\n"),
    ("selector/quotes/services.py", "from selector.staff import permissions\n"),
    ("selector/quotes/views.py", "from selector.staff.access import staff_required\n"),
])
def test_the_check_accepts(path, source):
    assert problems(source, path) == []
