"""The layout's rules, read from the source with ``ast`` (no import needed):

* ``core/`` never imports Qt or the viewer, directly or lazily;
* the viewer and the CLI use a core feature only through its public surface (the names its
  package ``__init__`` exports), never one of its modules;
* every module inside ``core/`` and ``viewer/`` reaches its own package relatively.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "core"
VIEWER = ROOT / "viewer"
QT = ("PySide6", "shiboken6", "PyQt5", "PyQt6", "pyqtgraph", "superqt", "qtpy")
# Leaf modules of core that are shared by every feature rather than belonging to one.
CORE_SHARED = {"errors", "formatting", "paths", "process", "tasks"}


def _imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, absolute module, imported names) of every import in the file, lazy ones too."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            yield node.lineno, module, [a.name for a in node.names]


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return "kernelscope." + ".".join(parts)


def _public_names(feature: str) -> set[str]:
    tree = ast.parse((CORE / feature / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            return {ast.literal_eval(e) for e in node.value.elts}
    return set()


def _features() -> set[str]:
    return {p.parent.name for p in CORE.glob("*/__init__.py")}


def test_core_never_imports_qt_or_the_viewer() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in CORE.rglob("*.py")
        for line, module, _ in _imports(path)
        if module.split(".")[0] in QT or module.startswith("kernelscope.viewer")
    ]
    assert not bad, "core must stay Qt-free and never depend on the viewer:\n" + "\n".join(bad)


def test_viewer_and_cli_use_only_public_surfaces() -> None:
    features = _features()
    users = [*VIEWER.rglob("*.py"), *(CORE / "cli").rglob("*.py")]
    bad = []
    for path in users:
        for line, module, names in _imports(path):
            parts = module.split(".")
            if parts[:2] != ["kernelscope", "core"] or len(parts) < 3:
                continue
            feature = parts[2]
            where = f"{path.relative_to(ROOT)}:{line}"
            if feature in CORE_SHARED or feature == "cli" and path.is_relative_to(CORE / "cli"):
                continue
            if feature not in features:
                bad.append(f"{where}: kernelscope.core.{feature} is not a feature package")
            elif len(parts) > 3:
                bad.append(f"{where}: reaches into {module}, past kernelscope.core.{feature}")
            else:
                public = _public_names(feature)
                hidden = [n for n in names if n not in public]
                if hidden:
                    bad.append(f"{where}: {', '.join(hidden)} not exported by {feature}")
    assert not bad, "\n".join(bad)


def test_modules_reach_their_own_package_relatively() -> None:
    bad = []
    for top in (CORE, VIEWER):
        for path in top.rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.ImportFrom)
                    and not node.level
                    and (node.module or "").startswith(f"kernelscope.{top.name}")
                ):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} from {node.module}")
    assert not bad, "use relative imports inside a package:\n" + "\n".join(bad)


def test_the_rules_see_a_violation(tmp_path: Path) -> None:
    """The checks above read real import statements: a planted one is found."""
    planted = CORE / "view" / "_planted_for_test.py"
    planted.write_text("def f():\n    from PySide6 import QtCore\n", encoding="utf-8")
    try:
        found = [m for _, m, _ in _imports(planted)]
    finally:
        planted.unlink()
    assert "PySide6" in found
    relative = VIEWER / "panels" / "_planted_for_test.py"
    relative.write_text("from ...core.ncu.profile import Profile\n", encoding="utf-8")
    try:
        found = [m for _, m, _ in _imports(relative)]
    finally:
        relative.unlink()
    assert found == ["kernelscope.core.ncu.profile"]
