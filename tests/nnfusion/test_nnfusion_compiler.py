"""Running the ``nnfusion`` compiler: Cancel and a timeout stop it and whatever it started
(here a stand-in compiler that leaves a process running, as NNFusion's code generation runs
shell commands), and its log is kept either way."""

from __future__ import annotations

from pathlib import Path

import pytest
from nnfusion_models import square_matmul
from process_support import descendants, still_alive

from kernelscope.core.errors import Cancelled, KernelscopeError
from kernelscope.core.nnfusion.command import Flags
from kernelscope.core.nnfusion.compiler import run_nnfusion

# Prints, starts a helper that outlives a kill of the compiler alone, then waits for it.
STAND_IN = "#!/bin/sh\necho 'compiling'\nsleep 300 &\nwait\n"


class _CancelOnceRunning:
    """A Cancel set once the stand-in and its helper run, noting those processes."""

    def __init__(self) -> None:
        self.processes: list[int] = []

    def is_set(self) -> bool:
        if len(self.processes) < 2:
            self.processes = descendants()
        return len(self.processes) >= 2


@pytest.fixture
def stand_in(tmp_path: Path) -> Path:
    binary = tmp_path / "bin" / "nnfusion"
    binary.parent.mkdir()
    binary.write_text(STAND_IN)
    binary.chmod(0o755)
    return binary


def test_cancel_stops_nnfusion_and_what_it_started(stand_in: Path, tmp_path: Path) -> None:
    cancel = _CancelOnceRunning()
    model = square_matmul(tmp_path / "mm.onnx")
    with pytest.raises(Cancelled):
        run_nnfusion(model, tmp_path / "k.db", tmp_path / "out", Flags(), stand_in, cancel=cancel)
    assert len(cancel.processes) == 2 and not still_alive(cancel.processes)
    assert (tmp_path / "out" / "nnfusion.log").read_text() == "compiling\n"


def test_a_timeout_stops_it_and_says_so_with_its_log(stand_in: Path, tmp_path: Path) -> None:
    model = square_matmul(tmp_path / "mm.onnx")
    with pytest.raises(KernelscopeError) as err:
        run_nnfusion(model, tmp_path / "k.db", tmp_path / "out", Flags(), stand_in, timeout=0.5)
    assert not isinstance(err.value, Cancelled)
    assert err.value.message == "NNFusion on mm.onnx did not finish within 0.5 s and was stopped"
    assert "compiling" in err.value.details
    assert not descendants()
