"""``kernelscope doctor``: what is installed, what is missing and what to do about it."""

from __future__ import annotations

import argparse
import json

from ..environment import installed_facts, missing_packages
from ..paths import log_file


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser(
        "doctor",
        help="report what kernelscope found (TVM, the NVIDIA tools, a GPU, the libraries the "
        "window needs) and what to do about what is missing",
    )
    d.add_argument("--json", action="store_true", help="print the rows as JSON")
    d.add_argument(
        "--missing-packages",
        action="store_true",
        help="print only the Debian packages that would bring what is missing (one line, "
        "for: apt-get install $(kernelscope doctor --missing-packages))",
    )
    d.set_defaults(func=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    if args.missing_packages:
        print(" ".join(missing_packages()))
        return 0
    facts = installed_facts()
    if args.json:
        rows = [{"tool": f.name, "detail": f.location or f.hint, **f.as_dict()} for f in facts]
        print(json.dumps(rows, indent=1))
    else:
        name_w = max(len(f.name) for f in facts)
        status_w = max(len(f.status) for f in facts)
        for f in facts:
            print(f"{f.name:{name_w}}  {f.status:{status_w}}  {f.location or f.hint}")
        print(f"\nThe window's log (attach it to a bug report): {log_file()}")
    return 1 if any(f.required and not f.found for f in facts) else 0
