"""The model timeline: Nsight Systems exports read (a real nsys export, cut to its first
launches), what is not an export refused clearly, .nsys-rep files exported with nsys only when
it is there, time shares, the one-call ncu selection, the build's recorded launch sequence
checked against TVM's VM bytecode, and the CLI."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import ProfileRequest, launch_sequence, profile_workspace
from kernelscope.core.timeline import (
    Timeline,
    from_runner,
    open_timeline,
    read_nsys,
    read_nsys_sqlite,
)

DATA = Path(__file__).parent / "data"
NSYS_SMALL = DATA / "nsys" / "power_iteration_small.sqlite"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


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
    # ncu counts --launch-skip over the launches its name filter lets through
    assert sel.kernel_regex == "^gemv2T_kernel_val$" and sel.launch_skip == 2
    assert sel.ncu_arguments()[-4:] == ["--launch-skip", "2", "--launch-count", "1"]
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
        out["selection"]["kernel"] == "gemv2T_kernel_val" and out["selection"]["launch_skip"] == 0
    )
    text = _cli("timeline", str(NSYS_SMALL), "--top", "3", "--select", "1").stdout
    assert "gemv2T_kernel_val" in text and "95.1%" in text and "... and 7 more" in text
    assert "ncu --kernel-name 'regex:^gemv2T_kernel_val$' --launch-skip 0" in text
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
        + PROF_NCU.replace("LAUNCHES", " ".join(launches)).replace(
            "REPORT", str(DATA / "h200" / "small_cnn_h200.ncu-rep")
        )
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
    """What ``model_runner.py --timeline`` prints for this workspace, with given durations."""
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
    assert sel.launch_skip == 3 + 2 and sel.launch_count == 1  # a warm-up pass, then 2 before
    saved = t.save(tmp_path / "t.json")
    again = Timeline.load(saved)
    assert again.calls == t.calls and again.meta["host"] == "gpu-box"
    proc = _cli("timeline", str(saved), "--calls", "--select", str(third), "--profile-warmup", "1")
    assert proc.returncode == 0, proc.stderr
    assert "fused_matmul_add_relu_kernel" in proc.stdout and "matmul+add+nn.relu" in proc.stdout
    assert (
        f"kernelscope profile {ws.path} --kernel '^fused_matmul_add_relu_kernel$' " in proc.stdout
    )
    assert "--launch-skip 5 --launch-count 1 --warmup 1" in proc.stdout


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

    from kernelscope.core.profiling import model_runner

    mod = runpy.run_path(str(DATA / "models" / "repeated_layers.py"))["mod"]
    vm = tvm.relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    args = [
        tvm.runtime.tensor(np.ones([int(d) for d in p.ty.shape], "float32"))
        for p in mod["forward"].params
    ]
    plain = vm["forward"](*args).numpy()
    recorder = model_runner.CallRecorder({"matmul": ["m"], "relu": ["r"]}, time.perf_counter_ns)
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
