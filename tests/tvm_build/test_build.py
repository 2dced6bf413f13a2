"""Real builds of small models with TVM and nvcc: the workspace, the split, the line table,
the launch facts, and the ways a build can fail without losing anything."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from paths_support import DATA, data_path
from process_support import command_line, descendants, still_alive

from kernelscope.core.build import BuildRequest, build_in_child, build_model
from kernelscope.core.build.nvdisasm import parse_nvdisasm
from kernelscope.core.cli.main import main
from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.toolchain import find_tool, nvcc
from kernelscope.core.workspace import Workspace

MODELS = DATA / "models"

_BOUNDS_RE = re.compile(r"__launch_bounds__\((\d+)\)")


def test_workspace_holds_one_file_per_kernel_and_the_build_outputs(build_once) -> None:
    ws = build_once("small_cnn.onnx")
    m = ws.manifest
    assert {k.name for k in m.kernels} >= {"fused_conv2d_add_relu_kernel", "max_pool2d_kernel"}
    for role in ("cubin", "library", "tvm_source", "prelude", "unit", "sass", "log"):
        assert ws.file(role).is_file(), role
    for k in m.kernels:
        text = ws.source_text(k)
        assert text.startswith('#include "../tvm_prelude.cuh"\n')
        assert f" {k.name}(" in text
        assert text.count("__global__") == 1
        assert k.source_lines == text.count("\n")
    assert m.target == {"kind": "cuda", "arch": "sm_90"}
    assert m.versions["tvm"].startswith("0.27")
    assert "-lineinfo" in m.nvcc_flags and "--use_fast_math" in m.nvcc_flags
    # how many threads compiled it depends on the machine's load, not what it compiled
    assert "--split-compile" not in m.nvcc_flags
    assert set(m.timings) >= {"load", "tvm", "nvcc", "disassemble"}


SPLIT_COMPILE = """
import json, os, sys
os.sched_setaffinity(0, {int(c) for c in sys.argv[1:]})
from kernelscope.core.toolchain import nvcc
print(json.dumps([nvcc.split_compile(), os.getloadavg()[0]]))
"""


def test_nvcc_compiles_on_more_threads_only_where_cores_are_idle() -> None:
    """One core (or one left idle by the load): nvcc's threads would only take turns."""

    def choice(*cores: int) -> tuple[list[str], float]:
        out = subprocess.run(
            [sys.executable, "-c", SPLIT_COMPILE, *map(str, cores)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        flags, load = json.loads(out)
        return flags, load

    assert choice(0)[0] == []
    cores = sorted(os.sched_getaffinity(0))
    flags, load = choice(*cores)
    idle = len(cores) - load
    if idle >= 1.5:
        assert flags[0] == "--split-compile" and 1 < int(flags[1]) <= len(cores)
    else:
        assert flags == []


def test_launch_facts_agree_with_the_ir_and_the_source(build_once) -> None:
    ws = build_once("small_cnn.onnx")
    conv = ws.manifest.kernel("fused_conv2d_add_relu_kernel")
    assert [o.op for o in conv.ops] == ["relax.nn.conv2d", "relax.add", "relax.nn.relu"]
    conv_op = conv.ops[0]
    assert conv_op.attrs["padding"] == [1, 1, 1, 1] and conv_op.attrs["strides"] == [1, 1]
    assert [t.shape for t in conv_op.inputs] == [[2, 3, 16, 16], [8, 3, 3, 3]]
    assert conv_op.output is not None and conv_op.output.shape == [2, 8, 16, 16]
    assert {tuple(p.shape) for p in conv.params} >= {(2, 3, 16, 16), (8, 3, 3, 3)}
    # RewriteDataflowReshape turns reshapes into views: their kernels stay in the module
    # but the model never launches them (the H200 profile in test_profile confirms it).
    launched = {k.name: k.launched for k in ws.manifest.kernels}
    assert launched.pop("reshape_kernel") is False and launched.pop("reshape1_kernel") is False
    assert all(launched.values())
    for k in ws.manifest.kernels:
        threads = k.block[0] * k.block[1] * k.block[2]
        bounds = _BOUNDS_RE.search(ws.source_text(k))
        if bounds:
            assert threads == int(bounds.group(1)), k.name
        assert k.registers and k.registers > 0
        assert all(p.dtype == "float32" for p in k.params)
    pool = ws.manifest.kernel("max_pool2d_kernel")
    assert pool.ops[0].op == "relax.nn.max_pool2d"
    # one thread per output element, at least
    out = pool.ops[0].output
    assert out is not None
    assert pool.grid[0] * pool.block[0] >= int(np.prod(out.shape))


def test_every_sass_instruction_maps_to_its_kernel_file_or_a_cuda_header(build_once) -> None:
    ws = build_once("small_cnn.onnx")
    for k in ws.manifest.kernels:
        sass = ws.sass(k.name)
        real = [i for i in sass.instructions if i.opcode != "NOP"]
        assert len(real) == k.sass_instructions > 0
        own = [i for i in sass.instructions if i.kernel_line and i.kernel_line[0] == k.file]
        assert own, f"{k.name}: no instruction maps to {k.file}"
        for insn in sass.instructions:
            if insn.file is None:
                continue
            assert insn.file == k.file or not insn.file.startswith("src/"), (k.name, insn)
            if insn.file != k.file:
                assert insn.file.endswith((".h", ".hpp")), insn.file
        lines = {i.kernel_line[1] for i in own if i.kernel_line}
        assert max(lines) <= k.source_lines


def test_kernels_are_the_code_tvm_would_run(build_once, tmp_path: Path) -> None:
    """Compiling TVM's whole source the stock way gives the same instructions per kernel."""
    ws = build_once("small_cnn.onnx")
    stock = tmp_path / "stock.cu"
    stock.write_text(ws.file("tvm_source").read_text())
    nvcc.compile_unit(
        find_tool("nvcc").require(), stock, tmp_path / "stock.cubin", nvcc.tvm_flags("sm_90")
    )
    disasm = nvcc.run_tool(
        [str(find_tool("nvdisasm").require()), "-c", str(tmp_path / "stock.cubin")],
        tmp_path,
        "nvdisasm",
    )
    stock_sass = parse_nvdisasm(disasm)
    assert set(stock_sass) == {k.name for k in ws.manifest.kernels}
    for name, ks in stock_sass.items():
        assert [i.text for i in ks.instructions] == [i.text for i in ws.sass(name).instructions]


def test_unchanged_model_rebuilds_from_the_cache(build_once, tmp_path: Path) -> None:
    first = build_once("small_cnn.onnx")
    steps: list[str] = []
    again = build_model(
        BuildRequest(model=MODELS / "small_cnn.onnx", output=tmp_path / "again.kscope"),
        progress=lambda step, fraction, message: steps.append(step),
    )
    assert steps == ["cache", "done"]
    assert set(again.manifest.timings) == {*first.manifest.timings, "restore_from_cache"}
    assert [k.name for k in again.manifest.kernels] == [k.name for k in first.manifest.kernels]
    assert again.file("cubin").read_bytes() == first.file("cubin").read_bytes()


def test_a_build_cached_by_other_code_is_made_again(
    build_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build code changed (another kernelscope, a changed checkout): its cached build may
    lack what the new code records, so it is not restored."""
    from kernelscope.core.build import pipeline

    build_once("small_cnn.onnx")
    request = BuildRequest(model=MODELS / "small_cnn.onnx", output=tmp_path / "b.kscope")
    same = pipeline.plan_build(request).key
    monkeypatch.setattr(pipeline, "_code_digest", lambda: "other code")
    assert pipeline.plan_build(request).key != same
    steps: list[str] = []
    build_model(request, progress=lambda step, fraction, message: steps.append(step))
    assert "cache" not in steps and steps[-1] == "done"  # built, not restored


def test_relax_python_model_with_random_weights(build_once) -> None:
    ws = build_once("tiny_mlp.py")
    m = ws.manifest
    assert m.model_format == "relax-py" and m.entry == "forward"
    assert [t.shape for t in m.inputs] == [[4, 64]]
    assert m.params_mode == "random" and m.params_seed == 0
    params = np.load(ws.file("params"))
    assert sorted(params.files) == sorted(w.name for w in m.weights)
    assert params["fc1.weight"].shape == (128, 64)
    softmax = m.kernel("softmax_kernel")
    assert [o.op for o in softmax.ops] == ["relax.nn.softmax"]
    assert softmax.ops[0].attrs["axis"] == -1


def test_onnx_weights_from_graph_inputs_and_external_data(build_once) -> None:
    noparams = build_once("small_mlp_noparams.onnx")
    assert noparams.manifest.params_mode == "random"
    assert any("seeded random values" in n for n in noparams.manifest.notes)
    assert sorted(np.load(noparams.file("params")).files) == [
        "fc1.bias",
        "fc1.weight",
        "fc2.weight",
    ]
    external = build_once("small_cnn_external.onnx")
    assert external.manifest.params_mode == "model"
    inline = build_once("small_cnn.onnx")
    a, b = np.load(external.file("params")), np.load(inline.file("params"))
    assert sorted(a.files) == sorted(b.files)
    assert all(np.array_equal(a[k], b[k]) for k in a.files)


def test_runtime_params_keep_weights_as_inputs(build_once) -> None:
    ws = build_once("small_mlp_noparams.onnx", params="runtime")
    assert ws.manifest.params_mode == "runtime"  # profiling must then be given every value
    assert [t.name for t in ws.manifest.inputs] == ["input", "fc1.weight", "fc1.bias", "fc2.weight"]
    assert "params" not in ws.manifest.files


@pytest.mark.slow
def test_dynamic_dimension_needs_a_shape(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError, match="dynamic shape") as err:
        build_model(BuildRequest(model=MODELS / "dynamic_batch.onnx", output=tmp_path / "d"))
    assert "--shape x=" in err.value.hint
    ws = build_model(
        BuildRequest(
            model=MODELS / "dynamic_batch.onnx", output=tmp_path / "d", shapes={"x": [8, 16]}
        )
    )
    assert [t.shape for t in ws.manifest.inputs] == [[8, 16]]


def test_failed_build_leaves_the_previous_workspace(build_once, tmp_path: Path) -> None:
    good = build_once("tiny_mlp.py")
    target = tmp_path / "ws.kscope"
    shutil.copytree(good.path, target)
    before = (target / "manifest.json").read_bytes()
    with pytest.raises(KernelscopeError, match="mystery_node"):
        build_model(
            BuildRequest(
                model=MODELS / "unsupported_op.onnx", output=target, replace_other_model=True
            )
        )
    assert (target / "manifest.json").read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if ".building-" in p.name]


def test_not_a_model(tmp_path: Path) -> None:
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(os.urandom(2000))
    with pytest.raises(KernelscopeError, match="not a readable ONNX model"):
        build_model(BuildRequest(model=junk, output=tmp_path / "j"))
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(KernelscopeError, match="not a model"):
        build_model(BuildRequest(model=text, output=tmp_path / "t"))
    assert not (tmp_path / "j").exists() and not (tmp_path / "t").exists()


def test_folder_with_other_content_is_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.mkdir()
    (target / "thesis.tex").write_text("years of work")
    with pytest.raises(KernelscopeError, match="refusing to overwrite"):
        build_model(BuildRequest(model=MODELS / "small_cnn.onnx", output=target))
    assert (target / "thesis.tex").read_text() == "years of work"


def test_missing_nvcc_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_tool("nvcc").found
    monkeypatch.setenv("KERNELSCOPE_NVCC", str(tmp_path / "no-nvcc-here"))
    with pytest.raises(KernelscopeError, match="nvcc not found") as err:
        build_model(BuildRequest(model=MODELS / "small_cnn.onnx", output=tmp_path / "w"))
    assert "nvidia-cuda-nvcc" in err.value.hint
    monkeypatch.undo()  # the environment, not a cache, says where the tools are
    assert find_tool("nvcc").found


def test_nvcc_error_names_the_kernel_file_and_keeps_the_log(tmp_path: Path) -> None:
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "broken_kernel.cu").write_text(
        'extern "C" __global__ void broken_kernel(float* a) {\n  a[0] = undefined_name;\n}\n'
    )
    unit = tmp_path / "module.cu"
    unit.write_text('#include "kernels/broken_kernel.cu"\n')
    with pytest.raises(KernelscopeError, match=r"kernels/broken_kernel\.cu, line 2") as err:
        nvcc.compile_unit(find_tool("nvcc").require(), unit, tmp_path / "m.cubin", ["-arch=sm_90"])
    assert "undefined_name" in err.value.details


def test_cli_build_prints_the_kernel_table(
    build_once, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_once("small_cnn.onnx")  # warm cache: the CLI run below restores it
    assert main(["build", str(MODELS / "small_cnn.onnx"), "-o", str(tmp_path / "c")]) == 0
    out, err = capsys.readouterr()
    assert "fused_conv2d_add_relu_kernel" in out and "nn.conv2d+add+nn.relu" in out
    header = out.splitlines()[0].split()
    assert header[:4] == ["kernel", "grid", "block", "regs"]
    assert "reusing" in err


@pytest.mark.slow
def test_cli_reports_errors_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", str(MODELS / "unsupported_op.onnx"), "-o", str(tmp_path / "u")]) == 1
    err = capsys.readouterr().err
    assert "mystery_node (NotARealOp)" in err and "Traceback" not in err


def test_doctor_lists_the_tools(capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor"])
    out = capsys.readouterr().out
    assert re.search(r"^nvcc\s+ok \d+\.\d+", out, re.M)
    assert re.search(r"^ncu\s+(ok|MISSING)", out, re.M)


# --- builds in a child process: crashes, kills and Cancel leave the workspace as it was ------


def _build_children() -> list[int]:
    return [pid for pid in descendants() if "kernelscope.core.build" in command_line(pid)]


@pytest.fixture()
def previous(build_once, tmp_path: Path) -> Path:
    """A workspace folder holding an earlier build (tiny_mlp.py) that must survive."""
    target = tmp_path / "ws.kscope"
    shutil.copytree(build_once("tiny_mlp.py").path, target)
    return target


def _unchanged(previous: Path) -> bool:
    leftovers = [p.name for p in previous.parent.iterdir() if p != previous]
    return not leftovers and Workspace.open(previous).manifest.model == "tiny_mlp.py"


def test_a_workspace_of_another_model_is_replaced_only_when_asked(
    previous: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's workspace named with -o and another model given: the build is refused,
    saying what the folder holds; the same model rebuilds; --force replaces it, profiles
    of the other model and all."""
    report = data_path("ncu/mlp/mlp.ncu-rep")
    Workspace.open(previous).attach_profile(report)
    before = (previous / "manifest.json").read_bytes()
    other = MODELS / "small_cnn.onnx"
    assert main(["build", str(other), "-o", str(previous)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"kernelscope: error: {previous} holds the build of another model (tiny_mlp.py), not "
        "of small_cnn.onnx; refusing to replace it\n  hint: choose another workspace folder "
        "with -o, or pass --force"
    )
    assert (previous / "manifest.json").read_bytes() == before
    assert _unchanged(previous) and (previous / "profiles" / report.name).is_file()

    # the same model, also a renamed copy of it: rebuilt in place, its profiles kept
    assert main(["build", str(MODELS / "tiny_mlp.py"), "-o", str(previous)]) == 0
    copy = tmp_path / "copy" / "renamed_mlp.py"
    copy.parent.mkdir()
    shutil.copy(MODELS / "tiny_mlp.py", copy)
    assert main(["build", str(copy), "-o", str(previous)]) == 0
    assert (previous / "profiles" / report.name).is_file()

    assert main(["build", str(other), "-o", str(previous), "--force"]) == 0
    assert Workspace.open(previous).manifest.model == "small_cnn.onnx"
    assert not (previous / "profiles").exists()  # the other model's profiles went with it


@pytest.mark.slow
def test_a_build_in_a_child_reports_what_an_in_process_build_does(tmp_path: Path) -> None:
    calls: dict[str, list[tuple]] = {"here": [], "child": []}
    built = {}
    for where, build in (("here", build_model), ("child", build_in_child)):
        request = BuildRequest(
            model=MODELS / "dynamic_batch.onnx",
            output=tmp_path / where,
            shapes={"x": [8, 16]},
            use_cache=False,
        )
        built[where] = build(request, progress=lambda *call, w=where: calls[w].append(call))
    strip = [[(step, fraction) for step, fraction, _ in calls[w]] for w in ("here", "child")]
    assert strip[0] == strip[1]
    assert [step for step, _ in strip[0]] == [
        "load", "tvm", "split", "nvcc", "disassemble", "export", "done"
    ]  # fmt: skip
    here, child = built["here"], built["child"]
    # (nvcc does not write byte-identical cubins twice; the instructions are the same)
    assert child.file("sass").read_bytes() == here.file("sass").read_bytes()
    assert child.manifest.kernels == here.manifest.kernels


@pytest.mark.slow
def test_a_build_in_a_child_keeps_tvm_out_of_the_calling_process(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from kernelscope.core.build import BuildRequest, build_in_child\n"
        "ws = build_in_child(BuildRequest(model=Path(sys.argv[1]), output=Path(sys.argv[2]),"
        " shapes={'x': [8, 16]}, use_cache=False))\n"
        "print(len(ws.manifest.kernels), *(m in sys.modules for m in ('tvm', 'onnx')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(MODELS / "dynamic_batch.onnx"), str(tmp_path / "w")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["1", "False", "False"]


@pytest.mark.slow
def test_a_tvm_crash_is_a_clear_error_and_keeps_the_workspace(previous: Path) -> None:
    """TVM really segfaults on this model (TVM 0.27); the CLI says so and lives.
    (In a process of its own, as a terminal sees it: without pytest's log capture.)"""
    model = MODELS / "holed_primfunc_crash.py"
    proc = subprocess.run(
        [sys.executable, "-m", "kernelscope.core.cli", "build", str(model)]
        + ["-o", str(previous), "--force"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 1
    err = proc.stderr
    assert (
        "kernelscope: error: building holed_primfunc_crash.py crashed in load_model: "
        "killed by SIGSEGV (Segmentation fault)\n"
    ) in err
    hint = re.search(r"hint: nothing was changed in (\S+); the child's full log is in (\S+)", err)
    assert hint and hint.group(1) == str(previous)
    log = Path(hint.group(2)).read_text()
    assert "building " + str(model) in log  # what the child was doing...
    assert "Segfault encountered" in log and "Objects/call.c" in log  # ... TVM's dump
    # the dump stays in the log: the message and the log's path are what the terminal shows
    assert "Objects/call.c" not in err and "Segfault" not in err
    assert err.count("crashed in load_model") == 1  # said once, as the error
    assert err.rstrip().endswith(hint.group(0))
    assert _unchanged(previous)


@pytest.mark.slow
def test_a_build_child_killed_mid_build_is_reported(previous: Path) -> None:
    killed: list[int] = []

    def progress(step: str, fraction: float | None, message: str) -> None:
        if step == "tvm":
            killed.extend(_build_children())
            os.kill(killed[0], signal.SIGKILL)

    request = BuildRequest(
        model=MODELS / "small_cnn.onnx", output=previous, use_cache=False, replace_other_model=True
    )
    with pytest.raises(KernelscopeError) as err:
        build_in_child(request, progress=progress)
    assert len(killed) == 1
    assert err.value.message == (
        "building small_cnn.onnx crashed in tvm.compile: killed by SIGKILL (Killed)"
    )
    assert err.value.hint.startswith(f"nothing was changed in {previous}; ")
    assert _unchanged(previous)


class _CancelDuringNvcc:
    """A Cancel that asks to stop once nvcc runs, noting every process the build has then."""

    def __init__(self) -> None:
        self.processes: list[int] = []

    def is_set(self) -> bool:
        if not self.processes:
            below = descendants()
            if any(Path(command_line(pid).split(" ")[0]).name == "nvcc" for pid in below):
                self.processes = below
        return bool(self.processes)


@pytest.mark.slow
def test_cancel_stops_the_build_child_and_nvcc(previous: Path) -> None:
    cancel = _CancelDuringNvcc()
    request = BuildRequest(
        model=MODELS / "small_cnn.onnx", output=previous, use_cache=False, replace_other_model=True
    )
    with pytest.raises(Cancelled, match="building small_cnn.onnx cancelled"):
        build_in_child(request, cancel=cancel)
    assert len(cancel.processes) >= 2  # the build child, nvcc (and what nvcc started)
    assert not still_alive(cancel.processes)
    assert _unchanged(previous)


@pytest.mark.slow
def test_ctrl_c_mid_build_keeps_the_previous_workspace(previous: Path) -> None:
    """A real terminal's SIGINT reaches the CLI process (the build child has its own process
    group): the CLI stops the child and everything it started."""
    before = (previous / "manifest.json").read_bytes()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kernelscope.core.cli", "build", str(MODELS / "small_cnn.onnx")]
        + ["-o", str(previous), "--no-cache", "--force"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if "tvm.compile" in line:
            break
    below = descendants(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; nothing was changed" in err
    assert below and not still_alive(below)
    assert (previous / "manifest.json").read_bytes() == before
    assert _unchanged(previous)
