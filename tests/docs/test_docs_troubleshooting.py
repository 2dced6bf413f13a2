"""docs/troubleshooting.md quotes kernelscope's real error messages: each one it lists must
still be raised somewhere in core/ or viewer/ (read from the source by docs/error_messages.py)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from paths_support import ROOT

DOC = ROOT / "docs/troubleshooting.md"


def _error_messages():  # noqa: ANN202 - the docs/error_messages.py module
    spec = importlib.util.spec_from_file_location("error_messages", ROOT / "docs/error_messages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def quoted_messages(text: str) -> list[str]:
    """The message (first code span of the second column) of every table row."""
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) < 3 or set(cells[0]) <= {"-", " "} or cells[0] == "when":
            continue
        m = re.match(r"`([^`]+)`", cells[1])
        assert m, f"row without a quoted message: {line}"
        out.append(m.group(1))
    return out


def test_every_listed_message_is_still_raised() -> None:
    known = {e.message for e in _error_messages().error_messages()}
    listed = quoted_messages(DOC.read_text(encoding="utf-8"))
    assert len(listed) >= 30
    stale = [m for m in listed if m not in known]
    assert not stale, (
        "docs/troubleshooting.md quotes messages kernelscope no longer raises (see "
        "python docs/error_messages.py for the current ones):\n" + "\n".join(stale)
    )


def test_a_changed_message_is_caught(tmp_path: Path) -> None:
    """The check reads the code: a message edited in the source no longer matches."""
    core = tmp_path / "core"
    core.mkdir()
    (tmp_path / "viewer").mkdir()
    (core / "m.py").write_text(
        "from x import KernelscopeError\n"
        "def f(path):\n"
        "    raise KernelscopeError(\n"
        "        f'{path} is not a '\n"
        "        'readable report', hint=f'try {path}')\n"
    )
    found = _error_messages().error_messages(tmp_path)
    assert [(e.message, e.hint) for e in found] == [("… is not a readable report", "try …")]
    assert "… is not a readable Nsight Compute report (no profiled launches)" not in {
        e.message for e in found
    }
