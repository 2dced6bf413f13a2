"""The rest of an LLM has a cost too (issue 33, item 2): the MLC-style Llama's matmuls, norms
and element-wise kernels are recorded as the operators their PrimFuncs compute, with the
PrimFuncs' own buffer shapes, and costed at the symbolic values each launch ran at.

The workspace is tests/data/models/llama_mlc.py built as tests/data/llm's H100 reports were
(``--shape seq_len=128 --shape batch_size=1``, the ``mlc-llm`` pipeline); TINY: hidden 256,
intermediate 512, 4 heads and 2 KV heads of 64, vocabulary 512, float16."""

from __future__ import annotations

import runpy

import pytest
from llm_support import build_recorded_llama
from paths_support import DATA, data_path

from kernelscope.core.ncu import Profile
from kernelscope.core.roofline import kernel_cost
from kernelscope.core.roofline.headroom import HeadroomRow, headroom, operator_bound_us
from kernelscope.core.roofline.nominal import nominal_ceilings
from kernelscope.core.workspace import KernelInfo, OpInfo, TensorInfo, Workspace

pytestmark = pytest.mark.slow

LLAMA = DATA / "models" / "llama_mlc.py"
HIDDEN, QKV, GATE_UP, VOCAB = 256, 512, 1024, 512


@pytest.fixture(scope="module")
def llama_b1(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The build tests/data/llm's reports were profiled from (the build cache serves it)."""
    return build_recorded_llama(tmp_path_factory.mktemp("llm1") / "llama.kscope")


def _kernel(ws: Workspace, name: str) -> KernelInfo:
    return next(k for k in ws.manifest.kernels if k.name == name)


def _row(rows: list[HeadroomRow], name: str) -> HeadroomRow:
    return next(r for r in rows if r.kernel == name)


def test_every_kernels_operators_are_what_its_primfunc_reads_and_writes(
    llama_b1: Workspace,
) -> None:
    """Each operator reads a tensor the kernel takes (or an earlier operator made) and the
    last one writes a tensor the kernel takes: never an operator of another binding (a
    ``relax.zeros`` bound to the same variable name) or a call standing in for one."""
    tensors = 0
    for k in llama_b1.manifest.kernels:
        if not k.ops:
            continue
        params = [(p.shape, p.dtype) for p in k.params if p.dtype]
        made: list[tuple[list, str]] = []
        for op in k.ops:
            assert op.op.startswith(("relax.", "tir.")), (k.name, op.op)
            assert op.op not in ("relax.zeros",) and not op.op.startswith("relax.call_")
            for t in op.inputs:
                if made and made[-1] == ([], "tuple"):  # after split: its parts
                    continue
                assert (t.shape, t.dtype) in params + made, (k.name, op.op, t)
                tensors += 1
            made.append((op.output.shape, op.output.dtype) if op.output else ([], "tuple"))
        assert made[-1] in params, (k.name, made[-1])
    assert tensors > 40
    # FuseTransposeMatmul's PrimFunc is the nn.Linear it fused: x @ W^T with W as stored
    ops = _kernel(llama_b1, "NT_matmul2_kernel").ops
    assert [o.op for o in ops] == ["relax.permute_dims", "relax.matmul"]
    assert ops[0].inputs[0].shape == [GATE_UP, HIDDEN] and ops[0].output.shape == [HIDDEN, GATE_UP]
    assert [t.shape for t in ops[1].inputs] == [["batch_size", 1, HIDDEN], [HIDDEN, GATE_UP]]
    assert ops[1].output.shape == ["batch_size", 1, GATE_UP]
    # the model's own te computation copying the last token is a copy, with its buffers
    index = _kernel(llama_b1, "index_kernel").ops
    assert [(o.op, o.inputs[0].shape, o.output.shape) for o in index] == [
        ("tir.copy", [1, "seq_len", HIDDEN], [1, 1, HIDDEN])
    ]


def test_an_operator_bound_to_the_same_name_is_not_taken_for_the_primfuncs() -> None:
    """The check the build traces operators with, on the PrimFunc FuseTransposeMatmul makes:
    a ``relax.zeros`` of the matmul's output shape does not read its buffers."""
    from tvm import relax

    from kernelscope.core.build import tir_ops

    mod, _ = runpy.run_path(str(LLAMA), run_name="llama_defs")["export"](
        runpy.run_path(str(LLAMA), run_name="llama_defs")["TINY"]
    )
    prim = relax.transform.FuseTransposeMatmul()(mod)["NT_matmul2"]
    out = TensorInfo(["batch_size", 1, GATE_UP], "float16")
    zeros = OpInfo("relax.zeros", "NT_matmul2", [], out)
    assert not tir_ops.agrees(zeros, prim)
    x, w = (
        TensorInfo(["batch_size", 1, HIDDEN], "float16"),
        TensorInfo([GATE_UP, HIDDEN], "float16"),
    )
    assert tir_ops.agrees(OpInfo("relax.matmul", "NT_matmul2", [x, w], out), prim)


def test_a_kernel_over_a_symbolic_size_is_costed_at_its_bindings(llama_b1: Workspace) -> None:
    info = _kernel(llama_b1, "NT_matmul_kernel")  # decode's qkv projection
    unbound = kernel_cost(info)
    assert not unbound.known
    assert "batch_size" in unbound.why and "no cost model" not in unbound.why
    four = kernel_cost(info, bindings={"batch_size": 4})
    assert four.flops == 2 * 4 * QKV * HIDDEN  # 2·M·N·K
    assert four.bytes == 2 * (QKV * HIDDEN + 4 * HIDDEN + 4 * QKV)  # W, x, out in float16
    assert [o.kind for o in four.ops] == ["movement", "matmul"]
    # the build's own bindings (batch_size=1) give every launched TVM kernel an estimate
    bounds = operator_bound_us(llama_b1, nominal_ceilings("sm_90"))
    assert {"NT_matmul_kernel", "rms_norm_kernel", "fused_split_silu_multiply_kernel",
            "take_kernel", "NT_matmul4_kernel"} <= set(bounds)  # fmt: skip


def test_a_decode_steps_matmuls_are_memory_bound_on_their_weights(llama_b1: Workspace) -> None:
    """On the H100 report of decode steps 0-3 (batch 1): every kernel TVM generated has an
    operator cost, and a decode matmul moves its weight matrix (1 token: 1 FLOP per byte)."""
    h = headroom(Profile.open([data_path("llm/tiny_decode.ncu-rep")]), llama_b1)
    launched = [r for r in h.rows if r.launches]
    assert launched and all(r.operator_ns is not None for r in launched), [
        (r.kernel, r.note) for r in launched if r.operator_ns is None
    ]
    weights = {  # kernel -> its weight's [out, in] and the FLOPs of what it fuses after
        "NT_matmul_kernel": (QKV, HIDDEN, 0),
        "fused_NT_matmul1_add_kernel": (HIDDEN, HIDDEN, HIDDEN),  # the residual add
        "NT_matmul2_kernel": (GATE_UP, HIDDEN, 0),
        "fused_NT_matmul3_add_kernel": (HIDDEN, 2 * HIDDEN, HIDDEN),
        "fused_NT_matmul_cast_kernel": (VOCAB, HIDDEN, 0),  # a cast moves, it computes nothing
    }
    for name, (n, k, after) in weights.items():
        row = _row(launched, name)
        assert row.launches in (4, 8)  # the lm head once a step, the others once a layer
        assert row.operator_flops == row.launches * (2 * 1 * n * k + after), name
        weight_bytes = row.launches * n * k * 2
        assert row.operator_bytes == pytest.approx(weight_bytes, rel=0.10), name
        assert row.operator_flops / row.operator_bytes < 2, name
        assert row.operator_bound == "memory"
    norm = _row(launched, "rms_norm_kernel")
    assert norm.operator_flops == norm.launches * 4 * HIDDEN  # 4 per element, 1 token
    assert any(
        "matmul [1,1,256] x [256,512] -> [1,1,512]" in op
        for op in _row(launched, "NT_matmul_kernel").ops
    )


def test_a_prefill_step_is_costed_at_its_512_tokens(llama_b1: Workspace) -> None:
    h = headroom(Profile.open([data_path("llm/tiny_prefill.ncu-rep")]), llama_b1)
    launched = [r for r in h.rows if r.launches]
    assert all(r.operator_ns is not None for r in launched), [
        (r.kernel, r.note) for r in launched if r.operator_ns is None
    ]
    qkv = _row(launched, "NT_matmul4_kernel")  # 2 layers, 512 tokens, built at seq_len=128
    assert qkv.operator_flops == 2 * 2 * 512 * QKV * HIDDEN
    take = _row(launched, "take_kernel")  # embed's gather: bytes, no FLOPs
    assert take.operator_flops == 0
    # one row of the table per token (not the table), the token ids, the rows written
    assert take.operator_bytes == 512 * HIDDEN * 2 + 512 * 4 + 512 * HIDDEN * 2
