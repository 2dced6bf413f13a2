"""Comparing two profiles (core/compare) on the H200 pairs of tests/data/compare:

* run to run: cnn3_b8_run1 vs cnn3_b8_run2 (one build profiled twice);
* batch change: cnn3_b8_run1 vs cnn3_b2 (same kernel names, other shapes and sources);
* renumbered: cnn3_b8_run1 vs cnn3x_b8 (a 1x1 conv in front: TVM renumbered every fused
  kernel, and ``fused_conv2d_add_relu_kernel`` is another convolution on each side).

Per-kernel times are checked against NVIDIA's reader (ncu_report) read here directly.
"""

from __future__ import annotations

import dataclasses
import math
import tarfile
from collections import defaultdict
from pathlib import Path

import pytest
from paths_support import DATA, H200_REPORT, data_path

from kernelscope.core.compare import (
    BASE_ONLY,
    CHANGED,
    FASTER,
    NEW_ONLY,
    ONLY_NEW,
    SAME,
    SLOWER,
    WITHIN_NOISE,
    Comparison,
    open_comparison,
    read_profile,
)
from kernelscope.core.compare.lines import align_lines
from kernelscope.core.compare.matching import KernelIdentity, match_kernels
from kernelscope.core.compare.noise import NOISE, NoiseModel
from kernelscope.core.compare.normalise import line_key, source_similarity
from kernelscope.core.compare.records import NAME, SIMILAR_STRUCTURE, SOURCE, STRUCTURE, UNMATCHED
from kernelscope.core.compare.session import count_passes, workspace_misfit
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.ncu import INST_EXECUTED, SAMPLES, Profile
from kernelscope.core.workspace import Workspace

PAIRS = data_path("compare")
SMALL = data_path("ncu/small")


BATCH_PAIR = {"base": "cnn3_b8_run1", "new": "cnn3_b2"}  # the batch change, base and new


def report(name: str) -> Path:
    return PAIRS / f"{name}.ncu-rep"


def ws(name: str) -> Path:
    return PAIRS / f"{name}.kscope"


@pytest.fixture(scope="module")
def run_pair() -> Comparison:
    return open_comparison(
        report("cnn3_b8_run1"), report("cnn3_b8_run2"), base_workspace=ws("cnn3_b8")
    )


@pytest.fixture(scope="module")
def batch_pair() -> Comparison:
    return open_comparison(
        report(BATCH_PAIR["base"]),
        report(BATCH_PAIR["new"]),
        base_workspace=ws("cnn3_b8"),
        new_workspace=ws("cnn3_b2"),
    )


@pytest.fixture(scope="module")
def renumbered_pair() -> Comparison:
    return open_comparison(
        report("cnn3_b8_run1"),
        report("cnn3x_b8"),
        base_workspace=ws("cnn3_b8"),
        new_workspace=ws("cnn3x_b8"),
    )


def ncu_durations(path: Path) -> list[tuple[str, float]]:
    """(kernel name, gpu__time_duration.sum) of every launch, read with ncu_report alone."""
    import ncu_report

    ctx = ncu_report.load_report(str(path))
    out = []
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for i in range(rng.num_actions()):
            action = rng.action_by_idx(i)
            out.append((action.name(), action.metric_by_name("gpu__time_duration.sum").as_double()))
    return out


def ncu_sums(path: Path) -> dict[str, float]:
    sums: dict[str, float] = defaultdict(float)
    for name, ns in ncu_durations(path):
        sums[name] += ns
    return dict(sums)


# ---- per-kernel deltas against NVIDIA's reader ---------------------------------------------------
@pytest.mark.parametrize(
    ("base", "new", "pair"),
    [
        ("cnn3_b8_run1", "cnn3_b8_run2", "run_pair"),
        ("cnn3_b8_run1", "cnn3_b2", "batch_pair"),
        ("cnn3_b8_run1", "cnn3x_b8", "renumbered_pair"),
    ],
)
def test_kernel_deltas_equal_ncu_report_sums(
    base: str, new: str, pair: str, request: pytest.FixtureRequest
) -> None:
    diff = request.getfixturevalue(pair).summary()
    a, b = ncu_sums(report(base)), ncu_sums(report(new))
    seen_base, seen_new = set(), set()
    for k in diff.kernels:
        if k.match.base:
            assert k.base_ns == pytest.approx(a[k.match.base], abs=0.5)
            seen_base.add(k.match.base)
        if k.match.new:
            assert k.new_ns == pytest.approx(b[k.match.new], abs=0.5)
            seen_new.add(k.match.new)
        if k.match.base and k.match.new:
            expected = b[k.match.new] - a[k.match.base]
            assert k.delta_ns == pytest.approx(expected, abs=0.5), k.match.label
            assert k.pct == pytest.approx(100 * expected / a[k.match.base])
    # every kernel is in the table, none twice, none dropped
    assert seen_base == set(a) and seen_new == set(b)
    assert len(diff.kernels) == len({(k.match.base, k.match.new) for k in diff.kernels})
    assert diff.total.base_ns == pytest.approx(sum(a.values()), abs=1)
    assert diff.total.delta_ns == pytest.approx(sum(b.values()) - sum(a.values()), abs=1)


def test_launches_matched_one_by_one_in_model_order() -> None:
    """``scale`` runs twice in the small app; each launch meets its counterpart."""
    cmp = open_comparison(SMALL / "lineinfo.ncu-rep", SMALL / "nolineinfo.ncu-rep")
    diff = cmp.summary()
    a, b = ncu_durations(SMALL / "lineinfo.ncu-rep"), ncu_durations(SMALL / "nolineinfo.ncu-rep")
    assert [(x.base_kernel, x.occurrence, x.base_id, x.new_id) for x in diff.launches] == [
        ("scale", 0, 0, 0),
        ("row_sum", 0, 1, 1),
        ("scale", 1, 2, 2),
    ]
    for x in diff.launches:
        assert x.delta_ns == pytest.approx(b[x.new_id][1] - a[x.base_id][1])
    scale = diff.kernel("scale")
    assert (scale.base_launches, scale.new_launches) == (2, 2)
    assert scale.base_ns == pytest.approx(a[0][1] + a[2][1])  # a sum over launches


# ---- noise ---------------------------------------------------------------------------------------
def test_run_to_run_pair_is_within_noise(run_pair: Comparison) -> None:
    diff = run_pair.summary()
    assert [k.status for k in diff.kernels] == [WITHIN_NOISE] * 7
    assert diff.total.status == WITHIN_NOISE
    assert all(k.match.method == NAME for k in diff.kernels)
    # the model's constant covers this pair: the variance per ns it measures is below it, and
    # no launch differs by 3 of the model's standard deviations
    launches = list(
        zip(
            ncu_durations(report("cnn3_b8_run1")),
            ncu_durations(report("cnn3_b8_run2")),
            strict=True,
        )
    )
    c = sum((y - x) ** 2 / (x + y) for (_, x), (_, y) in launches) / len(launches)
    assert c < NOISE.duration_c_ns
    assert (
        max(abs(y - x) / math.sqrt(NOISE.duration_c_ns * (x + y)) for (_, x), (_, y) in launches)
        < 3
    )


def test_real_changes_are_outside_noise(batch_pair: Comparison) -> None:
    diff = batch_pair.summary()
    by_name = {k.name: k for k in diff.kernels}
    for name in (
        "fused_conv2d_add_relu_kernel",
        "fused_conv2d1_add1_relu1_kernel",
        "fused_conv2d2_add2_relu2_kernel",
        "max_pool2d_kernel",
    ):
        assert by_name[name].status == FASTER, name
        assert abs(by_name[name].delta_ns) > by_name[name].noise_ns
    assert by_name["transpose_kernel"].status == WITHIN_NOISE  # the same 10x64 transpose
    assert diff.total.status == FASTER and diff.total.pct == pytest.approx(-30.0, abs=0.1)


def test_the_duration_band_applies_only_to_reports_of_the_gpu_it_was_measured_on() -> None:
    """The same matmul (one Gemm, the same code) measured 13.7 % apart in two H200 reports
    of two models: the H200's own band calls it slower. A band measured on another GPU (here
    one said to be an H100's) is not applied to these H200 reports: no band is known for the
    H200 then, the conservative default is used, and the comparison says so first."""
    pair = (report("cnn3_b8_3passes"), report("cnn3x_b8"))
    spaces = {"base_workspace": ws("cnn3_b8"), "new_workspace": ws("cnn3x_b8")}
    own = open_comparison(*pair, **spaces).summary()  # type: ignore[arg-type]
    gemm = own.kernel("fused_matmul_add3_kernel", "base")
    assert gemm.status == SLOWER and gemm.pct == pytest.approx(13.67, abs=0.01)
    assert own.noise.band_known and not any("noise band" in n for n in own.notes)
    assert own.noise.describe().endswith("(the same build profiled twice on an NVIDIA H200).")

    h100 = NoiseModel(gpu="NVIDIA H100 80GB HBM3")
    other = open_comparison(*pair, noise=h100, **spaces).summary()  # type: ignore[arg-type]
    assert other.notes[0] == (
        "no noise band is known for NVIDIA H200 (kernelscope's was measured on an NVIDIA "
        "H100 80GB HBM3): a time delta of up to 15 % of the kernel's time counts as noise, "
        "a conservative default"
    )
    gemm = other.kernel("fused_matmul_add3_kernel", "base")
    assert gemm.status == WITHIN_NOISE
    assert gemm.noise_ns == pytest.approx(0.15 * gemm.new_per_pass_ns)
    assert other.kernel("transpose_kernel").status == SLOWER  # +32 %: beyond it still
    assert "no band is known for NVIDIA H200, so the 15 % is a conservative default" in (
        other.noise.describe()
    )


def test_noise_of_sampled_and_counted_metrics() -> None:
    # samples are Poisson: 100 vs 130 is within 3 sigma (sqrt(230) * 3 = 45), 100 vs 160 is not
    assert NOISE.count_band(SAMPLES, 100, 130) == pytest.approx(3 * math.sqrt(230))
    assert NOISE.count_band(SAMPLES, 100, 160) < 60
    # instructions executed are counted exactly: no noise band
    assert NOISE.count_band(INST_EXECUTED, 100, 101) == 0.0


# ---- matching ------------------------------------------------------------------------------------
def test_batch_change_matches_by_name_with_shapes_differing(batch_pair: Comparison) -> None:
    diff = batch_pair.summary()
    assert not diff.only_base and not diff.only_new
    for k in diff.kernels:
        assert k.match.method == NAME and not k.match.renamed
    conv = diff.kernel("fused_conv2d_add_relu_kernel").match
    assert "shapes differ" in conv.evidence and "8x3x56x56" in conv.evidence
    assert (
        "same fused operators, shapes and dtypes" in diff.kernel("transpose_kernel").match.evidence
    )
    assert any("x 8x3x56x56 -> 2x3x56x56" in n for n in diff.notes)


RENUMBERED = {  # base (cnn3) -> new (cnn3 with a 1x1 conv in front)
    "fused_conv2d_add_relu_kernel": "fused_conv2d1_add1_relu1_kernel",
    "fused_conv2d1_add1_relu1_kernel": "fused_conv2d2_add2_relu2_kernel",
    "fused_conv2d2_add2_relu2_kernel": "fused_conv2d3_add3_relu3_kernel",
    "fused_matmul_add3_kernel": "fused_matmul_add4_kernel",
    "max_pool2d_kernel": "max_pool2d_kernel",
    "mean_kernel": "mean_kernel",
    "transpose_kernel": "transpose_kernel",
}


def test_renumbered_kernels_match_by_structure_not_name(renumbered_pair: Comparison) -> None:
    diff = renumbered_pair.summary()
    pairs = {k.match.base: k.match.new for k in diff.matched}
    assert pairs == RENUMBERED
    for k in diff.matched:
        assert k.match.method == (NAME if not k.match.renamed else STRUCTURE)
    # the name match would be wrong: new's fused_conv2d_add_relu_kernel is the new 1x1 conv
    (extra,) = diff.only_new
    assert extra.match.new == "fused_conv2d_add_relu_kernel" and extra.status == ONLY_NEW
    assert extra.match.method == UNMATCHED and extra.new_ns and extra.base_ns is None
    assert extra.match.evidence == (
        "conv2d+add+relu on 8x3x56x56 float32; base's fused_conv2d_add_relu_kernel is a "
        "different kernel, the counterpart of new's fused_conv2d1_add1_relu1_kernel"
    )
    assert any("different model files" in n for n in diff.notes)
    # model order: the new 1x1 conv runs first
    assert diff.kernels[0] is extra


def test_renumbered_kernels_match_by_source_without_workspaces() -> None:
    diff = open_comparison(report("cnn3_b8_run1"), report("cnn3x_b8")).summary()
    assert {k.match.base: k.match.new for k in diff.matched} == RENUMBERED
    for k in diff.matched:
        if k.match.renamed:
            assert k.match.method == SOURCE and "identical" in k.match.evidence
    assert [k.match.new for k in diff.only_new] == ["fused_conv2d_add_relu_kernel"]


def test_batch_change_without_workspaces_keeps_names() -> None:
    diff = open_comparison(report("cnn3_b8_run1"), report("cnn3_b2")).summary()
    assert all(k.match.method == NAME and not k.match.renamed for k in diff.kernels)
    assert len(diff.matched) == 7
    matmul = diff.kernel("fused_matmul_add3_kernel").match
    assert "registers 64 -> 43" in matmul.evidence and "alike" in matmul.evidence


def test_same_name_with_other_operators_is_never_paired() -> None:
    """Only the two fused_conv2d_add_relu_kernel of the renumbered builds: 3x3 pad 1 in one,
    1x1 pad 0 in the other. Their names agree; their manifests do not."""
    wa, wb = Workspace.open(ws("cnn3_b8")), Workspace.open(ws("cnn3x_b8"))
    a = wa.manifest.kernel("fused_conv2d_add_relu_kernel")
    b = wb.manifest.kernel("fused_conv2d_add_relu_kernel")
    grid, block = (784, 1, 1), (8, 16, 1)
    matches = match_kernels(
        [KernelIdentity(a.name, 0, grid, block, 68, a)],
        [KernelIdentity(b.name, 0, grid, block, 48, b)],
        # their sources too: same parameter types, yet other operators, so never one kernel
        lambda side, name: (wa if side == "base" else wb).source_text(a).splitlines(),
    )
    assert [(m.base, m.new, m.method) for m in matches] == [
        (a.name, None, UNMATCHED),
        (None, b.name, UNMATCHED),
    ]
    assert "padding [1, 1, 1, 1] vs [0, 0, 0, 0]" in matches[0].evidence


def test_similar_structure_pairs_renamed_kernels_across_a_batch_change() -> None:
    """Batch and numbering both change (cnn3 at batch 2 vs cnn3_extra_layer at batch 8): no
    manifest entry is identical, the closest shapes with the same operators pair up."""
    a = Workspace.open(ws("cnn3_b2")).manifest
    b = Workspace.open(ws("cnn3x_b8")).manifest
    base = [KernelIdentity(k.name, i, info=k) for i, k in enumerate(a.kernels) if k.launched]
    new = [KernelIdentity(k.name, i, info=k) for i, k in enumerate(b.kernels) if k.launched]
    pairs = {m.base: (m.new, m.method) for m in match_kernels(base, new) if m.base}
    assert pairs["fused_conv2d_add_relu_kernel"] == (
        "fused_conv2d1_add1_relu1_kernel",
        SIMILAR_STRUCTURE,
    )
    assert pairs["fused_conv2d1_add1_relu1_kernel"] == (
        "fused_conv2d2_add2_relu2_kernel",
        SIMILAR_STRUCTURE,
    )
    assert pairs["fused_conv2d2_add2_relu2_kernel"] == (
        "fused_conv2d3_add3_relu3_kernel",
        SIMILAR_STRUCTURE,
    )
    assert pairs["mean_kernel"] == ("mean_kernel", NAME)


def _unpack_workspace(name: str, folder: Path) -> Path:
    """A workspace stored as ``NAME.kscope.tar.xz`` (manifest, SASS line table, sources)."""
    with tarfile.open(DATA / "compare" / f"{name}.kscope.tar.xz") as tar:  # as stored
        tar.extractall(folder / f"{name}.kscope", filter="data")
    return folder / f"{name}.kscope"


@pytest.mark.parametrize("manifests", [False, True], ids=["reports only", "with workspaces"])
def test_batch_one_against_batch_eight_is_one_operator_with_different_code(
    tmp_path: Path, manifests: bool
) -> None:
    """cnn3 at batch 1 and batch 8: DLight makes a GEMV of the batch-1 Gemm and a GEMM of the
    batch-8 one, so ``fused_matmul_add3_kernel`` has sources 1% alike on the two sides. It is
    one operator (same name and parameter types; same fused operators in the manifests):
    one row, marked as different code, and every kernel has its counterpart."""
    sides = {
        "base": Workspace.open(ws("cnn3_b8")),
        "new": Workspace.open(_unpack_workspace("cnn3_b1", tmp_path)),
    }

    def identities(w: Workspace) -> list[KernelIdentity]:
        return [
            KernelIdentity(
                k.name, i, tuple(k.grid), tuple(k.block), k.registers, k if manifests else None
            )
            for i, k in enumerate(w.manifest.kernels)
        ]

    def source(side: str, name: str) -> list[str]:
        w = sides[side]
        return w.source_text(w.manifest.kernel(name)).splitlines()

    matches = match_kernels(identities(sides["base"]), identities(sides["new"]), source)
    assert all(m.base == m.new and m.method == NAME for m in matches), matches
    assert len(matches) == 10
    code = {m.base for m in matches if m.different_code}
    assert code == {"fused_matmul_add3_kernel"}
    (matmul,) = [m for m in matches if m.different_code]
    assert "different code: sources only 1% alike" in matmul.evidence
    assert matmul.how == "name, different code"


def test_kernels_of_one_name_and_other_parameters_stay_apart(tmp_path: Path) -> None:
    """Without manifests, the parameter types are what says two kernels of one name are one
    operator: the batch-1 GEMV against a batch-8 kernel of the same name with another
    parameter list is not paired."""
    b1 = Workspace.open(_unpack_workspace("cnn3_b1", tmp_path))
    b8 = Workspace.open(ws("cnn3_b8"))
    name = "fused_matmul_add3_kernel"
    gemv = b1.source_text(b1.manifest.kernel(name)).splitlines()
    gemm = [
        line.replace("float* __restrict__ b4_ptr,", "half* __restrict__ b4_ptr,")
        for line in b8.source_text(b8.manifest.kernel(name)).splitlines()
    ]
    matches = match_kernels(
        [KernelIdentity(name, 0, (1, 1, 1), (128, 1, 1), 64)],
        [KernelIdentity(name, 0, (1, 1, 1), (160, 1, 1), 18)],
        lambda side, _: gemm if side == "base" else gemv,
    )
    assert [m.method for m in matches] == [UNMATCHED, UNMATCHED]
    assert "sources only 1% alike and other parameter types" in matches[0].evidence


def test_different_code_compares_only_the_lines_that_correspond(batch_pair: Comparison) -> None:
    """A matched kernel whose code differs: a line on one side only has no counterpart, so no
    delta (not its whole value as a change), and it is no regression or improvement; lines
    aligned on both sides keep theirs."""
    comp = batch_pair.kernel("fused_matmul_add3_kernel")
    gone = next(
        r for r in comp.rows if r.kind == BASE_ONLY and comp.value(r, INST_EXECUTED, "base")
    )
    kept = next(r for r in comp.rows if r.kind == SAME and comp.delta(r, INST_EXECUTED))
    assert comp.delta(gone, INST_EXECUTED)  # a batch change: the lines correspond
    match = dataclasses.replace(comp.kernel.match, different_code=True)
    other = dataclasses.replace(comp, kernel=dataclasses.replace(comp.kernel, match=match))
    assert other.delta(gone, INST_EXECUTED) is None
    assert other.change(gone, INST_EXECUTED)[2:] == (None, None)
    assert other.value(gone, INST_EXECUTED, "base") == comp.value(gone, INST_EXECUTED, "base")
    assert other.delta(kept, INST_EXECUTED) == comp.delta(kept, INST_EXECUTED)


def test_a_workspace_that_is_not_the_build_is_not_used(run_pair: Comparison) -> None:
    b2 = Profile.open(report("cnn3_b2"))
    why = workspace_misfit(b2.kernels(), Workspace.open(ws("cnn3_b8")))
    assert why is not None and "grid 196x1x1" in why and "784x1x1" in why
    # -w for the base only: tried for the new profile, kept for a rerun of the same build...
    assert run_pair.workspaces["new"] is run_pair.workspaces["base"]
    # ...and dropped for another build
    cmp = open_comparison(report("cnn3_b8_run1"), report("cnn3_b2"), base_workspace=ws("cnn3_b8"))
    assert cmp.workspaces["new"] is None
    assert any("no workspace for new" in n for n in cmp.summary().notes)
    # given explicitly for the wrong profile: not used, and said so
    cmp = open_comparison(
        report("cnn3_b2"),
        report("cnn3_b8_run1"),
        base_workspace=ws("cnn3_b8"),
        new_workspace=ws("cnn3_b8"),
    )
    assert cmp.workspaces["base"] is None
    assert any("is not the build of base cnn3_b2.ncu-rep" in n for n in cmp.summary().notes)


# ---- passes --------------------------------------------------------------------------------------
def test_count_passes() -> None:
    assert count_passes(["a", "b", "a", "b", "a", "b"]) == 3
    assert count_passes(["a", "b", "a"]) == 1
    assert count_passes(["a", "b", "b", "a"]) == 1
    assert count_passes([]) == 1


def test_a_report_of_three_passes_compares_per_pass() -> None:
    """cnn3 b8 profiled over three forward passes (21 launches) against one pass: sums over
    launches, per pass values a third of them, launches matched in model order."""
    three = report("cnn3_b8_3passes")
    diff = open_comparison(report("cnn3_b8_run1"), three).summary()
    assert (diff.base.passes, diff.new.passes) == (1, 3)
    assert diff.new.launches == 21
    sums = ncu_sums(three)
    for k in diff.kernels:
        assert (k.base_launches, k.new_launches) == (1, 3)
        assert k.new_ns == pytest.approx(sums[k.name], abs=1)  # the sum over launches
        assert k.new_per_pass_ns == pytest.approx(sums[k.name] / 3, abs=1)
        assert k.status == WITHIN_NOISE  # the same build, run to run
    assert diff.total.new_per_pass_ns == pytest.approx(sum(sums.values()) / 3, abs=3)
    assert any("compared per pass" in n for n in diff.notes)
    # each base launch is paired with the new kernel's first launch, the rest stand alone
    durations = ncu_durations(three)
    conv = [x for x in diff.launches if x.new_kernel == "fused_conv2d1_add1_relu1_kernel"]
    assert [x.occurrence for x in conv] == [0, 1, 2]
    assert [x.base_id is not None for x in conv] == [True, False, False]
    own = [ns for name, ns in durations if name == "fused_conv2d1_add1_relu1_kernel"]
    assert [x.new_ns for x in conv] == pytest.approx(own, abs=1)


# ---- lines ---------------------------------------------------------------------------------------
def test_line_alignment_of_the_batch_change_checked_by_eye(batch_pair: Comparison) -> None:
    """fused_matmul_add3_kernel, batch 8 vs 2 (the two files read by eye beside ``diff``,
    whose hunks are 23c23, 30c30, 1580c1580, 1589c1589, 1597c1597, 1605c1605, 1612,1643d1611):
    the guards at lines 23 and 30 change ``threadIdx.y < 4`` to ``< 1``, those at 1580, 1589,
    1597 and 1605 ``threadIdx.x < 2`` to ``< 1``; batch 2 drops the stores of rows 4-7 (lines
    1612-1643); everything else is the same line, 1644-1646 of batch 8 being 1612-1614."""
    comp = batch_pair.kernel("fused_matmul_add3_kernel")
    rows = {(r.base_line, r.new_line): r for r in comp.rows}
    changed = [(r.base_line, r.new_line) for r in comp.rows if r.kind == CHANGED]
    assert changed == [(23, 23), (30, 30), (1580, 1580), (1589, 1589), (1597, 1597), (1605, 1605)]
    assert "< 4" in rows[(23, 23)].base_text and "< 1" in rows[(23, 23)].new_text
    gone = [r.base_line for r in comp.rows if r.kind == BASE_ONLY]
    assert gone == list(range(1612, 1644))
    assert "float2 __261;" in rows[(1614, None)].base_text
    assert not [r for r in comp.rows if r.kind == NEW_ONLY]
    assert rows[(1611, 1611)].kind == SAME and rows[(1644, 1612)].kind == SAME
    assert len(comp.rows) == 1646
    # each row carries its own line's metrics, as each profile has them
    for role, line in (("base", 79), ("new", 79)):
        profile = Profile.open(report(BATCH_PAIR[role]))
        name = "fused_matmul_add3_kernel"
        file = profile.source_files(name)[0]
        want = profile.lines(name, file)[(file, line)].values[SAMPLES]
        assert comp.value(rows[(79, 79)], SAMPLES, role) == want
    assert comp.delta(rows[(79, 79)], SAMPLES) == -1  # 2 -> 1 samples: within noise
    assert comp.noise_band(rows[(79, 79)], SAMPLES) > 1


def test_renamed_kernel_lines_align_one_to_one(renumbered_pair: Comparison) -> None:
    """fused_conv2d_add_relu_kernel (cnn3) is fused_conv2d1_add1_relu1_kernel (cnn3x): the
    files differ only in the kernel's name and the input's name (x_ptr vs lv3_ptr, lines 2,
    37, 50, 62, 72), which the alignment masks."""
    comp = renumbered_pair.kernel("fused_conv2d1_add1_relu1_kernel")
    assert comp.kernel.match.base == "fused_conv2d_add_relu_kernel"
    assert comp.sources_identical
    assert all(r.kind == SAME and r.base_line == r.new_line for r in comp.rows)
    assert len(comp.rows) == 1767
    row = comp.rows[36]
    assert "x_ptr[" in row.base_text and "lv3_ptr[" in row.new_text
    totals = [
        sum(comp.value(r, INST_EXECUTED, side) or 0 for r in comp.rows) for side in ("base", "new")
    ]
    assert (
        totals[0] == comp.base_totals[INST_EXECUTED]
    )  # the own file's lines hold every instruction
    assert totals == [totals[0], totals[0]]  # same code, same work: counted exactly


def test_tvm_renames_do_not_break_the_alignment() -> None:
    """Lines of squeezenet's fused_conv2d1_add1_relu1_kernel at batch 1 and 4 (lines 15-27
    of each file, as built by kernelscope): TVM inserted cse_v1 at batch 4 and renumbered the
    others. Checked by eye: ``* 32`` is the same statement as new's cse_v2, the guard changed."""
    base = [
        "    int cse_v1 = (((int)blockIdx.x) * 32);",
        "    for (int ax3_0 = 0; ax3_0 < 4; ++ax3_0) {",
        "      int cse_v111 = (((((int)threadIdx.y) * 36) + ((((int)threadIdx.x) >> 2) * 18)));",
        "      if ((((((int)blockIdx.x) * 32) + (((int)threadIdx.y) * 2)) + 1) < 3025) {",
    ]
    new = [
        "    int cse_v1 = (((int)blockIdx.x) * 8);",
        "    int cse_v2 = (((int)blockIdx.x) * 32);",
        "    for (int ax3_0 = 0; ax3_0 < 4; ++ax3_0) {",
        "      int cse_v113 = (((((int)threadIdx.y) * 36) + ((((int)threadIdx.x) >> 2) * 18)));",
        "      if (((((int)blockIdx.x) * 8) + (((int)threadIdx.y) >> 1)) < 3025) {",
    ]
    rows = align_lines(base, new, {2: {SAMPLES: 7.0}}, {3: {SAMPLES: 16.0}})
    assert [(r.kind, r.base_line, r.new_line) for r in rows] == [
        (NEW_ONLY, None, 1),
        (SAME, 1, 2),
        (SAME, 2, 3),
        (SAME, 3, 4),
        (CHANGED, 4, 5),
    ]
    assert rows[2].base == {SAMPLES: 7.0} and rows[2].new == {SAMPLES: 16.0}
    assert line_key("int cse_v12 = a;") == line_key("int cse_v13 = a;")
    assert line_key("float4 x;") != line_key("float2 x;")  # vector widths are kept


def test_source_similarity_masks_tvm_naming() -> None:
    a = (PAIRS / "cnn3_b8.kscope/src/kernels/fused_conv2d_add_relu_kernel.cu").read_text()
    b = (PAIRS / "cnn3x_b8.kscope/src/kernels/fused_conv2d1_add1_relu1_kernel.cu").read_text()
    c = (PAIRS / "cnn3x_b8.kscope/src/kernels/fused_conv2d_add_relu_kernel.cu").read_text()
    assert source_similarity(a.splitlines(), b.splitlines()) == 1.0
    assert source_similarity(a.splitlines(), c.splitlines()) < 0.9


# ---- SASS ----------------------------------------------------------------------------------------
def test_opcode_deltas_of_the_batch_change(batch_pair: Comparison) -> None:
    comp = batch_pair.kernel("fused_matmul_add3_kernel")
    by_op = {o.opcode: o for o in comp.opcodes}
    for role, count in (("base", "base_count"), ("new", "new_count")):
        insns = (
            Workspace.open(ws("cnn3_b8" if role == "base" else "cnn3_b2"))
            .sass("fused_matmul_add3_kernel")
            .instructions
        )
        ffma = [i for i in insns if i.opcode == "FFMA.FTZ"]
        assert getattr(by_op["FFMA.FTZ"], count) == len(ffma)
        table = Profile.open(report(BATCH_PAIR[role])).instructions("fused_matmul_add3_kernel")
        executed = sum(table.row(i.offset).get(INST_EXECUTED, 0.0) for i in ffma)
        assert getattr(by_op["FFMA.FTZ"], f"{role}_executed") == executed
    assert by_op["FFMA.FTZ"].count_delta == -128  # batch 8 -> 2 halves the unrolled FMAs
    assert comp.opcodes[0].opcode == "FFMA.FTZ"  # the biggest change in executions first
    # the two streams differ too much for per-instruction rows
    assert not comp.instructions and comp.instructions_aligned < 0.5
    assert any("too much to align" in n for n in comp.notes)


def test_identical_code_aligns_instruction_by_instruction(renumbered_pair: Comparison) -> None:
    comp = renumbered_pair.kernel("fused_conv2d1_add1_relu1_kernel")
    assert comp.instructions_aligned == 1.0
    assert len(comp.instructions) == 648
    assert all(r.base_offset == r.new_offset for r in comp.instructions)
    # other parameter order, other constant-bank offsets: same opcode, other operands
    assert {r.kind for r in comp.instructions} == {SAME, CHANGED}
    assert all(o.count_delta == 0 for o in comp.opcodes)


def test_reports_sass_aligns_whatever_address_the_module_was_loaded_at() -> None:
    """Two runs, no workspace: each report prints branch targets as absolute addresses
    (BSSY B0, 0x7f15537a5420 in one, 0x7f39637a5420 in the other), the same instruction."""
    cmp = open_comparison(report("cnn3_b8_run1"), report("cnn3_b8_run2"))
    comp = cmp.kernel("fused_conv2d1_add1_relu1_kernel")
    branches = [r for r in comp.instructions if r.new_text and r.new_text.startswith("BSSY")]
    assert branches and all(r.base_text != r.new_text for r in branches)
    assert {r.kind for r in comp.instructions} == {SAME}


# ---- hot lines -----------------------------------------------------------------------------------
def test_biggest_regressions_and_improvements(batch_pair: Comparison) -> None:
    worse, better = batch_pair.line_changes(SAMPLES, top=5)
    assert len(better) == 5 and better[0].delta < 0
    assert [c.delta for c in better] == sorted(c.delta for c in better)
    top = better[0]  # batch 8 -> 2 removes most samples from the biggest conv's shared loads
    assert top.kernel == "fused_conv2d2_add2_relu2_kernel" and not top.within_noise
    comp = batch_pair.kernel(top.kernel)
    assert top.delta == comp.delta(top.row, SAMPLES)
    assert all(c.delta > 0 for c in worse)
    assert [c.rank for c in worse] == list(range(1, len(worse) + 1))
    one, _ = batch_pair.line_changes(SAMPLES, top=3, kernel="mean_kernel")
    assert {c.kernel for c in one} <= {"mean_kernel"}


# ---- bad input -----------------------------------------------------------------------------------
def test_a_kernel_on_one_side_only_cannot_be_compared_line_by_line(
    renumbered_pair: Comparison,
) -> None:
    with pytest.raises(KernelscopeError, match="only in the new profile"):
        renumbered_pair.kernel("fused_conv2d_add_relu_kernel")
    with pytest.raises(KernelscopeError, match="no kernel 'nope'"):
        renumbered_pair.kernel("nope")


def test_two_models_say_so_and_still_match_what_they_share() -> None:
    diff = open_comparison(H200_REPORT, report("cnn3_b8_run1")).summary()
    assert any("0 base and 3 new kernels have no counterpart" in n for n in diff.notes)
    assert diff.kernel("max_pool2d_kernel").match.method == NAME
    mlp = open_comparison(data_path("ncu/mlp/mlp.ncu-rep"), report("cnn3_b8_run1")).summary()
    assert any("look like profiles of different models" in n for n in mlp.notes)
    assert len(diff.only_new) >= 3


def test_a_report_without_line_info_is_compared_at_kernel_and_sass_level() -> None:
    cmp = open_comparison(SMALL / "lineinfo.ncu-rep", SMALL / "nolineinfo.ncu-rep")
    comp = cmp.kernel("scale")
    assert comp.base_has_lines and not comp.new_has_lines
    assert any("without line information" in n for n in comp.notes)
    assert all(comp.delta(r, SAMPLES) is None for r in comp.rows)
    assert comp.opcodes and comp.opcodes[0].new_executed is not None


def test_a_report_without_source_counters_is_compared_at_kernel_level() -> None:
    """cnn3 b8 profiled without SourceCounters: kernel times compare, lines do not, and both
    say why."""
    cmp = open_comparison(
        report("cnn3_b8_nosource"), report("cnn3_b8_run1"), base_workspace=ws("cnn3_b8")
    )
    diff = cmp.summary()
    assert not diff.base.has_source_metrics and diff.new.has_source_metrics
    assert any("kernel level only" in n and "SourceCounters" in n for n in diff.notes)
    sums = ncu_sums(report("cnn3_b8_nosource"))
    assert {k.name: k.base_ns for k in diff.kernels} == pytest.approx(sums, abs=1)
    assert all(k.status == WITHIN_NOISE for k in diff.kernels)  # the same build
    comp = cmp.kernel("fused_conv2d1_add1_relu1_kernel")
    assert not comp.base_has_lines and comp.new_has_lines
    assert any("SourceCounters" in n for n in comp.notes)
    assert comp.sources_identical  # the workspace's source stands in for the base's
    assert all(comp.delta(r, SAMPLES) is None for r in comp.rows)
    assert any(comp.value(r, SAMPLES, "new") for r in comp.rows)
    # the SASS still compares: the same build, every instruction aligned
    assert comp.instructions_aligned == 1.0
    assert all(o.count_delta == 0 and o.executed_delta is None for o in comp.opcodes)
    worse, better = cmp.line_changes(SAMPLES)
    assert worse == [] and better == []


def test_a_csv_export_against_a_report() -> None:
    csv = data_path("ncu/cnn/details.csv")
    cmp = open_comparison(csv, report("cnn3_b8_run1"))
    diff = cmp.summary()
    assert diff.base.kind == "CSV export" and diff.new.kind == "report"
    assert any("base is a CSV export, new a report" in n for n in diff.notes)
    assert any("kernel level only" in n and "no per-instruction metrics" in n for n in diff.notes)
    conv = diff.kernel("fused_conv2d_add_relu_kernel")
    assert conv.base_ns == pytest.approx(12000, abs=1) and conv.status == SLOWER
    comp = cmp.kernel("fused_conv2d_add_relu_kernel")
    assert not comp.base_has_lines and comp.new_has_lines


def test_different_gpus_are_allowed_and_named(tmp_path: Path) -> None:
    """No second GPU model is at hand to profile on: the cnn raw export with its device
    attributes rewritten as an A100's stands in for a report from another GPU."""
    raw = (data_path("ncu/cnn/raw.csv")).read_text()
    assert "NVIDIA H200" in raw
    other = tmp_path / "raw_a100.csv"
    other.write_text(raw.replace("NVIDIA H200", "NVIDIA A100-SXM4-80GB"))
    diff = open_comparison(data_path("ncu/cnn/raw.csv"), other).summary()
    assert diff.base.devices == ("NVIDIA H200",) and diff.new.devices == ("NVIDIA A100-SXM4-80GB",)
    assert any("different GPUs: NVIDIA H200" in n and "A100" in n for n in diff.notes)
    assert len(diff.matched) == 4


@pytest.mark.parametrize(
    "bad", ["bad/random.ncu-rep", "bad/empty.ncu-rep", "bad/nsys_kern_sum.csv", "missing.ncu-rep"]
)
def test_unreadable_input_is_an_error_with_a_message(bad: str) -> None:
    with pytest.raises(KernelscopeError):
        open_comparison(DATA / bad, report("cnn3_b8_run1")).summary()


def test_a_workspace_without_profiles_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError, match="without profiles"):
        open_comparison(ws("cnn3_b8"), report("cnn3_b8_run1"))


# ---- what the viewer calls ---------------------------------------------------------------------
def test_a_comparison_of_two_open_documents() -> None:
    """The viewer's "Set as baseline": two documents it already has, no file opened again."""
    from kernelscope.core.view import compare_documents
    from kernelscope.core.view.from_profile import document_from_profile

    docs = []
    for name, folder in (("cnn3_b8_run1", "cnn3_b8"), ("cnn3x_b8", "cnn3x_b8")):
        workspace = Workspace.open(ws(folder))
        docs.append(
            document_from_profile(Profile.open(report(name), workspace=workspace), workspace)
        )
    base, new = docs
    cmp = compare_documents(base, new)
    diff = cmp.summary()
    assert {k.match.base: k.match.new for k in diff.matched} == RENUMBERED
    # a row of the table is how the window asks for a kernel; a name can need its side
    row = diff.kernel("fused_conv2d_add_relu_kernel", side="base")
    assert row.match.new == "fused_conv2d1_add1_relu1_kernel"
    assert cmp.kernel(row) is cmp.kernel("fused_conv2d1_add1_relu1_kernel")
    assert diff.kernel("fused_conv2d_add_relu_kernel").match.base is None  # new's, by default
    # the wrong workspace for a document's profile is not used
    wrong = Comparison(
        read_profile(Profile.open(report("cnn3_b8_run1"))),
        read_profile(Profile.open(report("cnn3x_b8"))),
        base_workspace=new.workspace,
    )
    assert wrong.workspaces["base"] is None
    assert any("is not the build of base" in n for n in wrong.summary().notes)


def test_cancel_between_the_two_reports() -> None:
    import threading

    from kernelscope.core.errors import Cancelled

    cancel = threading.Event()
    steps: list[str] = []

    def progress(step: str, fraction: float | None, message: str) -> None:
        steps.append(message)
        if fraction == 0.5:
            cancel.set()

    with pytest.raises(Cancelled):
        open_comparison(report("cnn3_b8_run1"), report("cnn3_b2"), progress=progress, cancel=cancel)
    assert steps == ["reading cnn3_b8_run1.ncu-rep", "reading cnn3_b2.ncu-rep"]


def test_a_workspace_stands_for_its_newest_profile(tmp_path: Path) -> None:
    """BASE or NEW can be a workspace folder: its newest attached report, and its build."""
    import shutil

    folder = tmp_path / "cnn3_b8.kscope"
    shutil.copytree(ws("cnn3_b8"), folder)
    Workspace.open(folder).attach_profile(report("cnn3_b8_run2"))
    cmp = open_comparison(report("cnn3_b8_run1"), folder)
    assert cmp.name("new") == "cnn3_b8_run2.ncu-rep"
    assert cmp.workspaces["new"] is not None and cmp.workspaces["new"].path == folder
    # a report inside a workspace's profiles/ brings that workspace along
    inside = open_comparison(folder / "profiles" / "cnn3_b8_run2.ncu-rep", report("cnn3_b8_run1"))
    assert inside.workspaces["base"] is not None
    assert {k.match.method for k in inside.summary().kernels} == {NAME}
