"""What the panes show, Qt-free: a ``ViewDocument`` of kernels, each a ``KernelView`` with its
source files, SASS and per-line metrics, made from a workspace, a profile or both; the live
data behind it in its ``ProfileSession``, read by the feature functions (``read_details``,
``read_roofline``, ``read_headroom``, ``read_export_facts``, ``hot_lines``,
``compare_documents``).

``HotLine``, ``KernelSummary`` and ``SourceFile`` are the Nsight Compute layer's own types
(``kernelscope.core.ncu``), exported here too so that the viewer needs this package only.
"""

from ..ncu import HotLine, KernelSummary, SourceFile
from .document import (
    SASS_COUNT,
    KernelView,
    Metrics,
    ViewDocument,
    document_from_workspace,
)
from .features import (
    DocumentComparison,
    compare_documents,
    hot_lines,
    read_details,
    read_export_facts,
    read_headroom,
    read_roofline,
)
from .from_profile import document_from_profile, kernel_from_profile
from .open import MODEL_SUFFIXES, REPORT_SUFFIXES, is_model, open_document
from .selection import Selection
from .session import ProfileSession

__all__ = [
    "MODEL_SUFFIXES",
    "REPORT_SUFFIXES",
    "SASS_COUNT",
    "Selection",
    "DocumentComparison",
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
    "read_roofline",
]
