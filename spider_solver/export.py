"""The catalog as the file frontends load: JSON, JSON Lines or CSV.

Each deal is an object with ``code``, ``suits``, ``rule``, ``deal``, ``status``,
``moves``, ``score`` and ``solution`` (a list of action strings; in CSV one string,
space separated), then ``nodes``, ``seconds``, ``max_nodes``, ``max_seconds``,
``reason``, ``solver_version`` and ``solved_at``, then the grade of a verified deal:
``difficulty`` (1 very easy to 5 very hard), ``difficulty_raw`` and ``grader_version``
(null when not graded), then ``par`` (the score of the shortest known line of a verified
deal) and the record of ``spider-solve improve`` on that line (``improve_nodes``,
``improve_seconds``, ``improve_version``; null when none). The package's
``export.schema.json`` (JSON Schema, draft 2020-12; :func:`schema_text`, printed by
``spider-solve export --schema``) describes the JSON form; each JSON Lines line is one
of its items. With ``with_deck`` each deal also has ``deck``, its 104 cards in deck order
(RULES.md §9.1 From deal number to cards), for a frontend that lays out catalog deals
without porting the shuffle; without it the export is what it always was. Rows come
ordered by suit count, rule and deal number, and are written one at a time, so a catalog
of any size exports in little memory.
"""

from __future__ import annotations

import csv
import errno
import glob
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TextIO

from spider_solver.errors import InvalidOptionError, quote
from spider_solver.record import FIELD_NAMES, SolveRecord
from spider_solver.rules import Deal, GameCode

Format = Literal["json", "jsonl", "csv"]
FORMATS: tuple[Format, ...] = ("json", "jsonl", "csv")
#: The columns of the CSV form: the record's fields, in order (then ``deck``, with the deck).
FIELDS = FIELD_NAMES
#: The field ``with_deck`` adds: the deal's cards in deck order.
DECK = "deck"
SCHEMA_FILE = "export.schema.json"


def schema_text() -> str:
    """The JSON Schema (draft 2020-12) of the JSON export, as the package ships it."""
    return resources.files("spider_solver").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def write_export(entries: Iterable[SolveRecord | Mapping[str, Any]], stream: TextIO, fmt: Format = "json", *,
                 with_deck: bool = False) -> int:
    """Write ``entries`` (records, or their plain-data form, read by
    :meth:`SolveRecord.from_dict`) to ``stream``, a text stream open for writing, in
    ``fmt``; returns how many were written. ``with_deck`` adds ``deck``, each deal's 104
    cards in deck order in short text form (in CSV one space-separated string, the last
    column). An unknown format is an :class:`~spider_solver.errors.InvalidOptionError`,
    before anything is written."""
    if fmt not in FORMATS:
        raise InvalidOptionError(f"unknown export format {quote(fmt)}: expected one of {', '.join(FORMATS)}")
    if not callable(getattr(stream, "write", None)):
        raise TypeError(f"the export goes to a text stream open for writing (open(path, 'w'), sys.stdout), "
                        f"not {type(stream).__name__}")
    rows = (entry.to_dict() if isinstance(entry, SolveRecord) else SolveRecord.from_dict(entry).to_dict()
            for entry in entries)
    if with_deck:
        rows = (row | {DECK: deck_of(row["code"])} for row in rows)
    count = 0
    if fmt == "json":  # "[" goes out with the first row: a catalog that fails to read prints nothing
        for count, row in enumerate(rows, 1):
            stream.write(("[\n" if count == 1 else ",\n") + json.dumps(row, ensure_ascii=False))
        stream.write("\n]\n" if count else "[]\n")
    elif fmt == "jsonl":
        for row in rows:
            stream.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    else:
        fields = (*FIELDS, DECK) if with_deck else FIELDS
        writer = csv.DictWriter(stream, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            count += 1
            row["solution"] = " ".join(row["solution"])
            if with_deck:
                row[DECK] = " ".join(row[DECK])
            writer.writerow({name: "" if row[name] is None else row[name] for name in fields})
    return count


def deck_of(code: str) -> list[str]:
    """The cards of a game code in deck order, short text form (``["8S", "QC", ...]``)."""
    return [str(card) for card in GameCode.parse(code).deck()]


def deal_json(deal: Deal) -> dict[str, Any]:
    """The JSON form of a deal's initial layout; face-down cards carry ``"face_up": false``."""
    columns = deal.columns()
    return {
        "code": str(deal.code) if deal.code else None,
        "suits": deal.variant.suits,
        "rule": deal.variant.rule,
        "deal": deal.code.number if deal.code else None,
        "deck": [str(card) for card in deal.cards],
        "columns": [
            [{"card": str(card), "face_up": i == len(column) - 1} for i, card in enumerate(column)]
            for column in columns
        ],
        "stock": [str(card) for card in deal.stock()],
    }


def _naming(error: OSError, path: str | os.PathLike, temporary: str | None) -> OSError:
    """A failed write of the export, named as the file the user gave; any other error
    (one about another file, or without an errno) as it was."""
    if error.errno is None or error.filename not in (None, temporary):
        return error
    return type(error)(error.errno, error.strerror, str(path))


def written_in_place(path: str | os.PathLike) -> bool:
    """True for a FIFO, a device or the like (``/dev/stdout``): :func:`atomic_file`
    writes those in place, since renaming over one would replace it by a file."""
    return os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path)


def _remove_orphans(target: Path) -> None:
    """Remove the temporary files of ``target`` whose writer (the process id in the name)
    is no longer running on this machine."""
    name = re.compile(re.escape(f".{target.name}.") + r"([0-9]+)\.[a-z0-9_]+\.tmp")  # mkstemp's letters
    for entry in target.parent.glob(glob.escape(f".{target.name}.") + "*.tmp"):
        match = name.fullmatch(entry.name)  # not the file of a target whose name goes on: out.json.1
        if match is None or _running(int(match.group(1))):
            continue
        with suppress(OSError):
            entry.unlink()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's process; a number no process has
        return True
    return True


@contextmanager
def atomic_file(path: str | os.PathLike) -> Iterator[TextIO]:
    """A text file written beside ``path`` and renamed over it only when complete,
    so a frontend never loads half an export. A symbolic link is written through (the
    file it points to is replaced, the link stays); a FIFO or a device is written in
    place, since renaming over it would replace it by a file. The temporary file's name
    holds the writer's process id: one left by a writer that was killed (``kill -9``
    cannot be cleaned up after) is removed by the next export to the same file."""
    if written_in_place(path):
        try:
            with open(path, "w", encoding="utf-8", newline="") as stream:  # /dev/stdout, a FIFO, a device
                yield stream
        except OSError as error:  # /dev/full: name the file, as for any other
            raise _naming(error, path, None) from None
        return
    target = Path(os.path.realpath(path))
    if not target.parent.is_dir():
        parent = str(target.parent if os.path.islink(path) else Path(path).parent)  # a link's target's folder
        if target.parent.exists():
            raise NotADirectoryError(errno.ENOTDIR, "not a directory", parent)
        raise FileNotFoundError(errno.ENOENT, "no such directory", parent)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    _remove_orphans(target)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp",
                                             dir=target.parent)
    except OSError as error:  # name the file the user gave, not the temporary one
        raise OSError(error.errno, f"cannot write a file beside it ({error.strerror})", str(path)) from None
    try:
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                yield stream
        except OSError as error:  # a full disk: name the file the user gave, not the temporary one
            raise _naming(error, path, temporary) from None
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp made it private; give it the usual mode
        os.replace(temporary, target)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
