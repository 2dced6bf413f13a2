"""Where the model runner runs: this machine, or a temporary folder on an SSH host.

Profiling (``ncu ... runner.py WS``) and the timeline (``runner.py WS --timeline``) run the
same runner on the same workspace; only what goes before it (ncu and its options) and the
runner's own arguments differ. ``runner_site`` makes the place ready (on a host: one SSH
login, a temporary folder holding the runner and the workspace files it needs, removed in
every outcome) and ``RunnerSite.command`` is the one command line that starts the runner
there, under the remote supervisor on a host so that Cancel ends it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..tasks import Cancel, ProgressFn
from ..workspace import Workspace
from .remote import RUNNER, RemoteFolder, SshSession, SshTarget, workspace_entries
from .runner_app import runner_path


@dataclass
class RunnerSite:
    """The paths a runner command uses where it runs."""

    workspace: str  # the workspace folder as the runner sees it
    inputs: str | None  # the --inputs .npz as the runner sees it
    python: str
    runner: str
    root_args: list[str] = field(default_factory=list)  # --runtime-root on a host
    folder: RemoteFolder | None = None  # on a host: the run's temporary folder
    hook: str | None = None  # the --hook file as the runner sees it

    @property
    def where(self) -> str:
        return self.folder.target.host if self.folder else "this machine"

    def command(
        self, runner_args: Sequence[str], before: Sequence[str] = (), find_ncu: bool = False
    ) -> list[str]:
        """``before`` (e.g. ncu and its options), then the runner with ``runner_args``; on a
        host, through ssh under the supervisor (``find_ncu``: ``before[0]`` is the host's ncu,
        looked up there; see ``RemoteFolder.supervised``)."""
        argv = [*before, self.python, self.runner, *runner_args, *self.root_args]
        return self.folder.supervised(argv, find_ncu=find_ncu) if self.folder else argv


@contextmanager
def runner_site(
    ws: Workspace,
    target: SshTarget | None,
    inputs: Path | None,
    progress: ProgressFn,
    cancel: Cancel | None,
    copy_at: float,
    hook: Path | None = None,
) -> Iterator[RunnerSite]:
    """This machine when ``target`` is None; else the host, connected, with a temporary
    folder holding the runner, the workspace's runner files (``ws/``), ``inputs``
    (``inputs/``) and the ``hook`` file (``hook/``), reported as the steps "connect" and
    "copy" (at ``copy_at``)."""
    if target is None:
        yield RunnerSite(
            str(ws.path),
            str(inputs) if inputs else None,
            sys.executable,
            str(runner_path()),
            hook=str(hook) if hook else None,
        )
        return
    progress("connect", None, f"connecting to {target.host}")  # busy while ssh connects
    with SshSession(target, cancel) as session, RemoteFolder(session.target, cancel) as folder:
        progress("copy", copy_at, f"copying the workspace to {target.host}:{folder.path}")
        extra = [(f"inputs/{inputs.name}", inputs)] if inputs else []
        extra += [(f"hook/{hook.name}", hook)] if hook else []
        folder.upload([*workspace_entries(ws), *extra])
        yield RunnerSite(
            folder.file("ws"),
            folder.file(f"inputs/{inputs.name}") if inputs else None,
            target.python,
            folder.file(RUNNER),
            target.runner_root_args(),
            folder,
            folder.file(f"hook/{hook.name}") if hook else None,
        )
