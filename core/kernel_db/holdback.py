"""The hold-back rule: a row NNFusion could use is kept from it (stored for browsing, with the
reason) when it is slower than what NNFusion runs for the same operator without the DB (its
cuDNN or cuBLAS call, with the element-wise kernel that applies the pattern's Add and Relu),
measured on the same GPU. So a DB never makes NNFusion slower for an operator it has a time
for.

The times come from NNFusion's own generated project (``scripts/nnfusion_optimes.py``
times each operator call of ``kernel_entry`` on the GPU and maps it to the identifier NNFusion
looks up); ``export-db --hold-back-against TIMES.json`` reads them::

    {"device": "NVIDIA H200",               # the GPU both sides were measured on
     "baseline": {IDENTIFIER: µs, ...},     # NNFusion without the DB, per operator
     "rows": {IDENTIFIER: µs, ...}}         # optional: the DB's kernels timed the same way
                                            # (in NNFusion's project built with the DB)

A row's own time is, in this order: ``rows`` (same method as the baseline), the tuning's best
time when it was measured on that GPU, the profile's time (``--profile``) when taken on it.
A row with no time on that GPU, or an operator without a baseline, is not held back: the
export says it was not compared.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from ..nnfusion.identifier import conv_suffix, identifier
from ..workspace.manifest import TensorInfo

HELD_BACK = "held back: "  # starts the reason of a held-back row (``is_held_back``)


@dataclass(frozen=True)
class OperatorTimes:
    """What ``--hold-back-against`` reads: per NNFusion identifier, µs on ``device``."""

    device: str
    baseline: dict[str, float]
    rows: dict[str, float]
    path: str = ""

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("path")
        return data


@dataclass(frozen=True)
class Comparison:
    """One row against NNFusion's own kernel for its operator."""

    row_us: float | None  # None: no time of this row on the device
    row_from: str  # "NNFusion's project with the DB", "tuning", "profile", ""
    baseline_us: float | None  # None: no baseline for this identifier

    @property
    def held_back(self) -> bool:
        return (
            self.row_us is not None
            and self.baseline_us is not None
            and (self.row_us > self.baseline_us)
        )


def load_operator_times(path: str | Path) -> OperatorTimes:
    """Read a TIMES.json; a clear error for anything else."""
    p = Path(path)
    try:
        data: Any = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KernelscopeError(f"{p}: cannot read the operator times ({exc.strerror})") from exc
    except ValueError as exc:
        raise KernelscopeError(f"{p}: not JSON ({exc})") from exc
    hint = (
        'expected {"device": "NVIDIA H200", "baseline": {IDENTIFIER: µs}, "rows": {...}}, '
        "as scripts/nnfusion_optimes.py writes it"
    )
    if not isinstance(data, dict) or not isinstance(data.get("device"), str):
        raise KernelscopeError(f'{p}: no "device" (the GPU the times were taken on)', hint=hint)
    tables = {}
    for name in ("baseline", "rows"):
        table = data.get(name, {} if name == "rows" else None)
        if not isinstance(table, dict) or not all(
            isinstance(v, int | float) and math.isfinite(v) and v > 0 for v in table.values()
        ):
            raise KernelscopeError(
                f'{p}: "{name}" must map identifiers to positive microseconds', hint=hint
            )
        tables[name] = {str(k): float(v) for k, v in table.items()}
    if not data["device"] or not tables["baseline"]:
        raise KernelscopeError(f"{p}: no device or no baseline times", hint=hint)
    return OperatorTimes(data["device"], tables["baseline"], tables["rows"], str(p))


def compare(
    times: OperatorTimes,
    identifier: str,
    tuning: dict[str, Any],
    profile: tuple[str, float] | None,
) -> Comparison:
    """``identifier``'s row (its tuning provenance, its profile time: device, µs) against
    NNFusion's own kernel on ``times.device``."""
    base = times.baseline.get(identifier)
    if identifier in times.rows:
        return Comparison(times.rows[identifier], "NNFusion's project with the DB", base)
    best = tuning.get("best_us")
    if (
        tuning.get("schedule") == "tuned"
        and best is not None
        and (tuning.get("measured_on") == times.device)
    ):
        return Comparison(float(best), "tuning", base)
    if profile is not None and profile[0] == times.device:
        return Comparison(profile[1], "profile", base)
    return Comparison(None, "", base)


def reason(c: Comparison, device: str) -> str:
    """The reason a held-back row carries (starts with ``HELD_BACK``)."""
    return (
        f"{HELD_BACK}{c.row_us:.2f} µs ({c.row_from}) against {c.baseline_us:.2f} µs of "
        f"NNFusion's own kernel for this operator on {device}: NNFusion is faster without it"
    )


def note(c: Comparison, device: str) -> str:
    """The note of a row that was compared and kept, or could not be compared."""
    if c.baseline_us is None:
        return f"not compared: no time of NNFusion's own kernel for this operator on {device}"
    if c.row_us is None:
        return f"not compared: no time of this kernel on {device} (tune or profile it there)"
    return (
        f"faster than NNFusion's own kernel on {device}: {c.row_us:.2f} µs ({c.row_from}) "
        f"against {c.baseline_us:.2f} µs"
    )


def is_held_back(reasons: list[str]) -> bool:
    return any(r.startswith(HELD_BACK) for r in reasons)


# --- NNFusion's generated project: which operator is which identifier ---------------------

_CONV_LIB = "_cuda_lib_Convolution_"
_HEADER_TENSOR = re.compile(r"^//\t- name: (\S+)\ttype: (\w+)\tshape: Shape\{([^}]*)\}")
_CONV_DESC = re.compile(r"cudnnSetConvolution2dDescriptor\(conv_desc, ([^)]*)\)")


def _split_call(statement: str) -> tuple[str, list[str]]:
    """``fn(a, dim3(1, 1, 1), b);`` -> ("fn", ["a", "dim3(1, 1, 1)", "b"])."""
    fn, _, rest = statement.partition("(")
    args, depth, current = [], 0, ""
    for ch in rest.rstrip().removesuffix(";").removesuffix(")"):
        if ch == "," and depth == 0:
            args.append(current.strip())
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    if current.strip():
        args.append(current.strip())
    return fn.strip(), args


def _conv_identifier(source: str, fn: str) -> tuple[str, TensorInfo] | None:
    """The Convolution identifier of a cuDNN call's function (its header comment gives the
    shapes, its convolution descriptor the padding, strides and dilation)."""
    at = source.find(f"void {fn}(")
    if at < 0:
        return None
    header = source[:at].splitlines()[-12:]
    tensors: dict[str, list[TensorInfo]] = {"Input": [], "Output": []}
    part = ""
    for line in header:
        if line.startswith("// Input:") or line.startswith("// Output:"):
            part = line[3:-1]
            continue
        m = _HEADER_TENSOR.match(line)
        if m and part:
            dtype = {"float": "float32", "double": "float64", "half": "float16"}.get(m[2], m[2])
            shape: list[int | str] = [int(d) for d in m[3].split(",") if d.strip()]
            tensors[part].append(TensorInfo(shape=shape, dtype=dtype))
    desc = _CONV_DESC.search(source, at, source.find("\n}\n", at))
    if desc is None or len(tensors["Input"]) != 2 or len(tensors["Output"]) != 1:
        return None
    values = [v.strip() for v in desc[1].split(",")]
    pad, stride, dilation = values[0:2], values[2:4], values[4:6]
    if not all(v.isdigit() for v in [*pad, *stride, *dilation]):
        return None
    out = tensors["Output"][0]
    ident = identifier("Convolution", tensors["Input"], [out]) + conv_suffix(
        [int(v) for v in stride], [int(v) for v in dilation], [int(v) for v in pad]
    )
    return ident, out


def _tensors(args: list[str], before: set[str]) -> tuple[list[str], list[str]]:
    """A kernel call's tensor arguments: (inputs, outputs); an input is a tensor an earlier
    call used or wrote, a constant or a parameter (``before``: those of earlier calls)."""
    tensors = [a for a in args if not a.startswith("dim3(") and a != "0"]
    inputs = [a for a in tensors if a in before or a.startswith(("Constant_", "Parameter_"))]
    return inputs, [a for a in tensors if a not in inputs]


def _add_relu(fn: str, args: list[str], before: set[str], conv_out: str) -> tuple[float, str]:
    """How much of an element-wise consumer's time applies the Add and Relu of the
    Convolution pattern to ``conv_out`` (1 for NNFusion's fused Add+Relu kernel, 1/n for a
    block-fused kernel of n two-input groups) and the tensor it writes for it; (0, "") when
    it does something else (a residual Add+Add+Relu, an Add alone)."""
    inputs, outputs = _tensors(args, before)
    if "_cuda_Add_Relu_" in fn and fn.startswith("FusedKernel_") and len(outputs) == 1:
        return 1.0, outputs[0]
    if fn.startswith("BlockFusionKernel_") and outputs and len(inputs) == 2 * len(outputs):
        written = outputs[inputs.index(conv_out) // 2] if conv_out in inputs else ""
        if written.startswith("Relu_"):
            return 1.0 / len(outputs), written
    return 0.0, ""


def times_from_projects(
    nodb_source: str,
    nodb_ops: Sequence[dict[str, Any]],
    device: str,
    db_ops: Sequence[dict[str, Any]] | None = None,
) -> OperatorTimes:
    """NNFusion's own time per identifier, from its project built without the DB
    (``nodb_source``: its nnfusion_rt.cu; ``nodb_ops``: ``kernel_entry``'s operator calls in
    order, each ``{"name", "call", "median_us"}`` as nnfusion_optimes.py measures them):
    a Convolution is its cuDNN call; a Convolution+Add+Relu is that call and the share of the
    element-wise kernel that adds its bias and applies the Relu. ``db_ops``: the same for
    the project built with the DB; its kernels are matched to the operators by the tensor
    they write, and give ``rows`` (the DB's kernels timed the same way)."""
    base: dict[str, list[float]] = {}
    by_output: dict[str, str] = {}  # the tensor a pattern writes -> its identifier
    calls = [(_split_call(op["call"]), float(op["median_us"])) for op in nodb_ops]
    before: list[set[str]] = [set()]  # the tensors written or read before each call
    for (_, args), _us in calls:
        before.append(before[-1] | {a for a in args if not a.startswith("dim3(")})
    for i, ((fn, args), us) in enumerate(calls):
        conv = _conv_identifier(nodb_source, fn) if _CONV_LIB in fn and args else None
        if conv is None:
            continue
        ident, out = conv
        base.setdefault(ident, []).append(us)
        conv_out = args[-1]
        for j in range(i + 1, len(calls)):
            (fn2, args2), us2 = calls[j]
            if conv_out not in args2:
                continue
            share, written = _add_relu(fn2, args2, before[j], conv_out)
            if share:
                pattern = (
                    ident + identifier("Add", [out, out], [out]) + identifier("Relu", [out], [out])
                )
                base.setdefault(pattern, []).append(us + share * us2)
                by_output[written] = pattern
            break
    rows: dict[str, list[float]] = {}
    for op in db_ops or []:
        fn, args = _split_call(op["call"])
        pattern_of = by_output.get(args[-1]) if args else None
        if pattern_of is not None and fn.startswith("Matched_Pattern"):
            rows.setdefault(pattern_of, []).append(float(op["median_us"]))
    return OperatorTimes(
        device,
        {k: statistics.median(v) for k, v in base.items()},
        {k: statistics.median(v) for k, v in rows.items()},
    )
