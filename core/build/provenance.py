"""Which line of the user's model file emitted each Relax operator (issue 33, item 4).

A ``tvm.relax.frontend.nn`` model is exported by running Python: every operator call ends
in ``BlockBuilder.emit``, and the innermost frame of the user's code (the model file, or a
file of its folder) on the stack at that moment is the line that made it
(``self.down_proj(x)`` inside the model's ``forward``).
TVM 0.27 gives the nn exporter's bindings no spans, so kernelscope watches ``emit`` while
the model file runs (``recording``) and keeps each emitted variable's line.

The build's Relax passes keep a binding's variable (the same object) unless they rewrite
it; a rewrite that replaces a chain of bindings by one (``FuseTransposeMatmul`` turns
``permute_dims`` + ``matmul`` into one ``call_tir``) makes a new variable. Such a binding
takes the line of the last replaced binding (in program order) that read one of its
arguments: the ``matmul`` the chain ended in.
"""

from __future__ import annotations

import linecache
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any


@dataclass(frozen=True)
class Origin:
    """A line of the model file: ``llama_mlc.py:61`` and its text."""

    file: str  # the file's name
    line: int
    text: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Provenance:
    """The emitted variables' lines, and, once ``index`` has read the exported module, which
    bindings read each variable (in program order)."""

    origins: dict[Any, Origin] = field(default_factory=dict)  # tvm Var -> its line
    readers: dict[Any, list[Any]] = field(default_factory=dict)  # Var -> the Vars reading it
    order: dict[Any, int] = field(default_factory=dict)  # Var -> its place in its function

    def index(self, mod: Any) -> None:
        """Remember who reads what in the module as the model file exported it."""
        for func in mod.functions.values():
            for place, binding in enumerate(_bindings(func)):
                self.order[binding.var] = place
                for arg in _arguments(binding.value):
                    self.readers.setdefault(arg, []).append(binding.var)

    def resolve(self, func: Any) -> dict[Any, Origin]:
        """Each binding variable of ``func`` (a function of a later stage of the build) ->
        its model line, where one is known."""
        bindings = _bindings(func)
        present = {b.var for b in bindings}
        found: dict[Any, Origin] = {}
        for binding in bindings:
            origin = self.origins.get(binding.var) or self._replaced(binding, present)
            if origin is not None:
                found[binding.var] = origin
        return found

    def _replaced(self, binding: Any, present: set[Any]) -> Origin | None:
        gone = [
            reader
            for arg in _arguments(binding.value)
            for reader in self.readers.get(arg, [])
            if reader not in present and reader in self.origins
        ]
        if not gone:
            return None
        return self.origins[max(gone, key=lambda v: self.order.get(v, -1))]


@contextmanager
def recording(path: Path) -> Iterator[Provenance]:
    """While the block runs (the model file executing), note the line of the user's code that
    emitted each Relax binding: the innermost frame in the model file or in another Python file
    of its folder (a model file that runs its definitions from a sibling, as
    tests/data/models/llama_3_2_1b.py runs llama_mlc.py), never an installed package's."""
    from tvm.relax.block_builder import BlockBuilder

    folder = path.resolve().parent
    provenance = Provenance()
    emit = BlockBuilder.emit
    users: dict[str, str | None] = {}  # a frame's file -> its name as shown; None: not the user's

    def user_file(filename: str) -> str | None:
        if filename not in users:
            resolved = Path(filename).resolve()
            mine = resolved.is_relative_to(folder) and "site-packages" not in resolved.parts
            users[filename] = resolved.relative_to(folder).as_posix() if mine else None
        return users[filename]

    def emit_noting_line(self: Any, expr: Any, name_hint: str = "") -> Any:
        var = emit(self, expr, name_hint)
        frame: FrameType | None = sys._getframe(1)
        while frame is not None and user_file(frame.f_code.co_filename) is None:
            frame = frame.f_back
        if frame is not None:
            filename = frame.f_code.co_filename
            text = linecache.getline(filename, frame.f_lineno).strip()
            provenance.origins[var] = Origin(user_file(filename) or "", frame.f_lineno, text)
        return var

    BlockBuilder.emit = emit_noting_line
    try:
        yield provenance
    finally:
        BlockBuilder.emit = emit


def _bindings(func: Any) -> list[Any]:
    body = getattr(func, "body", None)
    return [b for block in getattr(body, "blocks", []) for b in block.bindings]


def _arguments(value: Any) -> list[Any]:
    """The variables a binding's value reads (a call's arguments, tuples spread out)."""
    from tvm import relax

    found: list[Any] = []
    stack = list(getattr(value, "args", None) or getattr(value, "fields", None) or [])
    while stack:
        arg = stack.pop(0)
        if isinstance(arg, relax.Var):
            found.append(arg)
        elif isinstance(arg, relax.Tuple):
            stack.extend(arg.fields)
    return found
