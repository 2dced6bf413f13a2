"""Opening a document, as a job for the ``open`` lane (the window runs it through ``Latest``,
so the newest open wins and what is on screen stays until it is ready).

The job reads an uncached report in a short-lived child process (``read_in_child``), which
Cancel stops, so NVIDIA's reader never loads into the window. Such a report is shown as it
is read: its kernel list first (``JobContext.send``: ``Latest.partial``), while the child
reads the rest; a kernel's first load waits for its part.
"""

from __future__ import annotations

from pathlib import Path

from kernelscope.core.view import ProfileSession, open_document

from .jobs import JobContext, JobFn


def open_job(paths: list[Path]) -> JobFn:
    def run(context: JobContext) -> ProfileSession:
        return open_document(paths, read_in_child=True, cancel=context.cancel, first=context.send)

    return run
