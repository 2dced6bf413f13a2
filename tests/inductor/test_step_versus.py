"""TVM against torch.compile on the same decoder, step by step (``kernelscope diff WS RUN
--steps``), on recordings of one NVIDIA H100 80GB HBM3 (driver 580.159.04):

- TVM: the MLC-style Llama (tests/data/models/llama_mlc.py) built for sm_90, profiled with
  ``--steps prefill=512,decode=8`` (tests/data/llm/tiny_prefill and tiny_decode);
- torch.compile: its twin, transformers' LlamaForCausalLM in the configuration
  ``decoder_config`` reads from the same file, run by the runner's ``--torch-llama`` with the
  same steps and markers under ncu (tests/data/llm/tiny.torchrun: the two graphs' wrappers,
  the report of prefill and decode 0-3, the step list, run.json).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_support import run_cli
from llm_support import build_recorded_llama
from paths_support import DATA, data_path
from ssh_support import BASE_PYTHON, SshServer, fixture_ssh_server, stand_in  # noqa: F401

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.inductor import open_run, open_versus_steps
from kernelscope.core.inductor.step_versus import triton_step_group, versus_steps
from kernelscope.core.ncu import Profile, steps_path
from kernelscope.core.workspace import Workspace

pytestmark = pytest.mark.slow

# Stands in for the GPU host's ncu over the runner's --torch-llama: checks the decoder config
# kernelscope sent, then leaves the recorded twin's run (its step list too) and its report.
NCU_LEAVES_THE_TWIN = """args=("$@"); out=""; run=""; config=""
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    -o) out="${args[i+1]}" ;;
    --run-dir) run="${args[i+1]}" ;;
    --torch-llama) config="${args[i+1]}" ;;
  esac
done
grep -q '"kv_heads": 2' "$config" || { echo "==ERROR== no decoder config: $config"; exit 1; }
echo "$@" > "$run/ncu-args.txt"
echo '==PROF== Profiling "triton_poi_fused_add_copy__13" - 0: 0%....50%....100% - 1 pass'
cp -r RUN/. "$run/"
cp RUN/profiles/steps.ncu-rep "$out.ncu-rep"
"""

# Stands in for the host's Python: the run that times the twin's steps without ncu
# (--timed-only) writes each step's time, 5 ms a step; anything else goes to the real Python.
PYTHON_TIMES_THE_TWIN = """if [[ " $* " == *" --timed-only "* ]]; then
  args=("$@"); run=""
  for ((i = 0; i < ${#args[@]}; i++)); do
    [ "${args[i]}" = --run-dir ] && run="${args[i+1]}"
  done
  echo "$@" > "$run/timed-args.txt"
  exec PYTHON -c 'import json, sys
steps = [{"name": "prefill", "index": 0, "gpu_ms": 5.0, "wall_ms_timed": 5.1}]
steps += [{"name": "decode", "index": i, "gpu_ms": 5 + i / 10, "wall_ms_timed": 5.5}
          for i in range(8)]
result = {"device": "H100", "warmup": 3, "repeat": 10, "steps": steps}
open(sys.argv[1] + "/steps_timed.json", "w").write(json.dumps(result))
print("KERNELSCOPE_RESULT " + json.dumps(result))' "$run"
fi
exec PYTHON "$@"
"""


@pytest.fixture(scope="module")
def recorded_ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The build the recorded TVM reports were profiled from (as tests/ncu/test_step_ledger)."""
    return build_recorded_llama(tmp_path_factory.mktemp("llm128") / "llama.kscope")


@pytest.fixture
def attached(recorded_ws: Workspace, tmp_path: Path) -> Path:
    """A copy of the workspace with the recorded prefill and decode reports attached."""
    ws = tmp_path / "llama.kscope"
    shutil.copytree(recorded_ws.path, ws, ignore=shutil.ignore_patterns("profiles"))
    (ws / "profiles").mkdir()
    for name in ("tiny_prefill", "tiny_decode"):  # oldest first, as profiled
        report = data_path(f"llm/{name}.ncu-rep")
        shutil.copy(report, ws / "profiles" / report.name)
        shutil.copy(steps_path(report), steps_path(ws / "profiles" / report.name))
    return ws


def _run() -> Path:
    return data_path("llm/tiny.torchrun")


def test_each_step_pairs_with_its_twin_per_operator_group(recorded_ws: Workspace) -> None:
    tvm = [Profile.open(data_path(f"llm/{n}.ncu-rep"), workspace=recorded_ws)
           for n in ("tiny_prefill", "tiny_decode")]  # fmt: skip
    run = open_run(_run())
    v = versus_steps(recorded_ws, tvm, run, Profile.open(run.reports[-1]))
    assert [s.label for s in v.steps] == ["prefill 0"] + [f"decode {i}" for i in range(4)]
    assert v.devices == ("NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3")
    for step in v.steps:
        # every launch of both sides is in one group: the groups add up to the step
        assert step.total.tvm.time_ns == pytest.approx(step.tvm.duration_ns)
        assert step.total.inductor.time_ns == pytest.approx(step.torch.duration_ns)
        assert step.untied == 0  # each Inductor launch tied to its graph's wrapper call
    decode = v.steps[1]
    rows = {r.group: r for r in decode.rows}
    # TVM: the KV cache's paged decode attention; torch.compile: cuDNN's SDPA, a layer each
    assert rows["attention"].tvm.kernels == ["batch_decode_paged_kv_kernel"]
    assert len(rows["attention"].inductor.launches) == 2
    assert all("sdpa" in n for n in rows["attention"].inductor.kernels)
    # TVM's one rope kernel per layer; Inductor's rope in the kernels laying out q, k, v
    assert len(rows["rope"].tvm.launches) == 2 and len(rows["rope"].inductor.launches) == 10
    assert len(rows["kv-cache"].inductor.launches) == 4  # index_copy_ and the counters' add_
    assert len(decode.tvm.launches) == 24 and len(decode.torch.launches) == 43
    # measured: 180.6 µs of TVM kernels against 170.2 of torch.compile's in decode 0
    assert decode.total.winner == "Inductor"
    assert 1.0 < decode.total.ratio < 1.2
    prefill = {r.group: r for r in v.steps[0].rows}
    assert prefill["attention"].winner == "Inductor" and prefill["attention"].ratio > 5
    assert v.steps[0].total.winner == "Inductor"
    # the recording's step times were taken under ncu (4.76 ms a tiny decode step; without
    # ncu a step of this model's 1B shape takes 5.3 ms): not shown as the step's time
    assert decode.torch_event_ms is None
    assert any("taken under ncu, which intercepts every launch" in n for n in v.notes)
    assert any("rope: Inductor writes the rotary embedding" in n for n in v.notes)


def test_diff_steps_prints_each_step_and_group_with_the_winner(
    attached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["diff", str(attached), str(_run()), "--steps"], capsys)
    assert code == 0, err
    assert "tiny_prefill.ncu-rep, tiny_decode.ncu-rep" in out
    assert "NVIDIA H100 80GB HBM3" in out
    lines = out.splitlines()
    totals = [ln for ln in lines if " total " in ln]
    assert [ln.split()[:2] for ln in totals] == [["prefill", "0"]] + [
        ["decode", str(i)] for i in range(4)
    ]
    assert all("torch.compile 1.0" in ln for ln in totals[1:])
    assert "timed whole" not in out and "taken under ncu" in out
    code, out, err = run_cli(["diff", str(attached), str(_run()), "--steps", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    decode = data["steps"][1]
    assert (decode["name"], decode["index"], decode["total_len"]) == ("decode", 0, 513)
    groups = {g["group"]: g for g in decode["groups"]}
    assert groups["attention"]["tvm_kernels"] == ["batch_decode_paged_kv_kernel"]
    assert groups["attention"]["winner"] == "torch.compile"
    assert decode["total"]["winner"] == "torch.compile"
    assert decode["total"]["tvm_launches"] == 24
    assert data["devices"] == {"tvm": "NVIDIA H100 80GB HBM3", "torch": "NVIDIA H100 80GB HBM3"}
    # without --steps: every profiled step summed, each tied to its graph, and said so
    code, out, err = run_cli(["diff", str(attached), str(_run())], capsys)
    assert code == 0, err
    assert "compares them step by step" in out
    assert "not in this run's wrapper" not in out


def test_bad_input_says_what_to_profile(
    attached: Path, recorded_ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # NEW not a run folder
    code, _, err = run_cli(["diff", str(attached), str(attached), "--steps"], capsys)
    assert code != 0 and "is not a run folder" in err
    # a workspace never profiled with steps
    with pytest.raises(KernelscopeError, match="has no report profiled step by step"):
        open_versus_steps(recorded_ws.path, _run())
    # a run folder whose report lost its step list
    run = tmp_path / "twin.torchrun"
    shutil.copytree(_run(), run)
    steps_path(run / "profiles" / "steps.ncu-rep").unlink()
    with pytest.raises(KernelscopeError, match="no report profiled step by step") as err:
        open_versus_steps(attached, run)
    assert "--torch-llama" in err.value.hint
    # no step in common: TVM's prefill report alone against decode steps only
    run2 = tmp_path / "decode_only.torchrun"
    shutil.copytree(_run(), run2)
    listed = steps_path(run2 / "profiles" / "steps.ncu-rep")
    raw = json.loads(listed.read_text())
    for s in raw["steps"]:
        if s["name"] == "prefill":
            s["name"] = "warmup"
    listed.write_text(json.dumps(raw))
    report = attached / "profiles" / "tiny_prefill.ncu-rep"
    with pytest.raises(KernelscopeError, match="profiled no step in common"):
        open_versus_steps(report, run2)


def test_an_inductor_kernel_counts_by_what_it_does_itself() -> None:
    # HF's RMSNorm (with the residual add and the embedding before the first layer)
    assert (
        triton_step_group(["embedding", "to_copy", "pow", "mean", "add", "rsqrt", "mul"]) == "norm"
    )
    # q laid out for cuDNN's attention with the rotary embedding applied: rope, not attention
    q = ["scaled_dot_product_cudnn_attention", "view", "transpose", "cos", "sin", "neg", "cat"]
    assert triton_step_group(q) == "rope"
    assert triton_step_group(["arange", "add", "view", "transpose", "index_copy"]) == "kv-cache"
    assert triton_step_group(["add", "copy_"]) == "kv-cache"  # the cache's counter, in place
    assert triton_step_group(["unsafe_view", "silu", "mul"]) == "elementwise"
    assert triton_step_group(["unsqueeze", "expand", "to_copy", "bmm"]) == "matmul"


def test_profile_torch_runs_the_twin_of_a_workspace_step_by_step(
    attached: Path, ssh_server: SshServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``profile-torch WS --steps``: the decoder's configuration read from the workspace's model
    file goes to the host, the runner runs the twin under ncu, and the run's step list lands
    beside the report, so that ``diff WS RUN --steps`` reads it."""
    ncu = stand_in(tmp_path, "ncu", NCU_LEAVES_THE_TWIN.replace("RUN", str(_run())))
    python = stand_in(tmp_path, "python", PYTHON_TIMES_THE_TWIN.replace("PYTHON", BASE_PYTHON))
    run = tmp_path / "twin.torchrun"
    rc, out, err = run_cli(
        ["profile-torch", attached, "--steps", "prefill=512,decode=8",
         "--profile-steps", "prefill,decode:0-3", "-o", run, "--name", "steps",
         "--set", "none", "--metric", "gpu__time_duration.sum", "--host", ssh_server.target,
         *(f"--ssh-option={o}" for o in ssh_server.options),
         "--remote-python", python, "--remote-ncu", ncu],
        capsys,
    )  # fmt: skip
    assert rc == 0, err
    sent = (run / "ncu-args.txt").read_text()
    assert "--profile-from-start off" in sent
    # under ncu the twin times nothing: ncu's interception of every launch would be in it
    assert "--steps prefill=512,decode=8 --warmup 3 --repeat 0" in sent
    assert "--profile-steps prefill,decode:0-3" in sent
    timed = (run / "timed-args.txt").read_text()  # the steps timed in a run without ncu
    assert "--repeat 10 --timed-only" in timed and "--profile-steps" not in timed
    listed = json.loads(steps_path(run / "profiles" / "steps.ncu-rep").read_text())
    decode = [s for s in listed["steps"] if s["name"] == "decode"]
    assert [s["gpu_ms"] for s in decode[:2]] == [5.0, 5.1]
    assert json.loads((run / "decoder.json").read_text())["heads"] == 4  # what was sent, kept
    assert steps_path(run / "profiles" / "steps.ncu-rep").is_file()
    assert f"kernelscope diff {attached} {run} --steps" in out
    assert ssh_server.leftovers() == []
    rc, out, err = run_cli(["diff", attached, run, "--steps"], capsys)
    assert rc == 0, err
    assert "decode 3" in out
    assert "decode 1: torch.compile's step timed whole (CUDA events, without ncu): 5100.0" in out
    assert "taken under ncu" not in out


def test_profile_torch_steps_needs_a_workspace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = DATA / "torch" / "mlp.py"
    rc, _, err = run_cli(["profile-torch", model, "--steps", "prefill=8,decode=2"], capsys)
    assert rc == 1 and "--steps runs the twin of an LLM workspace" in err
    rc, _, err = run_cli(["profile-torch", model, "--profile-steps", "decode:0"], capsys)
    assert rc == 1 and "--profile-steps chooses among an LLM's steps" in err
    rc, _, err = run_cli(["profile-torch", tmp_path], capsys)
    assert rc == 1 and "is a folder, not a PyTorch model file" in err
