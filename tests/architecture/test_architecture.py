"""The layout's rules.

The import contracts in pyproject.toml (``[tool.importlinter]``), checked by import-linter:

* core's packages import only the layers below them (cli > view > roofline | compare |
  kernel_db ... > ncu ... > workspace), and every package and module of core has its layer;
* core never imports Qt or the viewer, directly or through another module;
* the viewer and the CLI use a core feature through its package, never one of its modules.

Imports inside functions and under ``TYPE_CHECKING`` count. What import-linter does not see,
read from the source with ``ast``:

* a name the viewer or the CLI imports from a feature package is one it exports (``__all__``),
  and no import statement of theirs names a feature's module (import-linter cannot tell a
  function a package exports under its module's name from that module);
* every module inside ``core/`` and ``viewer/`` reaches its own package relatively;
* a feature of the window (a package ``viewer/features.py`` lists) is used by the rest of the
  viewer only through what its package exports (no other feature reaches its panes, models or
  dialogs), and the main window imports none: it installs ``features.FEATURES``.

(``tests/architecture/test_cli_imports.py`` keeps ``cli.COMMANDS`` true: which module registers
which command.) Nothing here writes into the checkout: it may be read-only.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from paths_support import ROOT

CONTRACTS = (
    "core's packages import only the layers below them",
    "core never imports Qt or the viewer",
    "the viewer and the CLI use a core feature through its package, never one of its modules",
)
LINT = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def _lint_imports(root: Path, scratch: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over ``root``'s core/ and viewer/, seen as ``kernelscope.core`` and
    ``kernelscope.viewer``.

    import-linter takes these two as its root packages, which it accepts only inside a
    namespace package ``kernelscope``: ``root``'s typecheck/ holds one (for mypy too), so
    the check sees ``root`` whatever makes ``kernelscope`` importable here (the editable
    install or a shim). No cache: nothing is written."""
    env = {**os.environ, "PYTHONPATH": str(root / "typecheck"), "COLUMNS": "500"}
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [sys.executable, "-c", LINT, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
    )


def _imports(path: Path, root: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, absolute module, imported names) of every import in the file, lazy ones too."""
    package = _module_name(path, root)
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


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return "kernelscope." + ".".join(parts)


def _public_names(package: Path) -> set[str]:
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            return {ast.literal_eval(e) for e in node.value.elts}
    return set()


def _unexported_names(root: Path) -> list[str]:
    """Names the viewer or the CLI imports from a core feature package that it does not
    export, imports of ``kernelscope.core.X`` where X is neither a package nor a module, and
    reaches into a feature's module as the import statement says it (import-linter takes
    ``from ..roofline import headroom``, a function, for the module of that name: its
    contract ignores those modules)."""
    core = root / "core"
    bad = []
    for path in [*(root / "viewer").rglob("*.py"), *(core / "cli").rglob("*.py")]:
        for line, module, names in _imports(path, root):
            parts = module.split(".")
            if parts[:2] != ["kernelscope", "core"] or len(parts) < 3:
                continue
            where = f"{path.relative_to(root)}:{line}"
            feature = core / parts[2]
            if (core / f"{parts[2]}.py").is_file():
                continue  # a module shared by every feature (errors, tasks...)
            if feature.name == "cli" and path.is_relative_to(feature):
                continue  # the CLI's own package
            if len(parts) > 3:
                bad.append(f"{where}: reaches into {module}, past {'.'.join(parts[:3])}")
                continue
            if not (feature / "__init__.py").is_file():
                bad.append(f"{where}: {module} is neither a package nor a module of core")
                continue
            hidden = [n for n in names if n not in _public_names(feature)]
            if hidden:
                bad.append(f"{where}: {', '.join(hidden)} not exported by {module}")
    return bad


def _names_not_there(root: Path) -> list[str]:
    """Names imported from a core package (by any code: core's other packages, the tests,
    the benchmarks, the scripts) that the package neither exports nor holds as a module. The
    lazy packages resolve their names only when used, so neither mypy nor an import of the
    package itself finds such a name: the first call does."""
    core = root / "core"
    bad = []
    trees = ("core", "viewer", "tests", "benchmarks", "scripts", "docs", "packaging")
    for path in (p for top in trees for p in (root / top).rglob("*.py")):
        for line, module, names in _imports(path, root):
            parts = module.split(".")
            if parts[:2] != ["kernelscope", "core"] or len(parts) != 3 or not names:
                continue
            package = core / parts[2]
            if not (package / "__init__.py").is_file() or path.is_relative_to(package):
                continue
            public = _public_names(package)
            missing = [
                n for n in names if n not in public and not (package / f"{n}.py").is_file()
                and not (package / n / "__init__.py").is_file()
            ]  # fmt: skip
            if missing:
                where = f"{path.relative_to(root)}:{line}"
                bad.append(f"{where}: {', '.join(missing)} not in {module}'s __all__")
    return bad


def _absolute_own_imports(root: Path) -> list[str]:
    bad = []
    for top in ("core", "viewer"):
        for path in (root / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.ImportFrom)
                    and not node.level
                    and (node.module or "").startswith(f"kernelscope.{top}")
                ):
                    bad.append(f"{path.relative_to(root)}:{node.lineno} from {node.module}")
    return bad


def _window_features(root: Path) -> set[str]:
    """The window's feature packages: those ``viewer/features.py`` imports."""
    viewer = root / "viewer"
    found = set()
    for _, module, _ in _imports(viewer / "features.py", root):
        parts = module.split(".")
        is_package = len(parts) == 3 and (viewer / parts[2] / "__init__.py").is_file()
        if parts[:2] == ["kernelscope", "viewer"] and is_package:
            found.add(parts[2])
    return found


def _feature_reaches(root: Path) -> list[str]:
    """Imports, outside a feature's folder, of its modules or of names its package does not
    export; and the main window's imports of a feature."""
    viewer = root / "viewer"
    features = _window_features(root)
    bad = []
    for path in viewer.rglob("*.py"):
        inside = path.relative_to(viewer).parts
        own = inside[0] if len(inside) > 1 else None
        for line, module, names in _imports(path, root):
            parts = module.split(".")
            if parts[:2] != ["kernelscope", "viewer"] or len(parts) < 3:
                continue
            feature = parts[2]
            if feature not in features or feature == own:
                continue
            where = f"{path.relative_to(root)}:{line}"
            if path.name == "main_window.py" and own is None:
                bad.append(f"{where}: the main window imports the feature {feature}")
            elif len(parts) > 3:
                bad.append(f"{where}: reaches into {module}, past kernelscope.viewer.{feature}")
            else:
                hidden = [n for n in names if n not in _public_names(viewer / feature)]
                if hidden:
                    bad.append(f"{where}: {', '.join(hidden)} not exported by {module}")
    return bad


def test_the_import_contracts_are_kept(tmp_path: Path) -> None:
    result = _lint_imports(ROOT, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in CONTRACTS:
        assert f"{name} KEPT" in result.stdout


def test_viewer_and_cli_import_only_exported_names() -> None:
    bad = _unexported_names(ROOT)
    assert not bad, "\n".join(bad)


def test_every_name_imported_from_a_core_package_is_there() -> None:
    bad = _names_not_there(ROOT)
    assert not bad, "\n".join(bad)


def test_modules_reach_their_own_package_relatively() -> None:
    bad = _absolute_own_imports(ROOT)
    assert not bad, "use relative imports inside a package:\n" + "\n".join(bad)


def test_features_use_each_other_through_their_packages() -> None:
    assert len(_window_features(ROOT)) >= 9
    bad = _feature_reaches(ROOT)
    assert not bad, "use what the feature's package exports (its __all__):\n" + "\n".join(bad)


PLANTED = {
    # a lazy import of a higher layer (the ncu -> view edge this rule was written for)
    "core/ncu/_planted_layer.py": "def f():\n    from ..view import open_document\n",
    # a package no layer names
    "core/_planted_feature/__init__.py": "",
    # a lazy Qt import, and one under TYPE_CHECKING of the viewer
    "core/view/_planted_qt.py": "def f():\n    from PySide6 import QtCore\n",
    "core/compare/_planted_viewer.py": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ...viewer import app\n"
    ),
    # a reach past a feature's package, and a name it does not export
    "viewer/panels/_planted_reach.py": "from ...core.ncu.profile import Profile\n",
    "viewer/panels/_planted_name.py": "from kernelscope.core.ncu import _EXPORTS\n",
    "viewer/tuning/_planted_pane.py": (
        "from ..compare.mode import CompareMode\nfrom ..details import DetailsPane\n"
    ),
    # an absolute import of its own package
    "core/view/_planted_absolute.py": "from kernelscope.core.view import Selection\n",
    # a name a lazy package does not have, imported by another core package
    "core/roofline/_planted_lazy.py": "def f():\n    from ..ncu import StepLaunchez\n",
}


def test_the_rules_see_a_planted_violation(tmp_path: Path) -> None:
    """Each rule finds what is planted in a copy of the source (not in the checkout)."""
    copy = tmp_path / "src"
    for top in ("core", "viewer", "typecheck"):  # typecheck's links point into the copy
        shutil.copytree(
            ROOT / top, copy / top, symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
        )
    for rel, text in PLANTED.items():
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        (copy / rel).write_text(text, encoding="utf-8")

    with (copy / "viewer" / "main_window.py").open("a", encoding="utf-8") as window:
        window.write("from .kernel_db import KernelDbFeature\n")

    result = _lint_imports(copy, tmp_path)
    out = result.stdout
    assert result.returncode != 0
    for name in CONTRACTS:
        assert f"{name} BROKEN" in out, out
    assert "kernelscope.core.ncu._planted_layer -> kernelscope.core.view" in out
    assert "kernelscope.core._planted_feature" in out
    assert "kernelscope.core.view._planted_qt -> PySide6" in out
    assert "kernelscope.core.compare._planted_viewer -> kernelscope.viewer" in out
    assert "kernelscope.viewer.panels._planted_reach -> kernelscope.core.ncu.profile" in out

    assert sorted(_unexported_names(copy)) == [
        "viewer/panels/_planted_name.py:1: _EXPORTS not exported by kernelscope.core.ncu",
        "viewer/panels/_planted_reach.py:1: reaches into kernelscope.core.ncu.profile, past "
        "kernelscope.core.ncu",
    ]
    lines = len((ROOT / "viewer" / "main_window.py").read_text(encoding="utf-8").splitlines())
    assert sorted(_feature_reaches(copy)) == [
        f"viewer/main_window.py:{lines + 1}: the main window imports the feature kernel_db",
        "viewer/tuning/_planted_pane.py:1: reaches into kernelscope.viewer.compare.mode, past "
        "kernelscope.viewer.compare",
        "viewer/tuning/_planted_pane.py:2: DetailsPane not exported by kernelscope.viewer.details",
    ]
    assert _absolute_own_imports(copy) == [
        "core/view/_planted_absolute.py:1 from kernelscope.core.view"
    ]
    assert "core/roofline/_planted_lazy.py:2: StepLaunchez not in kernelscope.core.ncu's " in (
        "\n".join(_names_not_there(copy))
    )
