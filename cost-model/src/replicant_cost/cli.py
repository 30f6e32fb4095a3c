"""Command line: python -m replicant_cost {estimate,sensitivity,fig14,defaults} ..."""

from __future__ import annotations

import argparse
import sys

from . import __version__
from .api import run_text
from .errors import InputError

EPILOG = "Inputs are a JSON file (see cost-model/README.md and cost-model/examples/). Bad input exits with status 2 and a message."


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m replicant_cost", description="Cloud and development cost of Replicant per language, from the paper's capacities.", epilog=EPILOG)
    p.add_argument("--version", action="version", version=f"replicant_cost {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    helps = {
        "estimate": "clusters, instances and monthly/cumulative cloud, development and total cost per language, and the break-even month",
        "sensitivity": "move each input down and up by a percentage and rank inputs by how far they move the break-even month",
        "memory": "ample vs tight memory side by side per language at today's demand (inputs add other_memory.memory_to_data_ratio)",
        "instances": "each catalogue instance used whole: price per vCPU and per GiB, and per language instances and cloud a year at today's demand",
        "fig14": "the paper's notional Fig 14 model (paper factors plus labelled illustrative assumptions)",
        "defaults": "every default with its source",
    }
    for name, text in helps.items():
        s = sub.add_parser(name, help=text, description=text, epilog=EPILOG)
        s.add_argument("--input", "-i", metavar="FILE", required=name in ("estimate", "sensitivity", "memory", "instances"), help="inputs JSON file ('-' for standard input)")
        fmt = s.add_mutually_exclusive_group()
        fmt.add_argument("--format", choices=("json", "csv"), default="json", help="output format (default json)")
        fmt.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
        fmt.add_argument("--csv", dest="format", action="store_const", const="csv", help="same as --format csv")
        s.add_argument("--repo-root", metavar="DIR", help="directory holding data/ (default: this checkout)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.input is None:
            text = ""
        elif args.input == "-":
            text = sys.stdin.read()
        else:
            try:
                with open(args.input, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                raise InputError(f"cannot read {args.input}: {e.strerror}") from None
        out = run_text(args.command, text, args.format, args.repo_root)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return 0
