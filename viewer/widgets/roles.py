"""Custom item-data roles shared by the models and their delegates."""

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

SortRole = Qt.ItemDataRole.UserRole + 1  # raw value for sorting (numbers, not text)
BarRole = Qt.ItemDataRole.UserRole + 2  # 0..1: how full a metric cell's bar is
SpansRole = Qt.ItemDataRole.UserRole + 3  # [(text, token type)] of a highlighted code line
HighlightRole = Qt.ItemDataRole.UserRole + 4  # bool: row is correlated with the selection
KeyRole = Qt.ItemDataRole.UserRole + 5  # what the row stands for (kernel name, line...)


def item_data(index: QModelIndex | QPersistentModelIndex, role: int) -> Any:
    """``index.data(role)`` straight from the Python model, skipping the QVariant round trip
    (delegates call this for every painted cell)."""
    model = index.model()
    while isinstance(model, QSortFilterProxyModel):
        index = model.mapToSource(index)
        model = model.sourceModel()
    return model.data(index, role) if model is not None else None
