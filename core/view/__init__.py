"""What the panes show, Qt-free: a ``ViewDocument`` of kernels, each a ``KernelView`` with its
source files, SASS and per-line metrics, made from a workspace, a profile or both.

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
    hot_lines,
)
from .from_profile import document_from_profile, kernel_from_profile
from .open import MODEL_SUFFIXES, REPORT_SUFFIXES, is_model, open_document
from .selection import Selection

__all__ = [
    "MODEL_SUFFIXES",
    "REPORT_SUFFIXES",
    "SASS_COUNT",
    "Selection",
    "HotLine",
    "KernelSummary",
    "KernelView",
    "Metrics",
    "SourceFile",
    "ViewDocument",
    "document_from_profile",
    "document_from_workspace",
    "hot_lines",
    "is_model",
    "kernel_from_profile",
    "open_document",
]
