"""The timeline of an LLM's steps (``kernelscope timeline WS --steps ...``) as the CLI shows it,
the VM calls the runner times in a step (a KV cache builtin is one call holding its kernels),
and inputs with symbolic dimensions (issue 30 item 6: a raw TypeError before)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cli_support import run_cli

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import runner
from kernelscope.core.profiling.runner.model import _arrays
from kernelscope.core.profiling.runner.timeline import kernels_by_call
from kernelscope.core.timeline import from_runner

SYMBOLIC = {
    "inputs": [
        {"name": "input_ids", "shape": [1, "seq_len"], "dtype": "int32"},
        {"name": "mask", "shape": [1, "seq_len"], "dtype": "float32"},
    ],
    "weights": [],
    "files": {},
    "params_mode": "model",
}


def test_an_input_of_symbolic_shape_needs_a_value(tmp_path: Path) -> None:
    with pytest.raises(runner.RunnerError) as err:
        _arrays(SYMBOLIC, tmp_path, None, 0)
    assert err.value.code == runner.EXIT_BAD_INPUT
    assert str(err.value) == (
        "'input_ids' (int32[1, 'seq_len']) has symbolic dimensions (seq_len) that no value "
        "fixes: give input_ids in an --inputs .npz, build with --shape (e.g. --shape "
        "seq_len=128), or run the model's steps with --steps"
    )


def test_an_npz_of_a_concrete_shape_fits_a_symbolic_input(tmp_path: Path) -> None:
    given = tmp_path / "in.npz"
    np.savez(given, input_ids=np.zeros((1, 128), "int32"), mask=np.ones((1, 128), "float32"))
    ids, mask = _arrays(SYMBOLIC, tmp_path, given, 0)
    assert ids.shape == (1, 128) and mask.shape == (1, 128)
    # one symbol, one size
    np.savez(given, input_ids=np.zeros((1, 128), "int32"), mask=np.ones((1, 64), "float32"))
    with pytest.raises(runner.RunnerError) as err:
        _arrays(SYMBOLIC, tmp_path, given, 0)
    assert str(err.value) == (
        "mask: the model takes float32[1, 'seq_len'], the .npz has float32[1, 64] "
        "(with seq_len=128)"
    )


def test_a_kv_cache_builtin_is_one_timed_call_holding_its_kernels() -> None:
    manifest = {
        "kernels": [
            {"name": "fused_matmul_kernel", "primfunc": "fused_matmul", "launched": True},
            {
                "name": "batch_decode_paged_kv_kernel",
                "primfunc": "batch_decode_paged_kv",
                "launched": True,
                "launched_by": [
                    {
                        "function": "decode",
                        "via": "vm.builtin.attention_kv_cache_attention_with_fused_qkv",
                    }
                ],
            },
            {
                "name": "fused_rope_kernel",
                "primfunc": "fused_rope",
                "launched_by": [
                    {
                        "function": "decode",
                        "via": "vm.builtin.attention_kv_cache_attention_with_fused_qkv",
                    },
                    {"function": "prefill", "via": "call_tir"},
                ],
            },
        ]
    }
    calls = kernels_by_call(manifest)
    assert calls["fused_matmul"] == ["fused_matmul_kernel"]
    assert calls["vm.builtin.attention_kv_cache_attention_with_fused_qkv"] == [
        "batch_decode_paged_kv_kernel",
        "fused_rope_kernel",
    ]


def _stepped_answer(kernels: list[str]) -> dict:
    """What the runner's ``--timeline --steps`` prints: per-step totals and the calls."""
    steps, calls, offset = [], [], 0.0
    for name, index, seq_len, total in (("prefill", 0, 16, 16), ("decode", 0, 1, 17)):
        step_calls = [
            {"primfunc": k, "kernels": [k], "start_us": offset + 3.0 * i, "duration_us": 2.5,
             "min_us": 2.4, "max_us": 2.6, "raw_us": 3.1, "step": f"{name} {index}"}
            for i, k in enumerate(kernels)
        ]  # fmt: skip
        calls += step_calls
        steps.append(
            {"name": name, "index": index, "batch": 1, "seq_len": seq_len, "total_len": total,
             "gpu_us": 3.0 * len(kernels), "wall_ms": 0.4, "calls": len(kernels),
             "calls_us": 2.5 * len(kernels), "saturated": name == "prefill"}
        )  # fmt: skip
        offset += 3.0 * len(kernels)
    return {"mode": "timeline", "device": "NVIDIA H200", "repeat": 10, "steps": steps,
            "calls": calls, "plain_gpu_us": offset, "plain_wall_ms": 0.8}  # fmt: skip


def test_cli_prints_per_step_totals(
    build_once, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = build_once("repeated_layers.py")
    kernels = sorted({k.name for k in ws.manifest.kernels if k.launched})
    timeline = from_runner(_stepped_answer(kernels), ws)
    assert [c.step for c in timeline.calls] == ["prefill 0"] * len(kernels) + ["decode 0"] * len(
        kernels
    )
    saved = timeline.save(tmp_path / "steps.json")
    rc, out, _ = run_cli(["timeline", saved], capsys)
    assert rc == 0
    rows = [ln.split() for ln in out.splitlines() if ln.startswith(("prefill", "decode"))]
    n = str(len(kernels))
    assert rows[0][:7] == ["prefill", "0", "16", "1", "16", n, f"{3 * len(kernels)}"]
    assert rows[1][:7] == ["decode", "0", "1", "1", "17", n, f"{3 * len(kernels)}"]
    assert "warning: the GPU waited for the CPU in decode 0" in out
    with pytest.raises(KernelscopeError, match="selects no single launch"):
        timeline.selection(0)


def test_a_missing_hook_file_is_refused_before_measuring(
    build_once, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = build_once("repeated_layers.py")
    rc, _, err = run_cli(["timeline", ws.path, "--hook", "/nowhere/loop.py"], capsys)
    assert rc == 1 and "--hook /nowhere/loop.py: no such file" in err


@pytest.mark.slow
def test_the_runners_step_timeline_on_a_simulated_gpu_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner's ``--timeline --steps`` end to end: the MLC-style Llama run on the CPU
    (its real VM calls, instrumented), the CUDA events on the simulated clock of
    test_timeline's ``_FakeGpu``. Each step's calls are its own, the KV cache's attention
    builtin is one call holding its kernels, every run makes the same calls, and no event
    is left alive."""
    import json

    import tvm
    from llm_support import build_llama_cpu
    from test_timeline import _FakeGpu

    from kernelscope.core.profiling.runner import timeline as runner_timeline
    from kernelscope.core.profiling.runner.step_run import StepRunOptions

    ws = build_llama_cpu(tmp_path / "ws")
    manifest = json.loads((ws / "manifest.json").read_text())
    attention = "vm.builtin.attention_kv_cache_attention_with_fused_qkv"
    manifest["kernels"] = [
        {"name": "take_kernel", "primfunc": "take", "launched": True},
        {"name": "rms_norm_kernel", "primfunc": "rms_norm", "launched": True},
        {
            "name": "batch_decode_paged_kv_kernel",
            "primfunc": "batch_decode_paged_kv",
            "launched": True,
            "launched_by": [{"function": "decode", "via": attention, "role": "attention"}],
        },
    ]
    (ws / "manifest.json").write_text(json.dumps(manifest))
    gpu = _FakeGpu()
    monkeypatch.setattr(runner_timeline, "Cuda", lambda: gpu)
    out = runner_timeline.steps_timeline(
        ws, StepRunOptions(steps="prefill=4,decode=2"), repeat=2, device=tvm.cpu()
    )
    steps = out["steps"]
    assert [(s["name"], s["index"], s["total_len"]) for s in steps] == [
        ("prefill", 0, 4),
        ("decode", 0, 5),
        ("decode", 1, 6),
    ]
    decode = [c for c in out["calls"] if c["step"] == "decode 1"]
    # the embedding, 2 layers of (2 norms, one attention builtin), the final norm
    assert [c["primfunc"] for c in decode] == [
        "take",
        "rms_norm",
        attention,
        "rms_norm",
        "rms_norm",
        attention,
        "rms_norm",
        "rms_norm",
    ]
    assert decode[2]["kernels"] == ["batch_decode_paged_kv_kernel"]
    prefill = [c["primfunc"] for c in out["calls"] if c["step"] == "prefill 0"]
    assert prefill.count(attention) == 2 and prefill[0] == "take"
    assert [s["calls"] for s in steps] == [len(prefill), 8, 8]
    assert all(s["saturated"] for s in steps)
    assert all(c["duration_us"] >= 0 for c in out["calls"])
    starts = [c["start_us"] for c in out["calls"]]
    assert all(b >= a - 1e-9 for a, b in zip(starts, starts[1:], strict=False))  # in order
    assert gpu.live == set()
