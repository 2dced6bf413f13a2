"""A model's timeline: its kernel calls in time order with their durations, where they came
from (the runner's CUDA-event timing, or an Nsight Systems export), the time share of each
kernel and of each Relax operator type, and the Nsight Compute selection (kernel name,
launch skip and count) that profiles exactly one call.
"""

from __future__ import annotations

import bisect
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..profiling import NcuOptions, ProfileRequest
from ..workspace import Workspace

TIMELINE_VERSION = 1
# What ``kernelscope timeline --json`` adds to a timeline's own keys: worked out from it, so a
# timeline read back from that output (``timeline OUT.json --against ...``) leaves them out.
JSON_SUMMARIES = ("kernel_shares", "op_shares", "step_shares", "selection", "ncu", "against")


# The runner's name of a CUDA graph replay (``build --cuda-graph``): TVM's builtin that
# captures a region on its first call and replays it after (the runner imports nothing of
# core, so its ``GRAPH_CALL`` is this string too).
GRAPH_REPLAY = "vm.builtin.cuda_graph.run_or_capture"


@dataclass(slots=True)  # slots: a million calls of an Nsight Systems export in half the memory
class TimelineCall:
    """One call in the pass: usually one kernel launch; a TVM PrimFunc that launches two
    kernels is one call with both (the runner times the PrimFunc call)."""

    index: int
    kernels: list[str]
    start_us: float
    duration_us: float
    primfunc: str = ""
    op_type: str = ""  # the Relax operator the kernel was fused around: "nn.conv2d"...
    ops: str = ""  # every fused operator: "nn.conv2d+add+nn.relu"
    min_us: float | None = None  # over the timed passes (runner)
    max_us: float | None = None
    raw_us: float | None = None  # runner: the event pair as measured, before calibration
    grid: list[int] | None = None
    block: list[int] | None = None
    device: int | None = None
    stream: int | None = None
    pid: int | None = None
    step: str = ""  # an LLM's step the call was made in ("decode 3"; runner --steps)

    @property
    def name(self) -> str:
        return " + ".join(self.kernels)

    @property
    def end_us(self) -> float:
        return self.start_us + self.duration_us


@dataclass
class Share:
    """Time spent in one kernel or one operator type over the pass."""

    name: str
    calls: int
    total_us: float
    share: float  # of all calls' time, 0..1
    mean_us: float


@dataclass
class KernelSelection:
    """What makes ncu profile exactly one call: ``--launch-skip <launch_skip> --launch-count
    1`` over every kernel launch of the run (no kernel-name filter), with the same warm-up
    passes; the launch profiled must then be ``kernel`` (``ProfileRequest.expect_kernel``).

    The position among all launches needs no name matching by ncu: a TVM kernel's
    ``extern "C"`` name can be matched, but a filter that matches nothing fails quietly
    (ncu profiles no launch), while a wrong position is caught by the name check.
    ``occurrence`` is which launch of this kernel it is in the run (0 = the first), for
    ncu's own ``--kernel-id ::NAME:N`` form."""

    kernel: str
    launch_skip: int  # kernel launches of the run before this one, of any kernel
    launch_count: int
    warmup: int
    occurrence: int

    def ncu_arguments(self) -> list[str]:
        return ["--launch-skip", str(self.launch_skip), "--launch-count", str(self.launch_count)]

    def kernel_id(self) -> str:
        """The same launch as ncu's ``--kernel-id`` (invocations count from 1)."""
        return f"::{self.kernel}:{self.occurrence + 1}"

    def profile_request(
        self, workspace: Path, ncu: NcuOptions | None = None, **options: Any
    ) -> ProfileRequest:
        """The ProfileRequest that profiles this call of ``workspace``'s model (``ncu``:
        the sections, clocks and such, its launches this call's; ``options``: the rest of
        ProfileRequest, such as ``host`` or ``inputs``)."""
        ncu = replace(
            ncu or NcuOptions(), launch_skip=self.launch_skip, launch_count=self.launch_count
        )
        return ProfileRequest(
            workspace=workspace,
            ncu=ncu,
            warmup=self.warmup,
            iterations=1,
            expect_kernel=self.kernel,
            **options,
        )


@dataclass
class Timeline:
    # "runner" (CUDA events), "nsys" (an Nsight Systems export) or "torch" (a torch.compile
    # run's kernels through torch.profiler: kernelscope profile-torch --timeline)
    source: str
    origin: str  # the workspace or the report it came from
    device: str
    calls: list[TimelineCall]
    meta: dict[str, Any] = field(default_factory=dict)
    created: str = field(default_factory=lambda: datetime.now().isoformat(timespec="seconds"))
    version: int = TIMELINE_VERSION

    @property
    def kernel_time_us(self) -> float:
        return sum(c.duration_us for c in self.calls)

    @property
    def span_us(self) -> float:
        return max((c.end_us for c in self.calls), default=0.0) - min(
            (c.start_us for c in self.calls), default=0.0
        )

    def kernel_shares(self) -> list[Share]:
        return _shares(((c.name, c.duration_us) for c in self.calls), self.kernel_time_us)

    def step_shares(self) -> list[Share]:
        """Time spent in each step (calls made outside any step left out), in step order."""
        sums: dict[str, list[float]] = {}
        for c in self.calls:
            if c.step:
                sums.setdefault(c.step, []).append(c.duration_us)
        total = self.kernel_time_us
        return [
            Share(step, len(d), sum(d), sum(d) / total if total else 0.0, sum(d) / len(d))
            for step, d in sums.items()
        ]

    def op_shares(self) -> list[Share]:
        return _shares(
            ((c.op_type or "(unknown)", c.duration_us) for c in self.calls), self.kernel_time_us
        )

    def selection(self, index: int, kernel: str | None = None, warmup: int = 0) -> KernelSelection:
        """The ncu selection for call ``index`` (its first kernel unless ``kernel``) in a
        profiled run of the runner with ``warmup`` passes before the profiled one: the
        warm-up passes launch every kernel of the pass first, then this pass the launches
        before this one. For an Nsight Systems trace, the launches before this one in the
        traced program (no warm-up of its own)."""
        if self.meta.get("steps"):
            raise KernelscopeError(
                "a timeline of an LLM's steps selects no single launch for ncu",
                hint="profile the steps themselves: kernelscope profile WS --steps ... "
                "--profile-steps decode:0-3",
            )
        if not 0 <= index < len(self.calls):
            raise KernelscopeError(
                f"call {index} is not in the timeline (it has calls 0-{len(self.calls) - 1})"
            )
        call = self.calls[index]
        if self.source == "nsys" and any(
            c.primfunc == GRAPH_REPLAY for c in self.calls[: index + 1]
        ):
            raise KernelscopeError(
                f"call {index} comes at or after a CUDA graph replay that the trace timed whole: "
                "the kernels it launched are not in the export, so the launches before this "
                "call are not known",
                hint="record the run with nsys profile --cuda-graph-trace=node",
            )
        name = kernel or call.kernels[0]
        if name not in call.kernels:
            raise KernelscopeError(f"call {index} launches {call.name}, not {name}")
        if self.source != "runner":
            warmup = 0
        position = call.kernels.index(name)
        before = sum(len(c.kernels) for c in self.calls[:index]) + position
        # an Nsight Systems trace's step markers: launches of the run, not calls
        before += bisect.bisect_right(self.meta.get("step_markers", []), index)
        same = sum(c.kernels.count(name) for c in self.calls[:index])
        same += call.kernels[:position].count(name)
        per_pass = sum(len(c.kernels) for c in self.calls)
        per_pass_same = sum(c.kernels.count(name) for c in self.calls)
        return KernelSelection(
            kernel=name,
            launch_skip=warmup * per_pass + before,
            launch_count=1,
            warmup=warmup,
            occurrence=warmup * per_pass_same + same,
        )

    def annotate(self, ws: Workspace) -> None:
        """Fill in each call's operator type from the workspace's kernels."""
        kernels = {k.name: k for k in ws.manifest.kernels}
        for call in self.calls:
            info = kernels.get(call.kernels[0])
            if info is None or not info.ops or call.primfunc == GRAPH_REPLAY:
                continue
            names = [o.op.removeprefix("relax.") for o in info.ops]
            call.op_type, call.ops = names[0], "+".join(names)
            call.primfunc = call.primfunc or info.primfunc

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Timeline:
        if raw.get("version") != TIMELINE_VERSION:
            raise KernelscopeError(f"unsupported timeline version {raw.get('version')!r}")
        raw = {k: v for k, v in raw.items() if k not in JSON_SUMMARIES}
        raw["calls"] = [TimelineCall(**c) for c in raw["calls"]]
        return cls(**raw)

    def save(self, path: Path) -> Path:
        """Write atomically: a half-written timeline never replaces a good one."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".partial-{path.name}")
        partial.write_text(json.dumps(self.to_dict(), indent=1), encoding="utf-8")
        os.replace(partial, path)
        return path

    @classmethod
    def load(cls, path: Path) -> Timeline:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise KernelscopeError(f"{path}: not a kernelscope timeline ({exc})") from exc
        if not isinstance(raw, dict) or "calls" not in raw:
            raise KernelscopeError(f"{path}: not a kernelscope timeline")
        try:
            return cls.from_dict(raw)
        except TypeError as exc:
            raise KernelscopeError(f"{path}: not a kernelscope timeline ({exc})") from exc


def _shares(items: Iterable[tuple[str, float]], total: float) -> list[Share]:
    sums: dict[str, list[float]] = {}
    for name, duration in items:
        sums.setdefault(name, []).append(duration)
    shares = [
        Share(name, len(d), sum(d), sum(d) / total if total else 0.0, sum(d) / len(d))
        for name, d in sums.items()
    ]
    return sorted(shares, key=lambda s: (-s.total_us, s.name))
