"""The runner's ``--torch-llama``: a TVM-built decoder's twin (transformers' LlamaForCausalLM
under torch.compile) run step by step. Here, with a Python that has no PyTorch, what it
refuses before anything runs; the run itself is recorded in tests/data/llm/tiny.torchrun
(read by tests/inductor/test_step_versus.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from ssh_support import BASE_PYTHON

from kernelscope.core.profiling import runner, runner_path

CONFIG = {
    "vocab": 512, "hidden": 256, "intermediate": 512, "layers": 2, "heads": 4, "kv_heads": 2,
    "head_dim": 64, "rope_theta": 500000, "rms_eps": 1e-5, "dtype": "float16",
}  # fmt: skip


def _run(
    tmp_path: Path, config: dict, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    path = tmp_path / "decoder.json"
    path.write_text(json.dumps(config))
    command = [BASE_PYTHON, str(runner_path()), "--torch-llama", str(path)]
    command += ["--run-dir", str(tmp_path / "twin.torchrun"), *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})}
    )


def _said(result: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in result.stderr
    return result.stderr.strip().splitlines()[-1]


def test_a_config_lacking_a_size_is_refused_by_name(tmp_path: Path) -> None:
    config = {k: v for k, v in CONFIG.items() if k not in ("kv_heads", "rope_theta")}
    result = _run(tmp_path, config, "--steps", "prefill=16,decode=2")
    assert result.returncode == runner.EXIT_BAD_INPUT
    assert "the config lacks kv_heads, rope_theta" in _said(result)


def test_steps_it_does_not_run_are_refused_before_torch_is_loaded(tmp_path: Path) -> None:
    result = _run(tmp_path, CONFIG, "--steps", "prefill=16,decode=2", "--profile-steps", "decode:5")
    assert result.returncode == runner.EXIT_BAD_INPUT
    assert "decode runs 2 step(s), 0-1" in _said(result)
    result = _run(tmp_path, CONFIG, "--steps", "decode=2")
    assert "decode steps need a prefill first" in _said(result)


def test_a_python_without_torch_says_so(tmp_path: Path) -> None:
    result = _run(tmp_path, CONFIG, "--steps", "prefill=16,decode=2")
    assert result.returncode == runner.EXIT_NO_TORCH
    assert _said(result).startswith("kernelscope runner: PyTorch is not installed for ")


def test_a_run_that_only_times_steps_must_time_and_profile_nothing(tmp_path: Path) -> None:
    """``--timed-only`` (the run without ncu that times each step) with nothing to time, or
    with steps to mark for a profiler, is refused before PyTorch is loaded."""
    for extra in (["--repeat", "0"], ["--profile-steps", "decode:0"]):
        result = _run(tmp_path, CONFIG, "--steps", "prefill=16,decode=2", "--timed-only", *extra)
        assert result.returncode == runner.EXIT_BAD_INPUT
        assert "--timed-only times each step" in _said(result)


def test_a_run_that_only_times_steps_refuses_to_run_under_ncu(tmp_path: Path) -> None:
    """What ncu 2025.3 sets in the processes it runs (seen on the H100 host): the times of
    such a run would be ncu's."""
    steps = ("--steps", "prefill=16,decode=2", "--timed-only")
    result = _run(tmp_path, CONFIG, *steps, env={"NV_TPS_LAUNCH_TOKEN": "Interactive Profile"})
    assert result.returncode == runner.EXIT_BAD_INPUT
    assert "but Nsight Compute runs this process" in _said(result)
