"""Build & Profile with torch.compile: a PyTorch model file picks the compiler by itself, the
run folder follows the model, TVM's fields are off, and a run on an SSH host (the private
sshd; its ncu a stand-in that leaves a real H200 run) opens its run folder in the window."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from paths_support import DATA
from ssh_support import SshServer, fixture_ssh_server, stand_in  # noqa: F401 - a fixture
from test_viewer_build_remote import WAIT, _dialog, _entry, _finish
from torch_support import MLP, NCU_LEAVES_A_REAL_RUN
from viewer_support import settle

from kernelscope.viewer.build_profile.build_dialog import BuildDialog
from kernelscope.viewer.build_profile.build_torch_page import TorchPage
from kernelscope.viewer.build_profile.build_tvm_page import TvmPage
from kernelscope.viewer.timeline import TimelineFeature

TORCH, TVM = TorchPage.name, TvmPage.name

GELU = "triton_poi_fused_addmm_gelu_view_7"  # a Triton kernel of the transformer run


def test_a_pytorch_file_picks_torch_compile_and_its_run_folder(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = BuildDialog(window.workers, window, settings=window.settings)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.model.setText(str(MLP))
    assert dialog.compiler.currentText() == TORCH
    assert dialog.output.text() == str(MLP.with_suffix(".torchrun"))
    assert not dialog.tvm.arch.isEnabled() and not dialog.tvm.build.isEnabled()
    assert dialog.torch.mode.isEnabled() and not dialog.install_button.isEnabled()
    dialog.profile.setChecked(True)
    assert dialog.start.text() == "Compile && Profile" and not dialog.inputs.isEnabled()
    onnx = tmp_path / "m.onnx"
    onnx.write_bytes(b"")
    dialog.model.setText(str(onnx))
    assert dialog.compiler.currentText() == TVM
    assert dialog.output.text() == str(tmp_path / "m.kscope") and dialog.tvm.arch.isEnabled()
    dialog.close()


def test_a_run_on_the_host_opens_its_run_folder(
    qtbot, make_window, ssh_server: SshServer, tmp_path: Path
) -> None:
    """The host's ncu leaves the H200 transformer run (tests/data/inductor): it comes back and
    opens in the window as a run folder: Triton kernels with their ATen operators beside the
    cuBLAS launches, the report's samples on the generated lines."""
    ncu = stand_in(tmp_path, "ncu", NCU_LEAVES_A_REAL_RUN)
    window = make_window()
    dialog = _dialog(qtbot, window, _entry(ssh_server, ncu=str(ncu), python=sys.executable))
    dialog.finished_document.connect(window.open_path)  # as the window's Build & Profile does
    dialog.model.setText(str(MLP))
    run = tmp_path / "mlp.torchrun"
    dialog.output.setText(str(run))
    dialog.profile.setChecked(True)
    dialog.torch.mode.setCurrentText("max-autotune")
    dialog.report_name.setText("from-window")
    with qtbot.waitSignal(dialog.finished_document, timeout=WAIT) as opened:
        dialog.start.click()
    log = _finish(qtbot, dialog)
    assert Path(opened.args[0]) == run and (run / "profiles" / "from-window.ncu-rep").is_file()
    assert "compiling" in log and "torch.compile (max-autotune)" in log
    assert "[fetch]" in log and "profiled 1 kernel launches" in log
    assert f"run folder: {run}" in log
    settle(qtbot, window)
    document = window.selection.document
    assert document is not None and document.has_profile
    assert document.summary(GELU).ops == ("aten.addmm", "aten.view", "aten.gelu")
    assert sum("cublas" in s.name for s in document.summaries) == 4
    assert ssh_server.leftovers() == []
    dialog.close()


def test_the_dialog_remembers_the_compiler_and_its_options(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = BuildDialog(window.workers, window, settings=window.settings)
    qtbot.addWidget(dialog)
    dialog.model.setText(str(MLP))
    dialog.torch.mode.setCurrentText("reduce-overhead")
    dialog.torch.timeline.setChecked(True)
    dialog.remember()
    dialog.close()
    again = BuildDialog(window.workers, window, settings=window.settings)
    qtbot.addWidget(again)
    assert again.compiler.currentText() == TORCH
    assert again.torch.mode.currentText() == "reduce-overhead"
    assert again.torch.timeline.isChecked()
    request = again.torch_request()
    assert request.model == MLP and request.mode == "reduce-overhead" and request.timeline
    assert request.output == MLP.with_suffix(".torchrun") and request.host is None
    again.close()


def test_a_torch_timeline_says_how_it_was_timed_and_why_no_single_call_profile(
    qtbot, make_window, tmp_path
):
    from kernelscope.core.timeline import open_timeline
    from kernelscope.core.torchrun import timeline_from_runner
    from kernelscope.viewer.timeline.panel import TimelinePanel

    saved = open_timeline(DATA / "torch" / "mlp_timeline_h200.json")
    raw = {"device": saved.device, "repeat": 10, "calls": [asdict(c) for c in saved.calls]}
    path = timeline_from_runner(raw, tmp_path / "mlp.torchrun", "gpu").save(tmp_path / "t.json")
    window = make_window()
    assert window.open_path(path)  # as Build & Profile's finished run opens it
    panel = window.feature(TimelineFeature).panel
    qtbot.waitUntil(lambda: panel.timeline is not None, timeout=WAIT)
    assert "torch.profiler, median of 10 calls on gpu" in TimelinePanel._describe(panel.timeline)
    assert "torch.compile run's timeline" in (panel.can_profile() or "")


def _torch_dialog(qtbot, window, tmp_path: Path) -> BuildDialog:  # noqa: ANN001
    """A shown dialog on the MLP file, its run folder in tmp_path, the timeline asked (so it
    can start where this machine cannot profile)."""
    dialog = BuildDialog(window.workers, window, settings=window.settings)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.model.setText(str(MLP))
    dialog.output.setText(str(tmp_path / "mlp.torchrun"))
    dialog.profile.setChecked(False)  # ncu is asked about first: not here
    dialog.torch.timeline.setChecked(True)
    return dialog


def test_the_python_field_is_torch_compiles_and_for_this_machine_only(qtbot, make_window, tmp_path):
    """Like profile-torch's --python: shown for torch.compile, off with an SSH host (whose
    Python is Run on's "Python there", --remote-python)."""
    window = make_window()
    dialog = BuildDialog(window.workers, window, settings=window.settings)
    qtbot.addWidget(dialog)
    dialog.show()
    onnx = tmp_path / "m.onnx"
    onnx.write_bytes(b"")
    dialog.model.setText(str(onnx))
    assert dialog.compiler.currentText() == TVM and not dialog.torch.python.isVisible()
    dialog.model.setText(str(MLP))
    assert dialog.compiler.currentText() == TORCH
    assert dialog.torch.python.isVisible() and dialog.torch.python.isEnabled()
    assert dialog.torch.python.placeholderText() == "python3"
    assert dialog.torch_request().python == "python3"  # empty: profile-torch's default
    dialog.host.where.setCurrentText("user@gpu-box")
    assert not dialog.torch.python.isEnabled() and "Run on" in dialog.torch.python.toolTip()
    dialog.host.set_host(None)  # this machine
    assert dialog.host.is_local and dialog.torch.python.isEnabled()
    dialog.close()


def test_the_chosen_python_reaches_core_and_is_remembered(qtbot, make_window, tmp_path):
    """A virtual environment's Python without PyTorch: core runs it and says so, by name,
    before the model runs (no GPU needed to hear it); the field is kept."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    window = make_window()
    dialog = _torch_dialog(qtbot, window, tmp_path)
    dialog.torch.python.setText(str(python))
    assert dialog.torch_request().python == str(python)
    dialog.start.click()
    log = _finish(qtbot, dialog)
    assert f"error: PyTorch is not installed for the Python {python}" in log
    assert "hint: install PyTorch with CUDA for it" in log and "Python field" in log
    assert "--python" not in log and "Traceback" not in log
    assert not (tmp_path / "mlp.torchrun").exists()
    dialog.close()
    again = BuildDialog(window.workers, window, settings=window.settings)
    qtbot.addWidget(again)
    assert again.torch.python.text() == str(python)
    assert again.torch_request().python == str(python)
    again.torch.python.setText("~/envs/torch/bin/python")
    assert again.torch_request().python == str(Path.home() / "envs/torch/bin/python")
    again.close()


def test_a_python_that_is_not_there_is_said_and_the_window_goes_on(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = _torch_dialog(qtbot, window, tmp_path)
    missing = tmp_path / "no-env" / "bin" / "python"
    dialog.torch.python.setText(str(missing))
    dialog.start.click()
    log = _finish(qtbot, dialog)
    assert f"error: the Python {missing}: no such file" in log
    assert "hint: choose the Python that has PyTorch in the Python field" in log
    assert "Traceback" not in log and "--python" not in log
    assert dialog.bar.format() == "failed at %p%" and dialog.start.isEnabled()
    not_a_program = tmp_path / "python"
    not_a_program.write_text("")
    dialog.torch.python.setText(str(not_a_program))
    dialog.start.click()
    log = _finish(qtbot, dialog)
    assert f"error: the Python {not_a_program} is not an executable program" in log
    assert window.isVisible() and not (tmp_path / "mlp.torchrun").exists()
    dialog.close()
