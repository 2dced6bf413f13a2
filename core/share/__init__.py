"""Share a profile as one self-contained web page (issue 34): the kernel list, the chosen
kernels' highlighted sources beside their SASS with per-line metrics (linked both ways), the
hot lines with their stall reasons, the Details, the roofline as SVG and, with a baseline,
the comparison; made of the values the window shows (``kernelscope.core.view``), Qt-free."""

from .collect import DEFAULT_TOP
from .write import SharedPage, share_page

__all__ = [
    "DEFAULT_TOP",
    "SharedPage",
    "share_page",
]
