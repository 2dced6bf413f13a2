"""File > Share as Web Page…: the open profile written as one self-contained HTML file
(``core.share``) on a worker, with its progress and Cancel here; when it is written, the
dialog says what it holds and offers to open it in the browser."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kernelscope.core.errors import Cancelled
from kernelscope.core.formatting import format_bytes
from kernelscope.core.view import ProfileSession

from ..dialogs.error_dialog import error_box
from ..dialogs.job_dialog import JobDialog
from ..workers.jobs import JobContext, Workers

if TYPE_CHECKING:  # core.share (and the roofline's drawing) loads with the first share
    from kernelscope.core.share import SharedPage


class ShareDialog(JobDialog):
    """Writes the page as soon as it is made; ``shared`` holds the result once written."""

    def __init__(
        self,
        workers: Workers,
        session: ProfileSession,
        path: Path,
        *,
        kernels: Sequence[str] | None = None,
        baseline: ProfileSession | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """``kernels``: the kernels whose source and SASS go on the page (None: the ten
        slowest); ``baseline``: compare mode's baseline, whose comparison goes on it too."""
        super().__init__(parent)
        self.setObjectName("share_dialog")
        self.setWindowTitle("Share as Web Page")
        self.setMinimumWidth(520)
        self.shared: SharedPage | None = None
        self._workers = workers
        self._path = path
        self.status = QLabel(f"Writing {path.name}…")
        self.status.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        buttons = QDialogButtonBox()
        self.open_button = QPushButton("Open in Browser")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_page)
        self.cancel = QPushButton("Cancel")
        self.cancel.clicked.connect(self._cancel_or_close)
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.cancel, QDialogButtonBox.ButtonRole.RejectRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.bar)
        layout.addWidget(buttons)
        chosen = list(kernels) if kernels else None

        def share(context: JobContext) -> SharedPage:
            from kernelscope.core.share import share_page

            return share_page(
                session,
                path,
                baseline=baseline,
                kernels=chosen,
                progress=context.progress,
                cancel=context.cancel,
            )

        self.job = workers.start("export", share, f"sharing {path.name}")
        self.job.progress.connect(self._on_progress)
        self.job.returned.connect(self._on_shared)
        self.job.errored.connect(self._on_failed)
        self.job.finished.connect(self._on_job_finished)

    def _on_progress(self, step: str, fraction: float, message: str) -> None:
        self.status.setText(message)
        if fraction >= 0:
            self.bar.setRange(0, 100)
            self.bar.setValue(round(100 * fraction))

    def _on_shared(self, shared: SharedPage) -> None:
        self.shared = shared
        count = len(shared.kernels)
        self.status.setText(
            f"Wrote {shared.path} ({format_bytes(shared.size)}): the kernel list, and the "
            f"source and SASS of {count} kernel{'s' * (count != 1)}. It opens in any browser, "
            "from disk, with no network."
        )
        self.bar.setRange(0, 100)
        self.bar.setValue(100)
        self.open_button.setEnabled(True)
        self.open_button.setDefault(True)

    def _on_failed(self, error: BaseException) -> None:
        self.bar.setRange(0, 100)
        self.bar.setValue(0)
        if isinstance(error, Cancelled):
            self.status.setText(f"Cancelled; {self._path.name} was not written.")
            return
        self.status.setText(f"{self._path.name} was not written: {str(error).splitlines()[0]}")
        box = error_box(self, "Cannot share as a web page", error)
        box.open()

    def open_page(self) -> None:
        """Open the written page in the desktop's browser, and close."""
        if self.shared is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.shared.path)))
        self.accept()

    # ---- JobDialog --------------------------------------------------------------------------
    def _update_state(self) -> None:
        self.bar.setVisible(self.shared is None)

    def _say_cancelling(self) -> None:
        self.status.setText("Cancelling…")

    def remember(self) -> None:
        """Nothing to remember: the file dialog keeps its own folder."""
