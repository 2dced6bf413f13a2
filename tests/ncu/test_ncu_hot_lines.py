"""One hot-line ranking: ``kernelscope hot --json``, the viewer's ``hot_lines`` and the kernel
DB's line summary give the same rows and shares on H200 reports whose kernels inline header
code (softmax's ``expf``/``fmaxf`` from ``crt/math_functions.hpp``, shuffles from
``sm_30_intrinsics.hpp``). An inlined instruction counts once, at its call site in the
kernel's own file: shares add up to at most 1 and no ranked line is a header line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from ncu_support import MLP
from paths_support import DATA, H200_REPORT

from kernelscope.core.cli import main as cli
from kernelscope.core.kernel_db import KernelDB
from kernelscope.core.ncu import SAMPLES, HotLine, label_of
from kernelscope.core.view import hot_lines, open_document, read_export_facts

WS_MLP = DATA / "ws_mlp"
DB_TOP = 10  # lines a DB summary keeps per kernel


def _cli_hot(args: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert cli.main(["hot", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)["lines"]


def _row(h: HotLine) -> dict[str, Any]:
    """A viewer hot line in the JSON shape of ``kernelscope hot``."""
    return {
        "rank": h.rank,
        "kernel": h.kernel,
        "file": h.file,
        "line": h.line,
        "value": h.value,
        "share": h.share,
        "stalls": [{"reason": r, "samples": v, "share": s} for r, v, s in h.stalls],
        "source": h.source,
        "metrics": h.metrics.values,
        "categories": h.metrics.categories,
    }


def _same_ranking(workspace: Path, report: Path, tmp_path: Path, capsys) -> None:  # noqa: ANN001
    """Attach ``report`` to a copy of ``workspace``, then compare the three front-ends."""
    ws = tmp_path / "ws"
    shutil.copytree(workspace, ws, ignore=shutil.ignore_patterns("profiles"))
    assert cli.main(["import", str(report), "-w", str(ws)]) == 0
    session = open_document(ws)  # the workspace with its newest profile, as the window opens it
    document = session.document
    # the kernels measured (the build's never-launched ones are listed too, with no numbers)
    names = [s.name for s in document.summaries if document.launched(s.name)]
    header_files = {
        f for n in names for f in session.kernel(n).files_in_use()[1:] if f.endswith(".hpp")
    }
    assert header_files, "the fixture must inline header code"

    # whole model: the panel's rows are the CLI's rows
    cli_rows = _cli_hot([str(report), "-w", str(ws), "--top", "1000"], capsys)
    view_rows = [_row(h) for h in hot_lines(session, label_of(SAMPLES), None, 1000)]
    for row in cli_rows:
        row.pop("source_status")
    assert view_rows == cli_rows
    assert len(cli_rows) > 10
    assert not {r["file"] for r in cli_rows} & header_files  # counted at the call site
    assert sum(r["share"] for r in cli_rows) <= 1.0 + 1e-9

    # per kernel: CLI, panel and the DB's stored summary
    db = tmp_path / "k.db"
    assert cli.main(["export-db", str(ws), "--db", str(db), "--profile", str(report)]) == 0
    with KernelDB.open(db) as kdb:
        stored = {e.kernel_name: kdb.get(e.key).metrics for e in kdb.list_entries()}
    # what the window would export: the same summaries and times as the CLI stored
    facts = read_export_facts(session)
    assert {n: facts.line_summaries.get(n) for n in names} == {n: stored[n] for n in names}
    assert dict(facts.times) == document.kernel_times() and set(facts.times) == set(names)
    compared = 0
    for name in names:
        args = [str(report), "-w", str(ws), "--kernel", name, "--top", str(DB_TOP)]
        cli_k = _cli_hot(args, capsys)
        view_k = [_row(h) for h in hot_lines(session, label_of(SAMPLES), name, DB_TOP)]
        for row in cli_k:
            row.pop("source_status")
        assert view_k == cli_k, name
        summary = stored[name]
        assert summary is not None, name
        assert summary["hot_lines"] == [
            {
                "line": r["line"],
                "samples": r["value"],
                "share": round(r["share"], 4),
                "inst_executed": r["metrics"].get("inst_executed", 0.0),
                "stalls": [[s["reason"], round(s["share"], 4)] for s in r["stalls"][:3]],
            }
            for r in cli_k
        ], name
        everything = hot_lines(session, label_of(SAMPLES), name, 100_000)
        assert sum(h.share for h in everything) == pytest.approx(1.0)  # every sample on a line
        compared += len(cli_k)
    assert compared >= 2 * len(names)


def test_mlp_report_on_its_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _same_ranking(WS_MLP, MLP / "mlp.ncu-rep", tmp_path, capsys)


@pytest.mark.slow
def test_small_cnn_h200_report_on_its_build(
    build_once,  # noqa: ANN001
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _same_ranking(build_once("small_cnn.onnx").path, H200_REPORT, tmp_path, capsys)
