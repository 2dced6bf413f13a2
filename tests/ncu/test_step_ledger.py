"""The step ledger (``kernelscope steps``): each profiled step's time by operator group, read
from the build's manifest (the TVM operators a kernel fuses, the role the KV cache gave its
runtime-launched kernels), and each kernel's launches at the symbolic values each step ran at,
their grids checked against the build's grid expressions.

The workspace is the MLC-style Llama (tests/data/models/llama_mlc.py) built for sm_90; the
report is laid out as the runner's steps launch its kernels (``steps_support``), each launch
a real launch of the H200 report renamed, until a stepped report of it is recorded on a GPU.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_support import run_cli
from llm_support import build_recorded_llama
from paths_support import DATA, H200_REPORT, data_path
from steps_support import llm_stepped_report

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import Profile, group_shares, ledger_input, step_ledger, steps_path
from kernelscope.core.ncu.ledger import kernel_group
from kernelscope.core.workspace import KernelInfo, LaunchSite, OpInfo, Workspace

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    out = tmp_path_factory.mktemp("llm") / "llama.kscope"
    return build_in_child(
        BuildRequest(model=DATA / "models" / "llama_mlc.py", output=out, arch="sm_90")
    )


def test_each_steps_time_by_operator_group_comes_from_the_manifest(
    llama: Workspace, tmp_path: Path
) -> None:
    ledger = step_ledger(llm_stepped_report(tmp_path, llama, prefill=16, decode=2))
    assert [s.label for s in ledger.steps] == ["prefill 0", "decode 0", "decode 1"]
    decode = ledger.steps[1]
    assert (decode.seq_len, decode.batch, decode.total_len) == (1, 1, 17)
    launches = {g: t.launches for g, t in decode.groups.items()}
    # the KV cache's decode: rope, append (maintenance), the paged decode attention
    assert launches["attention"] == 1 and launches["rope"] == 1 and launches["kv-cache"] == 1
    assert launches["matmul"] == 5 and launches["norm"] == 1 and launches["elementwise"] == 1
    assert sum(t.duration_ns for t in decode.groups.values()) == pytest.approx(decode.duration_ns)
    prefill = {g: t.launches for g, t in ledger.steps[0].groups.items()}
    assert prefill["attention"] == 3  # ragged + paged prefill and their merge
    why = {k.name: k.why for k in ledger.kernels}
    assert why["batch_decode_paged_kv_kernel"] == "the KV cache's attention_decode kernel"
    assert why["NT_matmul2_kernel"] == "fused from permute_dims+matmul"


def test_a_kernels_group_is_the_manifests_never_its_names() -> None:
    def info(name: str, ops: list[str], role: str = "") -> KernelInfo:
        sites = [LaunchSite("decode", "vm.builtin.x", role)] if role else []
        return KernelInfo(
            name, "", "", [1, 1, 1], [1, 1, 1], 0, [], [OpInfo(o, o, [], None) for o in ops],
            launched_by=sites,
        )  # fmt: skip

    assert kernel_group(info("attention_softmax_kernel", ["relax.nn.rms_norm"])).group == "norm"
    assert kernel_group(info("matmul_kernel", [], role="append")).group == "kv-cache"
    assert kernel_group(info("x", ["relax.add", "relax.nn.silu"])).group == "elementwise"
    assert kernel_group(info("x", ["relax.reshape"])).group == "other"
    assert kernel_group(None).group == "library"  # what the build does not have


def test_the_same_kernel_at_other_bindings_is_one_kernel_with_a_row_each(
    llama: Workspace, tmp_path: Path
) -> None:
    ledger = step_ledger(llm_stepped_report(tmp_path, llama, prefill=16, decode=3))
    kernels = {k.name: k for k in ledger.kernels}
    attention = kernels["batch_decode_paged_kv_kernel"]  # reads the cache: its length counts
    assert [r.bindings for r in attention.rows] == [
        {"batch_size": 1, "cached": n} for n in (17, 18, 19)
    ]
    matmul = kernels["NT_matmul2_kernel"]  # decode's call at batch_size 1 in every step
    assert len(matmul.rows) == 1 and matmul.rows[0].steps == ["decode 0", "decode 1", "decode 2"]
    assert matmul.launches == 3 and matmul.rows[0].expected_grid == matmul.rows[0].grids[0]
    rope = kernels["fused_rope_kernel"]  # prefill and decode: one kernel, rows per binding
    assert rope.rows[0].bindings == {"seq_len": 16, "cached": 16}
    assert rope.rows[0].grids == [(8, 1, 1)] and not rope.rows[0].flag
    assert ledger.flags == []


def test_bindings_that_disagree_with_the_grid_are_flagged(
    llama: Workspace,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    profile = llm_stepped_report(
        tmp_path, llama, prefill=16, decode=1, grids={"rms_norm1_kernel": (8, 1, 1)}
    )
    monkeypatch.setattr(Profile, "open", classmethod(lambda cls, *a, **k: profile))
    rc, out, err = run_cli(["steps", profile.paths[0], "-w", llama.path], capsys)
    assert rc == 0
    row = next(line for line in out.splitlines() if line.startswith("rms_norm1_kernel"))
    assert "seq_len=16" in row and "8x1x1" in row and "GRID?" in row
    assert (
        "rms_norm1_kernel at seq_len=16 (prefill 0): grid 8x1x1 recorded, the build's "
        "seq_lenx1x1 gives 16x1x1"
    ) in err
    head = out.splitlines()[0].split()
    assert head[:8] == ["step", "seq", "len", "batch", "cached", "launches", "time", "us"]
    assert "attention" in head and "kv-cache" in head
    rc, out, _ = run_cli(["steps", profile.paths[0], "-w", llama.path, "--json"], capsys)
    data = json.loads(out)
    assert data["flags"] and data["flags"][0].startswith("rms_norm1_kernel at seq_len=16")
    assert [s["name"] for s in data["steps"]] == ["prefill", "decode"]
    assert data["steps"][1]["groups"]["attention"]["launches"] == 1


def test_a_workspace_means_its_newest_report_with_steps(llama: Workspace, tmp_path: Path) -> None:
    ws = tmp_path / "ws.kscope"
    shutil.copytree(llama.path, ws)
    (ws / "profiles").mkdir(exist_ok=True)
    with pytest.raises(KernelscopeError, match="has no report profiled step by step") as caught:
        ledger_input(ws)
    assert f"kernelscope profile {ws} --steps prefill=128,decode=32" in (caught.value.hint or "")
    report = ws / "profiles" / "steps.ncu-rep"
    shutil.copy(H200_REPORT, report)
    shutil.copy(H200_REPORT, ws / "profiles" / "newer_without_steps.ncu-rep")
    report.with_name(report.name + ".steps.json").write_text('{"steps": []}')
    found, workspace = ledger_input(ws)
    assert found == report and workspace.path == ws
    assert ledger_input(report)[1].path == ws  # a report in WS/profiles: that workspace


def test_a_report_without_steps_or_workspace_says_how_to_profile_with_steps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, llama: Workspace
) -> None:
    rc, _, err = run_cli(["steps", H200_REPORT], capsys)
    assert rc == 1
    assert "the step ledger of small_cnn_h200.ncu-rep needs the workspace" in err
    assert "--steps prefill=128,decode=32 --profile-steps decode:0-3" in err
    rc, _, err = run_cli(["steps", H200_REPORT, "-w", llama.path], capsys)
    assert rc == 1
    assert "small_cnn_h200.ncu-rep was not profiled step by step" in err
    assert f"kernelscope profile {llama.path} --steps prefill=128,decode=32" in err


# ---- the reports recorded on a GPU (tests/data/llm/README.md) ------------------------------------
@pytest.fixture(scope="module")
def recorded_ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The build the recorded reports were profiled from (``--shape seq_len=128 --shape
    batch_size=1``, the default mlc-llm pipeline)."""
    return build_recorded_llama(tmp_path_factory.mktemp("llm128") / "llama.kscope")


def _recorded(name: str, folder: Path | None = None) -> Path:
    report = data_path(f"llm/{name}.ncu-rep")
    if folder is None:
        return report
    shutil.copy(report, folder / report.name)
    shutil.copy(steps_path(report), steps_path(folder / report.name))
    return folder / report.name


def test_a_recorded_decode_ledger(recorded_ws: Workspace) -> None:
    profile = Profile.open(_recorded("tiny_decode"), workspace=recorded_ws)
    ledger = step_ledger(profile)
    assert [s.label for s in ledger.steps] == [f"decode {i}" for i in range(4)]
    assert [s.total_len for s in ledger.steps] == [513, 514, 515, 516]
    for step in ledger.steps:  # 2 layers: the KV cache's three kernels twice, embed's two
        assert step.launches == 24
        launches = {g: t.launches for g, t in step.groups.items()}
        assert launches["attention"] == launches["rope"] == launches["kv-cache"] == 2
        assert launches["other"] == 2  # embed's take and reshape, called for the step's input
        assert sum(t.launches for t in step.groups.values()) == 24
    assert ledger.flags == []  # every recorded grid is the build's at the step's values
    kernels = {k.name: k for k in ledger.kernels}
    attention = kernels["batch_decode_paged_kv_kernel"]
    assert [r.bindings["cached"] for r in attention.rows] == [513, 514, 515, 516]
    assert all(r.grids == [r.expected_grid] == [(1, 2, 1)] for r in attention.rows)
    matmul = kernels["NT_matmul2_kernel"]
    assert len(matmul.rows) == 1 and matmul.launches == 8
    take = kernels["take_kernel"].rows  # embed's, at the decode step's one token
    assert len(take) == 1 and take[0].bindings == {"seq_len": 1}
    assert take[0].expected_grid == take[0].grids[0] == (1, 1, 1)


def test_a_recorded_prefill_is_mostly_attention(recorded_ws: Workspace) -> None:
    ledger = step_ledger(Profile.open(_recorded("tiny_prefill"), workspace=recorded_ws))
    (prefill,) = ledger.steps
    assert (prefill.label, prefill.seq_len, prefill.launches) == ("prefill 0", 512, 25)
    assert group_shares(ledger.steps)["attention"] > 0.5
    rows = {k.name: k.rows for k in ledger.kernels}
    assert rows["rms_norm1_kernel"][0].grids == [(512, 1, 1)]  # seq_len=512: checked, agrees
    assert rows["rms_norm1_kernel"][0].expected_grid == (512, 1, 1)
    assert ledger.flags == []


def test_a_step_list_that_does_not_describe_the_run_is_flagged(
    recorded_ws: Workspace, tmp_path: Path
) -> None:
    """The step list says 2 sequences, the launches ran 1: the decode attention's grid over
    the sequences (and the decode functions' over batch_size) disagree, and say so."""
    report = _recorded("tiny_decode", tmp_path)
    raw = json.loads(steps_path(report).read_text())
    for s in raw["steps"]:
        s["batch"] = 2
    steps_path(report).write_text(json.dumps(raw))
    ledger = step_ledger(Profile.open(report, workspace=recorded_ws))
    flagged = {f.split(" at ")[0] for f in ledger.flags}
    assert "batch_decode_paged_kv_kernel" in flagged and "rms_norm_kernel" in flagged
    assert any(
        f.startswith("batch_decode_paged_kv_kernel at batch_size=2, cached=513 (decode 0): "
                     "grid 1x2x1 recorded, the build's Bx2x1 gives 2x2x1")
        for f in ledger.flags
    )  # fmt: skip


def test_a_profile_made_from_a_first_look_keeps_the_step_markers() -> None:
    """The window shows a report's first look and then reads it whole, taking the launches
    the first look decoded: the step markers come along, or the steps are lost."""
    report = _recorded("tiny_decode")
    glance = Profile.open(report, first_look=True)
    whole = Profile.open(report, looked=glance, use_cache=False)
    assert len(glance.step_markers) == len(whole.step_markers) == 4
    assert [x.id for x in whole.launches] == [x.id for x in glance.launches]


def test_a_runtime_launched_kernels_grid_is_the_reports_where_the_builds_is_unbound(
    recorded_ws: Workspace, tmp_path: Path
) -> None:
    """The decode attention's grid is ``Bx2x1`` in the build (B: the batch the runtime
    launches it for), unbound there; the kernel list and the status bar show the grid the
    report recorded, never a 0 (the window said "grid 0x2x1")."""
    from kernelscope.core.view import open_document

    info = recorded_ws.manifest.kernel("batch_decode_paged_kv_kernel")
    assert info.grid_expr and 0 in info.grid  # the build cannot size it
    ws = Workspace.open(shutil.copytree(recorded_ws.path, tmp_path / "ws"))
    ws.attach_profile(_recorded("tiny_decode"))
    document = open_document(ws.path).document
    assert document.summary("batch_decode_paged_kv_kernel").grid == (1, 2, 1)
    assert document.summary("NT_matmul2_kernel").grid == tuple(
        recorded_ws.manifest.kernel("NT_matmul2_kernel").grid
    )


def test_importing_decode_steps_expects_only_what_the_decode_steps_launch(
    recorded_ws: Workspace, tmp_path: Path
) -> None:
    """A report of decode steps holds no prefill kernel: importing it does not list the
    prefill's kernels as "launched by the build but not profiled" (it listed 10)."""
    from kernelscope.core.ncu import import_report

    ws = Workspace.open(shutil.copytree(recorded_ws.path, tmp_path / "ws"))
    summary = import_report(_recorded("tiny_decode", tmp_path), ws).summary()
    assert summary[1] == "  12 kernels match the build"  # decode's and embed's, all profiled
    assert not [line for line in summary if "was not profiled" in line], summary
