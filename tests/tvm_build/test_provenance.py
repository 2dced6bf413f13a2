"""The model's own line: every Relax operator of a ``tvm.relax.frontend.nn`` model is traced
to the line of the model file that emitted it (tests/data/models/nn_lines.py, whose lines
are known), stored in the manifest and shown by ``kernelscope kernels``."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths_support import DATA

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.cli.main import main
from kernelscope.core.workspace import Workspace, model_line_share

pytestmark = pytest.mark.slow

MODEL = DATA / "models" / "nn_lines.py"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    out = tmp_path_factory.mktemp("lines") / "nn_lines.kscope"
    return build_in_child(BuildRequest(model=MODEL, output=out, arch="sm_90"))


def _line(text: str) -> int:
    return next(i for i, ln in enumerate(MODEL.read_text().splitlines(), 1) if text in ln)


def test_every_operator_has_the_line_that_emitted_it(built: Workspace) -> None:
    ops = {(op.op, op.origin, op.origin_text) for k in built.manifest.kernels for op in k.ops}
    up, relu, down, last = (
        _line("h = self.up(x)"),
        _line("op.relu(h)"),
        _line("h = self.down(h)"),
        _line("op.softmax"),
    )
    assert (up, relu, down, last) == (15, 16, 17, 18)  # as the file says
    text = MODEL.read_text().splitlines()
    expected = {
        ("relax.permute_dims", up),  # nn.Linear transposes its weight
        ("relax.matmul", up),
        ("relax.nn.relu", relu),
        ("relax.permute_dims", down),
        ("relax.matmul", down),
        ("relax.add", last),
        ("relax.nn.softmax", last),
    }
    assert {(op, int(where.rpartition(":")[2])) for op, where, _ in ops} == expected
    for _, where, line_text in ops:
        name, _, line = where.partition(":")
        assert name == "nn_lines.py" and line_text == text[int(line) - 1].strip()


def test_the_kernel_list_shows_each_kernels_model_line(
    built: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["kernels", str(built.path)]) == 0
    out = capsys.readouterr().out
    assert "model line" in out.splitlines()[0]
    softmax = next(ln for ln in out.splitlines() if ln.startswith("softmax"))
    assert softmax.rstrip().endswith(f"nn_lines.py:{_line('op.softmax')}")
    assert "model lines: 100.0% of the launches of one forward call" in out
    share = model_line_share(built.manifest, "forward")
    assert share is not None and share.share == 1.0 and share.weighed_by == "launches"


def test_a_model_without_model_lines_has_no_share(tmp_path: Path) -> None:
    ws = Workspace.open(DATA / "ws_mlp")
    assert model_line_share(ws.manifest, ws.manifest.entry) is None


def test_the_kernel_tooltip_lists_the_model_lines(built: Workspace) -> None:
    from kernelscope.core.view.document import summary_from_info
    from kernelscope.viewer.panels.kernel_list_model import _tooltip

    info = next(k for k in built.manifest.kernels if k.name.startswith("softmax"))
    summary = summary_from_info(info)
    line = _line("op.softmax")
    assert summary.model_lines == (f"nn_lines.py:{line}  return op.softmax(h + x, axis=-1)",)
    assert f"Model lines:<br>• nn_lines.py:{line}" in _tooltip(summary)


def test_a_model_file_running_a_sibling_gets_the_siblings_lines(tmp_path: Path) -> None:
    runner = build_in_child(
        BuildRequest(
            model=MODEL.with_name("nn_lines_runner.py"), output=tmp_path / "r", arch="sm_90"
        )
    )
    softmax = next(k for k in runner.manifest.kernels if k.name.startswith("softmax"))
    assert softmax.ops[0].origin == f"nn_lines.py:{_line('op.softmax')}"
