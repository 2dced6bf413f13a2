"""The runner's step driver (``--steps``, ``--hook``, ``--profile-steps``) end to end on the CPU:
the MLC-style Llama built for llvm, run through the same code the GPU runs (only the device,
and with it the profiler marks, differ)."""

from __future__ import annotations

from pathlib import Path

import pytest
from llm_support import build_llama_cpu, with_manifest

from kernelscope.core.profiling import runner
from kernelscope.core.profiling.runner.main import main as runner_main
from kernelscope.core.profiling.runner.step_run import StepRunOptions, run_steps

pytestmark = pytest.mark.slow  # one TVM build (llvm) for the module


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_llama_cpu(tmp_path_factory.mktemp("llama") / "ws")


def _cpu_steps(workspace: Path, **options: object) -> dict:
    import tvm

    return run_steps(workspace, StepRunOptions(warmup=0, **options), device=tvm.cpu())  # type: ignore[arg-type]


def test_prefill_then_decode_steps_fill_the_kv_cache(llama: Path) -> None:
    result = _cpu_steps(llama, steps="prefill=8,decode=3", batch=2, profile_steps="decode:1-2")
    steps = result["steps"]
    assert [(s["name"], s["index"]) for s in steps] == [
        ("prefill", 0),
        ("decode", 0),
        ("decode", 1),
        ("decode", 2),
    ]
    # both sequences' prompts in one prefill call, then one token a sequence a step
    assert [(s["batch"], s["seq_len"], s["tokens"]) for s in steps] == [(2, 8, 16)] + [
        (2, 1, 2)
    ] * 3
    assert [s["total_len"] for s in steps] == [16, 18, 20, 22]
    assert steps[0]["logits"] == [1, 1, 512]  # the last token's logits (as MLC-LLM's prefill)
    assert all(s["logits"] == [2, 1, 512] for s in steps[1:])
    assert [s["profiled"] for s in steps] == [False, False, True, True]
    assert all(s["wall_ms"] > 0 for s in steps)
    assert result["kv_cache"]["max_total_seq_len"] >= 22
    assert result["kv_cache"]["prefill_chunk_size"] >= 16
    assert result["functions"] == {
        "create_kv_cache": "create_tir_paged_kv_cache",
        "prefill": "prefill",
        "decode": "decode",
        "embed": "embed",
    }
    assert result["marker"] is None  # no profiler marks off the GPU


def test_step_functions_are_found_by_shape_when_not_named_so(llama: Path) -> None:
    """prefill: the function taking the cache whose first input has a symbolic sequence
    dimension; decode: a static 1 there."""
    import json

    from kernelscope.core.profiling.runner.steps import Functions

    manifest = json.loads((llama / "manifest.json").read_text())
    new = {"prefill": "encode_batch", "decode": "next_token", "embed": "tokens_in"}
    for f in manifest["functions"]:
        f["name"] = new.get(f["name"], f["name"])
    found = Functions(manifest).summary()
    assert found == {
        "create_kv_cache": "create_tir_paged_kv_cache",
        "prefill": "encode_batch",
        "decode": "next_token",
        "embed": "tokens_in",
    }
    manifest["functions"] = [f for f in manifest["functions"] if f["name"] != "next_token"]
    with pytest.raises(runner.RunnerError, match="the model has no decode function"):
        Functions(manifest)


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ("decode:x", "'decode:x' is not a step (all, prefill, decode:16, decode:0-3)"),
        ("decode:3-1", "'decode:3-1' is not a step"),
        ("decode:4", "decode runs 4 step(s), 0-3"),
        ("verify", "no verify step runs (steps: prefill 0-0, decode 0-3)"),
    ],
)
def test_a_bad_profile_steps_choice_is_refused_before_running(
    llama: Path, choice: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = runner_main([str(llama), "--steps", "prefill=8,decode=4", "--profile-steps", choice])
    assert code == runner.EXIT_BAD_INPUT
    assert said in capsys.readouterr().err


def test_bad_steps_are_refused(llama: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert runner_main([str(llama), "--steps", "prefill=8,verify=2"]) == runner.EXIT_BAD_INPUT
    assert "'verify=2' is not prefill=N or decode=N" in capsys.readouterr().err


def test_a_prefill_longer_than_the_cache_allows_is_refused(llama: Path, tmp_path: Path) -> None:
    ws = with_manifest(llama, tmp_path / "ws", symbols={"max_total_seq_len": 64})
    with pytest.raises(runner.RunnerError) as err:
        _cpu_steps(ws, steps="prefill=100,decode=4")
    assert err.value.code == runner.EXIT_BAD_INPUT
    assert str(err.value) == (
        "the KV cache cannot hold 1 sequence(s) of 100 prefill tokens and 4 decode steps "
        "(104 tokens): this build fixed max_total_seq_len=64 (at most 64 tokens a sequence); "
        "ask for fewer steps or rebuild without that --shape"
    )


def test_a_model_without_kv_cache_creation_is_refused(llama: Path, tmp_path: Path) -> None:
    import json

    functions = json.loads((llama / "manifest.json").read_text())["functions"]
    ws = with_manifest(
        llama, tmp_path / "ws", functions=[f for f in functions if not f.get("creates_kv_cache")]
    )
    with pytest.raises(runner.RunnerError, match="the model has no function that creates a KV"):
        _cpu_steps(ws, steps="prefill=4")
    ws2 = with_manifest(llama, tmp_path / "ws2", functions=[])
    assert runner_main([str(ws2), "--steps", "prefill=4"]) == runner.EXIT_BAD_INPUT


HOOK = """
def run(session):
    kv = session.create_kv_cache(1, 64, 16)
    session.add_sequence(kv, 0)
    ids = session.token_ids([1, 6])
    with session.step("prefill"):
        session.begin_forward(kv, [0], [6])
        session.call("prefill", session.call("embed", ids), kv)
        session.end_forward(kv)
    for _ in range(2):
        ids = session.token_ids([1, 1])

        def decode():
            session.begin_forward(kv, [0], [1])
            session.call("decode", session.call("embed", ids), kv)
            session.end_forward(kv)

        session.step("decode", decode)
"""


def test_a_hook_runs_its_own_loop_as_steps(llama: Path, tmp_path: Path) -> None:
    hook = tmp_path / "loop.py"
    hook.write_text(HOOK)
    result = _cpu_steps(llama, hook=hook, profile_steps="decode:1")
    assert [(s["name"], s["index"], s["total_len"], s["profiled"]) for s in result["steps"]] == [
        ("prefill", 0, 6, False),
        ("decode", 0, 7, False),
        ("decode", 1, 8, True),
    ]
    assert result["hook"] == str(hook)


def test_a_hook_that_raises_is_named_with_its_line(
    llama: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hook = tmp_path / "broken.py"
    hook.write_text("def run(session):\n    kv = session.create_kv_cache(1, 16, 16)\n    1 / 0\n")
    with pytest.raises(runner.RunnerError) as err:
        _cpu_steps(llama, hook=hook)
    assert str(err.value) == f"the hook {hook}, line 3 raised ZeroDivisionError: division by zero"
    assert "line 3, in run\n    1 / 0" in capsys.readouterr().err  # the traceback, in the log


def test_a_hook_asking_more_of_the_cache_than_it_holds(llama: Path, tmp_path: Path) -> None:
    hook = tmp_path / "big.py"
    hook.write_text(
        "def run(session):\n"
        "    kv = session.create_kv_cache(1, 16, 16)\n"
        "    session.add_sequence(kv, 0)\n"
        "    session.begin_forward(kv, [0], [64])\n"
    )
    with pytest.raises(
        runner.RunnerError, match=r"the KV cache refused 64 tokens for sequences \[0\]"
    ):
        _cpu_steps(llama, hook=hook)


def test_a_prefill_built_for_another_length_is_refused(llama: Path) -> None:
    """A build that bound seq_len (--shape seq_len=128) runs prefills of 128 tokens only."""
    import json

    from kernelscope.core.profiling.runner.steps import Driver

    manifest = json.loads((llama / "manifest.json").read_text())
    prefill = next(f for f in manifest["functions"] if f["name"] == "prefill")
    prefill["params"][0]["shape"] = [1, 128, 256]
    with pytest.raises(runner.RunnerError) as err:
        Driver(manifest, {"prefill": 256, "decode": 4}, 1)
    assert str(err.value) == (
        "prefill was built for 128 tokens a call (prefill takes float16[1, 128, 256]); "
        "--steps asks for 256: ask for 128, or rebuild without that --shape"
    )
    assert Driver(manifest, {"prefill": 128, "decode": 4}, 1).prefill_shape == [1, 128, 256]


def test_a_cuda_graph_builds_first_decode_call_captures_and_the_later_ones_replay(
    llama: Path, tmp_path: Path
) -> None:
    """The runner says per step whether its call of a function with CUDA graphs (``build
    --cuda-graph``: the manifest's ``graphs``) captured them (its first call at that shape on
    this VM) or replayed them; a graph build is warmed up at least once (the capture), so
    every profiled and timed step replays."""
    import json

    import tvm

    from kernelscope.core.profiling.runner.step_run import StepRun

    manifest = json.loads((llama / "manifest.json").read_text())
    for f in manifest["functions"]:
        if f["name"] == "decode":
            f["graphs"] = [["NT_matmul"]]
    ws = with_manifest(llama, tmp_path / "graphs", functions=manifest["functions"], cuda_graph=True)
    result = _cpu_steps(ws, steps="prefill=4,decode=3")  # --warmup 0 asked
    assert [s.get("cuda_graph") for s in result["steps"]] == [None, "replay", "replay", "replay"]
    assert result["cuda_graph"] is True and result["warmup"] == 1
    cold = StepRun(ws, StepRunOptions(warmup=0, steps="prefill=4,decode=3"), device=tvm.cpu())
    session = cold.session([])
    cold.run_once(session)  # no warm-up: the first decode call captures
    assert [s.get("cuda_graph") for s in session.steps] == [None, "capture", "replay", "replay"]
    plain = _cpu_steps(llama, steps="prefill=4,decode=1")
    assert "cuda_graph" not in plain["steps"][1] and plain["cuda_graph"] is False
    assert plain["warmup"] == 0
