"""``kernelscope share``: a profile (with its sources, SASS, Details, roofline and, against a
baseline, the comparison) as one self-contained web page to attach to an issue or a CI run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..formatting import format_bytes
from ..share import DEFAULT_TOP, share_page
from ..view import open_document
from .progress import TerminalProgress


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "share",
        help="write a profile as one self-contained web page (kernel list, source beside SASS "
        "with per-line metrics, hot lines, Details, roofline; --baseline: the comparison)",
        description="Write one HTML file that opens in any browser, from disk, with no "
        "network: for an issue, a review or a CI artifact. Paths are shown relative to the "
        "workspace or as bare file names unless --keep-paths.",
    )
    p.add_argument(
        "input",
        type=Path,
        metavar="INPUT",
        help="a workspace (its newest attached report), an .ncu-rep or CSV export, or a "
        "torch.compile run folder",
    )
    p.add_argument(
        "-o", "--output", type=Path, required=True, metavar="PAGE.html", help="the page to write"
    )
    p.add_argument(
        "--baseline",
        type=Path,
        metavar="B",
        help="compare with this profile (report, CSV export or workspace), as kernelscope diff",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--kernels", metavar="RE", help="the kernels whose source and SASS the page holds"
    )
    which.add_argument(
        "--top",
        type=int,
        metavar="N",
        help=f"the N slowest kernels' source and SASS (default {DEFAULT_TOP})",
    )
    p.add_argument(
        "--keep-paths",
        action="store_true",
        help="show the files' absolute paths (by default: relative to the workspace, or names)",
    )
    p.set_defaults(func=_share)


def _share(args: argparse.Namespace) -> int:
    progress = TerminalProgress(quiet_when_piped=True)
    session = open_document(args.input)
    for note in session.document.notes:
        print(f"kernelscope: warning: {note}", file=sys.stderr)
    baseline = open_document(args.baseline) if args.baseline is not None else None
    page = share_page(
        session,
        args.output,
        baseline=baseline,
        pattern=args.kernels,
        top=args.top,
        keep_paths=args.keep_paths,
        progress=progress,
    )
    print(
        f"wrote {page.path} ({format_bytes(page.size)}): {len(page.kernels)} kernels' source "
        "and SASS"
    )
    return 0
