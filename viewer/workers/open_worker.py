"""Opening a document, as a job for the ``open`` lane (the window runs it through ``Latest``,
so the newest open wins and what is on screen stays until it is ready).

The job reads an uncached report in a short-lived child process (``read_in_child``), which
Cancel stops, and hands the window finished data: the document and the kernel times the
Kernel DB panel shows beside its entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kernelscope.core.kernel_db import profile_times
from kernelscope.core.view import ViewDocument, open_document

from .jobs import JobContext, JobFn


@dataclass
class Opened:
    document: ViewDocument
    paths: list[Path]
    kernel_times_us: dict[str, float] = field(default_factory=dict)  # mean per kernel name


def open_job(paths: list[Path]) -> JobFn:
    def run(context: JobContext) -> Opened:
        document = open_document(paths, read_in_child=True, cancel=context.cancel)
        times = profile_times(document.profile)[0] if document.profile else {}
        return Opened(document, paths, {name: ns / 1000 for name, (_, ns) in times.items()})

    return run
