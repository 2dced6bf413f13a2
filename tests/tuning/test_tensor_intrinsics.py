"""TVM's tensor intrinsics registered with the quicker stack (``tuning.tensor_intrinsics``):
the frames TVM's parser reads are inspect's own, and the intrinsics registered are the same
as TVM's own import registers (recorded for the TVM this project pins; any other TVM is
compared with its own import, ~25 s more)."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap

import pytest

from kernelscope.core.tuning.tensor_intrinsics import stack

# Registers TVM's tensor intrinsics (with kernelscope's import when argv[1] is "quick") and
# prints how many, a digest of every (name, description, implementation), the seconds it
# took and TVM's version.
_REGISTERED = textwrap.dedent(
    """
    import hashlib, sys, time
    import tvm
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
    digest = hashlib.sha256(repr(sorted(seen)).encode()).hexdigest()
    print(len(seen), digest, f"{took:.1f}", tvm.__version__)
    """
)
# What TVM's own import registers (count and digest, ``_REGISTERED`` with "tvm"), by version.
TVM_REGISTERS = {
    "0.27.0.post1": ("124", "425d8d04b4af253f445fc6596dbe46594cd4acd520b9e009b9cb976fd5b04a55")
}


def _registered(how: str) -> list[str]:
    return subprocess.run(
        [sys.executable, "-c", _REGISTERED, how],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout.split()


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
    count, digest, quick_s, version = _registered("quick")
    assert int(count) > 100
    if version in TVM_REGISTERS:
        assert (count, digest) == TVM_REGISTERS[version]
        return
    tvm_count, tvm_digest, tvm_s, _ = _registered("tvm")
    assert (count, digest) == (tvm_count, tvm_digest)
    assert float(quick_s) < float(tvm_s) / 2, (quick_s, tvm_s)
