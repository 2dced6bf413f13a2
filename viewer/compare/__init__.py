"""Compare mode: a baseline profile and the changes of the profile shown against it.

``Compare`` (the feature) places compare mode's widgets and gives its actions; ``CompareMode``
owns the controller (``controller``), its own widgets (the header ``bar``, the side-by-side
``diff_pane``, the ``opcodes`` table, the "Side by Side" button and the workspace's profiles
menu), and puts a comparison into the panes through what each pane offers for it
(``CodePane.show_comparison``, ``KernelList.show_comparison``, ``HotLinesPanel.set_changes``).
"""

from .feature import CompareFeature
from .mode import CompareMode

__all__ = ["CompareFeature", "CompareMode"]
