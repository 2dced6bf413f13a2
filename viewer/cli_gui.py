"""``kernelscope gui [PATH]``, also reached as ``kernelscope PATH`` with no subcommand, and as
``kernelscope`` alone (the window on its welcome page).

The viewer (and Qt) is imported only when this command runs, so the other subcommands
work on machines without Qt or a display.
"""

from __future__ import annotations

import argparse

DIALOGS = ("about", "user-guide")  # the Help menu's windows (viewer.app.DIALOG_SIZES)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "gui",
        help="open the viewer (also: kernelscope PATH) on a workspace, report or model; "
        "without PATH (also: kernelscope alone) on its welcome page",
    )
    p.add_argument(
        "path", nargs="?", help="a workspace folder, .ncu-rep or CSV export, or a model to build"
    )
    p.add_argument(
        "--screenshot",
        metavar="PNG",
        help="render the window offscreen into this PNG file and exit",
    )
    p.add_argument(
        "--baseline",
        metavar="BASE",
        help="compare PATH with this baseline (a report, CSV export or workspace)",
    )
    p.add_argument(
        "--ranking",
        choices=("regressions", "improvements"),
        help="with --baseline: the hot-lines panel lists the biggest regressions or improvements",
    )
    p.add_argument("--kernel", help="select this kernel (its name or a unique part of it)")
    p.add_argument("--line", type=int, help="select this line of the kernel's source")
    p.add_argument(
        "--pane",
        choices=(
            "details",
            "roofline",
            "headroom",
            "kernel-db",
            "nnfusion-command",
            "nnfusion-coverage",
            "ptx",
        ),
        help="show this pane (with --screenshot, details, roofline and headroom render alone); "
        "kernel-db, nnfusion-command and nnfusion-coverage raise that Kernel DB tab; ptx "
        "raises the PTX tab in the SASS pane's place",
    )
    p.add_argument(
        "--palette",
        choices=("light", "dark"),
        help=(
            "Fusion style with a light or dark palette (default: View > Palette's choice; "
            "a screenshot: the desktop's)"
        ),
    )
    p.add_argument("--db", metavar="DB", help="the kernel DB the Kernel DB dock shows")
    p.add_argument(
        "--nnfusion-model", metavar="ONNX", help="show this model's NNFusion coverage of the DB"
    )
    p.add_argument(
        "--dialog",
        choices=DIALOGS,
        help="open Help > About or Help > User Guide over the window; with --screenshot, "
        "render only that dialog",
    )
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    if not args.screenshot:
        _check_display()
    from .app import run

    return run(
        args.path,
        screenshot_to=args.screenshot,
        kernel=args.kernel,
        line=args.line,
        palette=args.palette,
        pane=args.pane,
        db=args.db,
        nnfusion_model=args.nnfusion_model,
        baseline=args.baseline,
        ranking=args.ranking,
        dialog=args.dialog,
    )


def _check_display() -> None:
    """Refuse, with what to do, to open a window where none can open: Qt would abort the
    process with a core dump ("could not connect to display") instead of an error."""
    from kernelscope.core.environment import display_problem

    problem = display_problem()
    if problem is not None:
        raise problem
