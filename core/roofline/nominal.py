"""Ceilings of a GPU nothing was profiled on: the datasheet peaks of one reference GPU per
CUDA architecture, for estimates made before any profile exists (which kernels of a
workspace to tune first). Only the order of such estimates is meant to be used; a profile's
measured ceilings (``Ceilings.from_launch``) replace them wherever there is one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Ceilings


@dataclass(frozen=True)
class _Datasheet:
    gpu: str
    fp32: float  # FLOP/s
    tensor_fp16: float  # dense FP16/BF16 tensor-core FLOP/s
    dram: float  # B/s
    fp64: float | None = None  # where the part has a full-rate FP64 unit


# NVIDIA's datasheet numbers of each architecture's data-centre part (dense, no sparsity).
_REFERENCE = {
    80: _Datasheet("A100 SXM4 80GB", 19.5e12, 312e12, 2.039e12, fp64=9.7e12),
    86: _Datasheet("A10", 31.2e12, 125e12, 600e9),
    89: _Datasheet("L40S", 91.6e12, 362e12, 864e9),
    90: _Datasheet("H100 SXM5", 66.9e12, 989.4e12, 3.35e12, fp64=33.5e12),
}


def nominal_ceilings(arch: str) -> Ceilings:
    """The reference GPU's ceilings for ``arch`` ("sm_90", "sm_90a"): that architecture's,
    else the newest one before it (the oldest for anything older); ``source`` names the GPU
    and says these are datasheet peaks, not measured ones."""
    found = re.fullmatch(r"sm_(\d+)[a-z]?", arch)
    number = int(found.group(1)) if found else max(_REFERENCE)
    key = max((k for k in _REFERENCE if k <= number), default=min(_REFERENCE))
    sheet = _REFERENCE[key]
    compute = {"fp32": sheet.fp32}
    if sheet.fp64:
        compute["fp64"] = sheet.fp64
    tensor = {"fp16": sheet.tensor_fp16, "bf16_dst_fp32": sheet.tensor_fp16}
    return Ceilings(
        compute={**compute, "tensor": sheet.tensor_fp16},
        bandwidth={"dram": sheet.dram},
        tensor=tensor,
        source=f"datasheet peaks of the {sheet.gpu} (the sm_{key} reference)",
        device=sheet.gpu,
    )
