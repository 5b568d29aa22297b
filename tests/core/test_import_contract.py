"""core/ stays pure Python: importing and using it loads no Qt and no pyqtgraph."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.conftest import REPO


def test_core_loads_no_qt() -> None:
    code = (
        "import sys, shensha_plates.core.cli, shensha_plates.core.engine, shensha_plates.core.calendar\n"
        "import shensha_plates.core.catalog\n"
        "from shensha_plates.core.engine import State, compute_plate\n"
        "compute_plate(State.parse('丙午', 11, '甲辰'))\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')\n"
        "       or m.startswith('shensha_plates.gui')]\n"
        "print(bad)\n"
        "raise SystemExit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_import_linter_contracts() -> None:
    """Every contract in pyproject.toml holds: core is pure, and the gui layers (shell > panels | export >
    plate > model …) are respected, so that gui.panels never reaches into the window."""
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]["contracts"]
    names = {c["name"] for c in contracts}
    assert len(names) >= 3 and any(c["type"] == "layers" for c in contracts)
    proc = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(contracts)} kept, 0 broken" in proc.stdout
    for name in names:
        assert name in proc.stdout


def test_no_import_circle() -> None:
    """No module of the package reaches itself through its imports (those made only for type checking
    included): a circle makes the order of loading matter and the layers meaningless. Where a lower
    module needs to speak of a higher one's object, it names what it needs as a Protocol."""
    import grimp

    graph = grimp.build_graph("shensha_plates")
    circles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith("shensha_plates.") and imported != module:
                back = graph.find_shortest_chain(importer=imported, imported=module)
                if back:
                    circles.add(" → ".join((module, *back)))
    assert not circles, "import circles:\n" + "\n".join(sorted(circles))


def test_no_class_name_is_defined_twice() -> None:
    """One name per concept: two classes of the same name in two modules are two concepts under one
    name (a reader of ``Lesson`` must not have to ask which)."""
    import ast
    from collections import defaultdict

    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted((REPO / "shensha_plates").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(str(path.relative_to(REPO)))
    twice = {name: files for name, files in where.items() if len(files) > 1}
    assert not twice, twice


def test_the_readme_layout_names_every_module() -> None:
    """README.md's Layout section is the map of the package: every module is named there (as
    ``name.py``), so a module split off or added without a word in the map fails here."""
    readme = (REPO / "README.md").read_text("utf-8")
    layout = readme[readme.index("## Layout"):readme.index("\n## ", readme.index("## Layout") + 1)]
    unnamed = sorted(str(path.relative_to(REPO)) for path in (REPO / "shensha_plates").rglob("*.py")
                     if path.name != "__init__.py" and f"{path.name}`" not in layout
                     and f"{path.name} " not in layout)
    assert not unnamed, f"modules README.md's Layout does not name: {unnamed}"
