"""What Nsight Compute collects and which launches it profiles: the options every profile
takes (``kernelscope profile``, ``run``, ``profile-torch``, a timeline call's ``--profile``;
Build & Profile's Profile tab), one value for all of them."""

from __future__ import annotations

from dataclasses import dataclass, field

from .runner.cuda import STEP_MARKER


@dataclass
class NcuOptions:
    set: str | None = "full"  # ncu --set; None: ncu's default sections
    sections: list[str] = field(default_factory=list)  # ncu --section, repeatable
    metrics: list[str] = field(default_factory=list)  # ncu --metrics (gpu__time_duration.sum)
    kernel_regex: str | None = None  # ncu --kernel-name regex:...
    launch_skip: int = 0
    launch_count: int | None = None
    clock_control: str = "base"  # ncu --clock-control: base (ncu's default) or none
    cache_control: str = "all"  # ncu --cache-control: all (flush, ncu's default) or none

    def ncu_arguments(self, stepped: bool = False) -> list[str]:
        """ncu's own flags for these options (``stepped``: the LLM step markers are
        profiled too, or the report cannot be split into steps)."""
        args: list[str] = []
        if self.set:
            args += ["--set", self.set]
        for section in self.sections:
            args += ["--section", section]
        if self.metrics:
            args += ["--metrics", ",".join(self.metrics)]
        if self.kernel_regex:
            pattern = self.kernel_regex
            if stepped:
                pattern = f"(?:{pattern})|^{STEP_MARKER}$"
            args += ["--kernel-name", f"regex:{pattern}"]
        if self.launch_skip:
            args += ["--launch-skip", str(self.launch_skip)]
        if self.launch_count is not None:
            args += ["--launch-count", str(self.launch_count)]
        return args + ["--clock-control", self.clock_control, "--cache-control", self.cache_control]

    def command_arguments(self) -> list[str]:
        """kernelscope's flags that give these options back (``cli.ncu_options`` parses
        them into an equal value)."""
        line = ["--set", self.set or "none"]
        for section in self.sections:
            line += ["--section", section]
        for metric in self.metrics:
            line += ["--metric", metric]
        if self.kernel_regex:
            line += ["--kernel", self.kernel_regex]
        if self.launch_skip:
            line += ["--launch-skip", str(self.launch_skip)]
        if self.launch_count is not None:
            line += ["--launch-count", str(self.launch_count)]
        if self.clock_control != "base":
            line += ["--clock-control", self.clock_control]
        if self.cache_control != "all":
            line += ["--cache-control", self.cache_control]
        return line
