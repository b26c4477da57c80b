"""``spider-solve export``: the file frontends load, checked against the package's export.schema.json."""

import csv
import io
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from spider_solver.catalog import Catalog
from spider_solver.cli import cli
from spider_solver.export import FIELDS, schema_text
from spider_solver.record import SolveRecord
from spider_solver.rules import Deal

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads(schema_text())
SOLUTION = ("3>7", "D", "10>1/4", "2>9")


@pytest.fixture
def catalog(tmp_path) -> Path:
    """A catalog of every status, suit count and rule (constructed results: export does not replay)."""
    path = tmp_path / "catalog.sqlite"
    with Catalog(path) as db:
        db.record(SolveRecord("SP1-S1C-AAAAAAB", "verified", SOLUTION, moves=4, score=1296, nodes=800,
                              seconds=0.25, max_nodes=10_000, max_seconds=5.0, reason="won"))
        db.record(SolveRecord("SP1-S1C-AAAAAAA", "unknown", nodes=10_000, seconds=1.0, max_nodes=10_000,
                              max_seconds=None, reason="nodes"))
        db.record(SolveRecord("SP1-S2R-AAAAAAC", "unwinnable", nodes=77, seconds=0.1, max_nodes=10_000,
                              max_seconds=5.0, reason="exhausted"))
        db.record(SolveRecord("SP1-S4C-AAAAAAD", "verified", SOLUTION[:2], moves=2, score=1298, nodes=5,
                              seconds=0.5, max_nodes=10_000, max_seconds=5.0, reason="won"))
    return path


def export(catalog: Path, *args: str):
    result = CliRunner().invoke(cli, ["export", "--catalog", str(catalog), *args])
    assert result.exit_code == 0, result.output
    return result


def test_json_export_matches_the_schema(catalog):
    result = export(catalog)
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA, format_checker=jsonschema.FormatChecker())
    assert [item["code"] for item in data] == [
        "SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB", "SP1-S2R-AAAAAAC", "SP1-S4C-AAAAAAD",
    ]
    first_verified = data[1]
    assert {key: first_verified[key] for key in ("code", "suits", "rule", "deal", "status", "moves", "score",
                                                 "solution")} == {
        "code": "SP1-S1C-AAAAAAB", "suits": 1, "rule": "classic", "deal": 1, "status": "verified", "moves": 4,
        "score": 1296, "solution": list(SOLUTION),
    }
    assert (first_verified["max_nodes"], first_verified["max_seconds"], first_verified["nodes"]) == (10_000, 5.0, 800)
    assert data[0]["solution"] == [] and data[0]["moves"] is None and data[0]["max_seconds"] is None
    assert result.stderr == "exported 4 deals\n"


def test_export_schema_prints_the_shipped_schema_without_a_catalog(tmp_path):
    """--schema prints the package's schema and exits 0, before --catalog is opened (there is none)."""
    result = CliRunner().invoke(cli, ["export", "--catalog", str(tmp_path / "missing.sqlite"), "--schema"])
    assert result.exit_code == 0, result.output
    assert result.stdout == schema_text() and result.stderr == ""
    printed = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(printed)
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert not (tmp_path / "missing.sqlite").exists()


def test_the_schema_is_not_vacuous(catalog):
    """Items the schema must refuse: a verified deal without a line, a code of the wrong suit count."""
    item = json.loads(export(catalog).stdout)[1]
    validator = jsonschema.Draft202012Validator(SCHEMA)
    assert validator.is_valid([item])
    for broken in ({"solution": []}, {"moves": None}, {"suits": 2}, {"solution": ["3-7"]}, {"status": "won"},
                   {"code": "SP1-S1R-AAAAAAB"}):
        assert not validator.is_valid([item | broken]), broken
    assert not validator.is_valid([{key: value for key, value in item.items() if key != "score"}])


def test_jsonl_lines_are_schema_items(catalog):
    lines = export(catalog, "--format", "jsonl").stdout.splitlines()
    item_schema = {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": "#/$defs/deal"}
    assert len(lines) == 4
    for line in lines:
        jsonschema.validate(json.loads(line), item_schema)


def test_csv_has_the_same_columns_and_a_spaced_solution(catalog):
    rows = list(csv.DictReader(io.StringIO(export(catalog, "--format", "csv", "--status", "verified").stdout)))
    assert [row["code"] for row in rows] == ["SP1-S1C-AAAAAAB", "SP1-S4C-AAAAAAD"]
    assert rows[0]["solution"] == "3>7 D 10>1/4 2>9"
    assert (rows[0]["suits"], rows[0]["deal"], rows[0]["moves"], rows[0]["score"]) == ("1", "1", "4", "1296")
    assert list(rows[0])[:8] == ["code", "suits", "rule", "deal", "status", "moves", "score", "solution"]


def test_with_deck_each_deal_has_its_104_cards_in_deck_order_and_matches_the_schema(catalog):
    """RULES.md §9.1 From deal number to cards: the deck the code deals; its first 54 cards
    are the layout, the rest the stock, as a frontend lays them out without the shuffle."""
    data = json.loads(export(catalog, "--with-deck").stdout)
    jsonschema.validate(data, SCHEMA, format_checker=jsonschema.FormatChecker())
    assert len(data) == 4
    for item in data:
        deal = Deal.from_code(item["code"])
        assert item["deck"] == deal.text().split() and len(item["deck"]) == 104
        columns = [item["deck"][c:54:10] for c in range(10)]
        assert columns == [[str(card) for card in column] for column in deal.columns()]
    assert data[3]["deck"][:8] == ["8S", "QC", "4H", "JS", "7S", "TC", "4C", "AH"] and data[3]["deck"][-1] == "TS"
    # The deck is added, nothing else changes.
    plain = json.loads(export(catalog).stdout)
    assert [{key: value for key, value in item.items() if key != "deck"} for item in data] == plain
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for broken in (data[3]["deck"][:103], data[3]["deck"][:103] + ["8X"], data[3]["deck"] + ["AS"]):
        assert not validator.is_valid([data[3] | {"deck": broken}])


def test_with_deck_in_jsonl_and_csv(catalog):
    lines = [json.loads(line) for line in export(catalog, "--with-deck", "--format", "jsonl").stdout.splitlines()]
    assert [line["deck"] for line in lines] == [Deal.from_code(line["code"]).text().split() for line in lines]
    rows = list(csv.DictReader(io.StringIO(export(catalog, "--with-deck", "--format", "csv").stdout)))
    assert list(rows[0]) == [*FIELDS, "deck"]
    assert [row["deck"] for row in rows] == [Deal.from_code(row["code"]).text() for row in rows]


def test_without_the_deck_the_export_is_what_it_was(catalog):
    """No "deck" key, and the CSV's columns are the record's fields alone."""
    assert all("deck" not in item for item in json.loads(export(catalog).stdout))
    assert "deck" not in export(catalog, "--format", "jsonl").stdout
    header = export(catalog, "--format", "csv").stdout.splitlines()[0]
    assert header == ",".join(FIELDS) and not header.endswith("deck")


@pytest.mark.parametrize("args, codes", [
    (["--status", "verified"], ["SP1-S1C-AAAAAAB", "SP1-S4C-AAAAAAD"]),
    (["--suits", "1"], ["SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB"]),
    (["--suits", "1", "--rule", "relaxed"], ["SP1-S1C-AAAAAAA", "SP1-S1C-AAAAAAB"]),  # one suit is classic
    (["--rule", "relaxed"], ["SP1-S2R-AAAAAAC"]),
    (["--suits", "4", "--status", "unknown"], []),
])
def test_filters(catalog, args, codes):
    assert [item["code"] for item in json.loads(export(catalog, *args).stdout)] == codes


def test_output_file_is_written_whole(catalog, tmp_path):
    target = tmp_path / "deals.json"
    target.write_text("old export")
    result = export(catalog, "--status", "verified", "-o", str(target))
    assert result.stdout == ""
    assert result.stderr == f"exported 2 deals to {target}\n"
    assert len(json.loads(target.read_text())) == 2
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")] == []


def test_a_temporary_file_left_by_a_killed_export_is_removed_by_the_next(catalog, tmp_path):
    """kill -9 cannot be cleaned up after; the next export to the same file removes the
    temporary files whose writer is gone, and leaves a running writer's and other files'."""
    import os
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()
    orphan = tmp_path / f".deals.json.{gone}.abc123.tmp"
    running = tmp_path / f".deals.json.{os.getpid()}.def456.tmp"
    other = tmp_path / f".other.json.{gone}.ghi789.tmp"
    longer = tmp_path / f".deals.json.{gone}.{os.getpid()}.jkl012.tmp"  # a live export to deals.json.<gone>
    for path in (orphan, running, other, longer):
        path.write_text("half an export")
    result = export(catalog, "--status", "verified", "-o", str(tmp_path / "deals.json"))
    assert result.exit_code == 0, result.output
    assert not orphan.exists() and running.exists() and other.exists() and longer.exists()


def test_the_export_file_gets_the_usual_mode_not_the_temporary_ones(catalog, tmp_path):
    """mkstemp makes the temporary file private (0600); the export a web server is to read
    gets the mode any new file gets (0666 less the umask)."""
    umask = os.umask(0o022)
    try:
        target = tmp_path / "deals.json"
        export(catalog, "-o", str(target))
    finally:
        os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_empty_export_is_an_empty_list(tmp_path):
    Catalog(tmp_path / "empty.sqlite").close()
    assert json.loads(export(tmp_path / "empty.sqlite").stdout) == []


def test_write_export_refuses_an_unknown_format_and_writes_nothing():
    from spider_solver.errors import InvalidOptionError
    from spider_solver.export import write_export

    stream = io.StringIO()
    with pytest.raises(InvalidOptionError, match="unknown export format 'xml': expected one of json, jsonl, csv"):
        write_export([], stream, "xml")
    assert stream.getvalue() == ""
    with pytest.raises(TypeError, match=r"the export goes to a text stream open for writing .*, not str"):
        write_export([], "/tmp/deals.json")


def test_write_export_takes_records_or_their_plain_data_and_checks_the_plain_data():
    from spider_solver.export import write_export
    from spider_solver.record import InvalidRecordError, SolveRecord

    record = SolveRecord("SP1-S4C-AAAAAAD", "verified", ("1>2", "D"), moves=2, score=1298, max_nodes=100)
    by_record, by_data = io.StringIO(), io.StringIO()
    assert write_export([record], by_record, "jsonl") == write_export([record.to_dict()], by_data, "jsonl") == 1
    assert by_record.getvalue() == by_data.getvalue()
    with pytest.raises(InvalidRecordError, match="invalid action 7 in the line"):
        write_export([record.to_dict() | {"solution": [7], "moves": 1}], io.StringIO())


@pytest.mark.parametrize("args, message", [
    (["--catalog", "{missing}"], "error: no catalog at"),
    (["--catalog", "{text}"], "is not a spider-solver catalog"),
    (["--catalog", "{catalog}", "-o", "{tmp}/no/such/dir/out.json"], "error: no such directory"),
    (["--catalog", "{catalog}", "--format", "xml"], "error: invalid value for '--format'"),
    (["--catalog", "{catalog}", "-o", ""], "expected a file name, or '-' for standard output, got an empty one"),
    (["--catalog", "{catalog}", "-o", "{catalog}/out.json"], "error: not a directory: "),
    pytest.param(["--catalog", "{catalog}", "-o", "/dev/full"], "error: No space left on device: '/dev/full'",
                 marks=pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a full disk: Linux's /dev/full")),
    (["--catalog", "{catalog}", "-o", "{catalog}"], "'-o' / '--output': '{catalog}' is the catalog: export to another"),
    (["--catalog", "{catalog}", "-o", "{catalog}-wal"], "is the catalog's wal file: export to another file"),
    (["--catalog", "{catalog}", "-o", "{tmp}/link.json"], "is the catalog: export to another file"),
    (["--catalog", "{catalog}", "-o", "{tmp}/dangling.json"], "error: no such directory: '{tmp}/no/such'"),
])
def test_bad_input_exits_2_without_a_traceback(catalog, tmp_path, args, message):
    (tmp_path / "link.json").symlink_to(catalog)
    (tmp_path / "dangling.json").symlink_to(tmp_path / "no" / "such" / "out.json")
    before = Path(catalog).read_bytes()
    text = tmp_path / "notes.txt"
    text.write_text("these are notes, not a catalog\n" * 20)
    names = {"missing": tmp_path / "missing.sqlite", "text": text, "catalog": catalog, "tmp": tmp_path}
    result = CliRunner().invoke(cli, ["export", *[arg.format(**names) for arg in args]])
    assert result.exit_code == 2
    assert message.format(**names) in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""
    assert not (tmp_path / "missing.sqlite").exists()
    assert Path(catalog).read_bytes() == before and not Path(f"{catalog}-wal").exists()


@pytest.mark.parametrize("command", [["export"], ["check"], ["grade"], ["export", "--format", "csv"]])
def test_a_damaged_or_empty_catalog_is_one_error_line(damaged_catalog, tmp_path, command):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    for path, message in ((damaged_catalog, "cannot read catalog"), (empty, "is empty, not a spider-solver catalog")):
        result = CliRunner().invoke(cli, [*command, "--catalog", str(path)])
        assert result.exit_code == 2, result.output
        assert message in result.stderr and len(result.stderr.splitlines()) == 1
        assert "Traceback" not in result.output
    assert empty.stat().st_size == 0


def test_a_link_is_written_through_and_a_fifo_in_place(catalog, tmp_path, monkeypatch):
    """And signals are held only for a rename: a FIFO's reader that stops reading must
    not leave a Ctrl-C without effect."""
    from spider_solver.cli import catalogs

    holds: list[str] = []
    monkeypatch.setattr(catalogs, "hold_for_good", lambda: holds.append("held"))
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "deals.json"
    target.write_text("old export")
    link = tmp_path / "deals.json"
    link.symlink_to(target)
    export(catalog, "-o", str(link))
    assert link.is_symlink() and len(json.loads(target.read_text())) == 4
    assert holds == ["held"]

    fifo = tmp_path / "deals.fifo"
    os.mkfifo(fifo)
    read: list[str] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_text()))
    reader.start()
    export(catalog, "--format", "jsonl", "-o", str(fifo))
    reader.join(timeout=30)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and len(read[0].splitlines()) == 4
    assert holds == ["held"]  # not again for the FIFO


def test_dev_stdout_is_written_in_place(catalog):
    """``export -o /dev/stdout | ...``: the link leads to a pipe, not to a file that could be replaced."""
    done = subprocess.run([sys.executable, "-m", "spider_solver", "export", "--catalog", str(catalog), "--format",
                           "jsonl", "-o", "/dev/stdout"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 4 and done.stderr == "exported 4 deals to /dev/stdout\n"


def test_the_schema_names_every_status_and_reason():
    from spider_solver.outcomes import Reason, Status

    item = SCHEMA["$defs"]["deal"]["properties"]
    assert item["status"]["enum"] == [str(status) for status in Status]
    assert item["reason"]["enum"] == [str(reason) for reason in Reason]


def test_atomic_file_names_its_own_write_errors_only(tmp_path):
    """A write that fails is named as the file the user gave (not the temporary one); an
    error about another file, raised while writing, passes through as it was."""
    from spider_solver.export import atomic_file

    other = tmp_path / "other.txt"
    with pytest.raises(FileNotFoundError) as caught, atomic_file(tmp_path / "out.json"):
        open(other)  # noqa: SIM115 - the error is the point
    assert caught.value.filename == str(other)
    with pytest.raises(OSError, match="not writable") as unsupported, atomic_file(tmp_path / "out.json"):
        raise io.UnsupportedOperation("not writable")
    assert unsupported.value.errno is None
    assert not (tmp_path / "out.json").exists() and list(tmp_path.iterdir()) == []


def test_an_error_about_the_temporary_file_names_the_file_the_user_gave(tmp_path):
    import errno

    from spider_solver.export import atomic_file

    target = tmp_path / "out.json"
    with pytest.raises(OSError, match="No space left on device") as caught, atomic_file(target):
        temporary = next(tmp_path.glob(".out.json.*.tmp"))
        raise OSError(errno.ENOSPC, "No space left on device", str(temporary))
    assert caught.value.filename == str(target) and caught.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("when", ["while writing", "after the rename"])
def test_ctrl_c_stops_an_export_until_its_rename_and_not_after(catalog, tmp_path, monkeypatch, when):
    """Ctrl-C while the export is written stops it (130, no file, no temporary left);
    one that lands once the file is renamed into place changes nothing: the export is
    complete, so the command says so and exits 0."""
    from spider_solver import export as export_module

    def ctrl_c() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # delivered here unless held

    if when == "while writing":
        write = export_module.write_export

        def write_then_stop(*args, **kwargs):
            count = write(*args, **kwargs)
            ctrl_c()
            return count

        monkeypatch.setattr(export_module, "write_export", write_then_stop)
    else:
        replace = os.replace

        def replace_then_stop(*args, **kwargs):
            replace(*args, **kwargs)
            ctrl_c()

        monkeypatch.setattr(export_module.os, "replace", replace_then_stop)
    target = tmp_path / "deals.json"
    handler = signal.getsignal(signal.SIGINT)
    result = CliRunner().invoke(cli, ["export", "--catalog", str(catalog), "-o", str(target)])
    if when == "while writing":
        assert (result.exit_code, result.stderr) == (130, "interrupted\n")
        assert not target.exists()
    else:
        assert (result.exit_code, result.stderr) == (0, f"exported 4 deals to {target}\n")
        assert len(json.loads(target.read_text())) == 4
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")] == []
    assert signal.getsignal(signal.SIGINT) is handler  # put back


def test_holding_the_signals_puts_back_the_first_if_the_second_comes_between(monkeypatch):
    """A SIGTERM between the two handlers being set must not leave Ctrl-C dropped."""
    import spider_solver.stops as cli_module

    before = signal.getsignal(signal.SIGINT)
    real = signal.signal

    def the_second_interrupted(signum, handler):
        if signum == signal.SIGTERM and handler is cli_module._too_late:
            raise KeyboardInterrupt
        return real(signum, handler)

    monkeypatch.setattr(cli_module.signal, "signal", the_second_interrupted)
    with pytest.raises(KeyboardInterrupt):
        cli_module.hold_for_good()
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is before
