"""A tuned kernel that calls TVM's cp.async helpers becomes a row NNFusion can compile.

MetaSchedule's schedules on sm_80+ call ``tvm_builtin_ptx_cp_async_*`` device functions that
only TVM's prelude header defines. NNFusion's generated code has no place for a row's device
functions, so the row carries them inlined in its body; compiled here with the real nvcc in
both forms NNFusion emits a cached kernel (a standalone ``__global__`` and a block-fusion
``__device__`` function).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from paths_support import DATA

from kernelscope.core.kernel_db.export import entries_for_kernel
from kernelscope.core.kernel_db.records import DbEntry
from kernelscope.core.nnfusion import cuda_scan as nnfusion_cuda
from kernelscope.core.nnfusion import function_json as nnfusion_function
from kernelscope.core.toolchain.find import find_tool
from kernelscope.core.workspace import Workspace

CP_ASYNC = DATA / "kernel_db" / "cp_async"  # a workspace trimmed to one tuned kernel


def _row() -> DbEntry:
    ws = Workspace.open(CP_ASYNC)
    return entries_for_kernel(ws, ws.manifest.kernels[0])[0]


def _as_nnfusion_emits(fn: dict[str, Any]) -> str:
    """The row's kernel as NNFusion's CacheBlockCudaEmitter writes it into nnfusion_rt.cu:
    standalone (static shared arrays declared, name before the signature's last "(") and as
    a block-fusion device function (shared arrays carved from the fused kernel's buffer)."""
    sig = fn["function_signature"]
    cut = sig.rindex("(")
    shared = fn["shared_memory"]
    arrays = list(zip(shared["symbol"], shared["dtype"], shared["size"], strict=True))
    standalone = sig[:cut] + "Matched_Pattern_cuda_1" + sig[cut:] + "\n{\n"
    standalone += "".join(f"    __shared__ {t} {s}[{n}];\n" for s, t, n in arrays)
    standalone += "    {\n" + fn["block_function_body"] + "\n    }\n}\n"
    params = sig[cut + 1 : sig.rindex(")")]
    block = (
        f"__device__ __noinline__ void Matched_Pattern_cuda_1_block_kernel({params}, "
        "int thread_id, int block_id, char *shared_buffer)\n{\n"
        f"    if (thread_id >= {fn['block_dim'][0]}) {{\n"
        + "        __syncthreads();\n"
        * fn["num_syncthreads"]
        + "        return;\n    }\n"
        f"    const dim3 blockDim({fn['block_dim'][0]}, 1, 1);\n"
        f"    const dim3 gridDim({fn['grid_dim'][0]}, 1, 1);\n"
        "    const dim3 blockIdx(block_id, 0, 0);\n"
    )
    offset = 0
    for s, t, n in arrays:
        block += f"    {t}* {s} = ({t}*)(shared_buffer + {offset});\n"
        offset += n * 4
    block += "    {\n" + fn["block_function_body"] + "\n    }\n}\n"
    header = "#include <cuda.h>\n#include <cuda_runtime.h>\n#include <stdint.h>\n"
    return header + standalone + block


def test_the_cp_async_helpers_are_inlined_into_the_row() -> None:
    f = _row()
    assert f.usable and f.source == "External", f.reasons
    body = f.function["block_function_body"]
    assert "tvm_builtin" not in body and "tvm_builtin" not in f.function["function_body"]
    assert body.count('asm volatile("cp.async.commit_group;"') == 3
    assert 'asm volatile("cp.async.wait_group 2;" :  :  : "memory");' in body
    assert any("inlined into the body" in n and "cp_async_wait_group" in n for n in f.notes)


def test_the_row_compiles_with_nvcc_as_nnfusion_emits_it(tmp_path: Path) -> None:
    nvcc = find_tool("nvcc")
    if not nvcc.found:
        pytest.skip("nvcc not found")
    src = tmp_path / "nnfusion_rt.cu"
    src.write_text(_as_nnfusion_emits(_row().function))
    done = subprocess.run(
        [str(nvcc.require()), "-arch=sm_90", "-O2", "-c", str(src), "-o", str(tmp_path / "k.o")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_helper_used_other_than_as_a_statement_stays_a_dependency() -> None:
    prelude = '__forceinline__ __device__ void helper() {\n  asm volatile("membar.gl;");\n}\n'
    body, inlined = nnfusion_cuda.inline_prelude_helpers("{ helper(); }", prelude)
    assert (body, inlined) == ('{ { asm volatile("membar.gl;"); } }', ["helper"])
    text = 'extern "C" __global__ void k(float* a) { auto f = &helper; a[0] = 1.0f; }'
    f = nnfusion_function.make_function(
        text, "Relu", ["output0"], [1, 1, 1], [32, 1, 1], 0, prelude
    )
    assert not f.block_fusion
    assert any("helper from TVM's prelude header" in r for r in f.reasons)
