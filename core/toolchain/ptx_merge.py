"""Merging the PTX of several translation units into one PTX module.

Why: nvcc spends most of a big model's compile in cicc (ResNet-50's 2.7 MB of TVM source:
4.2 s of cicc against 0.4 s of ptxas), on one core, and ``--split-compile`` barely helps
because most of cicc's time is not in the part it splits. Compiling the kernels as several
units in parallel processes and handing ptxas one module keeps the cubin a single
whole-program module (TVM's runtime loads one binary per module) while cicc runs on every
core. ``nvlink`` cannot join whole-program cubins, and relocatable device code (``-rdc``)
changes register allocation (ResNet-50's matmul kernel: 31 registers against 141), so the
join happens at the PTX level, where each kernel's code is self-contained.

What a unit's PTX holds, and what the merge does with it:
  - the header (``.version``, ``.target``, ``.address_size``): must agree, written once;
  - module-scope declarations and definitions (kernels, ``.func`` and their prototypes,
    ``.shared``/``.global`` variables, ``.extern`` declarations): kept in unit order; one
    that several units repeat word for word is kept once, and a name that two units define
    differently is refused, as is one of internal linkage (each unit names its own copy of
    it: two copies of one variable where the one-unit compile has one), and a ``.shared``
    variable that a part moved into its one kernel using it ("has been demoted") while
    another part uses it too (the one-unit compile keeps it at module scope, and lays out
    the kernels' shared memory differently);
  - the ``.file`` table: one table, each path with one index; ``.loc`` lines (and their
    ``inlined_at``) are renumbered to it;
  - the ``.debug_str`` section that ``-lineinfo`` writes for inlined functions' names: one
    section, each unit's ``$L__info_stringN`` labels renumbered after the previous units'.
Anything else (another section, a ``.file`` index used before it is declared...) raises
``PtxMergeError``, and the caller compiles the whole unit the usual way instead (as it does
when ptxas refuses the merged PTX).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

_HEADER_RE = re.compile(r"^\s*\.(version|target|address_size)\s+(.*?)\s*$")
_FILE_RE = re.compile(r'^\s*\.file\s+(\d+)\s+("(?:[^"\\]|\\.)*")(.*)$')
_LOC_RE = re.compile(r"^(\s*\.loc\s+)(\d+)(\s.*)$")
_INLINED_AT_RE = re.compile(r"(inlined_at\s+)(\d+)")
_INFO_LABEL_RE = re.compile(r"\$L__info_string(\d+)")
_SECTION_RE = re.compile(r"^\s*\.section\s+(\S+)\s*$")
_FUNC_NAME_RE = re.compile(r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*)")
_VAR_NAME_RE = re.compile(r"([A-Za-z_$%][\w$]*)\s*(?:\[[^\]]*\]\s*)*$")
# cicc's name for a symbol of internal linkage (a static function, anything in an anonymous
# namespace): ``_ZN39_INTERNAL_9c3ff300_15_module_part0_cu_a...``, tagged with a hash and the
# name of the unit, so that each part names its own copy of one prelude variable
_INTERNAL_RE = re.compile(r"_INTERNAL_[0-9a-f]+_\d+_")
# cicc moves a module-scope ``.shared`` variable that one kernel alone uses into that kernel
_DEMOTED_RE = re.compile(r"^\s*//\s*(\S+) has been demoted\s*$")


_HEADER_KEYS = ("version", "target", "address_size")


class PtxMergeError(ValueError):
    """The PTX holds something the merge does not know how to join."""


@dataclass
class _Unit:
    header: dict[str, str] = field(default_factory=dict)
    items: list[list[str]] = field(default_factory=list)  # module-scope declarations, in order
    files: dict[int, tuple[str, str]] = field(default_factory=dict)  # index -> (quoted path, rest)
    debug_str: list[str] = field(default_factory=list)  # the .debug_str section's lines
    preamble: list[str] = field(default_factory=list)  # comments before .version
    demoted: set[str] = field(default_factory=set)  # .shared variables moved into a kernel


def merge_ptx(texts: list[str]) -> str:
    """One PTX module holding every unit's kernels, as ptxas would get it from one unit."""
    if not texts:
        raise PtxMergeError("no PTX to merge")
    units = [_parse(text) for text in texts]
    header = units[0].header
    for unit in units[1:]:
        if unit.header != header:
            raise PtxMergeError(f"units disagree on the PTX header: {header} vs {unit.header}")
    out: list[str] = [*units[0].preamble]
    out += [f".{key} {header[key]}" for key in _HEADER_KEYS if key in header]
    out.append("")
    paths: dict[str, int] = {}  # quoted path (escapes and all) -> merged index
    table: list[str] = []
    defined: dict[str, str] = {}  # symbol -> its text (who defined it first)
    seen_items: set[str] = set()
    debug: list[str] = []
    labels = 0
    demoted = [name for unit in units for name in unit.demoted]
    for unit in units:
        renumber: dict[int, int] = {}
        for index, (path, rest) in sorted(unit.files.items()):
            if path not in paths:
                paths[path] = len(paths) + 1
                table.append(f"\t.file\t{paths[path]} {path}{rest}")
            renumber[index] = paths[path]
        offset = labels
        unit_labels = {int(n) for line in unit.debug_str for n in _INFO_LABEL_RE.findall(line)}
        labels += max(unit_labels, default=-1) + 1
        for item in unit.items:
            lines = [_rewrite(line, renumber, offset) for line in item]
            code = "\n".join(line.split("//", 1)[0].rstrip() for line in lines).strip()
            if code in seen_items:
                continue  # the same declaration in another unit (an .extern, a shared buffer)
            name = _symbol(item)
            if _INTERNAL_RE.search(name):
                raise PtxMergeError(f"{name} has internal linkage: each unit has its own")
            if "{" in code or not _FUNC_NAME_RE.search(code):  # not a function's prototype
                if name in defined and defined[name] != code:
                    raise PtxMergeError(f"two units define {name} differently")
                defined[name] = code
            seen_items.add(code)
            out += [*lines, ""]
        debug += [_rewrite(line, renumber, offset) for line in unit.debug_str]
    for name, count in Counter(demoted).items():
        if count > 1 or name in defined:
            # kernels of several units use it: the one-unit compile keeps it at module scope,
            # and the kernels' shared memory is laid out differently
            raise PtxMergeError(f"shared variable {name} was moved into one kernel of a part")
    out += table
    if debug:
        out += ["\t.section\t.debug_str", "\t{", *debug, "", "\t}"]
    return "\n".join(out) + "\n"


def _parse(text: str) -> _Unit:
    unit = _Unit()
    depth = 0
    item: list[str] = []
    section: str | None = None  # inside a module-scope .section (its name)
    pending_section: str | None = None
    started = False
    comments: list[str] = []
    for line in text.splitlines():
        code = line.split("//", 1)[0]
        stripped = code.strip()
        if section is not None:  # a .section's body: labels and .b8 data
            if stripped == "}":
                section = None
            elif stripped != "{":
                unit.debug_str.append(line)
            continue
        if pending_section is not None:
            if stripped == "{":
                section, pending_section = pending_section, None
                continue
            if stripped:
                raise PtxMergeError(f"a .section {pending_section} without a body")
            continue
        file_match = _FILE_RE.match(line)  # not ``code``: a path may hold ``//``
        if file_match:
            unit.files[int(file_match.group(1))] = (file_match.group(2), file_match.group(3))
            continue
        if depth == 0 and not item:
            header = _HEADER_RE.match(code)
            if header:
                unit.header[header.group(1)] = header.group(2)
                started = True
                continue
            section_match = _SECTION_RE.match(code)
            if section_match:
                if section_match.group(1) != ".debug_str":
                    raise PtxMergeError(f"PTX section {section_match.group(1)} is not merged")
                pending_section = section_match.group(1)
                continue
            if not started:
                if stripped:
                    raise PtxMergeError("PTX code before its .version")
                unit.preamble.append(line)
                continue
            if not stripped:
                moved = _DEMOTED_RE.match(line)
                if moved:
                    unit.demoted.add(moved.group(1))
                if line.strip():
                    comments.append(line)  # ``// .globl name``: kept with what follows
                continue
            item, comments = comments, []
        item.append(line)
        depth += code.count("{") - code.count("}")
        if depth < 0:
            raise PtxMergeError("unbalanced braces in the PTX")
        if depth == 0 and item and (stripped.endswith("}") or stripped.endswith(";")):
            unit.items.append(item)
            item = []
    if depth != 0 or section is not None or pending_section is not None:
        raise PtxMergeError("the PTX ends inside a block")
    if item:
        raise PtxMergeError(f"an unfinished declaration at the end of the PTX: {item[0].strip()}")
    return unit


def _rewrite(line: str, renumber: dict[int, int], label_offset: int) -> str:
    loc = _LOC_RE.match(line)
    if loc:
        line = loc.group(1) + str(_index(renumber, loc.group(2))) + loc.group(3)
        line = _INLINED_AT_RE.sub(lambda m: m.group(1) + str(_index(renumber, m.group(2))), line)
    if label_offset and "$L__info_string" in line:
        line = _INFO_LABEL_RE.sub(
            lambda m: f"$L__info_string{int(m.group(1)) + label_offset}", line
        )
    return line


def _index(renumber: dict[int, int], index: str) -> int:
    try:
        return renumber[int(index)]
    except KeyError:
        raise PtxMergeError(f".loc names file {index}, which the unit does not declare") from None


def _symbol(item: list[str]) -> str:
    """The name a module-scope item declares or defines."""
    code = " ".join(part.split("//", 1)[0].strip() for part in item).strip()
    match = _FUNC_NAME_RE.search(code.split("{", 1)[0])
    if match:
        return match.group(1)
    match = _VAR_NAME_RE.search(code.split("=", 1)[0].rstrip().rstrip(";").rstrip())
    if match:
        return match.group(1)
    raise PtxMergeError(f"a module-scope PTX statement the merge does not know: {code[:80]}")
