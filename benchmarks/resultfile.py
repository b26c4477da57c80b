"""Result files of the benchmarks: one JSON file a run, under ``benchmarks/results/``.

A result file holds where and when its figures were measured, the command that
reproduces them and its tables::

    {
      "benchmark": "bench_solve",
      "command": "python benchmarks/bench_solve.py --suits 4 ...",
      "date": "2026-12-01T07:45:00Z",          # UTC
      "commit": "26b6c0d...",                   # git rev-parse HEAD, or null if not known
      "modified": false,                        # spider_solver/ differed from that commit
      "machine": {"platform": "...", "cpu": "...", "cores": 2},
      "source": "...",                          # optional: where figures not measured by the script came from
      "note": "...",                            # optional
      "tables": {"NAME": {"columns": [[KEY, LABEL, FORMAT], ...], "rows": [{KEY: VALUE, ...}, ...]}}
    }

Values are numbers (or strings, lists); FORMAT says how a table shows them (see
:func:`cell`). The scripts print their tables with :func:`markdown`, and
``benchmarks/report.py`` builds docs/performance.md from the same files with it, so a
table is written once. No numpy, no numba: the docs' tests import this module.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def machine() -> dict[str, Any]:
    """The platform, the CPU model (from /proc/cpuinfo where there is one) and the cores."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count()}


def commit() -> str | None:
    """``git rev-parse HEAD`` of the checkout the benchmarks run from, or None outside git."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip() or None


def modified() -> bool | None:
    """Whether spider_solver/ differs from HEAD (the figures are then not that commit's), or None outside git."""
    try:
        done = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "spider_solver"], cwd=ROOT, check=False)
    except OSError:
        return None
    return {0: False, 1: True}.get(done.returncode)


def add_out_option(parser: argparse.ArgumentParser, name: str) -> None:
    """``--out PATH``: the result file, by default ``benchmarks/results/{name}.json``
    (the name may hold ``{suits}``-style fields of the parsed arguments)."""
    parser.add_argument("--out", default=str(RESULTS / f"{name}.json"),
                        help="Write the result file here (default: %(default)s); '-' for none.")


def deal_range(text: str) -> tuple[int, int]:
    """An argparse ``type``: ``FIRST-LAST``, a range of deal numbers, as ``(first, last)``."""
    first, dash, last = text.partition("-")
    if not (dash and first.isdigit() and last.isdigit() and int(first) <= int(last)):
        raise argparse.ArgumentTypeError(f"expected FIRST-LAST, two deal numbers, the first not above the last; "
                                         f"got {text!r}")
    return int(first), int(last)


def need_files(parser: argparse.ArgumentParser, names: list[str], what: str = "file") -> list[Path]:
    """The paths of ``names``; an argparse error naming those that are not files."""
    missing = [name for name in names if not Path(name).is_file()]
    if missing:
        parser.error(f"no such {what}: {', '.join(missing)}")
    return [Path(name) for name in names]


def out_path(args: argparse.Namespace) -> Path | None:
    """The result file that ``args.out`` names, its ``{fields}`` filled from the arguments."""
    if args.out == "-":
        return None
    return Path(args.out.format(**vars(args)))


def table(columns: list[tuple[str, str, str]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"columns": [list(column) for column in columns], "rows": rows}


def write(args: argparse.Namespace, benchmark: str, tables: dict[str, dict[str, Any]], **extra: Any) -> Path | None:
    """Write the result file of this run (see the module's docstring) to ``--out``; returns its path."""
    path = out_path(args)
    if path is None:
        return None
    record: dict[str, Any] = {
        "benchmark": benchmark,
        "command": "python " + shlex.join([os.path.relpath(sys.argv[0], ROOT), *sys.argv[1:]]),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit(),
        "modified": modified(),
        "machine": machine(),
        **extra,
        "tables": tables,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(record), encoding="utf-8")
    print(f"\nwrote {path}", file=sys.stderr)
    return path


def dumps(record: dict[str, Any]) -> str:
    """A result file's text: one key a line, and each column and row of a table on one line."""

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in record.items():
        if key != "tables":
            lines.append(f"  {one(key)}: {one(value)},")
    lines.append('  "tables": {')
    for n, (name, tab) in enumerate(record["tables"].items()):
        lines.append(f"    {one(name)}: {{")
        lines.append('      "columns": [')
        lines.append(",\n".join(f"        {one(column)}" for column in tab["columns"]))
        lines.append("      ],")
        lines.append('      "rows": [')
        lines.append(",\n".join(f"        {one(row)}" for row in tab["rows"]))
        lines.append("      ]")
        lines.append("    }" + ("," if n < len(record["tables"]) - 1 else ""))
    lines.append("  }")
    return "{\n" + "\n".join(line for line in lines if line) + "\n}\n"


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def cell(value: Any, fmt: str) -> str:
    """A value as a table shows it. FORMAT: ``""`` as it is (``g`` for numbers), ``int``
    (1,234), ``k`` / ``M`` (thousands / millions, ``k1`` / ``M2`` with decimals), ``%``
    (a share 0-1 as a percentage, one decimal), ``s`` (a duration in seconds as ``2 min 5 s``),
    or a Python format spec such as ``.3f``. None shows as a dash."""
    if value is None:
        return "-"
    if isinstance(value, list):
        return " / ".join(cell(v, fmt) for v in value)
    if isinstance(value, str):
        return value
    if fmt == "":
        return f"{value:g}" if isinstance(value, float) else str(value)
    if fmt == "int":
        return f"{value:,.0f}"
    if fmt[0] in "kM" and (fmt[1:].isdigit() or fmt[1:] == ""):
        scale = 1e3 if fmt[0] == "k" else 1e6
        return f"{value / scale:,.{int(fmt[1:] or 0)}f}{fmt[0]}"
    if fmt == "%":
        return f"{100 * value:.1f}%"
    if fmt == "s":
        minutes, seconds = divmod(round(value), 60)
        return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"
    return format(value, fmt)


def header(columns: list[tuple[str, str, str]]) -> str:
    """The first two lines of a Markdown table of these columns."""
    return "| " + " | ".join(label for _, label, _ in columns) + " |\n|" + "---|" * len(columns)


def line(columns: list[tuple[str, str, str]], row: dict[str, Any]) -> str:
    """One row of a Markdown table of these columns (a missing value shows as a dash)."""
    return "| " + " | ".join(cell(row.get(key), fmt) for key, _, fmt in columns) + " |"


def markdown(tab: dict[str, Any], extra: list[tuple[str, str, str]] | None = None,
             rows: list[dict[str, Any]] | None = None) -> str:
    """The Markdown table of ``tab`` (its columns, then ``extra`` columns; its rows unless
    ``rows`` are given)."""
    columns = [(c[0], c[1], c[2]) for c in tab["columns"]] + list(extra or [])
    return "\n".join([header(columns), *(line(columns, row) for row in (tab["rows"] if rows is None else rows))])
