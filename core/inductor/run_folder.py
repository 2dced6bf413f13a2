"""A torch.compile run folder as Inductor and Triton left it, read without PyTorch.

What a run writes, and what is read from it (PyTorch 2.11, Triton 3.6; anything missing is a
note, never an error, as long as one wrapper is found):

* the **wrapper** (``output_code.py``: ``TORCH_COMPILE_DEBUG=1``'s
  ``torch_compile_debug/run_*/torchinductor/<graph>/output_code.py``, or the compiled module
  Inductor keeps in ``TORCHINDUCTOR_CACHE_DIR/<xx>/c<hash>.py``). Before each Triton kernel's
  definition (``name = async_compile.triton('name', '''source''', ...)``) Inductor writes its
  provenance as comments: ``# kernel path: FILE``, ``# Topologically Sorted Source Nodes:
  [...], Original ATen: [...]`` and ``# Source node to ATen node mapping:``. Its ``call()``
  launches the kernels in order, each launch after the same ``Source Nodes`` comment (and,
  with provenance tracking, ``# [Provenance debug handles] name:N``); kernels that are not
  Triton are calls such as ``extern_kernels.mm(...)`` or ``torch.ops.aten...``.
* each Triton kernel's **file** (the kernel path; its text is also the string in the wrapper),
  which is what Triton's line information and ``ncu --import-source`` name;
* **Triton's cache** (``TRITON_CACHE_DIR``, by default ``~/.triton/cache``): one folder per
  compiled variant holding ``<name>.json`` (num_warps, num_stages, shared memory, the Triton
  version), ``<name>.cubin`` and ``<name>.ptx``;
* Inductor's **autotune records** (``<hash>.best_config`` beside the kernel file): the block
  sizes, warps and stages that won, and ``triton_cache_hash``, the cache folder of the variant
  that ran.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KernelscopeError

_log = logging.getLogger(__name__)

WRAPPER = "output_code.py"
RUN_INFO = "run.json"  # written by profile-torch (and the capture of tests/data/inductor)

_DEF_RE = re.compile(r"^(?P<name>\w+) = async_compile\.triton\('(?P=name)', '''$")
_PATH_RE = re.compile(r"^# kernel path: (?P<path>.+)$")
_NODES_RE = re.compile(
    r"^\s*# Topologically Sorted Source Nodes: \[(?P<nodes>.*)\], Original ATen: \[(?P<aten>.*)\]"
)
_HANDLE_RE = re.compile(r"^\s*# \[Provenance debug handles\] (?P<handle>\S+)")
_TRITON_RUN_RE = re.compile(r"^\s*(?P<name>triton_\w+)\.run\(")
_EXTERN_RE = re.compile(
    r"^\s*(?:buf\w+\s*=\s*)?(?P<call>extern_kernels\.\w+|torch\.ops\.\w+\.\w+(?:\.\w+)?)\("
)
_HEURISTIC_RE = re.compile(r"^@triton_heuristics\.(?P<kind>\w+)\(")
_BLOCK_KEYS = ("XBLOCK", "YBLOCK", "ZBLOCK", "R0_BLOCK", "R1_BLOCK", "RBLOCK")


@dataclass(frozen=True)
class WrapperLaunch:
    """One kernel call in the wrapper's ``call()``, in program order."""

    index: int
    kernel: str  # a Triton kernel's name, or the extern call (``extern_kernels.mm``)
    triton: bool
    line: int  # 1-based, in ``wrapper``
    text: str  # the call as written
    source_nodes: tuple[str, ...]  # the FX nodes (the model's names: layer_norm, linear...)
    aten: tuple[str, ...]  # the ATen operators (aten.addmm...)
    wrapper: Path

    @property
    def operator(self) -> str:
        """What an extern call runs (``mm``, ``convolution``,
        ``_scaled_dot_product_flash_attention``...), or the Triton kernel."""
        if self.triton:
            return self.kernel
        parts = self.kernel.split(".")
        if len(parts) > 3 and parts[0] == "torch":  # torch.ops.aten.NAME.overload
            return parts[3]
        return parts[-1]


@dataclass
class TritonKernel:
    """One Triton kernel of the run, with everything the folder says about it."""

    name: str
    kind: str  # Inductor's heuristic: pointwise, reduction, persistent_reduction, template...
    recorded_path: str  # the kernel path the wrapper names (on the machine that compiled it)
    source: Path | None  # that file here, if found
    source_text: str  # the text (the file's, else the copy in the wrapper)
    definition_line: int  # where the wrapper defines it
    wrapper: Path
    source_nodes: tuple[str, ...] = ()
    aten: tuple[str, ...] = ()
    node_mapping: tuple[str, ...] = ()  # "layer_norm => add, add_1, mul..." lines
    config: dict[str, int] = field(default_factory=dict)  # XBLOCK..., num_warps, num_stages
    config_origin: str = ""  # "autotune record", "Triton's cache" or "" when not known
    cache_dir: Path | None = None  # the Triton cache folder of the variant that ran
    metadata: dict[str, object] = field(default_factory=dict)  # that folder's <name>.json
    variants: int = 0  # compiled variants in the cache (autotune candidates)
    launches: list[WrapperLaunch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what is missing, for people

    @property
    def cubin(self) -> Path | None:
        return self._cached(".cubin")

    @property
    def ptx(self) -> Path | None:
        return self._cached(".ptx")

    def _cached(self, suffix: str) -> Path | None:
        if self.cache_dir is None:
            return None
        path = self.cache_dir / f"{self.name}{suffix}"
        return path if path.is_file() else None

    @property
    def file_name(self) -> str:
        """The kernel file's name as Triton's line information records it."""
        return os.path.basename(self.recorded_path) if self.recorded_path else f"{self.name}.py"

    @property
    def block_sizes(self) -> dict[str, int]:
        return {k: v for k, v in self.config.items() if k in _BLOCK_KEYS}

    def describe_config(self) -> str:
        """``XBLOCK=512 warps=8 stages=1``; "" when nothing is known."""
        parts = [f"{k}={v}" for k, v in self.block_sizes.items()]
        for key, label in (("num_warps", "warps"), ("num_stages", "stages")):
            if key in self.config:
                parts.append(f"{label}={self.config[key]}")
        return " ".join(parts)


@dataclass
class InductorRun:
    """What ``open_run`` found in a run folder."""

    path: Path
    wrappers: list[Path]
    kernels: list[TritonKernel]
    launches: list[WrapperLaunch]  # every wrapper's call(), in order (Triton and extern)
    reports: list[Path]  # Nsight Compute reports in the folder, oldest first
    versions: dict[str, str]
    info: dict[str, object]  # run.json, when the capture script wrote one
    notes: list[str]

    def kernel(self, name: str) -> TritonKernel:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KernelscopeError(
            f"{self.path} has no Triton kernel {name}",
            hint="kernelscope kernels RUN lists them",
        )

    @property
    def report(self) -> Path | None:
        """The newest report, the one a window or a command shows with the run."""
        return self.reports[-1] if self.reports else None

    @property
    def extern_launches(self) -> list[WrapperLaunch]:
        return [launch for launch in self.launches if not launch.triton]


def is_run_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a folder holding a torch.compile wrapper (cheap: no parsing)."""
    path = Path(path)
    if not path.is_dir() or (path / "manifest.json").is_file():  # a kernelscope workspace
        return False
    return next(_wrapper_candidates(path), None) is not None


def open_run(path: str | os.PathLike[str]) -> InductorRun:
    """I/O: read a torch.compile run folder (see the module's docstring). Raises a
    ``KernelscopeError`` saying what to do when it holds no Inductor wrapper."""
    path = Path(path)
    if not path.is_dir():
        raise KernelscopeError(f"{path} is not a folder")
    texts = _wrappers(path)
    if not texts:
        raise KernelscopeError(
            f"{path} holds no torch.compile output (no {WRAPPER} and no Inductor wrapper "
            "in a cache folder)",
            hint="run the model with TORCH_COMPILE_DEBUG=1 and TORCHINDUCTOR_CACHE_DIR="
            "and TRITON_CACHE_DIR= inside this folder, then open it",
        )
    files = _index(path)
    cache = _triton_cache(files)
    records = _best_configs(files)
    kernels: dict[str, TritonKernel] = {}
    launches: list[WrapperLaunch] = []
    notes: list[str] = []
    for wrapper, text in texts:
        for kernel in _definitions(wrapper, text):
            held = kernels.get(kernel.name)
            if held is not None and held.source_text != kernel.source_text:
                notes.append(
                    f"{kernel.name} is defined differently in {held.wrapper} and {wrapper}; "
                    "the first is shown"
                )
            kernels.setdefault(kernel.name, kernel)
        launches.extend(_launches(wrapper, text, len(launches)))
    missing = {n for n in kernels if n not in cache}
    if missing:  # Triton's cache was left where it is by default, outside the run folder
        for name, found in _outside_caches(missing, records).items():
            cache.setdefault(name, []).extend(found)
    for kernel in kernels.values():
        _locate_source(kernel, files)
        _link_cache(kernel, cache.get(kernel.name, []), records)
        kernel.launches = [x for x in launches if x.triton and x.kernel == kernel.name]
    info = _run_info(path)
    versions: dict[str, str] = {k: str(info[k]) for k in ("torch", "triton", "cuda") if k in info}
    tritons = {str(k.metadata.get("triton_version")) for k in kernels.values() if k.metadata}
    if "triton" in versions and tritons and versions["triton"] not in tritons:
        notes.append(
            f"{RUN_INFO} says Triton {versions['triton']}, but the kernels in Triton's cache "
            f"were compiled by Triton {', '.join(sorted(tritons))}: another run's cache?"
        )
    if len(tritons) == 1 and "triton" not in versions:
        versions["triton"] = tritons.pop()
    elif len(tritons) > 1:
        notes.append(f"Triton's cache holds kernels of several Triton versions: {sorted(tritons)}")
    made = (p for name, held in files.items() if name.endswith(".ncu-rep") for p in held)
    reports = sorted(made, key=lambda p: p.stat().st_mtime)  # from the walk _index made
    wrappers = [wrapper for wrapper, _ in texts]
    return InductorRun(
        path, wrappers, list(kernels.values()), launches, reports, versions, info, notes
    )


_DEPTH = 6  # debug/torch_compile_debug/run_*/torchinductor/<graph>/output_code.py


def _wrapper_candidates(path: Path) -> Iterator[Path]:
    """Wrappers under ``path``, at most ``_DEPTH`` folders down (a home folder chosen by
    mistake is not searched through)."""
    files = list(_walk(path, _DEPTH))
    yield from (f for f in files if f.name == WRAPPER)
    for py in files:  # the compiled module in Inductor's cache
        if py.name.startswith("c") and py.suffix == ".py" and _looks_like_wrapper(py):
            yield py


def _walk(path: Path, depth: int) -> Iterator[Path]:
    for root, dirs, names in os.walk(path):
        if len(Path(root).relative_to(path).parts) >= depth:
            dirs.clear()
        for name in names:
            if name.endswith(".py"):
                yield Path(root) / name


def _looks_like_wrapper(py: Path) -> bool:
    try:
        with py.open(encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith("# AOT ID:")


def _wrappers(path: Path) -> list[tuple[Path, str]]:
    """Each graph's wrapper once, with its text: the debug folder's output_code.py when there
    is one (the cache keeps the same text under a hash name)."""
    seen: dict[str, Path] = {}
    for wrapper in _wrapper_candidates(path):
        try:
            text = wrapper.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        seen.setdefault(text, wrapper)
    return sorted(((p, text) for text, p in seen.items()), key=lambda pt: _graph_order(pt[0]))


def _graph_order(path: Path) -> tuple[bool, list[tuple[int, str]]]:
    """Debug folders' wrappers first, in graph order (``model__2_...`` before
    ``model__10_...``: numbers compare as numbers)."""
    parts = re.split(r"(\d+)", str(path))
    return path.name != WRAPPER, [(int(p), "") if p.isdigit() else (-1, p) for p in parts]


def _index(path: Path) -> dict[str, list[Path]]:
    """Every file under the run folder by its name (kernel files, cache entries)."""
    files: dict[str, list[Path]] = {}
    for root, _, names in os.walk(path):
        for name in names:
            files.setdefault(name, []).append(Path(root) / name)
    return files


def _definitions(wrapper: Path, text: str) -> Iterator[TritonKernel]:
    lines = text.splitlines()
    comments: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _DEF_RE.match(line)
        if m is None:
            comments = comments + [line] if line.startswith("#") else []
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith("''', device_str="):
            end += 1
        body = lines[i + 1 : end]
        yield _kernel(m.group("name"), wrapper, i + 1, comments, body)
        comments = []
        i = end + 1


def _kernel(
    name: str, wrapper: Path, line: int, comments: list[str], body: list[str]
) -> TritonKernel:
    recorded = ""
    nodes: tuple[str, ...] = ()
    aten: tuple[str, ...] = ()
    mapping: list[str] = []
    in_mapping = False
    for c in comments:
        if (m := _PATH_RE.match(c)) is not None:
            recorded = m.group("path").strip()
        elif (m := _NODES_RE.match(c)) is not None:
            nodes, aten = _names(m.group("nodes")), _names(m.group("aten"))
        elif c.startswith("# Source node to ATen node mapping:"):
            in_mapping = True
        elif c.startswith("# Graph fragment:"):
            in_mapping = False
        elif in_mapping and c.startswith("#   "):
            mapping.append(c[4:].strip())
    kind = next((m.group("kind") for b in body if (m := _HEURISTIC_RE.match(b))), "")
    # the kernel file is the string in the wrapper: a leading newline, then the lines
    source_text = "\n" + "\n".join(body) + "\n"
    return TritonKernel(
        name=name,
        kind=kind,
        recorded_path=recorded,
        source=None,
        source_text=source_text,
        definition_line=line,
        wrapper=wrapper,
        source_nodes=nodes,
        aten=aten,
        node_mapping=tuple(mapping),
    )


def _names(listed: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in listed.split(",") if n.strip())


def _launches(wrapper: Path, text: str, start: int) -> Iterator[WrapperLaunch]:
    nodes: tuple[str, ...] = ()
    aten: tuple[str, ...] = ()
    index = start
    in_call = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("def call(") or stripped.startswith("def call_"):
            in_call = True
            continue
        if not in_call:
            continue
        if line and not line[0].isspace():
            in_call = False  # the end of call()
            continue
        if (m := _NODES_RE.match(line)) is not None:
            nodes, aten = _names(m.group("nodes")), _names(m.group("aten"))
            continue
        if stripped.startswith("#"):
            continue
        if (m := _TRITON_RUN_RE.match(line)) is not None:
            yield WrapperLaunch(
                index, m.group("name"), True, number, stripped, nodes, aten, wrapper
            )
        elif (m := _EXTERN_RE.match(line)) is not None:
            yield WrapperLaunch(
                index, m.group("call"), False, number, stripped, nodes, aten, wrapper
            )
        else:
            continue
        index += 1
        nodes, aten = (), ()


def _locate_source(kernel: TritonKernel, files: dict[str, list[Path]]) -> None:
    recorded = Path(kernel.recorded_path) if kernel.recorded_path else None
    candidates = []
    if recorded is not None:
        if recorded.is_file():
            candidates.append(recorded)
        candidates += files.get(recorded.name, [])
    for path in candidates:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if text == kernel.source_text:
            kernel.source = path
            return
    what = recorded.name if recorded is not None else f"{kernel.name}'s file"
    kernel.notes.append(
        f"the kernel file {what} is gone from the run folder: showing the copy in "
        f"{kernel.wrapper.name} (the same text)"
    )


def _triton_cache(files: dict[str, list[Path]]) -> dict[str, list[tuple[Path, dict[str, object]]]]:
    """Kernel name -> (cache folder, its metadata) of every compiled variant found."""
    found: dict[str, list[tuple[Path, dict[str, object]]]] = {}
    for name, paths in files.items():
        if not (name.startswith("triton_") and name.endswith(".json")):
            continue
        for path in paths:
            meta = _metadata(path)
            if meta is not None:
                found.setdefault(path.stem, []).append((path.parent, meta))
    return found


def triton_cache_dirs() -> list[Path]:
    """Where Triton keeps its cache on this machine when a run did not put it in its folder:
    ``$TRITON_CACHE_DIR``, else ``~/.triton/cache`` (Triton's default)."""
    given = os.environ.get("TRITON_CACHE_DIR")
    roots = [Path(given)] if given else []
    roots.append(Path.home() / ".triton" / "cache")
    return [r for r in dict.fromkeys(roots) if r.is_dir()]


def _outside_caches(
    names: set[str], records: dict[str, dict[str, int]]
) -> dict[str, list[tuple[Path, dict[str, object]]]]:
    """The compiled variants of ``names`` in this machine's Triton cache: the folders the
    autotune records name, else every folder holding ``<name>.json`` (one listing of the
    cache, a stat per folder and name)."""
    found: dict[str, list[tuple[Path, dict[str, object]]]] = {}
    for root in triton_cache_dirs():
        try:
            folders = [d for d in root.iterdir() if d.is_dir()]
        except OSError:
            continue
        recorded = [d for d in folders if d.name in records]
        for group, wanted in ((recorded, names), (folders, None)):
            # the recorded folders first; the whole cache for kernels still not found
            look_for = wanted if wanted is not None else names - found.keys()
            for folder in group if look_for else ():
                for name in look_for:
                    meta = _metadata(folder / f"{name}.json")
                    if meta is not None:
                        found.setdefault(name, []).append((folder, meta))
    return found


def _metadata(path: Path) -> dict[str, object] | None:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) and meta.get("name") == path.stem else None


def _best_configs(files: dict[str, list[Path]]) -> dict[str, dict[str, int]]:
    """Triton cache folder name -> the autotune record that chose it."""
    records: dict[str, dict[str, int]] = {}
    for name, paths in files.items():
        if not name.endswith(".best_config"):
            continue
        for path in paths:
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(raw, dict) and isinstance(raw.get("triton_cache_hash"), str):
                config = {k: v for k, v in raw.items() if isinstance(v, int) and k.isupper()}
                for key in ("num_warps", "num_stages"):
                    if isinstance(raw.get(key), int):
                        config[key] = raw[key]
                records[raw["triton_cache_hash"]] = config
    return records


def _link_cache(
    kernel: TritonKernel,
    variants: list[tuple[Path, dict[str, object]]],
    records: dict[str, dict[str, int]],
) -> None:
    kernel.variants = len(variants)
    chosen = [(d, m) for d, m in variants if d.name in records]
    if len(chosen) == 1:
        kernel.cache_dir, kernel.metadata = chosen[0]
        kernel.config = dict(records[chosen[0][0].name])
        kernel.config_origin = "autotune record"
    elif len(variants) == 1:
        kernel.cache_dir, kernel.metadata = variants[0]
        kernel.config = {
            k: v
            for k, v in kernel.metadata.items()
            if k in ("num_warps", "num_stages") and isinstance(v, int)
        }
        kernel.config.update(_fixed_blocks(kernel.source_text))
        kernel.config_origin = "Triton's cache"
    elif not variants:
        kernel.notes.append(
            "Triton's cache of this run is neither in the folder nor in this machine's "
            "(TRITON_CACHE_DIR, ~/.triton/cache): no cubin, PTX or configuration; run with "
            "TRITON_CACHE_DIR inside the run folder, or copy that cache into it"
        )
    else:
        kernel.notes.append(
            f"Triton's cache holds {len(variants)} variants of this kernel and no autotune "
            "record says which one ran"
        )
    if kernel.cache_dir is not None and kernel.cubin is None:
        kernel.notes.append(f"no {kernel.name}.cubin in {kernel.cache_dir} (SASS needs it)")


def _fixed_blocks(source: str) -> dict[str, int]:
    """Block sizes the kernel fixes in its body (``R0_BLOCK: tl.constexpr = 256``)."""
    found = {}
    for m in re.finditer(r"^\s*(\w+BLOCK)\s*:\s*tl\.constexpr\s*=\s*(\d+)\s*$", source, re.M):
        found[m.group(1)] = int(m.group(2))
    return found


def _run_info(path: Path) -> dict[str, object]:
    info = path / RUN_INFO
    try:
        raw = json.loads(info.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}
