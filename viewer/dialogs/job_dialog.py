"""What the Build & Profile and Tune dialogs share: one job at a time, a Cancel button that
becomes Close once the job ends, and closing the window cancels the job and waits for it."""

from __future__ import annotations

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDialog, QPushButton

from ..workers.jobs import Job


class JobDialog(QDialog):
    """A subclass makes ``cancel`` and says how it shows the job's state, how it tells the
    user a cancel is on its way, and what it remembers of its fields."""

    cancel: QPushButton
    job: Job | None = None  # the job running, if any

    def _update_state(self) -> None:
        raise NotImplementedError

    def _say_cancelling(self) -> None:
        raise NotImplementedError

    def remember(self) -> None:
        raise NotImplementedError

    def _on_job_finished(self) -> None:
        self.job = None
        self.cancel.setEnabled(True)
        self.cancel.setText("Close")
        self._update_state()

    def _cancel_or_close(self) -> None:
        if self.job is not None:
            self._say_cancelling()
            self.job.cancel()
            self.cancel.setEnabled(False)
        else:
            self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing while a job runs cancels it and waits for it to stop."""
        if self.job is not None:
            self.job.cancel()
            self.job.wait()
            self._on_job_finished()
        self.remember()
        super().closeEvent(event)
