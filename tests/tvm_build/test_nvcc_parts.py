"""Compiling a unit in parts (one nvcc process each, one ptxas on the merged PTX) gives the
cubin the one-unit compile gives: the same kernels in the same order, the same SASS, line
table and resources. Real nvcc, nvdisasm and cuobjdump."""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import pytest

from kernelscope.core.toolchain import find_tool, nvcc
from kernelscope.core.toolchain.ptx_merge import PtxMergeError, merge_ptx

FLAGS = nvcc.kernelscope_flags("sm_90")


def _functions(cubin: Path, tmp: Path) -> dict[str, list[str]]:
    """Each kernel's SASS with its line table (nvdisasm -g -gi), addresses and branch label
    numbers left out (they move with a kernel's place in the cubin)."""
    text = nvcc.run_tool(
        [str(find_tool("nvdisasm").require()), "-c", "-g", "-gi", str(cubin)], tmp, "nvdisasm"
    )
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+)", line)
        if m:
            current = out.setdefault(m.group(1), [])
        elif current is not None and not line.startswith("//----"):
            clean = re.sub(r"\.L_x_\d+", ".L", re.sub(r"/\*[0-9a-f]{4,}\*/", "", line)).strip()
            if clean and not clean.startswith((".type", ".size")):
                current.append(clean)
    return out


def _resources(cubin: Path, tmp: Path) -> dict[str, str]:
    text = nvcc.run_tool(
        [str(find_tool("cuobjdump").require()), "--dump-resource-usage", str(cubin)],
        tmp,
        "cuobjdump",
    )
    return dict(re.findall(r"Function (\S+):\s*\n\s*(REG:.*)", text))


def _compile_both(src: Path, parts: list[Path], tmp: Path) -> tuple[Path, Path, str]:
    tool = find_tool("nvcc").require()
    whole, split = tmp / "whole.cubin", tmp / "parts.cubin"
    nvcc.compile_unit(tool, src / "module.cu", whole, FLAGS)
    log, _ = nvcc.compile_parts(tool, src / "module.cu", parts, split, FLAGS, ptx=tmp / "m.ptx")
    return whole, split, log


def test_parts_are_contiguous_balanced_and_one_more_than_the_cores() -> None:
    big = 200 * 1024
    sizes = [big, big // 2, big // 2, big, big, 3 * big]
    runs = nvcc.parts(sizes, cores=2)
    assert len(runs) == 3  # two cores: three parts
    assert [i for run in runs for i in run] == list(range(len(sizes)))  # in order, each once
    loads = [sum(sizes[i] for i in run) for run in runs]
    assert max(loads) <= 3 * big and min(loads) >= big  # no part holds most of the source
    assert nvcc.parts(sizes, cores=1) == [range(len(sizes))]
    assert nvcc.parts([1000] * 40, cores=16) == [range(40)]  # too small to be worth a process
    assert len(nvcc.parts([big] * 3, cores=16)) == 3  # no part without a kernel


def test_a_model_compiled_in_parts_is_the_one_unit_cubin(build_once, tmp_path: Path) -> None:
    ws = build_once("small_cnn.onnx")
    src = tmp_path / "src"
    shutil.copytree(ws.path / "src", src)
    includes = (src / "module.cu").read_text().splitlines()
    prelude, kernels = includes[0], includes[1:]
    assert len(kernels) >= 3
    half = len(kernels) // 2
    parts = []
    for number, lines in enumerate((kernels[:half], kernels[half:]), start=1):
        part = src / f"module.part{number}.cu"
        part.write_text("\n".join([prelude, *lines]) + "\n")
        parts.append(part)
    whole, split, log = _compile_both(src, parts, tmp_path)
    ours, theirs = _functions(split, tmp_path), _functions(whole, tmp_path)
    assert list(ours) == list(theirs)  # the same kernels, in the same order
    for name in theirs:
        assert ours[name] == theirs[name], name  # instructions and their source lines
    assert _resources(split, tmp_path) == _resources(whole, tmp_path)
    assert sum("Function properties for" in line for line in log.splitlines()) == len(kernels)
    merged = (tmp_path / "m.ptx").read_text()
    assert merged.count(".version") == 1 and merged.count(".section\t.debug_str") <= 1


def _helper_sources(src: Path, printf: bool) -> list[Path]:
    """Two kernels sharing a prelude with a constant table, non-inlined helpers (one used
    before it is defined: its PTX has a prototype, then the definition) and dynamic shared
    memory (each part's PTX declares them all); with ``printf``, each kernel prints its own
    string, which both parts' PTX name ``$str``."""
    src.mkdir()
    (src / "pre.cuh").write_text(
        "#pragma once\n#include <cstdio>\n"
        "__constant__ float table[4] = {1.f, 2.f, 3.f, 4.f};\n"
        "__device__ __noinline__ float later(float x);\n"
        "__device__ __noinline__ float helper(float x) { return later(x) * table[1] + 1.f; }\n"
        "__device__ __noinline__ float later(float x) { return x * x - table[3]; }\n"
    )
    for name, text in (("k1", "a"), ("k2", "bb")):
        say = f'if (a[0] < 0) printf("{text}\\n");' if printf else ""
        (src / f"{name}.cu").write_text(
            '#include "pre.cuh"\n'
            f'extern "C" __global__ void {name}(float* a) {{\n'
            "  extern __shared__ float buf[];\n"
            f"  buf[threadIdx.x] = a[threadIdx.x] * table[{len(text)}];\n"
            "  __syncthreads();\n"
            f"  a[threadIdx.x] = helper(buf[31 - threadIdx.x]);\n  {say}\n}}\n"
        )
    (src / "module.cu").write_text('#include "pre.cuh"\n#include "k1.cu"\n#include "k2.cu"\n')
    parts = []
    for number, name in enumerate(("k1", "k2"), start=1):
        (src / f"p{number}.cu").write_text(f'#include "pre.cuh"\n#include "{name}.cu"\n')
        parts.append(src / f"p{number}.cu")
    return parts


def test_shared_declarations_are_merged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    parts = _helper_sources(tmp_path / "src", printf=False)
    with caplog.at_level(logging.WARNING):
        whole, split, _ = _compile_both(tmp_path / "src", parts, tmp_path)
    assert "whole" not in caplog.text  # merged, not compiled again as one unit
    assert _functions(split, tmp_path) == _functions(whole, tmp_path)
    merged = (tmp_path / "m.ptx").read_text()
    assert len(re.findall(r"^\.const .*\btable\[", merged, re.M)) == 1
    assert len(re.findall(r"^\.func .*_Z6helperf\(", merged, re.M)) == 1
    assert len(re.findall(r"^\.func .*_Z5laterf\(?$", merged, re.M)) == 2  # prototype, body
    assert len(re.findall(r"^\.extern \.shared .*\bbuf\[", merged, re.M)) == 1


def test_parts_that_cannot_be_merged_are_compiled_whole(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    parts = _helper_sources(tmp_path / "src", printf=True)
    with caplog.at_level(logging.WARNING):
        whole, split, _ = _compile_both(tmp_path / "src", parts, tmp_path)
    assert "two units define $str differently" in caplog.text
    assert split.read_bytes() == whole.read_bytes()


def test_a_variable_of_internal_linkage_is_compiled_whole(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A prelude variable in an anonymous namespace gets a name tagged with its unit: merged,
    each part's kernels would use their own copy of what the one-unit compile has once."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "pre.cuh").write_text("#pragma once\nnamespace { __device__ int counter; }\n")
    bodies = {"k1": "atomicAdd(&counter, 1);", "k2": "a[0] = counter;"}
    parts = []
    for number, (name, body) in enumerate(bodies.items(), start=1):
        (src / f"{name}.cu").write_text(
            f'#include "pre.cuh"\nextern "C" __global__ void {name}(int* a) {{ {body} }}\n'
        )
        (src / f"p{number}.cu").write_text(f'#include "pre.cuh"\n#include "{name}.cu"\n')
        parts.append(src / f"p{number}.cu")
    (src / "module.cu").write_text('#include "pre.cuh"\n#include "k1.cu"\n#include "k2.cu"\n')
    with caplog.at_level(logging.WARNING):
        whole, split, _ = _compile_both(src, parts, tmp_path)
    assert "counterE has internal linkage" in caplog.text
    assert split.read_bytes() == whole.read_bytes()


def test_a_shared_variable_two_parts_move_into_their_kernel_is_compiled_whole(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """cicc moves a module-scope ``__shared__`` variable that one kernel alone uses into
    that kernel: in each part, where the one-unit compile keeps it at module scope (the
    kernels' shared memory laid out, and addressed, differently)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "pre.cuh").write_text("#pragma once\n__shared__ float common[64];\n")
    bodies = {
        "k1": "common[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[0] = common[9];",
        "k2": "__shared__ double own[512]; own[threadIdx.x] = a[1]; common[threadIdx.x] = 2;"
        " __syncthreads(); a[threadIdx.x] = own[511 - threadIdx.x] + common[0];",
    }
    parts = []
    for number, (name, body) in enumerate(bodies.items(), start=1):
        (src / f"{name}.cu").write_text(
            f'#include "pre.cuh"\nextern "C" __global__ void {name}(float* a) {{ {body} }}\n'
        )
        (src / f"p{number}.cu").write_text(f'#include "pre.cuh"\n#include "{name}.cu"\n')
        parts.append(src / f"p{number}.cu")
    (src / "module.cu").write_text('#include "pre.cuh"\n#include "k1.cu"\n#include "k2.cu"\n')
    with caplog.at_level(logging.WARNING):
        whole, split, _ = _compile_both(src, parts, tmp_path)
    assert "shared variable common was moved" in caplog.text
    assert _functions(split, tmp_path) == _functions(whole, tmp_path)


PTX_HEAD = ".version 9.0\n.target sm_90\n.address_size 64\n"


def test_merge_renumbers_files_and_debug_strings() -> None:
    def unit(kernel: str, own_file: str) -> str:
        return (
            PTX_HEAD
            + f".visible .entry {kernel}(\n\t.param .u64 p\n)\n{{\n"
            + "\t.loc\t1 3 0\n\tret;\n"
            + "\t.loc\t2 7 1, function_name $L__info_string0, inlined_at 1 3 0\n}\n"
            + f'\t.file\t1 "{own_file}"\n\t.file\t2 "/cuda/include/math.hpp"\n'
            + "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 102,0\n\t}\n"
        )

    merged = merge_ptx([unit("a", "/w/a.cu"), unit("b", "/w/b.cu")])
    files = dict(re.findall(r'\.file\s+(\d+) "([^"]+)"', merged))
    assert files == {"1": "/w/a.cu", "2": "/cuda/include/math.hpp", "3": "/w/b.cu"}
    body_b = merged[merged.index(".entry b") :]
    assert "\t.loc\t3 3 0" in body_b
    assert "function_name $L__info_string1, inlined_at 3 3 0" in body_b
    assert merged.count("$L__info_string1:") == 1 and merged.count(".version") == 1


def test_merge_reads_a_file_path_holding_a_double_slash() -> None:
    """A ``//`` inside a ``.file`` path (nvcc keeps one an include folder was given with,
    ``-I/opt//include``) is not a comment."""
    unit = (
        PTX_HEAD
        + ".visible .entry a()\n{\n\t.loc\t1 3 0\n\tret;\n}\n"
        + '\t.file\t1 "/opt//include/x.h" // a comment\n'
    )
    merged = merge_ptx([unit, unit.replace("entry a", "entry b")])
    assert re.findall(r"\.file.*", merged) == ['.file\t1 "/opt//include/x.h" // a comment']
    assert merged.count("\t.loc\t1 3 0") == 2


def test_merge_tells_paths_apart_by_the_whole_quoted_path() -> None:
    """Two paths that share everything up to an escaped quote are two files."""

    def unit(kernel: str, path: str) -> str:
        body = f".visible .entry {kernel}()\n{{\n\t.loc\t1 3 0\n\tret;\n}}\n"
        return PTX_HEAD + body + f'\t.file\t1 "{path}"\n'

    merged = merge_ptx([unit("a", r"/w/a\"x.cu"), unit("b", r"/w/a\"y.cu")])
    assert re.findall(r"\.file\t(\d) (.*)", merged) == [
        ("1", r'"/w/a\"x.cu"'),
        ("2", r'"/w/a\"y.cu"'),
    ]
    assert "\t.loc\t2 3 0" in merged[merged.index(".entry b") :]


@pytest.mark.parametrize(
    ("second", "message"),
    [
        (".global .align 4 .u32 x = 2;\n", "define x differently"),
        ("\t.section\t.debug_info\n\t{\n\t}\n", "debug_info is not merged"),
        (".visible .entry b(\n)\n{\n\tret;\n", "ends inside a block"),
    ],
)
def test_merge_refuses_what_it_does_not_know(second: str, message: str) -> None:
    first = PTX_HEAD + ".global .align 4 .u32 x = 1;\n"
    with pytest.raises(PtxMergeError, match=message):
        merge_ptx([first, PTX_HEAD + second])
    with pytest.raises(PtxMergeError, match="disagree on the PTX header"):
        merge_ptx([first, first.replace("sm_90", "sm_80")])
