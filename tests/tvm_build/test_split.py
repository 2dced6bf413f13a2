"""Splitting TVM's module source into a prelude and one file per kernel."""

from __future__ import annotations

import pytest

from kernelscope.core.build.split_cuda import safe_file_stem, split_module
from kernelscope.core.errors import KernelscopeError

SOURCE = """#include <cuda.h>
extern "C" __global__ void __launch_bounds__(64) first_kernel(float* __restrict__ a);
extern "C" __global__ void __launch_bounds__(64) first_kernel(float* __restrict__ a) {
  // a brace in a comment: {
  const char* s = "}";  /* and } here */
  char c = '}';
  if (threadIdx.x < 3) { a[threadIdx.x] = 1.0f; }
}

__device__ int helper() { return 1; }

extern "C" __global__ void second_kernel(float* b) {
  b[0] = helper();
}
"""


def test_each_kernel_gets_its_own_file_and_the_rest_goes_to_the_prelude() -> None:
    split = split_module(SOURCE)
    assert [k.name for k in split.kernels] == ["first_kernel", "second_kernel"]
    first = split.kernels[0].text
    assert first.startswith('extern "C" __global__ void __launch_bounds__(64) first_kernel(')
    assert first.rstrip().endswith("}") and "a[threadIdx.x] = 1.0f;" in first
    assert "helper()" not in first
    # the forward declaration and the helper between kernels precede every kernel
    prelude = split.prelude_file()
    assert (
        "__device__ int helper()" in prelude and "first_kernel(float* __restrict__ a);" in prelude
    )
    kernel_file = split.kernel_file(split.kernels[1])
    assert kernel_file.splitlines()[0] == '#include "../tvm_prelude.cuh"'
    assert kernel_file.splitlines()[1].startswith('extern "C" __global__ void second_kernel')
    assert split.unit_file().splitlines() == [
        '#include "tvm_prelude.cuh"',
        '#include "kernels/first_kernel.cu"',
        '#include "kernels/second_kernel.cu"',
    ]


def test_split_keeps_every_character_of_every_kernel() -> None:
    split = split_module(SOURCE)
    for k in split.kernels:
        assert k.text in SOURCE


def test_unsafe_and_colliding_names_become_distinct_safe_file_names() -> None:
    taken: set[str] = set()
    names = [safe_file_stem(n, taken) for n in ["Kernel", "kernel", "../evil name", "x" * 300]]
    assert names[0] == "Kernel"
    assert names[1].lower() != names[0].lower()
    assert "/" not in names[2] and "." not in names[2] and " " not in names[2]
    assert len(names[3]) < 140
    assert len({n.lower() for n in names}) == 4


def test_source_without_kernels_is_a_clear_error() -> None:
    with pytest.raises(KernelscopeError, match="no CUDA kernels"):
        split_module("#include <cuda.h>\n")


def test_unbalanced_kernel_is_a_clear_error() -> None:
    with pytest.raises(KernelscopeError, match="unbalanced"):
        split_module('extern "C" __global__ void k(float* a) { if (1) { }\n')
