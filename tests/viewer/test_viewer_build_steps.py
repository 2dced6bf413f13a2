"""Build & Profile's LLM steps: shown for a model that runs as steps (a workspace of several
Relax functions, a Relax .py with a KV cache), its fields going into the profile request as
the CLI's --steps/--profile-steps/--batch/--hook do, remembered, and checked by core before
anything runs."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from paths_support import DATA
from viewer_support import WORKSPACE

from kernelscope.core.profiling import StepOptions
from kernelscope.core.workspace import FunctionInfo, Workspace
from kernelscope.viewer.build_profile.build_dialog import BuildDialog

MODELS = DATA / "models"


@pytest.fixture()
def llm_workspace(tmp_path: Path) -> Path:
    """ws_mlp recorded as an LLM's build: several Relax functions and no one entry."""
    path = tmp_path / "llama.kscope"
    shutil.copytree(WORKSPACE, path)
    manifest = Workspace.open(path).manifest
    functions = [FunctionInfo(n, [], 0, [], [], []) for n in ("embed", "prefill", "decode")]
    changed = dataclasses.replace(manifest, entry="", functions=functions)
    (path / "manifest.json").write_text(changed.to_json(), encoding="utf-8")
    return path


def _dialog(window, **kw):  # noqa: ANN001, ANN003, ANN202
    dialog = BuildDialog(window.workers, window, settings=window.settings, **kw)
    dialog.show()
    return dialog


def test_llm_steps_show_only_for_a_model_that_runs_as_steps(
    qtbot, make_window, llm_workspace: Path
) -> None:
    window = make_window()
    dialog = _dialog(window, workspace=Workspace.open(WORKSPACE))
    assert dialog.llm_steps.isHidden()  # one call runs ws_mlp
    dialog.output.setText(str(llm_workspace))
    assert not dialog.llm_steps.isHidden()
    assert "embed, prefill, decode" in dialog.llm_steps.toolTip()
    dialog.output.setText("")
    dialog.model.setText(str(MODELS / "llama_mlc.py"))  # not built yet: its KV cache says so
    assert not dialog.llm_steps.isHidden()
    dialog.model.setText(str(MODELS / "small_cnn.onnx"))
    assert dialog.llm_steps.isHidden()
    dialog.close()


def test_llm_steps_go_into_the_request_and_are_remembered(
    qtbot, make_window, llm_workspace: Path, tmp_path: Path
) -> None:
    window = make_window()
    dialog = _dialog(window, workspace=Workspace.open(llm_workspace))
    hook = tmp_path / "loop.py"
    dialog.llm_steps.steps.setText("prefill=128,decode=8")
    dialog.llm_steps.profile_steps.setText("decode:0-3")
    dialog.llm_steps.batch.setValue(4)
    dialog.llm_steps.hook.setText(str(hook))
    dialog.close()  # remembers

    again = _dialog(window, workspace=Workspace.open(llm_workspace))
    request = again.profile_request(llm_workspace)
    assert request.llm == StepOptions("prefill=128,decode=8", "decode:0-3", 4, hook)
    again.output.setText(str(WORKSPACE))  # a model run as one call: no steps at all
    assert again.profile_request(WORKSPACE).llm == StepOptions()
    again.close()


def test_bad_steps_are_refused_with_cores_message_before_a_job(
    qtbot, make_window, llm_workspace: Path
) -> None:
    window = make_window()
    dialog = _dialog(window, workspace=Workspace.open(llm_workspace))
    dialog.llm_steps.steps.setText("prefill=16,decode=x")
    dialog.host.where.setCurrentText("me@gpu-box")  # where cannot matter: nothing starts
    dialog.start.click()
    assert dialog.job is None
    log = dialog.log.toPlainText()
    assert "'decode=x' is not prefill=N or decode=N" in log
    assert "hint: under LLM steps, e.g. Steps prefill=128,decode=32" in log  # not a CLI flag
    dialog.llm_steps.steps.setText("prefill=16,decode=4")
    dialog.llm_steps.profile_steps.setText("decode:9")
    dialog.start.click()
    assert dialog.job is None
    assert "decode runs 4 step(s)" in dialog.log.toPlainText()
    dialog.close()


def test_an_llm_profiled_without_steps_says_where_to_give_them(
    qtbot, make_window, llm_workspace: Path
) -> None:
    window = make_window()
    dialog = _dialog(window, workspace=Workspace.open(llm_workspace))
    assert dialog.llm_steps.steps.text() == ""
    dialog.start.click()  # profile the workspace as it is, here: refused before any ncu
    qtbot.waitUntil(lambda: dialog.job is None, timeout=30_000)
    log = dialog.log.toPlainText()
    assert "holds several Relax functions (embed, prefill, decode)" in log
    assert "give its steps under LLM steps, e.g. prefill=128,decode=8" in log
    dialog.close()


def test_cuda_graphs_go_into_the_build_request_and_follow_the_workspace(
    qtbot, make_window, llm_workspace: Path
) -> None:
    """The LLM steps group's CUDA graphs box is ``build --cuda-graph``: in the build request
    while the group shows, ticked for a workspace built with graphs."""
    window = make_window()
    dialog = _dialog(window, workspace=Workspace.open(llm_workspace))
    assert not dialog.llm_steps.cuda_graph.isChecked()  # the workspace was built without
    dialog.model.setText(str(MODELS / "llama_mlc.py"))
    assert not dialog.request().cuda_graph
    dialog.llm_steps.cuda_graph.setChecked(True)
    assert dialog.request().cuda_graph
    dialog.tvm.build.setChecked(True)
    dialog.profile.setChecked(False)  # a build option: not greyed with the profile's steps
    assert dialog.llm_steps.cuda_graph.isEnabled() and not dialog.llm_steps.steps.isEnabled()
    dialog.tvm.build.setChecked(False)
    assert not dialog.llm_steps.cuda_graph.isEnabled()
    dialog.output.setText("")
    dialog.model.setText(str(MODELS / "small_cnn.onnx"))  # one call: no graphs to capture
    assert dialog.llm_steps.isHidden() and not dialog.request().cuda_graph
    dialog.close()

    manifest = Workspace.open(llm_workspace).manifest
    graphs = dataclasses.replace(manifest, cuda_graph=True)
    (llm_workspace / "manifest.json").write_text(graphs.to_json(), encoding="utf-8")
    again = _dialog(window, workspace=Workspace.open(llm_workspace))
    assert again.llm_steps.cuda_graph.isChecked()
    again.close()


def test_the_dialog_with_the_llm_steps_fits_a_1280x720_screen(qtbot, make_window) -> None:
    """The Profile tab with the LLM steps group is taller than a 720-pixel screen leaves a
    dialog: the tabs scroll, so the dialog's least height fits (with a title bar's room)."""
    window = make_window()
    dialog = _dialog(window)
    dialog.model.setText(str(MODELS / "llama_mlc.py"))
    qtbot.waitUntil(lambda: not dialog.llm_steps.isHidden(), timeout=30_000)
    assert dialog.minimumSizeHint().height() <= 680
    dialog.close()
