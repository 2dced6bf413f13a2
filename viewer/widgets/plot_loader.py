"""Load the plotting module (pyqtgraph) when a plot is first needed, off the GUI thread.

Importing pyqtgraph takes about a second (1.1-1.4 s on the 2-core test machine), nearly all
of it pure Python that needs no QApplication or widget, so it runs as a job: the window stays
responsive (the longest pause of its event loop measured 90 ms) and the window's start-up
never pays for it. The widgets themselves are made on the GUI thread once it is loaded.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

from ..workers.jobs import Job, JobContext, Workers

MODULE = "kernelscope.viewer.widgets.plots"
_loaded: list[ModuleType] = []  # the module, once an import finished on the GUI thread's watch


def plots() -> ModuleType | None:
    """The plotting module if it has been loaded, else None."""
    return _loaded[0] if _loaded else None


def load_plots(
    workers: Workers,
    ready: Callable[[ModuleType], None],
    failed: Callable[[BaseException], None] | None = None,
) -> Job | None:
    """Call ``ready(module)`` on the GUI thread once the plotting module is loaded: at once
    (returning None) when it is, else when the import job returns (returning that job);
    ``failed(error)`` if it cannot be imported (pyqtgraph missing)."""
    module = plots()
    if module is not None:
        ready(module)
        return None

    def load(context: JobContext) -> ModuleType:
        return importlib.import_module(MODULE)

    def done(module: ModuleType) -> None:
        if not _loaded:
            _loaded.append(module)
        ready(module)

    job = workers.start("open", load, "loading the plotting library")
    job.returned.connect(done)
    if failed is not None:
        job.errored.connect(failed)
    return job
