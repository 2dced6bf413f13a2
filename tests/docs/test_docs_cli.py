"""docs/cli.md is generated from the argument parser; it must match the parser as it is."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from paths_support import ROOT


def _generator():  # noqa: ANN202 - the docs/make_cli_reference.py module
    spec = importlib.util.spec_from_file_location(
        "make_cli_reference", ROOT / "docs/make_cli_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cli_reference_is_up_to_date() -> None:
    text = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    assert text == _generator().render(), (
        "docs/cli.md is stale: run python docs/make_cli_reference.py"
    )


def test_the_reference_names_every_command_and_option() -> None:
    """What a user finds in --help is in the reference (including the viewer's gui command)."""
    from kernelscope.core.cli.main import make_parser

    text = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    parser = make_parser()
    commands = _generator()._commands(parser)
    names = [name for name, _, _ in commands]
    assert {"gui", "doctor", "db list"} <= set(names)
    for name, _, command in commands:
        section = text.split(f"\n## kernelscope {name}\n", 1)[1].split("\n## ", 1)[0]
        for action in command._actions:
            if "-h" in action.option_strings:
                continue
            for option in action.option_strings:
                assert f"`{option}" in section, f"kernelscope {name} {option}"


def test_check_mode_fails_on_a_stale_file(tmp_path: Path) -> None:
    gen = _generator()
    gen.OUT = tmp_path / "cli.md"
    gen.OUT.write_text("# stale\n")
    assert gen.main(["--check"]) == 1
    assert gen.main([]) == 0
    assert gen.main(["--check"]) == 0


def test_the_command_regenerates_it(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "docs/make_cli_reference.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
