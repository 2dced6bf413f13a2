"""Every message kernelscope can show as an error, read from the source (no import): the
first argument and the ``hint=`` of each ``KernelscopeError(...)`` in core/ and viewer/,
with the parts filled in at run time written as ``…``.

    python docs/error_messages.py     # print them all: message, then hint, per line pair

docs/troubleshooting.md quotes messages in this form; tests/docs/test_docs_troubleshooting.py
checks that each one it lists is still raised somewhere.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("core", "viewer")
HOLE = "…"
# batch_measure.Refused: the standalone GPU-side script's refusal, which measure-batch shows
ERROR_TYPES = {"KernelscopeError", "OtherModelError", "Refused"}


@dataclass(frozen=True)
class ErrorMessage:
    message: str
    hint: str
    where: str  # file:line


def template(node: ast.expr | None) -> str:
    """A string expression as text, with ``…`` for each part computed at run time."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else HOLE for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return template(node.left) + template(node.right)
    return HOLE


def _squash(text: str) -> str:
    while HOLE + HOLE in text:
        text = text.replace(HOLE + HOLE, HOLE)
    return text


def error_messages(root: Path = ROOT) -> list[ErrorMessage]:
    out = []
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name not in ERROR_TYPES or not node.args:
                    continue
                hint = next((k.value for k in node.keywords if k.arg == "hint"), None)
                out.append(
                    ErrorMessage(
                        _squash(template(node.args[0])),
                        _squash(template(hint)),
                        f"{path.relative_to(root)}:{node.lineno}",
                    )
                )
    return out


if __name__ == "__main__":
    for e in error_messages():
        print(
            f"{e.where}\n  {e.message}\n  hint: {e.hint}" if e.hint else f"{e.where}\n  {e.message}"
        )
    sys.exit(0)
