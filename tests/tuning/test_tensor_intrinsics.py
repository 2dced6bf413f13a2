"""TVM's tensor intrinsics registered with the quicker stack (``tuning.tensor_intrinsics``):
the frames TVM's parser reads are inspect's own, and the intrinsics registered are the same
as TVM's own import registers."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap

import pytest

from kernelscope.core.tuning.tensor_intrinsics import stack

# Registers TVM's tensor intrinsics (with kernelscope's import when argv[1] is "quick") and
# prints a digest of every (name, description, implementation) registered.
_REGISTERED = textwrap.dedent(
    """
    import hashlib, sys, time
    from tvm.s_tir import TensorIntrin

    seen = []
    register = TensorIntrin.register

    def noting(name, desc, impl, override=False):
        seen.append((name, desc.script(), impl.script()))
        return register(name, desc, impl, override)

    TensorIntrin.register = staticmethod(noting)
    start = time.perf_counter()
    if sys.argv[1] == "quick":
        from kernelscope.core.tuning.tensor_intrinsics import register_tensor_intrinsics
        register_tensor_intrinsics()
    else:
        import tvm.s_tir.tensor_intrin
    took = time.perf_counter() - start
    print(len(seen), hashlib.sha256(repr(sorted(seen)).encode()).hexdigest(), f"{took:.1f}")
    """
)


def _nested(depth: int) -> tuple[list[inspect.FrameInfo], list[inspect.FrameInfo]]:
    if depth:
        return _nested(depth - 1)
    return stack(), inspect.stack()  # one line: the same frames, the same line numbers


def test_the_stack_is_inspects_with_the_source_lines_tvm_reads() -> None:
    quick, real = _nested(5)
    assert [f.frame for f in quick] == [f.frame for f in real]
    assert [(f.filename, f.lineno, f.function) for f in quick] == [
        (f.filename, f.lineno, f.function) for f in real
    ]
    assert [(f.code_context, f.index) for f in quick[:3]] == [
        (f.code_context, f.index) for f in real[:3]
    ]
    assert all(f.code_context is None for f in quick[3:])


@pytest.mark.slow
def test_the_same_intrinsics_are_registered_as_by_tvms_own_import() -> None:
    runs = {
        how: subprocess.run(
            [sys.executable, "-c", _REGISTERED, how],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        ).stdout.split()
        for how in ("quick", "tvm")
    }
    (count, digest, quick_s), (tvm_count, tvm_digest, tvm_s) = runs["quick"], runs["tvm"]
    assert int(count) > 100 and (count, digest) == (tvm_count, tvm_digest)
    assert float(quick_s) < float(tvm_s) / 2, runs
