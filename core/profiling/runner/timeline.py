"""Timeline: every kernel call of one forward pass, timed with CUDA events recorded around
each PrimFunc call (``VirtualMachine.set_instrument``), through the CUDA driver API. A
kernel that spins on the GPU first holds the stream while the whole pass is enqueued, so
the GPU runs the calls back to back and an event pair measures the kernel, not Python's
launch overhead; the result says whether the queue stayed ahead of the GPU.

The events cost the stream time of their own, which lands in every pair: on an H200 a pair
around a kernel reads 2.0-2.3 us longer than Nsight Compute's ``gpu__time_duration`` of the
same launch (around a kernel that spins a known time: 2.25 us), while records back to back
are only 1.26 us apart, so taking one record's cost off each call left the timeline ~1 us
above ncu (issue 19). What the events add to a call is measured per run instead, against the
same pass without them (``call_overhead_us``): the instrumented calls' sum less the plain
pass's GPU time, per call. Each call loses that (``calibrate``), which leaves in it only the
gap a plain run has between kernels (~0.1-0.2 us), and keeps the measured pair as ``raw_us``.
"""

from __future__ import annotations

import ctypes
import statistics
import time
from pathlib import Path
from typing import Any

from .cuda import Cuda
from .model import Model, device_name
from .protocol import RunnerError
from .step_run import StepRun, StepRunOptions
from .steps import StepObserver


class CallRecorder:
    """A ``VirtualMachine.set_instrument`` callback that marks the start and end of every
    call of a PrimFunc that launches kernels; the VM's own builtins are left alone.

    ``mark()`` returns a token (a recorded CUDA event; any timestamp in tests).
    """

    def __init__(self, kernels_of: dict[str, list[str]], mark) -> None:  # noqa: ANN001
        self.kernels_of = kernels_of
        self.mark = mark
        self.calls: list[tuple[str, object, object]] = []
        self._open: tuple[str, object] | None = None
        self.enabled = True

    def __call__(self, func, symbol, before, ret, *args) -> int:  # noqa: ANN001
        name = str(symbol)
        if self.enabled and name in self.kernels_of:
            if before:
                self._open = (name, self.mark())
            elif self._open is not None and self._open[0] == name:
                self.calls.append((name, self._open[1], self.mark()))
                self._open = None
        return 0  # VMInstrumentReturnKind.NoOp: run the call

    def take(self) -> list[tuple[str, object, object]]:
        calls, self.calls = self.calls, []
        return calls


class EventPool:
    """CUDA events made once and recorded again in every pass: creating an event per mark
    would add a driver call to each kernel call's enqueue."""

    def __init__(self, cuda: Cuda) -> None:
        self.cuda = cuda
        self.events: list[ctypes.c_void_p] = []
        self.used = 0

    def mark(self) -> ctypes.c_void_p:
        if self.used == len(self.events):
            self.events.append(self.cuda.event())
        ev = self.events[self.used]
        self.used += 1
        self.cuda.record(ev)
        return ev

    def reset(self) -> None:
        """Reuse the events (after the GPU reached them: ``synchronize`` first)."""
        self.used = 0

    def close(self) -> None:
        for ev in self.events:
            self.cuda.destroy(ev)
        self.events.clear()
        self.used = 0


def _saturated_pass(model: Model, cuda: Cuda, spin_ns: int, before, after) -> tuple[bool, float]:  # noqa: ANN001
    """One forward pass enqueued behind a spinning kernel; True when the GPU was still
    spinning after the whole pass was enqueued (so it never waited for the CPU)."""
    cuda.spin(spin_ns)
    spun = cuda.event()
    cuda.record(spun)
    before()
    start = time.perf_counter()
    model.func(*model.args)
    enqueue = time.perf_counter() - start
    after()
    ahead = not cuda.reached(spun)
    cuda.synchronize()
    cuda.destroy(spun)
    return ahead, enqueue


def record_cost_us(cuda: Cuda, spin_ns: int, events: int = 65) -> list[float]:
    """The GPU time between CUDA event records enqueued back to back behind a spinning
    kernel (microseconds, one per pair): what recording one event costs the stream.

    The plain pass is timed between two records, so one record's cost is in its time
    (``call_overhead_us``); a pair around a kernel costs more than this (see the module's
    docstring)."""
    pool = EventPool(cuda)
    try:
        cuda.spin(spin_ns)
        marks = [pool.mark() for _ in range(events)]
        cuda.synchronize()
        return [1000 * cuda.elapsed_ms(marks[i], marks[i + 1]) for i in range(len(marks) - 1)]
    finally:
        pool.close()


def call_overhead_us(raw_us: list[float], plain_gpu_us: float, record_us: float) -> float:
    """What the event pair adds to each call: the calls as timed (``raw_us``) less the same
    pass timed whole without per-call events (``plain_gpu_us``, between two records, so
    with one record's cost ``record_us`` in it), per call. Never less than one record's
    cost (a pass that was not enqueued ahead of the GPU has launch gaps in the plain time)."""
    if not raw_us:
        return record_us
    return max((sum(raw_us) - (plain_gpu_us - record_us)) / len(raw_us), record_us)


def calibrate(calls: list[dict], overhead_us: float, between_us: float) -> list[dict]:
    """Calls timed by event pairs (``start_us``/``duration_us``/``min_us``/``max_us`` as
    measured) less what the events add: each duration loses ``overhead_us``, each start
    ``overhead_us + between_us`` (the pair's cost and the record between two pairs) per
    call before it; a start never falls before the end of the call before it. The measured
    duration stays as ``raw_us``."""
    out: list[dict] = []
    end = 0.0
    for i, call in enumerate(calls):
        fixed = dict(call)
        fixed["raw_us"] = call["duration_us"]
        for key in ("duration_us", "min_us", "max_us"):
            fixed[key] = max(call[key] - overhead_us, 0.0)
        fixed["start_us"] = max(call["start_us"] - i * (overhead_us + between_us), end)
        end = fixed["start_us"] + fixed["duration_us"]
        out.append(fixed)
    return out


def timeline(workspace: Path, inputs_npz: Path | None, warmup: int, repeat: int, seed: int) -> dict:
    model = Model(workspace, inputs_npz, seed)
    kernels_of = model.kernels_by_primfunc()
    model.run(max(warmup, 1))  # loads the cubin, fills the memory pool
    cuda = Cuda()
    cuda.use_primary_context(0)

    plain_wall = []
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        model.run(1)
        plain_wall.append(1000 * (time.perf_counter() - start))
    start = time.perf_counter()
    model.func(*model.args)
    plain_enqueue = time.perf_counter() - start
    model.device.sync()

    pool = EventPool(cuda)
    recorder = CallRecorder(kernels_of, pool.mark)
    model.vm.set_instrument(recorder)
    # Long enough to enqueue a pass several times over; doubled when the GPU caught up.
    spin_ns = int(min(max(8 * plain_enqueue, 0.02), 2.0) * 1e9)

    # The whole pass without per-call events, for the events' own cost.
    recorder.enabled = False
    plain_gpu = []
    marks: list = []

    def mark() -> None:
        marks.append(pool.mark())

    for _ in range(max(repeat, 1)):
        marks.clear()
        _saturated_pass(model, cuda, spin_ns, mark, mark)
        plain_gpu.append(1000 * cuda.elapsed_ms(marks[0], marks[1]))
        pool.reset()
    recorder.enabled = True
    record_cost = record_cost_us(cuda, spin_ns)
    record = statistics.median(record_cost)

    passes, saturated, enqueue_ms = [], [], []
    for _ in range(max(repeat, 1)):
        for attempt in range(4):
            ahead, enqueue = _saturated_pass(model, cuda, spin_ns, lambda: None, lambda: None)
            calls = recorder.take()
            if ahead or attempt == 3:
                break
            pool.reset()
            spin_ns *= 2
        first = calls[0][1] if calls else None
        passes.append(
            [
                (name, 1000 * cuda.elapsed_ms(first, s), 1000 * cuda.elapsed_ms(s, e))
                for name, s, e in calls
            ]
        )
        saturated.append(ahead)
        enqueue_ms.append(1000 * enqueue)
        pool.reset()
    pool.close()

    lengths = {len(p) for p in passes}
    if len(lengths) != 1:
        raise RunnerError(f"the forward passes made different calls: {sorted(lengths)} calls")
    measured: list[dict[str, Any]] = []
    for i, (name, _, _) in enumerate(passes[0]):
        durations = [p[i][2] for p in passes]
        measured.append(
            {
                "primfunc": name,
                "kernels": kernels_of[name],
                "start_us": statistics.median(p[i][1] for p in passes),
                "duration_us": statistics.median(durations),
                "min_us": min(durations),
                "max_us": max(durations),
            }
        )
    gaps = [p[i + 1][1] - (p[i][1] + p[i][2]) for p in passes for i in range(len(p) - 1)]
    gap = statistics.median(gaps) if gaps else 0.0
    plain = statistics.median(plain_gpu)
    overhead = call_overhead_us([c["duration_us"] for c in measured], plain, record)
    return {
        "mode": "timeline",
        "device": device_name(model.device),
        "driver_version": cuda.driver_version(),
        "warmup": max(warmup, 1),
        "repeat": len(passes),
        "clock": "CUDA events around each PrimFunc call, stream held by a spinning kernel; "
        "each duration less what the events add to a call against the plain pass",
        "spin_ms": spin_ns / 1e6,
        "saturated": saturated,
        "calls": calibrate(measured, overhead, gap),
        "event_overhead_us": overhead,
        "record_cost_us": {"median": record, "min": min(record_cost), "max": max(record_cost)},
        "raw_kernel_us": sum(c["duration_us"] for c in measured),
        "plain_wall_ms": statistics.median(plain_wall),
        "plain_gpu_us": plain,
        "plain_enqueue_ms": 1000 * plain_enqueue,
        "timeline_enqueue_ms": statistics.median(enqueue_ms),
        "gap_us": {"max": max(gaps) if gaps else 0.0, "median": gap},
        "cubin_loads": model.calls["count"],
    }


# ---- an LLM's steps ------------------------------------------------------------------------
# The builtin that replays a CUDA graph (``build --cuda-graph``): one VM call, one
# ``cudaGraphLaunch``; its PrimFuncs are called by the VM only while it captures.
GRAPH_CALL = "vm.builtin.cuda_graph.run_or_capture"


def kernels_by_call(manifest: dict) -> dict[str, list[str]]:
    """The VM calls that launch kernels, each with its kernels: the PrimFuncs, the runtime
    builtins that launch kernels themselves (the KV cache's attention: a kernel's
    ``launched_by`` names them) and, in a CUDA graph build, the graph replay (every graph's
    kernels: the VM names no region), each timed as one call holding its kernels."""
    found: dict[str, list[str]] = {}
    by_prim: dict[str, list[str]] = {}
    for k in manifest["kernels"]:
        if k.get("launched", True) and k.get("primfunc"):
            found.setdefault(k["primfunc"], []).append(k["name"])
            by_prim.setdefault(k["primfunc"], []).append(k["name"])
        for site in k.get("launched_by") or []:
            via = site.get("via", "")
            if via.startswith("vm.builtin.") and k["name"] not in found.get(via, []):
                found.setdefault(via, []).append(k["name"])
    for f in manifest.get("functions") or []:
        for region in f.get("graphs") or []:
            for prim in region:
                for name in by_prim.get(prim, []):
                    if name not in found.setdefault(GRAPH_CALL, []):
                        found[GRAPH_CALL].append(name)
    return found


class StepTimer(StepObserver):
    """CUDA events around each step, enqueued behind a spinning kernel so that the step's
    calls reach the GPU ahead of it; the per-call events the recorder made in between are
    the step's calls."""

    def __init__(self, cuda: Cuda, pool: EventPool, recorder: CallRecorder, spin_ns: int) -> None:
        self.cuda, self.pool, self.recorder, self.spin_ns = cuda, pool, recorder, spin_ns
        self.steps: list[dict] = []
        self._open: dict[str, Any] = {}

    def enter(self, record: dict) -> None:
        self.cuda.spin(self.spin_ns)
        spun = self.cuda.event()
        self.cuda.record(spun)
        self._open = {"spun": spun, "first": len(self.recorder.calls), "start": self.pool.mark()}

    def leave(self, record: dict) -> None:
        end = self.pool.mark()
        spun = self._open.pop("spun")
        ahead = not self.cuda.reached(spun)
        self.cuda.synchronize()
        self.cuda.destroy(spun)
        self.steps.append(
            {**self._open, "end": end, "last": len(self.recorder.calls), "ahead": ahead}
        )

    def take(self) -> list[dict]:
        """Each step's GPU time and its calls (start in the step, duration), in µs."""
        out = []
        for s in self.steps:
            calls = [
                (
                    name,
                    1000 * self.cuda.elapsed_ms(s["start"], a),
                    1000 * self.cuda.elapsed_ms(a, b),
                )
                for name, a, b in self.recorder.calls[s["first"] : s["last"]]
            ]
            gpu = 1000 * self.cuda.elapsed_ms(s["start"], s["end"])
            out.append({"gpu_us": gpu, "calls": calls, "ahead": s["ahead"]})
        self.steps.clear()
        self.recorder.take()
        self.pool.reset()
        return out


def _steps_pass(run: StepRun, timer: StepTimer) -> tuple[list[dict], list[dict]]:
    session = run.session([timer])
    run.run_once(session)
    return session.steps, timer.take()


def steps_timeline(
    workspace: Path, options: StepRunOptions, repeat: int, device: Any = None
) -> dict:
    """Each step timed whole (CUDA events around it, no per-call events: ``gpu_us``) and
    each VM call in it (events around every call that launches kernels), median of
    ``repeat`` runs of all the steps; each call less what its events add, per step.
    ``device``: where the model runs (default GPU 0; tests run it on the CPU with a
    simulated clock for ``Cuda``)."""
    options.warmup = max(options.warmup, 1)
    run = StepRun(workspace, options, device)
    run.warm_up()
    cuda = Cuda()
    cuda.use_primary_context(0)
    walls: list[list[float]] = []  # plain runs: no events, no spinning kernel
    for _ in range(max(repeat, 1)):
        session = run.session([])
        run.run_once(session)
        walls.append([r["wall_ms"] for r in session.steps])
    # long enough to enqueue the longest step several times over
    spin_ns = int(min(max(4e-3 * max(walls[0], default=0.0), 0.005), 2.0) * 1e9)
    kernels_of = kernels_by_call(run.manifest)
    pool = EventPool(cuda)
    recorder = CallRecorder(kernels_of, pool.mark)
    run.vm.set_instrument(recorder)
    timer = StepTimer(cuda, pool, recorder, spin_ns)
    plain: list[list[dict]] = []
    recorder.enabled = False
    records: list[dict] = []
    for _ in range(max(repeat, 1)):
        records, timed = _steps_pass(run, timer)
        plain.append(timed)
    recorder.enabled = True
    record = statistics.median(record_cost_us(cuda, min(spin_ns, 20_000_000)))
    measured: list[list[dict]] = []
    for _ in range(max(repeat, 1)):
        measured.append(_steps_pass(run, timer)[1])
    pool.close()
    shapes = {tuple(len(s["calls"]) for s in p) for p in measured}
    counts = {len(p) for p in plain} | {len(w) for w in walls}
    if len(shapes) != 1 or counts != {len(records)}:
        raise RunnerError("the runs made different steps or calls: the steps are not repeatable")
    steps, calls, offset = [], [], 0.0
    for i, rec in enumerate(records):
        gpu = statistics.median(p[i]["gpu_us"] for p in plain)
        per_call = []
        for j, (name, _, _) in enumerate(measured[0][i]["calls"]):
            durations = [m[i]["calls"][j][2] for m in measured]
            per_call.append(
                {
                    "primfunc": name,
                    "kernels": kernels_of[name],
                    "start_us": statistics.median(m[i]["calls"][j][1] for m in measured),
                    "duration_us": statistics.median(durations),
                    "min_us": min(durations),
                    "max_us": max(durations),
                }
            )
        overhead = call_overhead_us([c["duration_us"] for c in per_call], gpu, record)
        gaps = [
            b[1] - (a[1] + a[2])
            for m in measured
            for a, b in zip(m[i]["calls"], m[i]["calls"][1:], strict=False)
        ]
        fixed = calibrate(per_call, overhead, statistics.median(gaps) if gaps else 0.0)
        label = f"{rec['name']} {rec['index']}"
        steps.append(
            {
                **{
                    k: rec.get(k)
                    for k in ("name", "index", "batch", "seq_len", "total_len", "cuda_graph")
                },
                "gpu_us": gpu,
                "wall_ms": statistics.median(w[i] for w in walls),
                "calls_us": sum(c["duration_us"] for c in fixed),
                "calls": len(fixed),
                "event_overhead_us": overhead,
                "saturated": all(p[i]["ahead"] for p in [*plain, *measured]),
            }
        )
        calls += [{**c, "step": label, "start_us": c["start_us"] + offset} for c in fixed]
        offset += gpu
    return {
        "mode": "timeline",
        **run.describe(),
        "repeat": max(repeat, 1),
        "clock": "CUDA events around each step (no per-call events) and around each VM call "
        "that launches kernels, stream held by a spinning kernel; each call less what the "
        "events add to a call against its step's time",
        "spin_ms": spin_ns / 1e6,
        "saturated": [s["saturated"] for s in steps],
        "record_cost_us": {"median": record},
        "steps": steps,
        "calls": calls,
        "plain_gpu_us": sum(s["gpu_us"] for s in steps),
        "plain_wall_ms": sum(s["wall_ms"] for s in steps),
        "driver_version": cuda.driver_version(),
    }
