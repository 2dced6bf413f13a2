"""Building an LLM the way MLC-LLM writes them (tests/data/models/llama_mlc.py: embed, prefill
over a symbolic seq_len, decode over batch_size, a TIRPagedKVCache, packed weights): every
function built into one workspace, each kernel's launches read from the module and checked
here against TVM's own IR, grids for --shape bindings, the pipelines, and the inputs a build
must refuse."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from paths_support import DATA

from kernelscope.core.build import BuildRequest, build_in_child
from kernelscope.core.build.kv_cache_launches import ATTENTION_FUSED_QKV, CREATE
from kernelscope.core.cli.main import main
from kernelscope.core.errors import KernelscopeError
from kernelscope.core.workspace import KernelInfo, Manifest, Workspace

pytestmark = pytest.mark.slow

MODELS = DATA / "models"
LLAMA = MODELS / "llama_mlc.py"
SYMBOLS = {"seq_len": [128], "batch_size": [4]}


def _build(out: Path, model: Path = LLAMA, **options: Any) -> Manifest:
    return build_in_child(BuildRequest(model=model, output=out, arch="sm_90", **options)).manifest


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The tiny Llama built once, as a user builds it (the model's default pipeline)."""
    out = tmp_path_factory.mktemp("llm") / "llama.kscope"
    return build_in_child(BuildRequest(model=LLAMA, output=out, arch="sm_90", shapes=SYMBOLS))


@pytest.fixture(scope="module")
def tvm_ir() -> Any:
    """TVM's own view of the same module after the build's Relax passes (the default
    pipeline's legalisation and fusion after MLC-LLM's FuseTransposeMatmul), made here with
    TVM's passes and read with TVM's own API."""
    import tvm
    from tvm import relax
    from tvm.relax.backend.cuda import pipeline as cuda

    mod = runpy.run_path(str(LLAMA), run_name="kernelscope_model")["mod"]
    target = tvm.target.Target({"kind": "cuda", "arch": "sm_90"})
    passes = [
        relax.transform.FuseTransposeMatmul(),
        *cuda.library_dispatch_passes(target),
        *cuda.legalize_passes(target)[:-1],  # without DLight: scheduling renames nothing
        relax.transform.RewriteDataflowReshape(),
    ]
    with target, tvm.transform.PassContext(opt_level=3):
        return tvm.transform.Sequential(passes)(mod)


def _relax_calls(mod: Any, name: str) -> list[Any]:
    from tvm import relax

    calls = []

    @relax.expr_functor.visitor
    class Calls(relax.PyExprVisitor):  # type: ignore[misc]
        def visit_call_(self, call: Any) -> None:
            calls.append(call)
            super().visit_call_(call)

    Calls().visit_expr(mod[name])
    return calls


def _call_tir_targets(mod: Any, name: str) -> list[str]:
    return [c.args[0].name_hint for c in _relax_calls(mod, name) if c.op.name == "relax.call_tir"]


def _creation_args(mod: Any) -> list[Any]:
    """The arguments of the KV cache's creation call, from TVM's IR."""
    for c in _relax_calls(mod, "create_tir_paged_kv_cache"):
        if c.op.name == "relax.call_pure_packed" and c.args[0].global_symbol == CREATE:
            return list(c.args[1:])
    raise AssertionError("no creation call")


def _global_vars(expr: Any) -> list[str]:
    if type(expr).__name__ == "GlobalVar":
        return [expr.name_hint]
    return [g for f in getattr(expr, "fields", None) or [] for g in _global_vars(f)]


def _by_primfunc(m: Manifest, primfunc: str) -> KernelInfo:
    (kernel,) = [k for k in m.kernels if k.primfunc == primfunc]
    return kernel


def test_every_function_is_built_into_one_workspace(llama: Workspace, tvm_ir: Any) -> None:
    m = llama.manifest
    from tvm import relax

    relax_functions = [
        gv.name_hint
        for gv, f in tvm_ir.functions.items()
        if isinstance(f, relax.Function) and "Primitive" not in (f.attrs or {})
    ]
    assert sorted(f.name for f in m.functions) == sorted(relax_functions)
    by_name = {f.name: f for f in m.functions}
    assert by_name["prefill"].symbols == ["seq_len"] and by_name["decode"].symbols == ["batch_size"]
    assert [p.kind for p in by_name["decode"].params] == ["tensor", "object", "tuple"]
    assert by_name["decode"].num_input == 2 and by_name["embed"].num_input == 1
    assert [f.name for f in m.functions if f.creates_kv_cache] == ["create_tir_paged_kv_cache"]
    assert by_name["decode"].builtins == [ATTENTION_FUSED_QKV] * 2  # one per layer
    assert m.symbols == {"seq_len": 128, "batch_size": 4}
    assert m.pipeline == "mlc-llm"  # a Python LLM's default
    assert m.kv_cache_target["kind"] in ("cuda", "gpu") and m.entry == ""


def test_call_tir_sites_are_tvms(llama: Workspace, tvm_ir: Any) -> None:
    m = llama.manifest
    for f in m.functions:
        assert f.calls == _call_tir_targets(tvm_ir, f.name), f.name
    for k in m.kernels:
        direct = {s.function for s in k.launched_by if s.via == "call_tir"}
        callers = {f.name for f in m.functions if k.primfunc in _call_tir_targets(tvm_ir, f.name)}
        assert direct == callers, k.name
        assert k.launched == bool(k.launched_by), k.name


def test_the_kv_cache_kernels_are_launched_by_the_runtime_for_the_right_calls(
    llama: Workspace, tvm_ir: Any
) -> None:
    m = llama.manifest
    args = _creation_args(tvm_ir)
    handed = {g for a in args for g in _global_vars(a)}
    runtime = {k.primfunc for k in m.kernels if any(s.via != "call_tir" for s in k.launched_by)}
    assert runtime and runtime <= handed  # only PrimFuncs the creation builtin was given

    def launchers(arg: int) -> dict[str, set[str]]:
        (prim,) = _global_vars(args[arg])
        k = _by_primfunc(m, prim)
        return {s.function: {s.role} for s in k.launched_by}

    # the runtime's argument positions (paged_kv_cache.cc): 17 decode, 15/16 prefill, 23
    # merge, 24 rope, 13 append
    assert launchers(17) == {"decode": {"attention_decode"}}
    assert launchers(15) == {"prefill": {"attention_prefill_ragged"}}
    assert launchers(16) == {"prefill": {"attention_prefill"}}
    assert launchers(23) == {"prefill": {"attention_merge"}}
    assert launchers(24) == {"prefill": {"rope"}, "decode": {"rope"}}
    assert launchers(13) == {"prefill": {"append"}, "decode": {"append"}}
    for arg in (18, 19, 20, 21, 25, 26, 27):  # sliding window, tree masks, fork, debug, commit
        for prim in _global_vars(args[arg]):
            k = _by_primfunc(m, prim)
            assert not k.launched and not k.launched_by, k.name
            assert any("never launches" in line for line in k.about), k.name
    assert all(s.via == ATTENTION_FUSED_QKV for k in m.kernels for s in k.launched_by if s.role)


def test_packed_weights_are_flattened_with_random_values(llama: Workspace, tvm_ir: Any) -> None:
    m = llama.manifest
    fields = tvm_ir["decode"].params[2].ty.fields
    assert [w.name for w in m.weights] == [f"packed_params.{i}" for i in range(len(fields))]
    assert [w.shape for w in m.weights] == [[int(d) for d in f.shape.values] for f in fields]
    assert {w.dtype for w in m.weights} == {"float16"}
    with np.load(llama.path / "params.npz") as npz:
        assert npz["packed_params.3"].shape == tuple(m.weights[3].shape)
        assert npz["packed_params.3"].dtype == np.float16
    assert m.params_mode == "random" and not m.weights_on_host


def test_grids_are_computed_for_the_bound_symbols(llama: Workspace) -> None:
    m = llama.manifest
    assert all(g >= 0 for k in m.kernels for g in k.grid)  # never -1
    norm_prefill = _by_primfunc(m, "rms_norm1")  # prefill's: one block per token
    assert norm_prefill.grid_expr[0] == "seq_len" and norm_prefill.grid == [128, 1, 1]
    norm_decode = _by_primfunc(m, "rms_norm")
    assert norm_decode.grid_expr[0] == "batch_size" and norm_decode.grid == [4, 1, 1]
    # the KV cache's grids depend on the runtime's arguments: shown as TVM wrote them
    decode = next(k for k in m.kernels if any(s.role == "attention_decode" for s in k.launched_by))
    assert decode.grid[0] == 0 and decode.grid_expr[0] and "x" in decode.grid_text()


def test_the_kernel_list_says_who_launches_each_kernel(
    llama: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["kernels", str(llama.path)]) == 0
    out = capsys.readouterr().out
    decode_attention = next(
        k.name
        for k in llama.manifest.kernels
        if k.launched_by and k.launched_by[0].role == "attention_decode"
    )
    row = next(line for line in out.splitlines() if line.startswith(decode_attention))
    assert "decode via attention_decode (runtime)" in row
    assert "decode (batch_size): " in out and "creates the KV cache" in out
    assert main(["kernels", str(llama.path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"function": "decode", "via": ATTENTION_FUSED_QKV, "role": "attention_decode"} in [
        {k: s[k] for k in ("function", "via", "role")} for r in rows for s in r["launched_by"]
    ]


def _transposes(m: Manifest, function: str) -> int:
    f = next(f for f in m.functions if f.name == function)
    return sum(1 for call in f.calls if "transpose" in call)


def test_the_pipelines_take_the_weight_transposes_out_of_decode(
    llama: Workspace, tmp_path: Path
) -> None:
    default = _build(tmp_path / "default", pipeline="default")
    lifted = _build(tmp_path / "lifted", pipeline="lift-params")
    assert default.pipeline == "default" and lifted.pipeline == "lift-params"
    assert _transposes(default, "decode") == 9  # 4 per layer and the head, on every call
    assert _transposes(llama.manifest, "decode") == 0  # mlc-llm: fused into NT matmuls
    assert _transposes(lifted, "decode") == 0
    lifted_names = sorted(f.name for f in lifted.functions if f.transforms_params)
    assert lifted_names == [f"{n}_transform_params" for n in ("decode", "embed", "prefill")]
    assert _transposes(lifted, "decode_transform_params") == 9  # once, at load


def test_an_unknown_shape_name_lists_the_functions_and_their_variables(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError) as error:
        _build(tmp_path / "ws", shapes={"seqlen": [128]})
    assert "no symbolic variable or input called 'seqlen'" in error.value.message
    assert "prefill (seq_len)" in error.value.hint and "decode (batch_size)" in error.value.hint
    assert not (tmp_path / "ws").exists()


@pytest.mark.parametrize(
    ("model", "said"),
    [("llama_mlc_cpu.py", "made for llvm (the CPU)"), ("llama_mlc_sm80.py", "made for sm_80")],
)
def test_a_kv_cache_made_for_another_target_is_refused(
    model: str, said: str, tmp_path: Path
) -> None:
    with pytest.raises(KernelscopeError) as error:
        _build(tmp_path / "ws", MODELS / model)
    assert said in error.value.message and "this build is for sm_90" in error.value.message
    assert "Traceback" not in error.value.message


def test_a_weight_no_value_can_be_made_for_says_how_to_give_one(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError) as error:
        _build(tmp_path / "ws", MODELS / "symbolic_weight.py")
    assert "weight 'w' of main has a symbolic shape ['m', 4]" in error.value.message
    assert "--shape m=N" in error.value.hint and "--params runtime" in error.value.hint
    ws = _build(tmp_path / "bound", MODELS / "symbolic_weight.py", shapes={"m": [8]})
    assert ws.weights[0].shape == [8, 4] and ws.symbols == {"m": 8}


SEQ_MLP = MODELS / "seq_mlp.py"  # one function, forward over input_ids: int32[1, seq_len]


def test_a_symbolic_variable_bound_with_shape_sizes_the_grids_and_the_inputs(
    tmp_path: Path,
) -> None:
    free = _build(tmp_path / "free", SEQ_MLP)
    bound = _build(tmp_path / "bound", SEQ_MLP, shapes={"seq_len": [128]})
    as_input = _build(tmp_path / "input", SEQ_MLP, shapes={"input_ids": [1, 512]})
    # a one-function model: entry, inputs and calls as for any model
    assert free.entry == "forward" and [f.name for f in free.functions] == ["forward"]
    assert free.inputs[0].shape == [1, "seq_len"] and bound.inputs[0].shape == [1, 128]
    assert as_input.symbols == {"seq_len": 512} and as_input.inputs[0].shape == [1, 512]
    assert free.calls == bound.calls and free.cache_key != bound.cache_key
    symbolic = [k for k in free.kernels if k.launched and k.grid_expr]
    assert symbolic  # the kernels over the sequence
    for k in symbolic:
        assert all(g >= 0 for g in k.grid) and "seq_len" in k.grid_text(), k.name
        after = next(b for b in bound.kernels if b.name == k.name)
        assert all(after.grid) and after.grid != k.grid, k.name  # computed for seq_len=128
        longer = next(b for b in as_input.kernels if b.name == k.name)
        assert longer.grid != after.grid, k.name  # seq_len=512


def test_an_unknown_shape_name_on_a_one_function_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["build", str(SEQ_MLP), "-o", str(tmp_path / "ws"), "--shape", "seqlen=128"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "no symbolic variable or input called 'seqlen'" in err and "forward (seq_len)" in err
    assert "Traceback" not in err


def test_weights_too_big_to_carry_are_made_on_the_gpu_host() -> None:
    from kernelscope.core.build.model_loader import load_model, random_weights

    model = load_model(MODELS / "llama_3_2_1b.py", seed=7)
    assert model.weights_on_host and model.weight_values == {} and model.params_mode == "random"
    assert len(model.weights) == 3 + 16 * 6 and model.weights[0].shape == [128256, 2048]
    assert any(
        " GB) are too big to carry" in n and "GPU host" in n and "seed 7" in n for n in model.notes
    )
    # the recipe the manifest gives the GPU host is the one small models are made with
    small = load_model(LLAMA, seed=7)
    made = random_weights(small.weights, 7)
    assert all(
        np.array_equal(made[i], small.weight_values[w.name]) for i, w in enumerate(small.weights)
    )


def test_profiling_or_timing_an_llm_without_steps_says_how_to_run_its_steps(
    llama: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """An LLM has no one call that is "the model": without --steps the runner would call a
    function named "" on the GPU host; the command says what to give instead, before anything
    starts (no ncu, no GPU needed to hear it)."""
    for command in (["profile", str(llama.path)], ["timeline", str(llama.path)]):
        assert main(command) != 0
        err = capsys.readouterr().err
        assert (
            "holds several Relax functions (create_tir_paged_kv_cache, decode, embed, prefill)"
            in err
        )
        assert "--steps prefill=128,decode=8" in err
        assert "Traceback" not in err


def _line_of(text: str) -> str:
    """``llama_mlc.py:N`` of the line of llama_mlc.py holding ``text``."""
    lines = LLAMA.read_text().splitlines()
    return f"llama_mlc.py:{next(i for i, ln in enumerate(lines, 1) if text in ln)}"


def test_the_matmuls_of_decode_lead_to_the_model_lines_that_made_them(
    llama: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    m = llama.manifest
    decode = [k for k in m.kernels if any(s.function == "decode" for s in k.launched_by)]
    matmuls = {op.origin: op.origin_text for k in decode for op in k.ops if "matmul" in op.op}
    projections = ("qkv_proj(x)", "o_proj(op.reshape", "gate_up_proj(x)", "down_proj(op.silu")
    assert set(matmuls) == {_line_of(f"self.{p}") for p in (*projections, "lm_head(self._dec")}
    assert matmuls[_line_of("self.down_proj(")] == "return self.down_proj(op.silu(gate) * up)"
    # the residual adds fused into o_proj and down_proj: each its own line
    adds = {
        k.ops[-2].origin: k.ops[-1].origin
        for k in decode
        if len(k.ops) >= 2 and k.ops[-1].op == "relax.add"
    }
    assert adds == {
        _line_of("self.o_proj(op.reshape"): _line_of("x = x + self.attn("),
        _line_of("self.down_proj(op.silu"): _line_of("return x + self.mlp("),
    }
    # the KV cache's kernels lead to the line calling the attention
    attention = next(k for k in decode if k.launched_by[0].role == "attention_decode")
    assert attention.launched_by[0].origin == _line_of("cache.attention_with_fused_qkv(")
    # every launch of a decode step leads to a model line, and the kernel list says so
    assert main(["kernels", str(llama.path)]) == 0
    out = capsys.readouterr().out
    assert "model lines: 100.0% of the launches of one decode call" in out
    row = next(line for line in out.splitlines() if line.startswith(attention.name))
    assert row.rstrip().endswith(_line_of("cache.attention_with_fused_qkv("))
