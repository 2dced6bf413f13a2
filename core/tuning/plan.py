"""What a tuning run is asked to do, decided before TVM is imported: the workspace's model
and target, which tasks (fused PrimFuncs) to tune, the database folder and where candidates
are measured. ``plan_tuning`` checks everything a user can get wrong and says what to do.

Tasks are the fused PrimFuncs of the model; each kernel of the workspace names the PrimFunc
that launches it (``KernelInfo.primfunc``), so ``--kernel RE`` picks kernels by name and tunes
their PrimFuncs, and ``--top N`` takes the kernels with the most microseconds to save
(the Headroom list of the newest attached profile: measured), else, with no profile, those
with the longest operator-bound time (estimated from the operators' FLOPs and bytes at the
datasheet peaks of the target's reference GPU); the plan says which (``ranking``).
"""

from __future__ import annotations

import importlib.metadata
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..build.records import RECORDS, WORKLOADS, check_tvm, read_meta
from ..errors import KernelscopeError
from ..workspace import KernelInfo, Manifest, Workspace

DEFAULT_DB = "tuning"  # inside the workspace
MEASURE_KINDS = ("local", "host", "tracker")


@dataclass(frozen=True)
class Measure:
    """Where candidates run. ``local``: this machine (``device`` "cuda", or "cpu" with the
    ``llvm`` target: tests, machines without a GPU); ``host``: an RPC server reached at
    ``address`` (``host:port``; ``kernelscope tune --host`` forwards it over SSH);
    ``tracker``: TVM's RPC tracker at ``address`` handing out servers registered with ``key``.
    ``busy``: why the host's GPU was busy when measuring began (measured anyway)."""

    kind: str = "local"
    address: str = ""
    key: str = ""
    timeout_s: int = 30
    number: int = 3  # runs per measurement
    repeat: int = 1
    busy: str = ""


@dataclass(frozen=True)
class TuningPlan:
    model: Path
    model_format: str
    shapes: dict[str, list[int]]
    params: str
    seed: int
    arch: str
    target_kind: str  # "cuda" or "llvm" (the CPU: tests, no GPU)
    tasks: list[str]  # fused PrimFunc names, in the order to tune them
    trials: int  # per task, this run
    per_round: int  # candidates per task per round
    database: Path
    measure: Measure = field(default_factory=Measure)
    workspace: str = ""
    population: int = 512  # the evolutionary search's (TVM's default); tests use fewer
    batch: str = ""  # "export" or "import" a round in ``batch_dir`` ("": measure directly)
    batch_dir: str = ""
    ranking: str = ""  # how --top ranked the kernels, in words ("" without --top)
    # the workspace's compilation pipeline (``Manifest.pipeline``): its passes run before the
    # tasks are extracted, so that they are the build's kernels (an LLM's NT_matmul ones)
    pipeline: str = "default"

    def to_json(self) -> str:
        return json.dumps(asdict(self), default=str)

    @classmethod
    def from_json(cls, text: str) -> TuningPlan:
        data = json.loads(text)
        data["model"] = Path(data["model"])
        data["database"] = Path(data["database"])
        data["measure"] = Measure(**data["measure"])
        return cls(**data)


def default_database(ws: Workspace) -> Path:
    return ws.path / DEFAULT_DB


def choose_tasks(
    ws: Workspace,
    kernel: str | None = None,
    top: int | None = None,
    savings_us: dict[str, float] | None = None,
) -> list[str]:
    """The PrimFuncs to tune, most promising first: those of the kernels ``kernel`` (a
    regex) matches, or of the ``top`` kernels by ``savings_us`` (kernel -> µs, most first:
    a Headroom list's savings, or operator-bound estimates; see ``top_ranking``), or all
    launched kernels'. Kernels of symbolic sizes are left out (MetaSchedule tunes fixed
    shapes); a ``kernel`` that matches only such kernels is refused, saying why."""
    launched = [k for k in ws.manifest.kernels if k.launched and k.primfunc]
    kernels = [k for k in launched if not symbolic_sizes(k)]
    if savings_us:
        kernels.sort(key=lambda k: -savings_us.get(k.name, 0.0))
    if kernel is not None:
        try:
            rx = re.compile(kernel)
        except re.error as exc:
            raise KernelscopeError(
                f"--kernel {kernel!r} is not a regular expression: {exc}"
            ) from exc
        picked = [k for k in kernels if rx.search(k.name) or rx.search(k.primfunc)]
        unbound = [
            k for k in launched if k not in kernels and (rx.search(k.name) or rx.search(k.primfunc))
        ]
        if not picked and unbound:
            raise _symbolic(unbound)
        if not picked:
            raise KernelscopeError(
                f"no launched kernel of {ws.path.name} matches {kernel!r}",
                hint="kernels: " + ", ".join(k.name for k in kernels),
            )
        kernels = picked
    if top is not None:
        if top < 1:
            raise KernelscopeError("--top must be 1 or more")
        kernels = kernels[:top]
    if not kernels and launched:
        raise _symbolic(launched)
    return list(dict.fromkeys(k.primfunc for k in kernels))


def symbolic_sizes(kernel: KernelInfo) -> list[str]:
    """The symbolic variables in a kernel's parameter shapes (``seq_len``...), in order."""
    dims = (d for p in kernel.params for d in p.shape)
    return list(dict.fromkeys(d for d in dims if isinstance(d, str)))


def _symbolic(kernels: list[KernelInfo]) -> KernelscopeError:
    names = list(dict.fromkeys(v for k in kernels for v in symbolic_sizes(k)))
    shown = ", ".join(k.name for k in kernels[:3]) + (" ..." if len(kernels) > 3 else "")
    return KernelscopeError(
        f"{shown}: compiled for every {', '.join(names)} (symbolic sizes), and MetaSchedule "
        "tunes kernels of fixed shapes only; their schedule is DLight's, made for any size "
        "(kernelscope cannot tune them)",
        hint="tune the kernels of fixed shapes (`kernelscope kernels WS` lists their sizes); "
        "--shape gives a symbolic size a value for running, it does not fix it in the kernel",
    )


def headroom_savings(ws: Workspace) -> dict[str, float]:
    """kernel -> µs to save, from the newest profile attached to ``ws`` ({} when none)."""
    reports = ws.profiles()
    if not reports:
        return {}
    from ..ncu import Profile
    from ..roofline import headroom

    profile = Profile.open([reports[-1]], workspace=ws)
    return {row.kernel: row.savings_us for row in headroom(profile, ws).rows}


def top_ranking(ws: Workspace, savings_us: dict[str, float] | None) -> tuple[dict[str, float], str]:
    """What ``--top`` ranks by (kernel -> µs, most first) and how, in words: the savings
    given, else those of the newest attached profile (measured), else, with no profile,
    each kernel's operator-bound time at the datasheet peaks of the target's reference GPU
    (an estimate: only its order is used)."""
    if savings_us:
        return savings_us, "ranked by the microseconds each could save (the Headroom list)"
    reports = ws.profiles()
    if reports:
        return headroom_savings(ws), (
            "ranked by the microseconds each could save, measured (the Headroom list of "
            f"{reports[-1].name})"
        )
    from ..roofline import kernel_cost, nominal_ceilings, operator_bound_us

    ceilings = nominal_ceilings(str(ws.manifest.target.get("arch", "")))
    estimates = operator_bound_us(ws, ceilings)
    launched = [k for k in ws.manifest.kernels if k.launched and k.primfunc]
    if not estimates:
        why = kernel_cost(launched[0]).why if launched else ""
        return {}, (
            "no profile is attached and no kernel's operators can be costed"
            + (f" ({why})" if why else "")
            + ": in the model's order; profile the workspace to rank by the microseconds each "
            "could save, measured"
        )
    uncosted = [k.name for k in launched if k.name not in estimates]
    return estimates, (
        "no profile is attached: ranked by each kernel's operator-bound time, estimated from "
        f"its operators' FLOPs and bytes at the {ceilings.source}: the work each must do, not "
        "the time its schedule takes"
        + (
            f"; {len(uncosted)} without an operator cost ({', '.join(uncosted[:3])}"
            + (", …" if len(uncosted) > 3 else "")
            + ") come last, in the model's order"
            if uncosted
            else ""
        )
        + "; profile the workspace to rank by the microseconds each could save, measured"
    )


def plan_tuning(
    workspace: Path,
    *,
    model: Path | None = None,
    kernel: str | None = None,
    top: int | None = None,
    trials: int = 64,
    per_round: int = 16,
    database: Path | None = None,
    measure: Measure | None = None,
    target_kind: str = "cuda",
    savings_us: dict[str, float] | None = None,
    population: int = 512,
    batch: str = "",
    batch_dir: Path | None = None,
) -> TuningPlan:
    """Check a tuning request against its workspace; raise what is wrong before TVM runs."""
    if measure is not None and measure.kind == "tracker":
        host, _, port = measure.address.rpartition(":")
        if not host or not port.isdigit():
            raise KernelscopeError(
                f"--tracker {measure.address!r}: expected HOST:PORT, e.g. gpu-gate:9190"
            )
    ws = Workspace.open(workspace)
    m = ws.manifest
    model_path = model or _model_of(ws)
    if not model_path.is_file():
        raise KernelscopeError(
            f"{model_path}: the model {ws.path.name} was built from is not there",
            hint="give it with --model PATH",
        )
    if trials < 1 or per_round < 1:
        raise KernelscopeError("--trials and the round size must be 1 or more")
    if target_kind not in ("cuda", "llvm"):
        raise KernelscopeError(f"target {target_kind!r}: expected cuda or llvm")
    measure = measure or Measure()
    if batch not in ("", "export", "import") or bool(batch) != (batch_dir is not None):
        raise KernelscopeError("a batch round needs its folder and export or import")
    if batch and measure.kind != "local":
        raise KernelscopeError(
            "--export-batch and --import-batch measure nothing themselves: "
            "leave out --host and --tracker"
        )
    if measure.kind not in MEASURE_KINDS:
        raise KernelscopeError(f"measurement {measure.kind!r}: expected one of {MEASURE_KINDS}")
    if measure.kind == "tracker" and not measure.key:
        raise KernelscopeError(
            "--tracker needs --key: the key the GPU hosts registered with (one per GPU type)"
        )
    folder = (database or default_database(ws)).expanduser().resolve()
    if folder.exists() and any(folder.iterdir()) and not (folder / WORKLOADS).is_file():
        raise KernelscopeError(
            f"{folder}: a folder that is not a tuning database",
            hint="give an empty or new folder, or one `kernelscope tune` wrote, with --db",
        )
    arch = str(m.target.get("arch", "sm_90"))
    check_database(folder, arch if target_kind == "cuda" else "cpu")
    ranking = ""
    if top is not None:
        savings_us, ranking = top_ranking(ws, savings_us)
    tasks = choose_tasks(ws, kernel, top, savings_us)
    if not tasks:
        raise KernelscopeError(f"{ws.path.name} has no launched kernels to tune")
    return TuningPlan(
        model=model_path.resolve(),
        model_format=m.model_format,
        shapes=built_shapes(m),
        params="runtime" if m.params_mode == "runtime" else "random",
        seed=m.params_seed or 0,
        arch=arch,
        target_kind=target_kind,
        tasks=tasks,
        trials=trials,
        per_round=min(per_round, trials),
        database=folder,
        measure=measure,
        workspace=str(ws.path),
        population=population,
        batch=batch,
        batch_dir=str(batch_dir.expanduser().resolve()) if batch_dir is not None else "",
        ranking=ranking,
        pipeline=m.pipeline,
    )


def built_shapes(m: Manifest) -> dict[str, list[int]]:
    """The input shapes an ONNX workspace was built with (what a rebuild of its model gives
    again); {} for other formats, whose shapes the model fixes."""
    if m.model_format != "onnx":
        return {}
    return {
        t.name: [int(d) for d in t.shape]
        for t in m.inputs
        if t.name and all(isinstance(d, int) for d in t.shape)
    }


def check_database(folder: Path, arch: str) -> dict[str, Any]:
    """kernelscope's notes beside the database in ``folder`` ({} for a new one, or one stock
    TVM wrote); refused when its records were tuned with another TVM version or for another
    target than ``arch`` ("sm_90", or "cpu"): a run would mix their times with these."""
    meta = read_meta(folder)
    check_tvm(
        folder,
        meta,
        importlib.metadata.version("apache-tvm"),
        "tune into a new database (--db DIR)",
    )
    if meta.get("arch") and meta["arch"] != arch:
        raise KernelscopeError(
            f"{folder}: these records were tuned for {meta['arch']}; this run is for {arch}",
            hint="tune into a new database (--db DIR)",
        )
    return meta


def _model_of(ws: Workspace) -> Path:
    """Where the workspace's model was built from (the manifest's ``model_path`` where the
    build recorded it), else a file of its name beside the workspace."""
    recorded = getattr(ws.manifest, "model_path", "")
    if recorded:
        return Path(recorded)
    return ws.path.parent / ws.manifest.model


def count_records(folder: Path) -> dict[int, int]:
    """Records per workload line of a database, read without TVM (for a summary after a
    Cancel, when no child is left to ask)."""
    counts: dict[int, int] = {}
    path = folder / RECORDS
    if not path.is_file():
        return counts
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row: Any = json.loads(line)
            counts[int(row[0])] = counts.get(int(row[0]), 0) + 1
        except (ValueError, TypeError, IndexError):
            continue
    return counts
