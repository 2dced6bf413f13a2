"""What a build workspace records about a model and its kernels (``manifest.json``).

Plain dataclasses that serialise to JSON; every later feature (profile import, viewer,
kernel DB) reads a workspace through these types rather than through the JSON itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

MANIFEST_VERSION = 1
# ``model_format`` of the workspace core.inductor makes of a torch.compile run folder
TORCH_COMPILE_FORMAT = "inductor"


@dataclass
class TensorInfo:
    """A tensor argument: shape (ints; a symbolic dimension is kept as its name) and dtype."""

    shape: list[int | str]
    dtype: str
    name: str = ""


@dataclass
class OpInfo:
    """One Relax operator a kernel was fused from, as it stood before legalization.

    ``op`` is the Relax operator (``relax.nn.conv2d``, ``relax.matmul``...), ``prim`` the
    PrimFunc TVM legalized it into, ``attrs`` its attributes (strides, padding, axes...).
    ``origin``: for a ``tvm.relax.frontend.nn`` model, the line of the model file that
    emitted it (``llama_mlc.py:61``) and ``origin_text`` that line; "" when not known.
    """

    op: str
    prim: str
    inputs: list[TensorInfo]
    output: TensorInfo | None
    attrs: dict[str, Any] = field(default_factory=dict)
    origin: str = ""
    origin_text: str = ""

    @property
    def origin_line(self) -> int:
        """The model file's line number of ``origin`` (0: none)."""
        return int(self.origin.rpartition(":")[2]) if self.origin else 0


@dataclass
class TunedFrom:
    """A kernel built from a MetaSchedule tuning record: how many schedules of its workload
    were measured, the best (the one built) and the default schedule's time, in µs (None
    when not measured: a database stock TVM wrote has no default times), and the GPUs the
    database's batch rounds named ("" when it does not say: local and RPC runs, stock TVM).
    ``default_kept``: the record applied is the default schedule itself, which the tuning
    committed beside the candidates because none beat it (``best_us`` is then the best
    candidate's, slower than ``default_us``)."""

    trials: int
    best_us: float | None
    default_us: float | None = None
    measured_on: str = ""
    default_kept: bool = False

    def kept_text(self) -> str:
        """What a person reads for a kernel whose default schedule was kept ("" otherwise)."""
        return default_kept_text(self.best_us, self.default_us) if self.default_kept else ""


# Said wherever a record's times (``TunedFrom``) are shown beside profiled ones: they were
# never converted, since the clock the tuning's GPU ran at is not recorded.
TUNED_TIMES_NOTE = (
    "tuning times are MetaSchedule's own (the kernel alone, the GPU at its boost clock), "
    "profiled times Nsight Compute's with clocks locked to base, as kernelscope profiles by "
    "default: the same kernel profiles about 1.37x longer on an H100, so compare tuning times "
    "with tuning times and profiled times with profiled ones"
)


def default_kept_text(best_us: float | None, default_us: float | None) -> str:
    """ "default schedule kept (no candidate beat it: best X µs vs default Y µs)"."""
    best = f"{best_us:.4g} µs" if best_us is not None else "none ran"
    default = f"{default_us:.4g} µs" if default_us is not None else "not measured"
    return f"default schedule kept (no candidate beat it: best {best} vs default {default})"


@dataclass
class ParamInfo:
    """One parameter of a Relax function: a tensor (dims, a symbolic one as its variable's
    name, and dtype), a tuple of parameters (``fields``, nested: MLC-style packed weights),
    an opaque object (``R.Object``: a KV cache), a shape (``R.Shape``: its dims) or a
    primitive value (``R.Prim``: its dtype)."""

    name: str
    kind: str  # "tensor" | "tuple" | "object" | "shape" | "prim"
    shape: list[int | str] = field(default_factory=list)
    dtype: str = ""
    fields: list[ParamInfo] = field(default_factory=list)


@dataclass
class FunctionInfo:
    """One Relax function of the built module (every one that is not a fused primitive).

    ``num_input``: the parameters before the weights (TVM's ``num_input`` attribute; all of
    them when it is absent). ``calls``: the PrimFuncs it calls through ``call_tir``, in
    program order, as the build left them (after FuseTIR). ``builtins``: the runtime
    functions it calls (``call_packed``/``call_dps_packed``), in program order.
    ``symbols``: the symbolic variables of its signature. ``transforms_params``: a weight
    preprocessing function the build's pipeline added (``LiftTransformParams``): called once
    at load time with the model's weights, its results are the weights of the function it
    was lifted from (``<function>_transform_params`` -> ``<function>``)."""

    name: str
    params: list[ParamInfo]
    num_input: int
    calls: list[str]
    builtins: list[str]
    symbols: list[str]
    creates_kv_cache: bool = False  # calls vm.builtin.paged_attention_kv_cache_create
    transforms_params: bool = False
    # ``build --cuda-graph``: the PrimFuncs each captured region calls, in order (a region
    # is captured into a CUDA graph on the first call, replayed after), and for each of
    # ``calls`` the region it runs in (None: launched directly). Empty in other builds.
    graphs: list[list[str]] = field(default_factory=list)
    call_graphs: list[int | None] = field(default_factory=list)


@dataclass
class LaunchSite:
    """Who launches a kernel: a Relax function, directly (``via="call_tir"``) or through a
    runtime builtin (``via`` is its name, ``role`` what the KV cache uses the kernel for).
    ``origin``/``origin_text``: for a runtime builtin, the model line that called it
    (``cache.attention_with_fused_qkv(...)``), as ``OpInfo.origin``."""

    function: str
    via: str
    role: str = ""
    origin: str = ""
    origin_text: str = ""


# What the build writes into a KernelInfo's ``about`` for a kernel the module holds that no
# prefill/decode call launches (a KV cache's fork, tree or sliding-window kernels).
NEVER_LAUNCHES = "a prefill/decode loop never launches"
# Why TVM keeps a kernel nothing launches, when the build says nothing more.
KEPT_AS_VIEW = "TVM keeps it (a reshape that runs as a view)"


def never_launched_why(about: Sequence[str]) -> str:
    """Why running the model never launches a kernel, in words: the build's reason for a KV
    cache's kernel (in ``about``), else the usual one (a reshape TVM turned into a view)."""
    return next((line for line in about if NEVER_LAUNCHES in line), KEPT_AS_VIEW)


@dataclass
class KernelInfo:
    """One ``__global__`` function of the built module and how it is launched."""

    name: str
    file: str  # relative to the workspace, e.g. "src/kernels/softmax_kernel.cu"
    primfunc: str  # the fused PrimFunc whose host side launches this kernel
    grid: list[int]  # [x, y, z]
    block: list[int]  # [x, y, z]
    dynamic_smem_bytes: int
    params: list[TensorInfo]  # in the kernel's parameter order, shapes from the PrimFunc
    ops: list[OpInfo]  # the Relax operators fused into it, in program order
    source_lines: int = 0
    registers: int | None = None  # from ptxas
    static_smem_bytes: int | None = None
    local_bytes: int | None = None  # stack frame / spills, from ptxas
    sass_instructions: int = 0
    # Whether running the model launches this kernel. TVM keeps kernels it never calls (a
    # reshape turned into a view by RewriteDataflowReshape, say) in the module.
    launched: bool = True
    # The Relax functions whose calls launch this kernel and how (read from the module);
    # empty in workspaces built before it was recorded and for kernels nothing launches.
    launched_by: list[LaunchSite] = field(default_factory=list)
    # The launch grid as TVM wrote it where an extent is symbolic ("(seq_len + 127) // 128"),
    # x, y, z; ``grid`` then holds the extents for the build's --shape bindings, 0 where one
    # cannot be computed. Empty when every extent is a number.
    grid_expr: list[str] = field(default_factory=list)
    # Built with a tuning database (``Manifest.tuning_db``): the record this kernel's schedule
    # came from; None when it fell back to the default schedule (or no database was given).
    tuned: TunedFrom | None = None
    # What else the compiler says about this kernel, one line each, for people (a
    # torch.compile kernel's autotune configuration and the wrapper line launching it).
    about: list[str] = field(default_factory=list)
    # The line of ``file`` a source pane opens at, marked, when nothing else is asked: a
    # library kernel's (cuBLAS, cuDNN) launch in the torch.compile wrapper; 0: the top.
    start_line: int = 0

    def grid_text(self) -> str:
        """The grid as people read it: ``16x2x1``, an extent the build could not compute
        for its --shape bindings as TVM wrote it (``(seq_len + 127) // 128x2x1``)."""
        if not self.grid_expr:
            return "x".join(str(g) for g in self.grid) if any(self.grid) else "-"
        return "x".join(
            str(g) if g else f"({e})" if " " in e else e
            for g, e in zip(self.grid, self.grid_expr, strict=False)
        )

    def launched_by_text(self) -> str:
        """Who launches it: ``prefill, decode`` (call_tir), ``decode via attention_decode
        (runtime)``; "-" for nothing."""
        direct = [s.function for s in self.launched_by if s.via == "call_tir"]
        runtime = [
            f"{s.function} via {s.role or s.via} (runtime)"
            for s in self.launched_by
            if s.via != "call_tir"
        ]
        return ", ".join(direct + runtime) or "-"


@dataclass
class Manifest:
    model: str  # file name of the model as given (where it was: ``model_path``)
    model_sha256: str
    model_format: str  # "onnx" | "relax-py" (``build.model_format``) | TORCH_COMPILE_FORMAT
    entry: str  # the Relax function to run, e.g. "main" or "forward"
    target: dict[str, Any]  # {"kind": "cuda", "arch": "sm_90"}
    inputs: list[TensorInfo]  # runtime inputs in call order
    weights: list[TensorInfo]  # the parameters after the inputs (values in params.npz)
    params_mode: str  # "model" | "random" (seeded values) | "runtime" (no values) | "none"
    params_seed: int | None
    versions: dict[str, str]  # tvm, nvcc, nvdisasm, python, kernelscope
    nvcc_flags: list[str]
    cache_key: str
    timings: dict[str, float]  # seconds per step
    kernels: list[KernelInfo]
    files: dict[str, str]  # role -> path relative to the workspace
    notes: list[str] = field(default_factory=list)
    version: int = MANIFEST_VERSION
    # The PrimFuncs the entry function calls, in order; each launches the kernels whose
    # ``primfunc`` it is. Empty when not known (workspaces built before it was recorded).
    calls: list[str] = field(default_factory=list)
    # Where the model was when it was built (absolute; its digest is ``model_sha256``), so
    # that what needs the model again finds it wherever the workspace is. "" when not known
    # (workspaces built before it was recorded).
    model_path: str = ""
    # The MetaSchedule database the build applied (``build --tuning-db``); "" for none.
    tuning_db: str = ""
    # Every Relax function of the module (several for an LLM: embed, prefill, decode, the KV
    # cache's creation); empty in workspaces built before it was recorded.
    functions: list[FunctionInfo] = field(default_factory=list)
    # The symbolic variables bound with --shape (``{"seq_len": 128}``).
    symbols: dict[str, int] = field(default_factory=dict)
    # The compilation pipeline that built it (``build.PIPELINES``).
    pipeline: str = "default"
    # The target the KV cache's kernels were made for ({"kind": "cuda"}, with "arch" where
    # the module records one); {} for a model without a KV cache.
    kv_cache_target: dict[str, Any] = field(default_factory=dict)
    # The weights are too big to carry (params.npz): whoever runs the model makes them on
    # its own host, seeded (``params_seed``), in ``weights`` order, exactly as the build
    # would have: ``rng = numpy.random.default_rng(seed)``, then for each weight
    # ``(rng.standard_normal(shape, dtype=float32) * float32(0.05)).astype(dtype)``.
    weights_on_host: bool = False
    # Built with ``--cuda-graph`` (Relax's RewriteCUDAGraph; ``FunctionInfo.graphs``).
    cuda_graph: bool = False

    @property
    def torch_compile_run(self) -> Path | None:
        """The torch.compile run folder this is the workspace of (``core.inductor`` makes it
        in kernelscope's cache, a folder nobody should be shown); None for a TVM build."""
        if self.model_format != TORCH_COMPILE_FORMAT or not self.model_path:
            return None
        return Path(self.model_path)

    def kernel(self, name: str) -> KernelInfo:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(name)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        raw = json.loads(text)
        if raw.get("version") != MANIFEST_VERSION:
            raise ValueError(f"unsupported manifest version {raw.get('version')!r}")
        raw["inputs"] = [TensorInfo(**t) for t in raw["inputs"]]
        raw["weights"] = [TensorInfo(**t) for t in raw["weights"]]
        raw["kernels"] = [_kernel_from_dict(k) for k in raw["kernels"]]
        raw["functions"] = [_function_from_dict(f) for f in raw.get("functions", [])]
        return cls(**raw)


def _param_from_dict(raw: dict[str, Any]) -> ParamInfo:
    return ParamInfo(**{**raw, "fields": [_param_from_dict(f) for f in raw.get("fields", [])]})


def _function_from_dict(raw: dict[str, Any]) -> FunctionInfo:
    return FunctionInfo(**{**raw, "params": [_param_from_dict(p) for p in raw["params"]]})


def _kernel_from_dict(raw: dict[str, Any]) -> KernelInfo:
    raw = dict(raw)
    raw["params"] = [TensorInfo(**t) for t in raw["params"]]
    if raw.get("tuned"):
        raw["tuned"] = TunedFrom(**raw["tuned"])
    raw["launched_by"] = [LaunchSite(**site) for site in raw.get("launched_by", [])]
    raw["ops"] = [
        OpInfo(
            op=o["op"],
            prim=o["prim"],
            inputs=[TensorInfo(**t) for t in o["inputs"]],
            output=TensorInfo(**o["output"]) if o.get("output") else None,
            attrs=o.get("attrs", {}),
            origin=o.get("origin", ""),
            origin_text=o.get("origin_text", ""),
        )
        for o in raw["ops"]
    ]
    return KernelInfo(**raw)
