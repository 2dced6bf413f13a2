"""What the panes show, Qt-free: a ``ViewDocument`` of kernels, each a ``KernelView`` with its
source files, SASS and per-line metrics, made from a workspace, a profile or both; the live
data behind it in the ``ProfileSession`` that the openers (``open_document``...) return with
it, which alone reads it, on one thread (``session.PROFILE_THREAD``): the kernels
(``ProfileSession.kernel``) and the named queries (``read_details``, ``read_roofline``,
``read_headroom``, ``read_export_facts``, ``hot_lines``, ``compare_documents``), each
answer a value: no caller is handed the live ``Profile``.

The Nsight Compute layer's types the answers hold (``HotLine``, ``KernelSummary``,
``SourceFile``) are exported by ``kernelscope.core.ncu`` alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_getattr

if TYPE_CHECKING:
    from .document import (
        SASS_COUNT,
        KernelView,
        Metrics,
        ViewDocument,
        document_from_workspace,
    )
    from .features import (
        compare_documents,
        hot_lines,
        read_details,
        read_export_facts,
        read_headroom,
        read_ledger,
        read_roofline,
        versus_kernels,
        versus_step_kernels,
    )
    from .open import is_model, open_document
    from .selection import Selection
    from .session import ProfileSession

# Each name is imported from its module on first use (PEP 562), as in ``ncu``: the child that
# reads a report for the window (``python -m kernelscope.core.view.prefill``) imports this
# package before its own code, and must load NVIDIA's reader before numpy (see
# ``ncu.load_reader_first``). Add a name here and under TYPE_CHECKING above.
_EXPORTS = {
    "SASS_COUNT": ".document",
    "KernelView": ".document",
    "Metrics": ".document",
    "ViewDocument": ".document",
    "document_from_workspace": ".document",
    "compare_documents": ".features",
    "hot_lines": ".features",
    "read_details": ".features",
    "read_export_facts": ".features",
    "read_headroom": ".features",
    "read_ledger": ".features",
    "read_roofline": ".features",
    "versus_kernels": ".features",
    "versus_step_kernels": ".features",
    "is_model": ".open",
    "open_document": ".open",
    "Selection": ".selection",
    "ProfileSession": ".session",
}

__all__ = [
    "SASS_COUNT",
    "Selection",
    "KernelView",
    "Metrics",
    "ProfileSession",
    "ViewDocument",
    "compare_documents",
    "document_from_workspace",
    "hot_lines",
    "is_model",
    "open_document",
    "read_details",
    "read_export_facts",
    "read_headroom",
    "read_ledger",
    "read_roofline",
    "versus_kernels",
    "versus_step_kernels",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
