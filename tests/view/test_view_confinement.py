"""The live report is confined by construction: whoever asks a document's session or a
comparison gets values, and no public function or method of ``core.view`` or
``core.compare`` returns a ``Profile`` or hands one to a callback. A ``Profile`` may be
given to them (the openers take the one they own, ``compare.read_profile`` the one its
caller opened) and is then read only where its owner reads it."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from typing import Any

from ncu_support import MLP
from paths_support import ROOT

from kernelscope.core import compare, view
from kernelscope.core.ncu import Profile
from kernelscope.core.view import compare_documents, open_document

PROFILE = re.compile(r"\bProfile\b")
# where a session's profile is read: the session itself and the named queries
READERS = {
    "core/view/session.py": {"_profile", "_read_profile"},
    "core/view/features.py": {"_read_profile"},
}


def _public_callables() -> Iterator[tuple[str, Any]]:
    """Every public function and method (properties too) of every module of both packages."""
    for package in (view, compare):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
                    continue
                if inspect.isfunction(value):
                    yield f"{module.__name__}.{name}", value
                elif inspect.isclass(value):
                    for attr, member in vars(value).items():
                        if attr.startswith("_") and attr != "__init__":
                            continue
                        fn = member.fget if isinstance(member, property) else member
                        if inspect.isfunction(fn):
                            yield f"{module.__name__}.{name}.{attr}", fn
                    for field in (
                        dataclasses.fields(value) if dataclasses.is_dataclass(value) else ()
                    ):
                        if PROFILE.search(str(field.type)):
                            yield f"{module.__name__}.{name}.{field.name} (a field)", None


def _leaks(fn: Any) -> list[str]:
    """What of ``fn``'s signature gives a Profile out: its return value, a callback's
    argument, a field."""
    if fn is None:
        return ["holds a Profile"]
    out = []
    hints = fn.__annotations__  # strings: the modules use postponed annotations
    if PROFILE.search(str(hints.get("return", ""))):
        out.append("returns a Profile")
    for name, hint in hints.items():
        if name != "return" and "Callable" in str(hint) and PROFILE.search(str(hint)):
            out.append(f"passes a Profile to its callback {name}")
    return out


def test_no_public_function_or_method_returns_or_passes_a_profile() -> None:
    checked = dict(_public_callables())
    assert "kernelscope.core.view.features.read_details" in checked  # the scan sees them
    assert "kernelscope.core.view.session.ProfileSession.kernel" in checked
    assert "kernelscope.core.compare.session.Comparison.kernel" in checked
    leaks = [f"{where}: {why}" for where, fn in checked.items() for why in _leaks(fn)]
    assert not leaks


def test_only_the_session_and_its_named_queries_read_its_profile() -> None:
    """``_read_profile`` (a callback of the profile, run on the profile thread) and the profile
    itself are used in the session's module and its named queries alone."""
    found = []
    for folder in ("core", "viewer"):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr in {"_read_profile", "_profile"}
                    and node.attr not in READERS.get(rel, set())
                ):
                    found.append(f"{rel}:{node.lineno}: .{node.attr}")
    assert not found


def _values(obj: Any, seen: set[int] | None = None) -> Iterator[Any]:
    """Everything ``obj`` holds: attributes, items, dataclass fields, recursively (the
    callables that read more are not values and not followed)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or callable(obj) and not dataclasses.is_dataclass(obj):
        return
    seen.add(id(obj))
    yield obj
    if isinstance(obj, dict):
        children = [*obj.keys(), *obj.values()]
    elif isinstance(obj, list | tuple | set | frozenset):
        children = list(obj)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        children = list(vars(obj).values())
    else:
        children = []
    for child in children:
        yield from _values(child, seen)


def test_a_comparison_of_two_documents_holds_values() -> None:
    base, new = open_document(MLP / "mlp.ncu-rep"), open_document(MLP / "mlp.ncu-rep")
    comparison = compare_documents(base, new)
    comparison.kernel("softmax_kernel")  # what it keeps after comparing a kernel too
    held = list(_values(comparison))
    assert len(held) > 100
    assert not [v for v in held if isinstance(v, Profile)]
    assert [v for v in _values(new) if isinstance(v, Profile)], "the walk finds a session's"
