"""Sorting that keeps some rows last whichever way a column is sorted.

Kernels the model never launches stay at the bottom of the kernel list and the headroom list,
ascending or descending: a model marks such rows with ``SortLastRole`` (True), the proxy
compares those flags before the column's ``SortRole`` values.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from .roles import item_data

# a role of its own, far from roles.py's, which other panels extend
SortLastRole = Qt.ItemDataRole.UserRole + 40

Index = QModelIndex | QPersistentModelIndex


class LastRowsProxy(QSortFilterProxyModel):
    def lessThan(self, left: Index, right: Index) -> bool:
        a, b = bool(item_data(left, SortLastRole)), bool(item_data(right, SortLastRole))
        if a != b:
            # Qt shows a descending sort in reverse: the flagged row must then be the lesser
            return b if self.sortOrder() == Qt.SortOrder.AscendingOrder else a
        return super().lessThan(left, right)
