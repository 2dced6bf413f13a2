"""The nvdisasm parser against a golden file: every instruction's offset, text, source line
and inline frames, and every branch label, of real ``nvdisasm -c -g -gi`` output."""

from __future__ import annotations

from golden import check_golden
from paths_support import DATA

from kernelscope.core.build.nvdisasm import parse_nvdisasm
from kernelscope.core.workspace import KernelSass


def _render(kernels: dict[str, KernelSass]) -> str:
    """One line per instruction: offset, file:line, the call sites it was inlined at, text."""
    out = []
    for name, ks in kernels.items():
        out.append(f"== {name}")
        labels = sorted(ks.labels.items(), key=lambda item: (item[1], item[0]))
        out.append("labels " + " ".join(f"{label}=0x{offset:04x}" for label, offset in labels))
        for i in ks.instructions:
            where = f"{i.file}:{i.line}" if i.file else "-"
            where += "".join(f" < {file}:{line}" for file, line in i.inlined_at)
            out.append(f"{i.offset:04x}  {where}  {i.text}")
    return "\n".join(out) + "\n"


def test_nvdisasm_output_parses_to_the_golden_listing() -> None:
    text = (DATA / "nvdisasm" / "mlp.txt").read_text(encoding="utf-8")
    kernels = parse_nvdisasm(text)
    assert list(kernels) == ["transpose1_kernel", "transpose_kernel", "softmax_kernel"]
    check_golden(_render(kernels), "nvdisasm_mlp.txt")
