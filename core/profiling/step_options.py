"""How an LLM runs step by step: the options a profile and a timeline share (``kernelscope
profile``/``timeline`` ``--steps --batch --hook``, ``profile --profile-steps``; Build &
Profile's LLM steps), one value for all of them, and the check that refuses what the runner
would refuse before anything starts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import KernelscopeError
from ..workspace import Workspace
from . import runner

STEPS_HINT = (
    "e.g. --steps prefill=128,decode=32 --profile-steps decode:0-3 (or prefill, decode:16, all)"
)
STEPS_WINDOW_HINT = (
    "under LLM steps, e.g. Steps prefill=128,decode=32 and Profiled steps decode:0-3 (or "
    "prefill, decode:16, empty for all)"
)


@dataclass(frozen=True)
class StepOptions:
    """An LLM's steps (``prefill=128,decode=32``, runner/steps.py) for ``batch`` sequences,
    or a hook file running its own; ``profile_steps`` chooses the steps ncu profiles (None:
    all of them; a profile's only: a timeline times every step). Neither steps nor a hook:
    the model runs as one call."""

    steps: str | None = None
    profile_steps: str | None = None
    batch: int = 1
    hook: Path | None = None

    @property
    def stepped(self) -> bool:
        return self.steps is not None or self.hook is not None

    def runner_arguments(self, hook: str | None = None) -> list[str]:
        """The runner's --steps/--batch or --hook (``hook``: the file as the runner sees it,
        on a host its copy); none for a run without steps."""
        if self.steps is not None:
            return ["--steps", self.steps, "--batch", str(self.batch)]
        if self.hook is not None:
            return ["--hook", hook or str(self.hook)]
        return []

    def command_arguments(self) -> list[str]:
        """kernelscope's flags that give these options back (``cli.profile``'s
        ``step_options`` parses them into an equal value)."""
        line = self.runner_arguments()
        if self.profile_steps:
            line += ["--profile-steps", self.profile_steps]
        return line


def check_steps(options: StepOptions, ws: Workspace | None = None) -> None:
    """Refuse steps the runner would refuse, before anything starts; and a workspace of
    several Relax functions (an LLM: no one function is "the model") run without steps."""
    if ws is not None and not ws.manifest.entry and not options.stepped:
        names = ", ".join(f.name for f in ws.manifest.functions) or "none recorded"
        raise KernelscopeError(
            f"{ws.path.name} holds several Relax functions ({names}) and no one call to run",
            hint="run its steps: --steps prefill=128,decode=8 (--profile-steps decode:0-3 "
            "profiles some of them), or a hook file: --hook my_loop.py",
            window_hint="give its steps under LLM steps, e.g. prefill=128,decode=8",
        )
    if options.steps is not None and options.hook is not None:
        raise KernelscopeError(
            "give --steps or --hook, not both",
            window_hint="under LLM steps, fill in Steps or a Hook file, not both",
        )
    if options.profile_steps is not None and not options.stepped:
        raise KernelscopeError(
            "--profile-steps chooses among an LLM's steps",
            hint="give the steps too: --steps prefill=128,decode=32 --profile-steps decode:0-3",
        )
    if options.hook is not None and not options.hook.is_file():
        raise KernelscopeError(f"--hook {options.hook}: no such file")
    if options.batch < 1:
        raise KernelscopeError(f"--batch {options.batch}: give 1 or more sequences")
    from .runner.steps import Selection, parse_steps

    try:
        selection = Selection(options.profile_steps)
        if options.steps is not None:
            plan = parse_steps(options.steps)
            selection.check_plan({"prefill": 1 if plan["prefill"] else 0, "decode": plan["decode"]})
    except runner.RunnerError as exc:
        raise KernelscopeError(str(exc), hint=STEPS_HINT, window_hint=STEPS_WINDOW_HINT) from exc
