"""The Steps pane: the step ledger of an LLM's profile (``kernelscope steps``) in the window.
Its steps with their time by operator group, each kernel at each binding, a grid that
disagrees with its bindings marked; a row chosen selects that kernel's launch in every pane
(the source and SASS show the kernel, Details that launch)."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths_support import DATA, data_path
from PySide6.QtCore import Qt
from steps_support import llm_stepped_report, stepped_report, write_step_list
from viewer_support import WAIT_MS, click_row, settle

from kernelscope.core.view import ProfileSession, ViewDocument
from kernelscope.core.view.from_profile import document_from_profile
from kernelscope.viewer.details import DetailsFeature
from kernelscope.viewer.steps import StepsFeature

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    from kernelscope.core.build import BuildRequest, build_in_child

    out = tmp_path_factory.mktemp("llm") / "llama.kscope"
    return build_in_child(
        BuildRequest(model=DATA / "models" / "llama_mlc.py", output=out, arch="sm_90")
    )


def _show(qtbot, window, profile, workspace, session=None):  # noqa: ANN001, ANN202
    session = session or document_from_profile(profile, workspace)
    window.selection.set_document(session.document, session)
    window.feature(StepsFeature).dock.show()
    window.feature(StepsFeature).dock.raise_()
    pane = window.feature(StepsFeature).pane
    qtbot.waitUntil(lambda: pane.ledger is not None, timeout=WAIT_MS)
    return pane


def _texts(table, column: int) -> list[str]:  # noqa: ANN001
    model = table.model()
    return [model.index(r, column).data() for r in range(model.rowCount())]


def test_a_row_selects_its_launch_in_every_pane(
    make_window, qtbot, tmp_path: Path, build_once
) -> None:
    ws = build_once("small_cnn.onnx")
    profile = stepped_report(tmp_path, cuts=[0, 2], workspace=ws)
    write_step_list(profile.paths[0], [True, True])  # prefill 0, decode 0
    window = make_window()
    window.feature(DetailsFeature).details_dock.show()
    pane = _show(qtbot, window, profile, ws)
    assert _texts(pane.steps, 0) == ["prefill 0", "decode 0"]
    assert "2 steps" in pane.caption.text()
    kernels = _texts(pane.rows, 0)
    row = kernels.index("fused_matmul_add1_kernel")  # the decode step's matmul, launch 3
    assert _texts(pane.rows, 1)[row] == "matmul"  # fused from relax.matmul: the manifest says
    click_row(qtbot, pane.rows, row)
    settle(qtbot, window)
    assert window.selection.kernel.name == "fused_matmul_add1_kernel"
    assert window.selection.launch == 3
    assert window.source.isVisible() and window.selection.file.endswith(
        "fused_matmul_add1_kernel.cu"
    )
    qtbot.waitUntil(
        lambda: window.feature(DetailsFeature).details_pane.details is not None, timeout=WAIT_MS
    )
    assert window.feature(DetailsFeature).details_pane.details.kernel == "fused_matmul_add1_kernel"
    assert window.feature(DetailsFeature).details_pane.details.launch_ids == [
        3
    ]  # that launch, not all of them
    # choosing a step lists its kernels only
    click_row(qtbot, pane.steps, 0)
    assert pane.step_box.currentText().startswith("prefill 0")
    assert sorted(_texts(pane.rows, 0)) == sorted(x.name for x in profile.launches[:2])


def test_groups_bindings_and_a_grid_that_disagrees(
    make_window, qtbot, tmp_path: Path, llama
) -> None:
    profile = llm_stepped_report(
        tmp_path, llama, prefill=16, decode=2, grids={"rms_norm_kernel": (4, 1, 1)}
    )
    # the launches are renamed copies whose IDs the report does not hold: a document of the
    # steps alone (the kernel list's per-launch reads would fail), the ledger read for real
    steps = {f"{s}": [] for s in ("prefill 0", "decode 0", "decode 1")}
    document = ViewDocument("llm", [], has_profile=True, workspace=llama, steps=steps)
    session = ProfileSession(document, lambda name: None, profile=profile, workspace=llama)
    window = make_window()
    pane = _show(qtbot, window, profile, llama, session)
    headers = [
        pane.steps_model.headerData(c, Qt.Orientation.Horizontal)
        for c in range(pane.steps_model.columnCount())
    ]
    assert headers[6:] == [
        "Attention µs", "Matmul µs", "Norm µs", "Rope µs", "Elementwise µs", "KV cache µs",
        "Other µs",
    ]  # fmt: skip
    assert "⚠ 1 row whose grid disagrees" in pane.caption.text()
    kernels, grids = _texts(pane.rows, 0), _texts(pane.rows, 6)
    flagged = [k for k, g in zip(kernels, grids, strict=True) if g.startswith("⚠")]
    assert flagged == ["rms_norm_kernel"]
    steps = dict(zip(kernels, _texts(pane.rows, 3), strict=True))
    assert steps["rms_norm_kernel"] == "decode 0-1"  # one binding over both decode steps
    bindings = [b for k, b in zip(kernels, _texts(pane.rows, 2), strict=True)
                if k == "batch_decode_paged_kv_kernel"]  # fmt: skip
    assert sorted(bindings) == ["batch_size=1, cached=17", "batch_size=1, cached=18"]


def test_a_profile_without_steps_says_how_to_profile_them(
    make_window, qtbot, ws_with_profile: Path
) -> None:
    window = make_window(ws_with_profile)
    window.feature(StepsFeature).dock.show()
    window.feature(StepsFeature).dock.raise_()
    pane = window.feature(StepsFeature).pane
    assert "This profile has no steps" in pane.caption.text()
    assert "--steps prefill=128,decode=32" in pane.caption.text()
    assert not pane.split.isVisible()


def test_a_recorded_decode_report_in_its_workspace(make_window, qtbot, tmp_path: Path) -> None:
    """The decode steps recorded on a GPU, attached to the build they were profiled from and
    opened as a user opens a workspace: a decode attention row (one a step) selects that
    step's launch of the kernel, Details shows that launch."""
    import shutil

    from llm_support import build_recorded_llama

    from kernelscope.core.ncu import steps_path

    ws = build_recorded_llama(tmp_path / "llama.kscope").path
    report = data_path("llm/tiny_decode.ncu-rep")
    (ws / "profiles").mkdir(exist_ok=True)
    shutil.copy(report, ws / "profiles" / report.name)
    shutil.copy(steps_path(report), steps_path(ws / "profiles" / report.name))
    window = make_window(ws)
    window.feature(DetailsFeature).details_dock.show()
    window.feature(StepsFeature).dock.show()
    window.feature(StepsFeature).dock.raise_()
    pane = window.feature(StepsFeature).pane
    qtbot.waitUntil(lambda: pane.ledger is not None, timeout=WAIT_MS)
    assert _texts(pane.steps, 0) == [f"decode {i}" for i in range(4)]
    assert _texts(pane.steps, 3) == ["513", "514", "515", "516"]
    assert "⚠" not in pane.caption.text()
    kernels, bindings = _texts(pane.rows, 0), _texts(pane.rows, 2)
    row = next(
        i
        for i, (k, b) in enumerate(zip(kernels, bindings, strict=True))
        if k == "batch_decode_paged_kv_kernel" and b == "batch_size=1, cached=515"
    )
    wanted = next(
        r.launch_ids[0] for k in pane.ledger.kernels for r in k.rows
        if k.name == "batch_decode_paged_kv_kernel" and r.bindings.get("cached") == 515
    )  # fmt: skip
    click_row(qtbot, pane.rows, row)
    settle(qtbot, window)
    assert window.selection.kernel.name == "batch_decode_paged_kv_kernel"
    assert window.selection.launch == wanted
    qtbot.waitUntil(
        lambda: window.feature(DetailsFeature).details_pane.details is not None, timeout=WAIT_MS
    )
    assert window.feature(DetailsFeature).details_pane.details.launch_ids == [wanted]
    assert window.feature(DetailsFeature).details_pane.launch_box.currentData() == wanted


def test_a_cuda_graph_builds_steps_show_their_graph_nodes(qtbot) -> None:
    """The Steps pane's tables say how many launches ran inside CUDA graphs (``build
    --cuda-graph``): a Graph nodes column for such steps alone, and per kernel row."""
    from kernelscope.core.ncu.ledger import BindingRow, GroupTotal, KernelLedger, Ledger, StepLedger
    from kernelscope.viewer.steps.model import LedgerModel, StepsModel

    def step(graph: int, mode: str | None) -> StepLedger:
        groups = {"matmul": GroupTotal(24, 150_000.0)}
        return StepLedger("decode", 0, 1, 1, 1, 129, 24, 150_000.0, groups, graph, 90_000.0, mode)

    row = BindingRow({"batch_size": 1}, ["decode 0"], list(range(8)), 1.0, graph_launches=4)
    kernels = [KernelLedger("fused_NT_matmul1_add_kernel", "matmul", "", [row])]
    steps, table = StepsModel(), LedgerModel()

    def heads(model: StepsModel) -> list[str]:
        return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]

    steps.set_ledger(Ledger(Path("r"), Path("ws"), [step(13, "replay")], kernels))
    assert heads(steps)[4:7] == ["Launches", "Graph nodes", "Time µs"]
    assert steps.data(steps.index(0, 5)) == "13 (replay)"
    table.set_ledger(Ledger(Path("r"), Path("ws"), [step(13, "replay")], kernels))
    launches = heads(table).index("Launches")  # type: ignore[arg-type]
    assert table.data(table.index(0, launches)) == "8 (4 in graphs)"
    steps.set_ledger(Ledger(Path("r"), Path("ws"), [step(0, None)], []))
    assert "Graph nodes" not in heads(steps)  # a plain build's steps
