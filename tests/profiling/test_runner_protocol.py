"""The runner's two lines (its result, its message when it fails) read back by one parser, and
each caller's own words where a line is missing or garbled."""

from __future__ import annotations

import subprocess
import sys

import pytest
from ssh_support import BASE_PYTHON
from torch_support import MLP

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import CommandResult, runner, runner_path
from kernelscope.core.profiling.run_ncu import _explain_failure
from kernelscope.core.timeline.measure import _result as timeline_result
from kernelscope.core.torchrun.run import _result as torch_result

CUT_OFF = runner.RESULT_TAG + '{"python": {"version": "3.1'  # a line that lost its end
NOT_AN_OBJECT = runner.RESULT_TAG + "[1, 2]"


def _runner_output(python: str, *args: str) -> CommandResult:
    """The zipapp run as its callers run it: stdout and stderr together."""
    proc = subprocess.run(
        [python, str(runner_path()), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    return CommandResult(proc.returncode, proc.stdout)


@pytest.fixture(scope="module")
def no_torch(tmp_path_factory: pytest.TempPathFactory) -> CommandResult:
    """The runner failing as it does for a Python without PyTorch (its message line)."""
    run_dir = tmp_path_factory.mktemp("torch") / "r"
    return _runner_output(BASE_PYTHON, "--torch", str(MLP), "--run-dir", str(run_dir))


def test_the_runners_own_lines_are_read_back() -> None:
    proc = _runner_output(sys.executable, "--check")
    assert proc.code == 0
    result = runner.read_result(proc.output)
    assert result is not None and result["python"]["executable"]
    assert runner.read_message(proc.output) is None


def test_the_runners_message_is_read_back(no_torch: CommandResult) -> None:
    assert no_torch.code == runner.EXIT_NO_TORCH
    message = runner.read_message(no_torch.output)
    assert message is not None and message.startswith("PyTorch is not installed for ")
    assert runner.read_result(no_torch.output) is None
    # as ncu passes it on, after its own lines
    assert runner.read_message(f"==PROF== Connected\n{no_torch.output}") == message


@pytest.mark.parametrize("output", ["", "no runner here\n", CUT_OFF, NOT_AN_OBJECT])
def test_a_missing_or_garbled_result_line_reads_as_none(output: str) -> None:
    assert runner.read_result(output) is None


@pytest.mark.parametrize(
    "output", ["", "Traceback (most recent call last):\n", "kernelscope runner:  \n"]
)
def test_a_missing_or_empty_message_reads_as_none(output: str) -> None:
    assert runner.read_message(output) is None


@pytest.mark.parametrize("garbled", [CUT_OFF, NOT_AN_OBJECT])
def test_the_timeline_callers_say_a_garbled_result_in_their_own_words(garbled: str) -> None:
    for read in (timeline_result, torch_result):
        with pytest.raises(KernelscopeError) as caught:
            read(CommandResult(0, f"{garbled}\n"), "gpu-host")
        assert (
            caught.value.message == "the timeline could not be measured on gpu-host (exit code 0)"
        )
        assert caught.value.details == f"{garbled}\n"


def test_the_callers_pass_on_the_runners_message(no_torch: CommandResult) -> None:
    with pytest.raises(KernelscopeError, match="^the timeline could not be measured on h: PyTorch"):
        timeline_result(no_torch, "h")
    with pytest.raises(KernelscopeError, match="^PyTorch is not installed for ") as caught:
        torch_result(no_torch, "h")
    assert "installs none" in caught.value.hint and "--python" in caught.value.hint
    assert "Python field" in caught.value.window_hint
    error = _explain_failure(1, no_torch.output, ["ncu"])
    assert error.message.startswith("the model could not run: PyTorch is not installed for ")


def test_ncu_failing_without_a_runner_message_says_ncus_error() -> None:
    log = "kernelscope runner:\n==ERROR== The application returned an error code (1).\n"
    error = _explain_failure(1, log, ["ncu"])
    assert error.message == "ncu failed (exit code 1): The application returned an error code (1)."
