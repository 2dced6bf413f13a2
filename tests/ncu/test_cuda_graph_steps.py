"""CUDA graphs (issue 33 item 3): ``build --cuda-graph`` captures the decode step's kernels
into CUDA graphs as MLC-LLM runs it (Relax's RewriteCUDAGraph); the ledger says which launches
of a profiled step were graph nodes; a graph build's steps compare with a plain build's.

The recorded data (tests/data/llm/README.md) was made on an H100 from the MLC-style Llama
(tests/data/models/llama_mlc.py) built with ``--shape seq_len=128 --shape batch_size=1``,
with and without ``--cuda-graph``; the fixtures build the same here for sm_90.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run_cli
from paths_support import DATA, data_path

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile, step_ledger
from kernelscope.core.profiling.runner.timeline import GRAPH_CALL, kernels_by_call
from kernelscope.core.timeline import Timeline, compare_steps, from_runner
from kernelscope.core.workspace import Workspace

pytestmark = pytest.mark.slow

LLAMA = DATA / "models" / "llama_mlc.py"
SHAPES = {"seq_len": [128], "batch_size": [1]}
# decode's three captured regions after RewriteCUDAGraph: between the inputs' first norm and
# the first attention, from there to the second attention, from there to the final norm
REGIONS = [
    ["NT_matmul"],
    ["rms_norm", "NT_matmul2", "fused_split_silu_multiply", "fused_NT_matmul3_add", "rms_norm",
     "NT_matmul"],
    ["fused_NT_matmul1_add", "rms_norm", "NT_matmul2", "fused_split_silu_multiply",
     "fused_NT_matmul3_add", "rms_norm"],
]  # fmt: skip


def _build(folder: Path, **options: object) -> Workspace:
    return build_in_child(
        BuildRequest(model=LLAMA, output=folder, arch="sm_90", shapes=SHAPES, **options)  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def graph_ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return _build(tmp_path_factory.mktemp("graph") / "llama.kscope", cuda_graph=True)


@pytest.fixture(scope="module")
def plain_ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return _build(tmp_path_factory.mktemp("plain") / "llama.kscope")


def _function(ws: Workspace, name: str):  # noqa: ANN202
    return next(f for f in ws.manifest.functions if f.name == name)


def test_a_cuda_graph_build_captures_the_decode_steps_kernels(
    graph_ws: Workspace, plain_ws: Workspace
) -> None:
    assert graph_ws.manifest.cuda_graph and not plain_ws.manifest.cuda_graph
    decode = _function(graph_ws, "decode")
    assert decode.graphs == REGIONS
    assert len(decode.call_graphs) == len(decode.calls) == 16
    # the inputs' norm, the attention output's projection (it adds the step's input) and the
    # lm head (its output leaves the step) are launched directly
    direct = [p for p, g in zip(decode.calls, decode.call_graphs, strict=True) if g is None]
    assert direct == ["rms_norm", "fused_NT_matmul1_add", "fused_NT_matmul_cast"]
    assert _function(graph_ws, "prefill").graphs == []  # its sizes follow seq_len
    assert _function(plain_ws, "decode").graphs == []
    # the VM code TVM built calls the capture builtins (the executable in model.so)
    built = (graph_ws.path / "model.so").read_bytes()
    assert b"vm.builtin.cuda_graph.run_or_capture" in built
    assert b"vm.builtin.cuda_graph.get_cached_alloc" in built
    assert b"decode_cuda_graph_capture" in built
    assert b"decode_cuda_graph_capture" not in (plain_ws.path / "model.so").read_bytes()


def test_build_says_which_calls_run_in_graphs(
    graph_ws: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["build", LLAMA, "--arch", "sm_90", "--shape", "seq_len=128"]
    args += ["--shape", "batch_size=1", "--cuda-graph", "-o", graph_ws.path]
    rc, out, _ = run_cli(args, capsys)  # the build cache: no second TVM build
    assert rc == 0
    assert "4 functions, pipeline mlc-llm, CUDA graphs, seq_len=128, batch_size=1" in out
    assert "13 of its calls in 3 CUDA graphs" in out


def test_a_graph_build_needs_the_decode_batch_bound(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError) as caught:
        build_in_child(
            BuildRequest(model=LLAMA, output=tmp_path / "ws", arch="sm_90", cuda_graph=True)
        )
    assert "--cuda-graph: decode's batch_size has no upper bound" in str(caught.value)
    assert "--shape batch_size=1" in caught.value.hint
    assert not (tmp_path / "ws").exists()  # nothing built, nothing left


def test_a_model_with_no_decode_step_is_refused_a_graph_build(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError) as caught:
        build_in_child(
            BuildRequest(
                model=DATA / "models" / "tiny_mlp.py",
                output=tmp_path / "ws",
                arch="sm_90",
                cuda_graph=True,
            )
        )
    assert "--cuda-graph: the model has no decode function to capture" in str(caught.value)
    assert "build without --cuda-graph" in caught.value.hint


# ---- the recorded H100 data ---------------------------------------------------------------------
def test_the_ledger_marks_the_launches_that_were_graph_nodes(graph_ws: Workspace) -> None:
    """ncu profiles a replayed graph's kernel nodes one by one (24 launches a decode step, as
    the plain build); the ledger marks the 13 that ran inside the graphs."""
    ledger = step_ledger(
        Profile.open(data_path("llm/tiny_graph_decode.ncu-rep"), workspace=graph_ws)
    )
    assert [s.label for s in ledger.steps] == [f"decode {i}" for i in range(4)]
    for step in ledger.steps:
        assert (step.launches, step.graph_launches, step.cuda_graph) == (24, 13, "replay")
        assert 0 < step.graph_ns < step.duration_ns
    regions = list(ledger.graph_nodes.values())
    assert [regions.count(r) for r in range(3)] == [4 * 1, 4 * 6, 4 * 6]
    rows = {k.name: (k.rows[0].graph_launches, k.launches) for k in ledger.kernels}
    assert rows["fused_NT_matmul3_add_kernel"] == (8, 8)
    assert rows["fused_NT_matmul1_add_kernel"] == (4, 8)  # layer 0's adds the step's input
    assert rows["rms_norm_kernel"] == (16, 20)
    assert rows["fused_NT_matmul_cast_kernel"] == (0, 4)
    assert rows["take_kernel"] == (0, 4)  # embed's, outside the step function
    assert rows["batch_decode_paged_kv_kernel"][0] == 0  # the KV cache's: the runtime's


def test_a_plain_builds_ledger_has_no_graph_nodes(plain_ws: Workspace) -> None:
    ledger = step_ledger(Profile.open(data_path("llm/tiny_decode.ncu-rep"), workspace=plain_ws))
    assert all(s.graph_launches == 0 and s.cuda_graph is None for s in ledger.steps)
    assert ledger.graph_nodes == {}


def test_steps_prints_the_graph_nodes(
    graph_ws: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = run_cli(
        ["steps", data_path("llm/tiny_graph_decode.ncu-rep"), "-w", graph_ws.path], capsys
    )
    assert rc == 0
    assert "graph nodes" in out.splitlines()[0]
    assert out.count("13 (replay)") == 4
    assert "8 (8 in graphs)" in out  # fused_NT_matmul3_add_kernel's row


def _timeline(name: str) -> Timeline:
    return Timeline.load(data_path(f"llm/{name}_steps.timeline.json"))


def test_a_graph_builds_decode_step_against_the_plain_builds() -> None:
    """The timeline times each step whole and each VM call in it; a graph replay is one call."""
    rows = compare_steps(_timeline("tiny_graph"), _timeline("tiny_plain"))
    decode = [c for c in rows if c.label.startswith("decode")]
    assert len(decode) == 8
    for c in decode:
        assert (c.this.calls, c.other.calls) == (10, 20)
        assert (c.this.graph_replays, c.this.cuda_graph) == (3, "replay")
        assert (c.other.graph_replays, c.other.cuda_graph) == (0, None)
        assert c.this.gpu_us < c.other.gpu_us  # on the H100: 104 us against 112 us
        assert c.this.wall_us < c.other.wall_us
    prefill = rows[0]
    assert prefill.label == "prefill 0" and prefill.this.graph_replays == 0


def test_timeline_against_prints_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    graph, plain = (data_path(f"llm/{n}_steps.timeline.json") for n in ("tiny_graph", "tiny_plain"))
    rc, out, _ = run_cli(["timeline", graph, "--against", plain], capsys)
    assert rc == 0
    table = out[out.index("against tiny_plain_steps.timeline.json") :]
    assert "decode 3" in table and "10 / 20" in table and "3 (replay) / -" in table
    rc, out, _ = run_cli(["timeline", graph, "--against", plain, "--json"], capsys)
    assert rc == 0 and len(json.loads(out)["against"]) == 9


def test_timeline_json_output_reads_back_as_a_timeline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``timeline ... --json > OUT.json`` (a GPU host's output, with its shares and
    comparison) opens again: ``timeline OUT.json --against ...`` as the saved timeline."""
    graph, plain = (data_path(f"llm/{n}_steps.timeline.json") for n in ("tiny_graph", "tiny_plain"))
    rc, out, _ = run_cli(["timeline", graph, "--against", plain, "--json"], capsys)
    assert rc == 0 and "kernel_shares" in json.loads(out)
    printed = tmp_path / "graph.json"
    printed.write_text(out, encoding="utf-8")
    rc, again, _ = run_cli(["timeline", str(printed), "--against", plain], capsys)
    rc_saved, saved, _ = run_cli(["timeline", graph, "--against", plain], capsys)
    assert rc == rc_saved == 0
    tail = again[again.index("against tiny_plain_steps.timeline.json") :]
    assert tail == saved[saved.index("against tiny_plain_steps.timeline.json") :]
    other = _timeline("tiny_plain").meta["steps"][0]
    assert other["name"] == "prefill"


def test_a_graph_replay_holds_the_kernels_of_its_own_region(graph_ws: Workspace) -> None:
    """The runner names every replay by the builtin; the timeline gives the i-th replay of a
    step the kernels of the step function's i-th region."""
    recorded = _timeline("tiny_graph")
    raw = {**recorded.meta, "device": recorded.device}
    raw["calls"] = [
        {"kernels": c.kernels, "start_us": c.start_us, "duration_us": c.duration_us,
         "primfunc": c.primfunc, "step": c.step}
        for c in recorded.calls
    ]  # fmt: skip
    timeline = from_runner(raw, graph_ws)
    replays = [c for c in timeline.calls if c.step == "decode 3" and c.primfunc == GRAPH_CALL]
    kernels = {k.primfunc: k.name for k in graph_ws.manifest.kernels}
    assert [c.kernels for c in replays] == [[kernels[p] for p in r] for r in REGIONS]
    assert all(c.grid is None and c.op_type == "" for c in replays)


def test_the_timeline_times_a_graph_replay_as_one_call() -> None:
    manifest = {
        "kernels": [
            {"name": "a_kernel", "primfunc": "a"},
            {"name": "b_kernel", "primfunc": "b"},
            {"name": "c_kernel", "primfunc": "c"},
        ],
        "functions": [{"name": "decode", "graphs": [["a", "b"], ["b"]]}],
    }
    found = kernels_by_call(manifest)
    assert found[GRAPH_CALL] == ["a_kernel", "b_kernel"]
    assert found["c"] == ["c_kernel"]
