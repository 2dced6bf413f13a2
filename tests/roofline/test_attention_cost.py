"""The KV cache's kernels have a cost (issue 33, item 2): FLOPs and bytes of the tiny Llama's
attention, rope and append kernels, from the page layout its build records and the lengths
a launch ran at, checked against values worked out by hand from the formulas in
core/roofline/attention_cost.py (H=4 heads, G=2 KV heads, D=64, float16: b=2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from llm_support import build_recorded_llama
from paths_support import DATA, data_path

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.cli.main import main
from kernelscope.core.ncu import Profile
from kernelscope.core.roofline import nominal_ceilings
from kernelscope.core.roofline.attention_cost import (
    KVLayout,
    StepSizes,
    attention_cost,
    build_sizes,
    kv_role,
)
from kernelscope.core.roofline.headroom import headroom, operator_bound_us
from kernelscope.core.workspace import KernelInfo, Workspace

pytestmark = pytest.mark.slow

LLAMA = DATA / "models" / "llama_mlc.py"


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The tiny Llama as tests/tvm_build/test_llm_build.py builds it (the build cache serves
    the second build)."""
    out = tmp_path_factory.mktemp("llm") / "llama.kscope"
    return build_in_child(
        BuildRequest(
            model=LLAMA, output=out, arch="sm_90", shapes={"seq_len": [128], "batch_size": [4]}
        )
    )


def _role(ws: Workspace, role: str) -> KernelInfo:
    return next(k for k in ws.manifest.kernels if kv_role(k) == role)


def test_the_page_layout_is_read_from_the_kernels(llama: Workspace) -> None:
    assert KVLayout.of(llama.manifest.kernels) == KVLayout(4, 2, 64, 16, "float16")
    # decode: [batch_size, 1, hidden] at batch_size=4; prefill: [1, seq_len, hidden]
    assert build_sizes(llama.manifest, "decode") == StepSizes(batch=4, tokens=4)
    assert build_sizes(llama.manifest, "prefill") == StepSizes(batch=1, tokens=128)


def test_decode_attention_reads_the_cached_keys_and_values_once_per_kv_head(
    llama: Workspace,
) -> None:
    layout = KVLayout.of(llama.manifest.kernels)
    decode = _role(llama, "attention_decode")
    # 4 sequences holding 20 tokens each after the step (80 in the cache)
    cost = attention_cost(decode, layout, StepSizes(batch=4, tokens=4, cached=80))
    assert cost.flops == 4 * 4 * 20 * 64 * 4  # 4·H·L·D per token, 4 tokens = 81,920
    # K and V: 2·G·L·D·b per sequence; q and output H·D·b each, lse 4·H, per token
    assert cost.bytes == 4 * (2 * 2 * 20 * 64 * 2) + 4 * (2 * 4 * 64 * 2 + 4 * 4)  # 45,120
    # a build binds no cached length: said, not guessed
    unknown = attention_cost(decode, layout, build_sizes(llama.manifest, "decode"))
    assert not unknown.known and "profile with steps" in unknown.why


def test_prefill_rope_and_append_at_the_builds_bindings(llama: Workspace) -> None:
    layout = KVLayout.of(llama.manifest.kernels)
    prefill = build_sizes(llama.manifest, "prefill")  # one sequence of 128 tokens
    ragged = attention_cost(_role(llama, "attention_prefill_ragged"), layout, prefill)
    assert ragged.flops == 2 * 4 * 64 * 128 * 129  # causal: 2·2·H·D·t(t+1)/2 = 8,454,144
    assert ragged.bytes == 128 * ((2 * 4 + 2 * 2) * 64 * 2 + 4 * 4)  # q, k, v, out, lse
    rope = attention_cost(_role(llama, "rope"), layout, prefill)
    assert rope.flops == 3 * 128 * (4 + 2) * 64  # q and k rotated, 3 per element
    assert rope.bytes == 2 * 128 * (4 + 2 * 2) * 64 * 2 + 4 * 128  # qkv in, q k v out
    append = attention_cost(_role(llama, "append"), layout, prefill)
    assert append.flops == 0 and append.bytes == 2 * (2 * 128 * 2 * 64 * 2) + 4 * 128


def test_operator_bounds_include_the_kv_cache_kernels_whose_lengths_are_known(
    llama: Workspace,
) -> None:
    ceilings = nominal_ceilings("sm_90")
    bounds = operator_bound_us(llama, ceilings)
    ragged = _role(llama, "attention_prefill_ragged").name
    assert bounds[ragged] > 0
    # the decode attention needs the cached length, rope runs in prefill and decode alike
    assert _role(llama, "attention_decode").name not in bounds
    assert _role(llama, "rope").name not in bounds


@pytest.fixture(scope="module")
def llama_b1(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The build tests/data/llm's reports were profiled from (batch_size=1)."""
    return build_recorded_llama(tmp_path_factory.mktemp("llm1") / "llama.kscope")


def test_headroom_costs_each_decode_attention_at_its_steps_cached_length(
    llama_b1: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    report = data_path("llm/tiny_decode.ncu-rep")  # decode steps 0-3 after a 512-token prefill
    h = headroom(Profile.open([report]), llama_b1)
    attention = next(r for r in h.rows if r.kernel == _role(llama_b1, "attention_decode").name)
    # 2 layers x 4 steps; the cache held 513, 514, 515, 516 tokens: 4·H·L·D each
    lengths = (513, 514, 515, 516)
    assert attention.launches == 8
    assert attention.operator_flops == 2 * sum(4 * 4 * n * 64 for n in lengths)  # 4,214,784
    assert attention.operator_bytes == 2 * sum(
        2 * 2 * n * 64 * 2 + 2 * 4 * 64 * 2 + 16 for n in lengths
    )
    assert attention.operator_ns is not None and 0 < attention.operator_ns < attention.measured_ns
    assert attention.ops == ["attention_decode H=4 G=2 D=64 B=1 T=1 keys/seq=513"]
    # rope runs in prefill and decode alike: the steps tell its one token per launch
    rope = next(r for r in h.rows if r.kernel == _role(llama_b1, "rope").name)
    assert rope.operator_flops == 8 * 3 * 1 * (4 + 2) * 64
    # the same from the command line, with the share of a decode step's kernel time that
    # leads to a model line (the KV cache's kernels: the line calling the attention)
    assert main(["details", str(report), "-w", str(llama_b1.path)]) == 0
    out = capsys.readouterr().out
    assert "model lines: 100.0% of the kernel time of one decode call" in out
    assert "one prefill call" not in out  # the report ran no prefill
    # a KV cache kernel no prefill/decode call launches says why, not "a reshape as a view"
    fork = next(r for r in h.rows if r.kernel == "copy_single_page_kernel")
    assert "only when a sequence is forked" in fork.note and "view" not in fork.note


def test_a_report_without_steps_says_the_decode_attention_needs_the_cached_length(
    llama_b1: Workspace, tmp_path: Path
) -> None:
    report = tmp_path / "decode.ncu-rep"
    report.symlink_to(data_path("llm/tiny_decode.ncu-rep"))  # its step list left behind
    h = headroom(Profile.open([report]), llama_b1)
    attention = next(r for r in h.rows if r.kernel == _role(llama_b1, "attention_decode").name)
    assert attention.operator_ns is None
    assert any("step list" in n for n in h.notes)


def test_an_imported_stepped_report_keeps_its_step_list(
    llama_b1: Workspace, tmp_path: Path
) -> None:
    import shutil

    from kernelscope.core.ncu import import_report

    ws = Workspace.open(shutil.copytree(llama_b1.path, tmp_path / "ws.kscope"))
    report = data_path("llm/tiny_decode.ncu-rep")
    shutil.copyfile(
        report.with_name(report.name + ".steps.json"), tmp_path / "d.ncu-rep.steps.json"
    )
    shutil.copyfile(report, tmp_path / "d.ncu-rep")
    attached = import_report(tmp_path / "d.ncu-rep", ws).attached
    h = headroom(Profile.open([attached], workspace=ws), ws)
    attention = next(r for r in h.rows if r.kernel == _role(ws, "attention_decode").name)
    assert attention.operator_ns is not None  # the steps' cached lengths came along
