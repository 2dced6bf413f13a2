"""Write docs/cli.md, the command-line reference, from kernelscope's argument parser.

    python docs/make_cli_reference.py          # rewrite docs/cli.md
    python docs/make_cli_reference.py --check  # exit 1 when docs/cli.md is stale

The text is rendered here from the parser's actions (not argparse's help output, which
changes with the terminal width and the Python version).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kernelscope.core.cli.main import make_parser

OUT = Path(__file__).resolve().parent / "cli.md"

HEADER = """\
# Command-line reference

Generated from kernelscope's argument parser by `python docs/make_cli_reference.py`; do not
edit by hand (`tests/docs/test_docs_cli.py` fails when this file is stale). `kernelscope PATH`
with no command opens the window on PATH (the `gui` command), and `kernelscope` alone opens
it on its welcome page. Commands that list things take `--json`. Errors are printed as
`kernelscope: error: MESSAGE` with a `hint:` line and exit with status 1 (130 when
interrupted); see [troubleshooting](troubleshooting.md).
"""


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def _metavar(action: argparse.Action) -> str:
    if action.nargs == 0:
        return ""
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices is not None:
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    return action.dest.upper() if action.option_strings else action.dest


def _usage(name: str, parser: argparse.ArgumentParser) -> str:
    parts = [f"kernelscope {name}"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            parts.append("{" + ",".join(action.choices) + "} ...")
            continue
        metavar = _metavar(action)
        if action.option_strings:
            text = action.option_strings[-1] + (f" {metavar}" if metavar else "")
            parts.append(text if action.required else f"[{text}]")
        elif action.nargs in ("?", "*"):
            parts.append(f"[{metavar}]")
        else:
            parts.append(metavar)
    return " ".join(parts)


def _default(action: argparse.Action) -> str:
    default = action.default
    if default is None or default is False or default == [] or default == argparse.SUPPRESS:
        return ""
    if action.nargs == 0:
        return ""
    return f" (default: `{default}`)"


def _row(action: argparse.Action) -> str:
    metavar = _metavar(action)
    if action.option_strings:
        names = ", ".join(f"`{o}{' ' + metavar if metavar else ''}`" for o in action.option_strings)
    else:
        names = f"`{metavar}`"
    help_text = (action.help or "").replace("|", "\\|").replace("\n", " ")
    # "<date>" would be an HTML tag to GitHub and Qt (Help > User Guide): shown as written
    help_text = help_text.replace("<", "&lt;").replace(">", "&gt;")
    if "%(default)" in help_text:
        help_text = help_text % {"default": action.default}
    elif "default" not in help_text:
        help_text += _default(action)
    if action.choices is not None and action.option_strings and "{" not in metavar:
        help_text += " (one of: " + ", ".join(f"`{c}`" for c in action.choices) + ")"
    return f"| {names} | {help_text.strip()} |"


def _anchor(name: str) -> str:
    return "kernelscope-" + name.replace(" ", "-")


def _commands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(full name, help, parser) of every command, nested ones (``db list``) after theirs."""
    sub = _subparsers(parser)
    if sub is None:
        return []
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    out = []
    for name, command in sub.choices.items():
        full = f"{prefix}{name}"
        out.append((full, helps.get(name, ""), command))
        out.extend(_commands(command, full + " "))
    return out


def _section(name: str, help_text: str, command: argparse.ArgumentParser) -> list[str]:
    lines = ["", f"## kernelscope {name}", "", help_text, ""]
    if command.description:
        lines += [command.description, ""]
    lines += ["```", _usage(name, command), "```"]
    actions = [
        a
        for a in command._actions
        if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)
    ]
    if actions:
        lines += ["", "| argument | meaning |", "| --- | --- |", *(_row(a) for a in actions)]
    return lines


def render(parser: argparse.ArgumentParser | None = None) -> str:
    commands = _commands(parser or make_parser())
    lines = [HEADER, "| command | what it does |", "| --- | --- |"]
    for name, help_text, _ in commands:
        lines.append(f"| [`{name}`](#{_anchor(name)}) | {help_text} |")
    for name, help_text, command in commands:
        lines += _section(name, help_text, command)
    # defaults computed from the user's home (the kernel DB's path) read the same everywhere
    return ("\n".join(lines).rstrip() + "\n").replace(str(Path.home()), "~")


def main(argv: list[str]) -> int:
    text = render()
    if argv == ["--check"]:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python docs/make_cli_reference.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
