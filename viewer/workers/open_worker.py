"""Opening a document, as a job for the ``open`` lane (the window runs it through ``Latest``,
so the newest open wins and what is on screen stays until it is ready).

The job reads an uncached report in a short-lived child process (``read_in_child``), which
Cancel stops, so NVIDIA's reader never loads into the window.
"""

from __future__ import annotations

from pathlib import Path

from kernelscope.core.view import ViewDocument, open_document

from .jobs import JobContext, JobFn


def open_job(paths: list[Path]) -> JobFn:
    def run(context: JobContext) -> ViewDocument:
        return open_document(paths, read_in_child=True, cancel=context.cancel)

    return run
