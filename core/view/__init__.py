"""What the panes show, Qt-free: a ``ViewDocument`` of kernels, each a ``KernelView`` with its
source files, SASS and per-line metrics, made from a workspace, a profile or both; the live
data behind it in the ``ProfileSession`` that the openers (``open_document``...) return with
it, which alone reads it, on one thread (``PROFILE_THREAD``): the kernels
(``ProfileSession.kernel``) and the feature functions (``read_details``, ``read_roofline``,
``read_headroom``, ``read_export_facts``, ``hot_lines``, ``compare_documents``).

``HotLine``, ``KernelSummary`` and ``SourceFile`` are the Nsight Compute layer's own types
(``kernelscope.core.ncu``), exported here too so that the viewer needs this package only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_getattr

if TYPE_CHECKING:
    from ..ncu import HotLine, KernelSummary, SourceFile
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
    )
    from .from_profile import document_from_profile, kernel_from_profile
    from .open import MODEL_SUFFIXES, REPORT_SUFFIXES, is_model, open_document
    from .selection import Selection
    from .session import PROFILE_THREAD, ProfileSession

# Each name is imported from its module on first use (PEP 562), as in ``ncu``: the child that
# reads a report for the window (``python -m kernelscope.core.view.prefill``) imports this
# package before its own code, and must load NVIDIA's reader before numpy (see
# ``ncu.load_reader_first``). Add a name here and under TYPE_CHECKING above.
_EXPORTS = {
    "HotLine": "..ncu",
    "KernelSummary": "..ncu",
    "SourceFile": "..ncu",
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
    "document_from_profile": ".from_profile",
    "kernel_from_profile": ".from_profile",
    "MODEL_SUFFIXES": ".open",
    "REPORT_SUFFIXES": ".open",
    "is_model": ".open",
    "open_document": ".open",
    "Selection": ".selection",
    "PROFILE_THREAD": ".session",
    "ProfileSession": ".session",
}

__all__ = [
    "MODEL_SUFFIXES",
    "PROFILE_THREAD",
    "REPORT_SUFFIXES",
    "SASS_COUNT",
    "Selection",
    "HotLine",
    "KernelSummary",
    "KernelView",
    "Metrics",
    "ProfileSession",
    "SourceFile",
    "ViewDocument",
    "compare_documents",
    "document_from_profile",
    "document_from_workspace",
    "hot_lines",
    "is_model",
    "kernel_from_profile",
    "open_document",
    "read_details",
    "read_export_facts",
    "read_headroom",
    "read_ledger",
    "read_roofline",
    "versus_kernels",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
