"""Every action of the main window, declared once: what it says, its shortcut, where it
appears, and when it is enabled (spyder's ``create_action`` and ``update_actions``). What it
does is given by the window or the feature that owns it (``WindowContext.add_action``).
``MainWindow.update_actions`` derives each action's enabled state from one ``ActionState``
snapshot; nothing else enables or disables an action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QKeySequence

Std = QKeySequence.StandardKey
MENUS = ("&File", "&Edit", "&Navigate", "&View", "&Help")  # the menu bar, in this order
KERNELS, HEADROOM = "kernels", "headroom"  # the context menus of the kernel and Headroom lists


@dataclass(frozen=True)
class ActionState:
    """What the enabled states depend on."""

    document: bool = False  # a document is open
    workspace: bool = False  # ... and it has a build workspace (kernel sources to export)
    kernel: bool = False  # a kernel is shown
    kernels_chosen: bool = False  # rows are selected in the kernel list
    branch: bool = False  # the selected instruction is a branch with a known target
    exporting: bool = False  # an export to the kernel DB is running
    profile: bool = False  # the document has an Nsight Compute profile
    comparing: bool = False  # a baseline is set (compare mode)


def _always(state: ActionState) -> bool:
    return True


@dataclass(frozen=True)
class ActionSpec:
    id: str
    text: str
    shortcut: QKeySequence.StandardKey | str | None = None
    tip: str = ""
    menu: str = ""  # the menu it is in ("" for none: a shortcut only)
    section: int = 0  # separators go between the sections of a menu
    toolbar: int | None = None  # the toolbar section it is in, if any
    context: tuple[str, ...] = ()  # also in these context menus (KERNELS, HEADROOM)
    enabled: Callable[[ActionState], bool] = _always


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "open",
        "&Open…",
        Std.Open,
        "Open a workspace, report or model",
        menu="&File",
        toolbar=0,
    ),
    ActionSpec(
        "open_folder",
        "Open &Folder…",
        "Ctrl+Shift+O",
        "Open a workspace folder or a torch.compile run folder (Inductor's and Triton's output)",
        menu="&File",
    ),
    ActionSpec(
        "build",
        "&Build && Profile…",
        "Ctrl+B",
        "Build a model with TVM and profile it",
        menu="&File",
        section=1,
        toolbar=0,
    ),
    ActionSpec(
        "measure_timeline",
        "Measure &Timeline",
        tip="Time every kernel call of one forward pass of the open workspace (Timeline pane)",
        menu="&File",
        section=1,
        enabled=lambda s: s.workspace,
    ),
    ActionSpec(
        "tune",
        "T&une…",
        tip="Tune kernels with TVM's MetaSchedule (the selected ones or the top N by "
        "microseconds to save), measured on this machine, an SSH host or a tracker",
        menu="&File",
        section=1,
        context=(KERNELS, HEADROOM),
        enabled=lambda s: s.workspace,
    ),
    ActionSpec(
        "build_tuned",
        "Build && Profile Tune&d…",
        tip="Build the model with its tuning records beside the open workspace, profile it as "
        "the open report was made and compare the two (each kernel's speedup)",
        menu="&File",
        section=1,
        enabled=lambda s: s.workspace,
    ),
    ActionSpec(
        "compare_with",
        "&Compare With…",
        "Ctrl+Shift+D",
        "Compare the open profile with a baseline: another profile of this workspace, of "
        "another build, or any report or CSV export",
        menu="&File",
        section=5,
        toolbar=0,
        enabled=lambda s: s.profile,
    ),
    ActionSpec(
        "compare_with_folder",
        "Compare With &Folder…",
        tip="Compare the open profile with a workspace's newest profile; a TVM build and a "
        "torch.compile run folder, one open and one chosen, are compared operator group by "
        "group (TVM against Inductor)",
        menu="&File",
        section=5,
        enabled=lambda s: s.profile,
    ),
    ActionSpec(
        "set_baseline",
        "Set as &Baseline",
        tip="Compare the next profile you open with this one",
        menu="&File",
        section=5,
        enabled=lambda s: s.profile,
    ),
    ActionSpec(
        "stop_comparing",
        "&Stop Comparing",
        tip="Leave compare mode: show the open profile alone",
        menu="&File",
        section=5,
        enabled=lambda s: s.comparing,
    ),
    ActionSpec(
        "export",
        "&Export to Kernel DB",
        "Ctrl+E",
        "Export the selected kernels (with the open profile's times) to the kernel DB",
        menu="&File",
        section=2,
        toolbar=0,
        context=(KERNELS,),
        enabled=lambda s: s.workspace and s.kernels_chosen and not s.exporting,
    ),
    ActionSpec(
        "export_all",
        "Export &All Kernels to Kernel DB",
        tip="Export every kernel of the open workspace to the kernel DB",
        menu="&File",
        section=2,
        context=(KERNELS,),
        enabled=lambda s: s.workspace and not s.exporting,
    ),
    ActionSpec(
        "choose_db",
        "Choose Kernel &DB…",
        tip="Kernel DB file to export into",
        menu="&File",
        section=2,
    ),
    ActionSpec(
        "export_options",
        "Kernel DB Export &Options…",
        tip="Ambiguous Dot rows, replacing older rows, writing the model NNFusion compiles",
        menu="&File",
        section=2,
    ),
    ActionSpec(
        "share",
        "S&hare as Web Page…",
        tip="Write the open profile as one HTML file that opens in any browser with no "
        "network (for an issue, a review, a CI run): the kernel list, the selected kernels' "
        "(else the ten slowest) source beside SASS, hot lines, Details, roofline and, in "
        "compare mode, the comparison",
        menu="&File",
        section=6,
        enabled=lambda s: s.document,
    ),
    ActionSpec("quit", "&Quit", Std.Quit, menu="&File", section=3),
    ActionSpec(
        "find",
        "&Find…",
        Std.Find,
        "Search the source or SASS pane",
        menu="&Edit",
        toolbar=2,
        enabled=lambda s: s.kernel,
    ),
    ActionSpec(
        "find_next",
        "Find &Next",
        Std.FindNext,
        menu="&Edit",
        enabled=lambda s: s.kernel,
    ),
    ActionSpec(
        "find_previous",
        "Find &Previous",
        Std.FindPrevious,
        menu="&Edit",
        enabled=lambda s: s.kernel,
    ),
    ActionSpec(
        "previous_hot",
        "Previous Hot Line",
        "Shift+F8",
        "Go back to the previous hotter line",
        menu="&Navigate",
        toolbar=1,
        enabled=lambda s: s.kernel,
    ),
    ActionSpec(
        "next_hot",
        "Next Hot Line",
        "F8",
        "Go to the next hottest line",
        menu="&Navigate",
        toolbar=1,
        enabled=lambda s: s.kernel,
    ),
    ActionSpec(
        "follow_branch",
        "Follow Branch",
        "Ctrl+Return",
        "Jump to the selected branch's target",
        menu="&Navigate",
        enabled=lambda s: s.branch,
    ),
    ActionSpec("focus_kernels", "Kernel List", "Ctrl+1", menu="&Navigate", section=1),
    ActionSpec("focus_filter", "Filter Kernels", "Ctrl+K", menu="&Navigate", section=1),
    ActionSpec("focus_source", "Source", "Ctrl+2", menu="&Navigate", section=1),
    ActionSpec("focus_sass", "SASS", "Ctrl+3", menu="&Navigate", section=1),
    ActionSpec(
        "focus_ptx",
        "PTX",
        "Ctrl+7",
        "nvcc's PTX of the kernel, in the SASS pane's place",
        menu="&Navigate",
        section=1,
    ),
    ActionSpec(
        "show_details",
        "Details",
        "Ctrl+4",
        "Why the kernel is slow: speed of light, stalls, occupancy, rules",
        menu="&Navigate",
        section=1,
        toolbar=3,
    ),
    ActionSpec(
        "show_roofline",
        "Roofline",
        "Ctrl+5",
        "Every kernel on the roofline; click a point to select its kernel",
        menu="&Navigate",
        section=1,
        toolbar=3,
    ),
    ActionSpec(
        "show_headroom",
        "Headroom",
        "Ctrl+6",
        "The microseconds each kernel could save, from the roofline and its operators",
        menu="&Navigate",
        section=1,
    ),
    ActionSpec(
        "timeline",
        "Ti&meline",
        "Ctrl+T",
        "Show the model's timeline: its kernel calls in time order",
    ),
    ActionSpec("reset_layout", "Reset Layout", menu="&View", section=1),
    ActionSpec(
        "nnfusion_command",
        "NNFusion &Command Line",
        tip="The NNFusion command line that uses the kernel DB correctly",
        menu="&View",
        section=2,
    ),
    ActionSpec(
        "nnfusion_coverage",
        "NNFusion C&overage",
        tip="What NNFusion looks up in the kernel DB for a model, and building what is missing",
        menu="&View",
        section=2,
    ),
    ActionSpec(
        "user_guide",
        "&User Guide",
        Std.HelpContents,
        "The user guide: the workflow, troubleshooting and the command line",
        menu="&Help",
    ),
    ActionSpec("about", "&About kernelscope", menu="&Help"),
)
