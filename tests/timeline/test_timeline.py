"""The model timeline: Nsight Systems exports read (a real nsys export, cut to its first
launches), what is not an export refused clearly, .nsys-rep files exported with nsys only when
it is there, time shares, the one-call ncu selection, the build's recorded launch sequence
checked against TVM's VM bytecode, and the CLI."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from cli_support import run_cli_process as _cli
from paths_support import DATA, H200_REPORT

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import ProfileRequest, launch_sequence, profile_workspace
from kernelscope.core.timeline import (
    Timeline,
    from_runner,
    open_timeline,
    read_nsys,
    read_nsys_sqlite,
)

NSYS_SMALL = DATA / "nsys" / "power_iteration_small.sqlite"


# --- Nsight Systems ------------------------------------------------------------------------


def test_nsys_export_gives_every_launch_in_start_order() -> None:
    t = read_nsys_sqlite(NSYS_SMALL)
    assert t.source == "nsys" and t.device == "Tesla T4"
    assert t.meta["nsys_version"] == "2025.3.1.90" and t.meta["processes"] == 1
    assert len(t.calls) == 60
    first, second = t.calls[0], t.calls[1]
    assert first.name == "cupy_fill" and first.start_us == 0.0
    assert first.duration_us == pytest.approx(1.312)  # end - start of the first row, in us
    assert second.name == "gemv2T_kernel_val" and second.grid == [1024, 1, 40]
    assert second.start_us == pytest.approx(170.172) and second.duration_us == pytest.approx(
        2434.185
    )
    starts = [c.start_us for c in t.calls]
    assert starts == sorted(starts)


def test_time_shares_and_the_selection_of_one_call() -> None:
    t = read_nsys_sqlite(NSYS_SMALL)
    shares = t.kernel_shares()
    assert [s.name for s in shares[:2]] == ["gemv2T_kernel_val", "splitKreduce_kernel"]
    top = shares[0]
    assert top.calls == 7 and top.share == pytest.approx(0.951, abs=1e-3)
    assert sum(s.share for s in shares) == pytest.approx(1.0)
    assert sum(s.calls for s in shares) == len(t.calls)
    gemv = [c.index for c in t.calls if c.name == "gemv2T_kernel_val"]
    sel = t.selection(gemv[2])
    # the position among every launch of the traced program: no name filter for ncu
    assert sel.kernel == "gemv2T_kernel_val" and sel.launch_skip == gemv[2] > 2
    assert sel.ncu_arguments() == ["--launch-skip", str(gemv[2]), "--launch-count", "1"]
    assert sel.occurrence == 2 and sel.kernel_id() == "::gemv2T_kernel_val:3"
    with pytest.raises(KernelscopeError, match="not in the timeline"):
        t.selection(60)


def test_what_is_not_an_nsys_export_is_named(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError, match="not an SQLite file"):
        read_nsys_sqlite(DATA / "models" / "small_cnn.onnx")
    other = tmp_path / "kernels.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE KernelCache (Key TEXT PRIMARY KEY, Source TEXT)")
    with pytest.raises(KernelscopeError, match="not an Nsight Systems export"):
        read_nsys_sqlite(other)
    no_kernels = tmp_path / "no_cuda.sqlite"
    shutil.copy(NSYS_SMALL, no_kernels)
    with sqlite3.connect(no_kernels) as db:
        db.execute("DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL")
    with pytest.raises(KernelscopeError, match="no CUDA kernel launches") as err:
        read_nsys_sqlite(no_kernels)
    assert "--trace cuda" in err.value.hint
    with pytest.raises(KernelscopeError, match="not a timeline"):
        open_timeline(DATA / "models" / "small_cnn.onnx")


@pytest.fixture()
def nsys_env(monkeypatch: pytest.MonkeyPatch):
    return monkeypatch  # find_tool follows $KERNELSCOPE_NSYS: nothing to clear


def test_nsys_rep_without_nsys_says_what_to_do(tmp_path: Path, nsys_env) -> None:
    nsys_env.setenv("KERNELSCOPE_NSYS", str(tmp_path / "no-nsys"))
    report = tmp_path / "run.nsys-rep"
    report.write_bytes(b"not read without nsys")
    with pytest.raises(KernelscopeError, match="needs Nsight Systems' nsys") as err:
        read_nsys(report)
    assert "nsys export --type sqlite" in err.value.hint
    assert report.read_bytes() == b"not read without nsys"


def test_nsys_rep_is_exported_once_with_nsys(tmp_path: Path, nsys_env) -> None:
    calls = tmp_path / "calls"
    nsys = tmp_path / "nsys"
    nsys.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$@" >> {calls}\n'
        'out=""; while [ $# -gt 0 ]; do [ "$1" = --output ] && out="$2"; shift; done\n'
        f'cp {NSYS_SMALL} "$out"\n'
    )
    nsys.chmod(0o755)
    nsys_env.setenv("KERNELSCOPE_NSYS", str(nsys))
    report = tmp_path / "run.nsys-rep"
    report.write_bytes(b"a report")
    t = open_timeline(report)
    assert t.origin == str(report) and len(t.calls) == 60
    assert open_timeline(report).kernel_time_us == t.kernel_time_us
    exports = [ln for ln in calls.read_text().splitlines() if ln.startswith("export")]
    assert len(exports) == 1 and exports[0].startswith("export --type sqlite")


def test_nsys_export_that_fails_is_reported(tmp_path: Path, nsys_env) -> None:
    nsys = tmp_path / "nsys"
    nsys.write_text("#!/usr/bin/env bash\necho 'Failed to open the report' >&2\nexit 1\n")
    nsys.chmod(0o755)
    nsys_env.setenv("KERNELSCOPE_NSYS", str(nsys))
    report = tmp_path / "broken.nsys-rep"
    report.write_bytes(b"broken")
    with pytest.raises(KernelscopeError, match="nsys could not export") as err:
        read_nsys(report)
    assert "Failed to open the report" in err.value.details


def test_cli_timeline_of_an_nsys_export(tmp_path: Path) -> None:
    proc = _cli("timeline", str(NSYS_SMALL), "--json", "--select", "1")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["source"] == "nsys" and len(out["calls"]) == 60
    assert out["kernel_shares"][0]["name"] == "gemv2T_kernel_val"
    assert (
        out["selection"]["kernel"] == "gemv2T_kernel_val" and out["selection"]["launch_skip"] == 1
    )
    text = _cli("timeline", str(NSYS_SMALL), "--top", "3", "--select", "1").stdout
    assert "gemv2T_kernel_val" in text and "95.1%" in text and "... and 7 more" in text
    assert "ncu --launch-skip 1 --launch-count 1" in text
    bad = _cli("timeline", str(DATA / "models" / "small_cnn.onnx"))
    assert bad.returncode == 1 and "not a timeline" in bad.stderr and "Traceback" not in bad.stderr


# --- the runner's timeline of a workspace ---------------------------------------------------


def test_recorded_launch_sequence_is_the_vms_own(build_once) -> None:
    """manifest.calls, read from TVM's IR during the build, against the call instructions of
    the VM bytecode TVM makes for the same model: one kernel, launched three times."""
    import runpy

    import tvm

    ws = build_once("repeated_layers.py")
    sequence = launch_sequence(ws)
    assert sequence is not None and len(sequence) == 8
    assert sequence.count("fused_matmul_add_relu_kernel") == 3
    assert len({k.name for k in ws.manifest.kernels}) == 4
    mod = runpy.run_path(str(DATA / "models" / "repeated_layers.py"))["mod"]
    text = tvm.compile(mod, target=tvm.target.Target({"kind": "cuda", "arch": "sm_90"})).as_text()
    body = text.split(f"@{ws.manifest.entry}:", 1)[1].split("\n\n", 1)[0]
    primfuncs = {k.primfunc for k in ws.manifest.kernels if k.launched}
    called = [m for m in re.findall(r"call\s+(\S+)", body) if m in primfuncs]
    assert called == ws.manifest.calls


PROF_NCU = """
out=""; while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
[ -n "$out" ] || exit 0  # --version
for k in LAUNCHES; do echo "==PROF== Profiling \\"$k\\" - 0: 0%....50%....100% - 9 passes"; done
cp REPORT "$out.ncu-rep"
"""


def test_profile_progress_counts_every_launch_of_a_reused_kernel(
    build_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "also fix": progress follows the launch sequence (8 launches from 4 kernels, per
    pass), so it reaches its end with the last launch and not a third of the way before."""
    ws_path = tmp_path / "ws"
    shutil.copytree(build_once("repeated_layers.py").path, ws_path)
    from kernelscope.core.workspace import Workspace

    passes = 2  # one warm-up pass, one profiled: ncu profiles both
    launches = launch_sequence(Workspace.open(ws_path)) * passes
    ncu = tmp_path / "ncu"
    ncu.write_text(
        "#!/usr/bin/env bash\n"
        + PROF_NCU.replace("LAUNCHES", " ".join(launches)).replace("REPORT", str(H200_REPORT))
    )
    ncu.chmod(0o755)
    monkeypatch.setenv("KERNELSCOPE_NCU", str(ncu))
    seen: list[float] = []
    result = profile_workspace(
        ProfileRequest(workspace=ws_path, warmup=1, iterations=1),
        progress=lambda step, f, m: seen.append(f) if step == "profile" else None,
    )
    assert result.launches == 16 and len(seen) == 16
    assert seen == sorted(seen) and len(set(seen)) == 16  # moves at every launch
    assert seen[-1] == pytest.approx(0.95) and seen[-2] < 0.95


def _runner_answer(ws, durations: dict[str, float]) -> dict:  # noqa: ANN001
    """What the runner's ``--timeline`` prints for this workspace, with given durations."""
    start, calls = 0.0, []
    for prim in ws.manifest.calls:
        kernels = [k.name for k in ws.manifest.kernels if k.primfunc == prim and k.launched]
        d = durations[kernels[0]]
        calls.append(
            {"primfunc": prim, "kernels": kernels, "start_us": start, "duration_us": d,
             "min_us": d, "max_us": d}
        )  # fmt: skip
        start += d + 1.0
    return {
        "mode": "timeline",
        "device": "NVIDIA H200",
        "warmup": 3,
        "repeat": 10,
        "saturated": [True] * 10,
        "calls": calls,
        "plain_gpu_us": start,
        "plain_wall_ms": 1.0,
    }


def test_runner_timeline_names_operators_and_selects_the_nth_launch(
    build_once, tmp_path: Path
) -> None:
    ws = build_once("repeated_layers.py")
    durations = {
        "transpose_kernel": 2.0,
        "fused_matmul_add_relu_kernel": 5.0,
        "transpose1_kernel": 1.5,
        "fused_matmul1_add1_kernel": 4.0,
    }
    t = from_runner(_runner_answer(ws, durations), ws, host="gpu-box")
    assert [c.op_type for c in t.calls[:2]] == ["permute_dims", "matmul"]
    assert t.calls[1].ops == "matmul+add+nn.relu" and t.calls[1].grid == [1, 1, 1]
    ops = {s.name: s for s in t.op_shares()}
    assert ops["matmul"].calls == 4 and ops["matmul"].total_us == pytest.approx(19.0)
    third = [c.index for c in t.calls if c.name == "fused_matmul_add_relu_kernel"][2]
    sel = t.selection(third, warmup=1)
    # a warm-up pass of 8 launches, then this pass's launches before this one
    assert sel.launch_skip == 8 + third and sel.launch_count == 1
    assert sel.occurrence == 3 + 2  # its third launch in this pass, after three in the warm-up
    saved = t.save(tmp_path / "t.json")
    again = Timeline.load(saved)
    assert again.calls == t.calls and again.meta["host"] == "gpu-box"
    proc = _cli("timeline", str(saved), "--calls", "--select", str(third), "--profile-warmup", "1")
    assert proc.returncode == 0, proc.stderr
    assert "fused_matmul_add_relu_kernel" in proc.stdout and "matmul+add+nn.relu" in proc.stdout
    assert (
        f"kernelscope profile {ws.path} --set full --launch-skip {8 + third} --launch-count 1 "
        "--warmup 1 --iterations 1 --expect-kernel fused_matmul_add_relu_kernel" in proc.stdout
    )


def test_a_damaged_timeline_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "t.json"
    bad.write_text('{"calls": [{"index": 0}], "version": 1}')
    with pytest.raises(KernelscopeError, match="not a kernelscope timeline"):
        Timeline.load(bad)
    bad.write_text("{")
    with pytest.raises(KernelscopeError, match="not a kernelscope timeline"):
        Timeline.load(bad)


def test_timeline_here_without_a_gpu_says_where_to_measure(build_once, tmp_path: Path) -> None:
    from kernelscope.core.profiling import profiling_problem

    if profiling_problem() is None:
        pytest.skip("this machine has a GPU")
    ws = tmp_path / "ws"
    shutil.copytree(build_once("small_cnn.onnx").path, ws)
    proc = _cli("timeline", str(ws))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "could not be measured on this machine" in proc.stderr and "--host" in proc.stderr
    assert not (ws / "timelines").exists()


def test_runner_instrument_marks_every_call_of_a_kernel_primfunc() -> None:
    """The runner's VirtualMachine.set_instrument callback on a real VM (built for the CPU:
    there is no GPU here), with timestamps for CUDA events: every call of a PrimFunc that
    launches kernels is marked before and after, reused ones each time, builtins never."""
    import runpy
    import time

    import numpy as np
    import tvm

    from kernelscope.core.profiling.runner import timeline as runner_timeline

    mod = runpy.run_path(str(DATA / "models" / "repeated_layers.py"))["mod"]
    vm = tvm.relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    args = [
        tvm.runtime.tensor(np.ones([int(d) for d in p.ty.shape], "float32"))
        for p in mod["forward"].params
    ]
    plain = vm["forward"](*args).numpy()
    recorder = runner_timeline.CallRecorder({"matmul": ["m"], "relu": ["r"]}, time.perf_counter_ns)
    vm.set_instrument(recorder)
    out = vm["forward"](*args).numpy()
    calls = recorder.take()
    assert [name for name, _, _ in calls] == ["matmul", "relu"] * 3  # the head is matmul1
    assert all(start <= end for _, start, end in calls)
    assert all(a[2] <= b[1] for a, b in zip(calls, calls[1:], strict=False))
    assert np.array_equal(out, plain)  # the instrument lets every call run
    recorder.enabled = False
    vm["forward"](*args)
    assert recorder.take() == []


# --- "profile this kernel": one call under ncu ---------------------------------------------

# Stands in for ncu with its documented launch filters (ncu --help): the run launches the
# workspace's recorded sequence once per pass; --kernel-name keeps the launches it matches
# (exact name, or regex: searched in the function name), --launch-skip and --launch-count
# count those, --launch-skip-before-match counts every launch. It profiles what they select.
FILTER_NCU = """#!PYTHON
import re, shutil, sys
args = sys.argv[1:]
def opt(name, default=None):
    return args[args.index(name) + 1] if name in args else default
sequence = "SEQUENCE".split()
passes = int(opt("--warmup", "0")) + int(opt("--iterations", "1"))
launches = sequence * passes
name = opt("--kernel-name")
def match(k):
    if name is None:
        return True
    if name.startswith("regex:"):
        return re.search(name[6:], k) is not None
    return k == name
before = int(opt("--launch-skip-before-match", "0"))
chosen = [i for i, k in enumerate(launches) if i >= before and match(k)]
chosen = chosen[int(opt("--launch-skip", "0")):]
count = opt("--launch-count")
chosen = chosen[: int(count)] if count is not None else chosen
for i in chosen:
    print(f'==PROF== Profiling "{launches[i]}" - {i}: 0%....50%....100% - 9 passes')
shutil.copy("REPORT", opt("-o") + ".ncu-rep")
"""


def _filter_ncu(tmp_path: Path, sequence: list[str]) -> Path:
    ncu = tmp_path / "filter-ncu"
    ncu.write_text(
        FILTER_NCU.replace("PYTHON", sys.executable)
        .replace("SEQUENCE", " ".join(sequence))
        .replace("REPORT", str(H200_REPORT))
    )
    ncu.chmod(0o755)
    return ncu


@pytest.fixture()
def repeated_ws(build_once, tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    shutil.copytree(build_once("repeated_layers.py").path, path)
    return path


def test_profile_this_call_profiles_exactly_that_launch(
    repeated_ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every call of the timeline, reused kernel or not, selected after a warm-up pass:
    ncu's filters as documented profile that one launch, and it is the call's kernel."""
    from kernelscope.core.workspace import Workspace

    ws = Workspace.open(repeated_ws)
    sequence = launch_sequence(ws)
    monkeypatch.setenv("KERNELSCOPE_NCU", str(_filter_ncu(tmp_path, sequence)))
    t = from_runner(_runner_answer(ws, dict.fromkeys(sequence, 1.0)), ws)
    for call in t.calls:
        sel = t.selection(call.index, warmup=1)
        request = sel.profile_request(repeated_ws, set=None, name=f"call{call.index}")
        assert (request.launch_skip, request.warmup, request.iterations) == (
            sel.launch_skip, 1, 1
        )  # fmt: skip
        result = profile_workspace(request)
        profiled = re.findall(r'Profiling "([^"]+)" - (\d+)', result.log)
        assert profiled == [(call.kernels[0], str(len(sequence) + call.index))]
    assert len(list((repeated_ws / "profiles").glob("call*.ncu-rep"))) == len(t.calls)


def test_profile_this_call_refuses_a_run_that_launched_other_kernels(
    repeated_ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A timeline that is not this run's (the model launches in another order now): the
    launch ncu profiled is not the call's kernel, which is said, and no report is kept."""
    from kernelscope.core.workspace import Workspace

    ws = Workspace.open(repeated_ws)
    sequence = launch_sequence(ws)
    monkeypatch.setenv("KERNELSCOPE_NCU", str(_filter_ncu(tmp_path, sequence[1:] + sequence[:1])))
    t = from_runner(_runner_answer(ws, dict.fromkeys(sequence, 1.0)), ws)
    sel = t.selection(1, warmup=0)
    with pytest.raises(KernelscopeError, match=f"not {sel.kernel}") as err:
        profile_workspace(
            ProfileRequest(
                workspace=repeated_ws,
                launch_skip=sel.launch_skip,
                launch_count=1,
                expect_kernel=sel.kernel,
            )
        )
    assert "measure the timeline again" in err.value.hint
    assert list((repeated_ws / "profiles").iterdir()) == []


def test_calibration_takes_the_event_records_off_each_call() -> None:
    """The runner's correction: what the pair adds off each duration, that and the record
    between two pairs off each start per call before, the measured duration kept; a call
    never starts before the one before it ends."""
    from kernelscope.core.profiling.runner import timeline as runner_timeline

    raw = [
        {"start_us": 0.0, "duration_us": 5.8, "min_us": 5.7, "max_us": 6.0},
        {"start_us": 6.0, "duration_us": 3.4, "min_us": 3.3, "max_us": 3.5},
        {"start_us": 11.8, "duration_us": 1.0, "min_us": 0.9, "max_us": 1.1},
    ]
    fixed = runner_timeline.calibrate(raw, 1.3, 1.3)
    assert [c["duration_us"] for c in fixed] == pytest.approx([4.5, 2.1, 0.0])
    assert [c["raw_us"] for c in fixed] == [5.8, 3.4, 1.0]
    assert fixed[1]["min_us"] == pytest.approx(2.0) and fixed[2]["max_us"] == 0.0
    # 6.0 - 2.6 would fall inside the first call: it starts when that one ends
    assert [c["start_us"] for c in fixed] == pytest.approx([0.0, 4.5, 11.8 - 4 * 1.3])
    ends = [c["start_us"] + c["duration_us"] for c in fixed]
    assert all(end <= c["start_us"] for end, c in zip(ends, fixed[1:], strict=False))
    assert raw[0]["duration_us"] == 5.8  # the measured calls are left as they were


def test_a_calibrated_runner_timeline_keeps_the_measured_durations(build_once) -> None:
    ws = build_once("repeated_layers.py")
    answer = _runner_answer(ws, dict.fromkeys(launch_sequence(ws), 2.0))
    answer["calls"] = [{**c, "raw_us": c["duration_us"] + 1.3} for c in answer["calls"]]
    t = from_runner(answer, ws)
    assert all(c.raw_us == pytest.approx(c.duration_us + 1.3) for c in t.calls)
    assert Timeline.from_dict(t.to_dict()).calls == t.calls


class _Event:
    t = 0.0


class _FakeGpu:
    """The CUDA driver as the runner's timeline uses it, on a simulated GPU clock (µs):
    recording an event costs the stream ``record_us`` before it takes its timestamp, a
    kernel advances the clock by its duration, plus ``launch_us`` when it follows an event
    record and ``gap_us`` when it follows a kernel. That is what the H200 showed (issue 19):
    back-to-back records 1.26 µs apart, an event pair around a kernel 2.25 µs longer than
    ncu's duration of it (so ~1 µs of launch after the record), a plain pass's kernels
    ~0.1 µs apart."""

    record_us = 1.3

    def __init__(self, launch_us: float = 0.0, gap_us: float = 0.0) -> None:
        self.clock = 0.0
        self.live: set[int] = set()
        self.launch_us, self.gap_us = launch_us, gap_us
        self.after_record = True

    def use_primary_context(self, ordinal: int = 0) -> None:
        pass

    def event(self) -> _Event:
        ev = _Event()
        self.live.add(id(ev))
        return ev

    def record(self, ev: _Event) -> None:
        self.clock += self.record_us
        ev.t = self.clock
        self.after_record = True

    def kernel(self, duration: float) -> None:
        self.clock += duration + (self.launch_us if self.after_record else self.gap_us)
        self.after_record = False

    def elapsed_ms(self, a: _Event, b: _Event) -> float:
        return (b.t - a.t) / 1000

    def destroy(self, ev: _Event) -> None:
        self.live.discard(id(ev))

    def spin(self, ns: int) -> None:
        self.kernel(5.0)

    def reached(self, ev: _Event) -> bool:
        return False  # the pass was enqueued before the spinning kernel ended

    def synchronize(self) -> None:
        pass

    def driver_version(self) -> int:
        return 13000


def _fake_runner(monkeypatch, gpu: _FakeGpu, kernels: dict[str, float], sequence: list[str]):  # noqa: ANN001, ANN202
    """The runner's timeline module, its model and CUDA replaced by ``gpu`` running
    ``sequence``."""
    from kernelscope.core.profiling.runner import timeline as runner_timeline

    class Model:
        def __init__(self, workspace, inputs, seed) -> None:  # noqa: ANN001
            self.args, self.calls, self.device = [], {"count": 1}, type("D", (), {})()
            self.device.sync = lambda: None
            self.device.device_name = "Simulated GPU"
            self.instrument = None
            self.vm = type("VM", (), {"set_instrument": self._set})()

        def _set(self, fn) -> None:  # noqa: ANN001
            self.instrument = fn

        def kernels_by_primfunc(self) -> dict[str, list[str]]:
            return {name: [f"{name}_kernel"] for name in kernels}

        def func(self) -> None:
            for name in sequence:
                if self.instrument:
                    self.instrument(None, name, True, None)
                gpu.kernel(kernels[name])
                if self.instrument:
                    self.instrument(None, name, False, None)

        def run(self, times: int) -> None:
            for _ in range(times):
                self.func()

    monkeypatch.setattr(runner_timeline, "Model", Model)
    monkeypatch.setattr(runner_timeline, "Cuda", lambda: gpu)
    return runner_timeline


def test_the_runners_timeline_takes_the_measured_record_cost_off_each_call(monkeypatch) -> None:
    """The runner's --timeline end to end on a simulated GPU: each call's duration comes out
    as the kernel's own, the measured pair stays as raw_us, the starts close up, and no event
    is left alive."""
    gpu = _FakeGpu()
    kernels = {"conv": 5.3, "pool": 2.1, "dense": 16.9}
    sequence = ["conv", "pool", "conv", "dense"]
    runner_timeline = _fake_runner(monkeypatch, gpu, kernels, sequence)
    out = runner_timeline.timeline(Path("ws"), None, warmup=1, repeat=3, seed=0)
    calls = out["calls"]
    assert [c["primfunc"] for c in calls] == sequence
    assert [c["duration_us"] for c in calls] == pytest.approx([kernels[n] for n in sequence])
    assert [c["raw_us"] for c in calls] == pytest.approx([kernels[n] + 1.3 for n in sequence])
    assert out["event_overhead_us"] == pytest.approx(1.3)
    assert out["raw_kernel_us"] == pytest.approx(sum(kernels[n] for n in sequence) + 4 * 1.3)
    starts = [c["start_us"] for c in calls]
    ends = [c["start_us"] + c["duration_us"] for c in calls]
    assert starts[0] == 0.0 and starts[1:] == pytest.approx(ends[:-1])  # back to back
    assert out["gap_us"]["median"] == pytest.approx(1.3)  # as measured, between the pairs
    assert all(out["saturated"]) and out["device"] == "Simulated GPU"
    assert gpu.live == set()  # every event destroyed


def test_the_launch_after_an_event_is_taken_off_each_call_too(monkeypatch) -> None:
    """Issue 19: on the H200 a kernel launched right after an event record starts ~1 µs
    later than one after a kernel, so a pair around a call reads ~2.25 µs over ncu's
    duration while records back to back are 1.26 µs apart; taking one record off left every
    call ~1 µs long. The runner takes off what the events add against the plain pass: each
    call comes out as its kernel and the plain run's gap after it, and the calls add up to
    the plain pass."""
    gpu = _FakeGpu(launch_us=1.0, gap_us=0.1)
    kernels = {"conv": 5.3, "pool": 2.1, "dense": 16.9}
    sequence = ["conv", "pool", "conv", "dense", "pool"]
    runner_timeline = _fake_runner(monkeypatch, gpu, kernels, sequence)
    out = runner_timeline.timeline(Path("ws"), None, warmup=1, repeat=3, seed=0)
    durations = [c["duration_us"] for c in out["calls"]]
    # the first kernel of the plain pass follows its record too: 0.9 µs of launch spread
    assert durations == pytest.approx([kernels[n] + 0.1 + 0.9 / 5 for n in sequence])
    assert sum(durations) == pytest.approx(out["plain_gpu_us"] - 1.3)
    assert [c["raw_us"] for c in out["calls"]] == pytest.approx(
        [kernels[n] + 1.0 + 1.3 for n in sequence]
    )
    assert out["record_cost_us"]["median"] == pytest.approx(1.3)
    assert out["event_overhead_us"] == pytest.approx(1.3 + 1.0 - 0.1 - 0.9 / 5)
