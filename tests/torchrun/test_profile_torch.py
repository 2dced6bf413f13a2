"""``kernelscope profile-torch``: a PyTorch model file under torch.compile and Nsight Compute,
here and over SSH (against the private sshd of ssh_support). This machine has neither
PyTorch nor a GPU, so the runner's own errors run for real here, and the host's ncu is a
stand-in: one that runs the runner as ncu would (with the host's Python, which has no
PyTorch), one that leaves what a real run leaves (a real H200 report). The happy path on a
GPU is benchmarks/results/torch_h200/."""

from __future__ import annotations

import json
import shlex
import subprocess
import threading
from pathlib import Path

import pytest
from cli_support import run_cli
from paths_support import DATA, H200_REPORT
from ssh_support import BASE_PYTHON, SshServer, fixture_ssh_server, stand_in  # noqa: F401
from torch_support import MLP, NCU_HANGS, NCU_LEAVES_A_RUN, NCU_RUNS_THE_RUNNER

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.profiling import Check, HostReport, SshTarget, check_host, runner, runner_path
from kernelscope.core.profiling.runner.protocol import RunnerError
from kernelscope.core.profiling.runner.torch_model import load_model_file
from kernelscope.core.timeline import open_timeline
from kernelscope.core.toolchain import find_tool
from kernelscope.core.torchrun import TorchRequest, profile_torch, timeline_from_runner


def _host(
    ssh_server: SshServer, tmp_path: Path, ncu: str = "ncu", **options: object
) -> TorchRequest:
    return TorchRequest(
        model=MLP,
        output=tmp_path / "mlp.torchrun",
        host=SshTarget(ssh_server.target, ssh_server.options, BASE_PYTHON, ncu),
        **options,  # type: ignore[arg-type]
    )


def test_a_python_without_torch_says_to_install_it_there(tmp_path: Path) -> None:
    result = subprocess.run(
        [BASE_PYTHON, str(runner_path()), "--torch", str(MLP), "--run-dir", str(tmp_path / "r")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == runner.EXIT_NO_TORCH
    said = result.stderr.strip().splitlines()[-1]
    assert said.startswith("kernelscope runner: PyTorch is not installed for ")
    assert "kernelscope installs none of it" in said and "Traceback" not in result.stderr
    assert "--python" not in said  # the window shows it too: the caller's hints name the way


def test_a_file_without_the_model_names_what_is_missing() -> None:
    with pytest.raises(RunnerError, match=r"no_model.py defines no `model`: define `model`"):
        load_model_file(DATA / "torch" / "no_model.py", lambda v: False)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = 1\n", "defines no `model` and no `example_inputs`"),
        ("model = 3\nexample_inputs = ()\n", "a `model` that is not callable (int)"),
        ("class M:\n    pass\na, b = M(), M()\nexample_inputs = ()\n", "several nn.Modules (a, b)"),
        ("raise ValueError('no weights here')\n", "running the file failed: ValueError: no we"),
        ("model = len\ndef example_inputs():\n    return 1 / 0\n", "example_inputs() failed"),
    ],
)
def test_model_file_problems_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "m.py"
    path.write_text(text)
    with pytest.raises(RunnerError) as err:
        load_model_file(path, lambda v: type(v).__name__ == "M")
    assert message in str(err.value)
    assert err.value.code == runner.EXIT_BAD_INPUT


def test_the_model_and_its_inputs_by_the_convention(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("class M:\n    def __call__(self, x):\n        return x\nnet = M()\n")
    path.write_text(path.read_text() + "def example_inputs():\n    return [1, 2]\n")
    model, inputs = load_model_file(path, lambda v: type(v).__name__ == "M")
    assert type(model).__name__ == "M" and inputs == (1, 2)
    path.write_text("model = abs\nexample_inputs = -3\n")
    assert load_model_file(path, lambda v: False) == (abs, (-3,))
    (tmp_path / "layers.py").write_text("def make():\n    return max\n")
    path.write_text("from layers import make\nmodel = make()\nexample_inputs = (1, 2)\n")
    assert load_model_file(path, lambda v: False) == (max, (1, 2))  # a module beside it


@pytest.mark.skipif(find_tool("ncu").found, reason="Nsight Compute is installed here")
def test_without_ncu_here_says_so_and_where_else(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError, match="Nsight Compute \\(ncu\\) is not installed") as e:
        profile_torch(TorchRequest(model=MLP, output=tmp_path / "run", python=BASE_PYTHON))
    assert "--host user@gpu" in e.value.hint
    assert not (tmp_path / "run").exists()


def test_bad_requests_are_refused_before_anything_runs(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError, match="no such file"):
        profile_torch(TorchRequest(model=tmp_path / "nope.py"))
    (tmp_path / "m.onnx").write_bytes(b"")
    with pytest.raises(KernelscopeError, match="not a Python file"):
        profile_torch(TorchRequest(model=tmp_path / "m.onnx"))
    other = tmp_path / "other"
    other.mkdir()
    (other / "thesis.tex").write_text("")
    with pytest.raises(KernelscopeError, match="holds other things than a torch.compile run"):
        profile_torch(TorchRequest(model=MLP, output=other))
    assert [p.name for p in other.iterdir()] == ["thesis.tex"]
    earlier = tmp_path / "earlier"
    (earlier / "inductor_cache").mkdir(parents=True)
    (earlier / "model.py").write_text("model = abs\nexample_inputs = 1\n")
    with pytest.raises(KernelscopeError, match="holds the run of another model file"):
        profile_torch(TorchRequest(model=MLP, output=earlier))
    assert (earlier / "model.py").read_text().startswith("model = abs")


def test_over_ssh_a_host_without_torch_is_told_to_install_it_there(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    ncu = stand_in(tmp_path, "ncu-runs-runner", NCU_RUNS_THE_RUNNER)
    with pytest.raises(KernelscopeError) as err:
        profile_torch(_host(ssh_server, tmp_path, ncu=str(ncu), name="r1"))
    assert err.value.message.startswith(f"PyTorch is not installed for {BASE_PYTHON}")
    assert "installs none" in err.value.hint
    assert list((tmp_path / "mlp.torchrun" / "profiles").iterdir()) == []
    assert ssh_server.leftovers() == []
    with pytest.raises(KernelscopeError, match="PyTorch is not installed"):
        profile_torch(_host(ssh_server, tmp_path, profile=False, timeline=True))
    assert ssh_server.leftovers() == []


def test_over_ssh_the_run_folder_and_report_come_back_in_one_login(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    ncu = stand_in(tmp_path, "ncu-leaves-run", NCU_LEAVES_A_RUN.replace("REPORT", str(H200_REPORT)))
    steps: list[str] = []
    logins = ssh_server.logins()
    run = profile_torch(
        _host(ssh_server, tmp_path, ncu=str(ncu), name="mlp", mode="max-autotune"),
        progress=lambda step, fraction, message: steps.append(step),
    )
    assert ssh_server.logins() - logins == 1
    assert ssh_server.leftovers() == []
    folder = tmp_path / "mlp.torchrun"
    assert run.run_dir == folder and run.report == folder / "profiles" / "mlp.ncu-rep"
    assert run.report.read_bytes() == H200_REPORT.read_bytes()
    assert run.launches == 1 and run.timeline is None
    assert (folder / "model.py").read_bytes() == MLP.read_bytes()
    assert (folder / "inductor_cache" / "ab" / "cabxyz.py").is_file()
    assert (folder / "triton_cache" / "K7").is_dir()
    facts = json.loads((folder / "run.json").read_text())
    assert facts["host"] == ssh_server.target and facts["run_dir"].endswith("/run")
    assert run.facts == facts
    profiles = sorted(p.name for p in (folder / "profiles").iterdir())
    assert profiles == ["mlp.ncu-rep", "model-folder.txt", "ncu-args.txt"]
    sent = (folder / "profiles" / "model-folder.txt").read_text().split()
    # with the modules beside it (its folder's Python files), nothing else
    assert sent == sorted(p.name for p in MLP.parent.glob("*.py"))
    assert "mlp_timeline_h200.json" not in sent
    args = shlex.split((folder / "profiles" / "ncu-args.txt").read_text())
    i = args.index("--profile-from-start")
    assert args[i + 1] == "off"
    assert args[args.index("--import-source") + 1] == "yes"
    assert args[args.index("--set") + 1] == "full"
    runner_args = args[args.index("application-only") + 1 :]
    assert runner_args[0] == BASE_PYTHON and runner_args[1].endswith("/runner.py")
    assert runner_args[2:4] == ["--torch", facts["run_dir"].removesuffix("run") + "model/mlp.py"]
    assert runner_args[6:] == ["--mode", "max-autotune", "--warmup", "3", "--iterations", "1"]
    assert steps[:2] == ["connect", "copy"] and "fetch" in steps and steps[-1] == "done"
    assert (folder / "run.log").read_text().startswith("==PROF== Profiling")


def test_cancel_stops_the_host_run_and_keeps_no_report(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    ncu = stand_in(tmp_path, "ncu-hangs", NCU_HANGS)
    cancel = threading.Event()

    def progress(step: str, fraction: float | None, message: str) -> None:
        if step == "profile":  # the first kernel is being profiled
            cancel.set()

    with pytest.raises(Cancelled):
        profile_torch(_host(ssh_server, tmp_path, ncu=str(ncu), name="c"), progress, cancel)
    assert list((tmp_path / "mlp.torchrun" / "profiles").iterdir()) == []
    assert ssh_server.leftovers() == []  # the remote folder went, and what ran in it


def test_the_cli_runs_it_and_reports_the_runners_error(
    ssh_server: SshServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ncu = stand_in(tmp_path, "ncu-runs-runner", NCU_RUNS_THE_RUNNER)
    rc, _, err = run_cli(
        ["profile-torch", MLP, "-o", tmp_path / "run", "--host", ssh_server.target,
         *(f"--ssh-option={o}" for o in ssh_server.options),
         "--remote-python", BASE_PYTHON, "--remote-ncu", ncu],
        capsys,
    )  # fmt: skip
    assert rc == 1
    assert "kernelscope: error: PyTorch is not installed for" in err


def test_the_cli_names_a_python_that_cannot_run_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--python is checked before ncu or the model runs: not there, not a program, no
    PyTorch (this machine's Python has none), each said with the interpreter's name."""
    missing, text = tmp_path / "env" / "bin" / "python", tmp_path / "python"
    text.write_text("")
    for python, said in [
        (missing, f"the Python {missing}: no such file"),
        (text, f"the Python {text} is not an executable program"),
        ("no-such-python3", "no Python called no-such-python3 on this machine's PATH"),
        (BASE_PYTHON, f"PyTorch is not installed for the Python {BASE_PYTHON}"),
    ]:
        rc, _, err = run_cli(
            ["profile-torch", MLP, "-o", tmp_path / "run", "--timeline-only", "--python", python],
            capsys,
        )
        assert rc == 1 and f"kernelscope: error: {said}" in err
        assert "name the Python that has PyTorch with --python" in err
    assert not (tmp_path / "run").exists()


def test_a_torch_timeline_opens_and_names_kernels_as_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The timeline profile-torch saved on the H200 (MLP: cuBLAS, CUTLASS and Triton kernels,
    CUPTI's demangled names) opens, and made again from its calls, names each kernel as ncu's
    report of the same run does."""
    saved = open_timeline(DATA / "torch" / "mlp_timeline_h200.json")
    assert saved.source == "torch" and saved.device == "NVIDIA H200" and len(saved.calls) == 6
    raw = {
        "device": saved.device,
        "calls": [
            {"kernels": c.kernels, "start_us": c.start_us, "duration_us": c.duration_us}
            for c in saved.calls
        ],
        "repeat": 10,
    }
    again = timeline_from_runner(raw, tmp_path / "mlp.torchrun", "gpu")
    report_names = [  # kernelscope kernels of the report made in the same run
        "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_"
        "aligna4_alignc4_execute_kernel__5x_cublas",
        "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_"
        "aligna4_alignc4_execute_split_k_kernel__5x_cublas",
        "triton_per_fused_addmm_gelu_native_layer_norm_0",
        "Kernel2",
        "splitKreduce_kernel",
        "triton_per_fused__softmax_exp_prepare_softmax_online_sub_1",
    ]
    assert [c.name for c in again.calls] == report_names
    assert again.kernel_time_us == pytest.approx(saved.kernel_time_us)
    assert again.meta["host"] == "gpu" and again.meta["repeat"] == 10
    path = again.save(tmp_path / "t.json")
    assert open_timeline(path).calls == again.calls
    rc, out, _ = run_cli(["timeline", path, "--calls"], capsys)
    assert rc == 0 and "(torch.profiler, median of 10 calls on gpu)" in out
    assert "splitKreduce_kernel" in out


def test_a_compile_failure_is_said_in_its_first_line() -> None:
    """Dynamo's and Inductor's messages run to pages: the error line takes their first line
    that says something (the runner prints the whole traceback into the log)."""
    from kernelscope.core.profiling.runner.torch_model import _first_line

    long = RuntimeError("\n  \nbackend='inductor' raised:\nLoweringException: ...\n" + "x\n" * 500)
    assert _first_line(long) == "RuntimeError: backend='inductor' raised:"
    assert _first_line(ValueError()) == "ValueError"


def test_the_cli_offers_the_modes_the_runner_takes() -> None:
    from kernelscope.core.cli.main import make_parser
    from kernelscope.core.torchrun import MODES

    parser = make_parser("profile-torch")
    command = next(a for a in parser._actions if a.dest == "command").choices["profile-torch"]
    mode = next(a for a in command._actions if a.dest == "mode")
    assert tuple(mode.choices) == MODES


def test_the_doctor_says_whether_the_host_has_pytorch(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    """remote-check against the test sshd, whose Python has no PyTorch: an optional line with
    the fix, and no claim that PyTorch models can be profiled there."""
    report = check_host(
        SshTarget(ssh_server.target, list(ssh_server.options), python=BASE_PYTHON), probe=False
    )
    torch = report.check("torch")
    assert torch is not None and torch.ok is None
    assert "no PyTorch for this Python" in torch.summary and "installs none" in torch.fix
    assert not report.can_profile_torch and report.to_dict()["can_profile_torch"] is False
    assert report.runner_check["torch"] == {"error": "no torch for this Python"}


@pytest.mark.parametrize(
    ("tvm", "torch", "verdict"),
    [
        (True, True, "ready to profile (TVM workspaces and PyTorch models)"),
        (True, None, "ready to profile"),
        (False, True, "ready to profile PyTorch models, not TVM workspaces"),
        (False, None, "not ready to profile"),
    ],
)
def test_the_doctors_verdict_names_what_the_host_can_profile(
    tvm: bool, torch: bool | None, verdict: str
) -> None:
    checks = [Check(n, True, n) for n in ("ssh", "gpu", "ncu", "counters", "python", "numpy")]
    report = HostReport("gpu", [*checks, Check("tvm", tvm, "tvm"), Check("torch", torch, "t")])
    assert report.verdict() == verdict
