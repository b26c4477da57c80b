"""The show and replay commands, driven through click's CliRunner."""

import json
import os
import shlex
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from spider_solver.cli import cli
from spider_solver.rules.cards import format_cards
from spider_solver.rules.deal import Deal
from tests.rules.scripted_win import DECK_TEXT, WIN, WIN_TEXT, WITH_UNDOS

CODE = "SP1-S4C-AAAAAAD"
REPLAY_FIELDS = {"code", "won", "moves", "score", "runs_removed", "stock_left", "error"}


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def assert_no_traceback(result):
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# -- show -------------------------------------------------------------------------


def test_show_draws_the_layout():
    result = run("show", "sp1-s4c-aaaaaad")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "SP1-S4C-AAAAAAD  (4 suits, classic)"
    assert lines[1] == "   1   2   3   4   5   6   7   8   9  10"
    assert lines[6] == "  ##  ##  ##  ##  9♦  A♦  4♠  3♠  8♦  5♦"
    assert lines[7] == "  2♣  6♠  Q♦  9♠"
    assert lines[8] == "stock 50 (5 deals)  runs removed: none  score 500  moves 0"
    assert result.stderr == ""


def test_show_canonicalises_the_code():
    result = run("show", " SP1-S1R-AAAAAAD ")
    assert result.exit_code == 0
    assert result.stdout.startswith("SP1-S1C-AAAAAAD  (1 suit, classic)\n")


def test_show_deck_prints_the_104_cards_on_one_line():
    result = run("show", CODE, "--deck")
    assert result.exit_code == 0
    assert result.stdout.count("\n") == 1
    cards = result.stdout.split()
    assert len(cards) == 104
    assert cards[:16] == ["8S", "QC", "4H", "JS", "7S", "TC", "4C", "AH", "JC", "9D", "AC", "3C", "AS", "5C", "TH", "4D"]
    assert cards[-1] == "TS"


def test_show_json():
    result = run("show", CODE, "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == {"code", "suits", "rule", "deal", "deck", "columns", "stock"}
    assert (data["code"], data["suits"], data["rule"], data["deal"]) == (CODE, 4, "classic", 3)
    deal = Deal.from_code(CODE)
    assert data["deck"] == [str(card) for card in deal.cards]
    assert data["stock"] == data["deck"][54:]
    assert [len(column) for column in data["columns"]] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    # Face-down cards are marked; only the last card of each column is face up.
    assert sum(not card["face_up"] for column in data["columns"] for card in column) == 44
    for c, column in enumerate(data["columns"]):
        assert [card["face_up"] for card in column] == [False] * (len(column) - 1) + [True]
        assert [card["card"] for card in column] == data["deck"][c:54:10]


def test_show_describe():
    result = run("show", CODE, "--describe")
    assert result.exit_code == 0
    assert result.stdout.startswith("Stock: 50 cards, 5 deals left; no run removed. Column 1: 5 face down, then 2♣; ")
    assert result.stdout.endswith("Column 10: 4 face down, then 5♦.\n")


@pytest.mark.parametrize(
    "code, words",
    [
        ("SP2-S4C-AAAAAAD", "unknown format 'SP2', expected 'SP1'"),
        ("SP1-S3C-AAAAAAD", "suit count '3' in 'S3C' must be 1, 2 or 4"),
        ("SP1-S4X-AAAAAAD", "rule letter 'X' in 'S4X' must be C (Classic) or R (Relaxed)"),
        ("SP1-S4C-AAAAAA1", "'1' is not a base32 character (A-Z, 2-7)"),
        ("SP1-S4C-AAAA", "expected 7 base32 characters, got 4"),
        ("hello", "expected three parts like SP1-S4C-AAAAAAD"),
    ],
)
def test_show_bad_code(code, words):
    for flags in ([], ["--json"], ["--deck"]):
        result = run("show", code, *flags)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr.startswith(f"error: invalid game code {code!r}: ")
        assert result.stderr.count("\n") == 1
        assert words in result.stderr
        assert_no_traceback(result)


def test_show_takes_one_form():
    result = run("show", CODE, "--json", "--deck")
    assert result.exit_code == 2 and "--deck and --json are different forms" in result.stderr


def test_show_needs_a_code():
    result = run("show")
    assert result.exit_code == 2
    assert "error: missing argument 'CODE'" in result.stderr


# -- replay -----------------------------------------------------------------------


def replay_json(*args, input=None):
    result = run("replay", *args, "--json", input=input)
    assert_no_traceback(result)
    data = json.loads(result.stdout)
    assert set(data) == REPLAY_FIELDS
    return result.exit_code, data


def test_replay_a_win_exits_0():
    status, data = replay_json("--deck", DECK_TEXT, "--suits", "1", *WIN)
    assert status == 0
    assert data == {"code": None, "won": True, "moves": 117, "score": 1183, "runs_removed": 8, "stock_left": 0,
                    "error": None}


def test_replay_a_win_in_words():
    result = run("replay", "--deck", DECK_TEXT, "--suits", "1", WIN_TEXT)
    assert result.exit_code == 0
    assert result.stdout == "won: 117 moves, score 1183, 8 runs removed, 0 cards in stock\n"


def test_replay_a_game_log_with_undos():
    status, data = replay_json("--deck", DECK_TEXT, "--suits", "1", " ".join(WITH_UNDOS))
    assert status == 0
    assert (data["moves"], data["score"]) == (117, 1183)


def test_replay_a_legal_log_that_does_not_win_exits_1():
    status, data = replay_json(CODE, "9>4", "D")
    assert status == 1
    assert data == {"code": CODE, "won": False, "moves": 2, "score": 498, "runs_removed": 0, "stock_left": 40,
                    "error": None}
    result = run("replay", CODE)
    assert result.exit_code == 1
    assert result.stdout == "not won: 0 moves, score 500, 0 runs removed, 50 cards in stock\n"


def test_replay_a_refused_action_exits_2_with_its_index_action_and_message():
    status, data = replay_json(CODE, "9>4", "D", "1>2")
    assert status == 2
    assert data["error"] == {
        "index": 2, "action": "1>2",
        "message": "cannot play '1>2': nothing in column 1 fits onto 8♥: a group going there must start with a "
                   "face-up 7 and go down one rank at a time to the last card",
    }
    assert (data["moves"], data["won"]) == (2, False)
    result = run("replay", CODE, "9>4", "D", "1>2")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: action 3 (index 2: '1>2') refused: cannot play '1>2': ")


def test_replay_bad_notation_exits_2():
    status, data = replay_json(CODE, "D", "3-5")
    assert status == 2
    assert data["error"] == {"index": 1, "action": "3-5",
                             "message": "invalid action '3-5': expected D, U, F>T or F>T/N (for example 3>7 or 2>5/3)"}


def test_replay_from_a_file(tmp_path):
    log = tmp_path / "game.txt"
    log.write_text("\n".join(", ".join(WIN[i : i + 10]) for i in range(0, 117, 10)) + "\n", encoding="utf-8")
    status, data = replay_json("--deck", DECK_TEXT, "--suits", "1", "--file", str(log))
    assert (status, data["moves"], data["score"]) == (0, 117, 1183)
    # Actions on the line come first, then the file's.
    rest = tmp_path / "rest.txt"
    rest.write_text(" ".join(WIN[5:]), encoding="utf-8")
    status, data = replay_json("--deck", DECK_TEXT, "--suits", "1", *WIN[:5], "--file", str(rest))
    assert (status, data["score"]) == (0, 1183)
    # '-' reads standard input.
    status, data = replay_json("--deck", DECK_TEXT, "--suits", "1", "--file", "-", input=WIN_TEXT)
    assert status == 0


def test_replay_a_file_that_starts_with_a_byte_order_mark(tmp_path):
    log = tmp_path / "notepad.txt"
    log.write_bytes("\ufeff".encode() + " ".join(WIN).encode())
    status, data = replay_json("--deck", DECK_TEXT, "--suits", "1", "--file", str(log))
    assert (status, data["moves"], data["error"]) == (0, 117, None)


@pytest.mark.parametrize("command", ["replay", "verify", "hint"])
def test_suits_or_rule_with_a_code_is_refused_not_ignored(command):
    result = run(command, CODE, "--suits", "2", "--rule", "relaxed")
    assert result.exit_code == 2 and "--suits and --rule are for an explicit --deck" in result.stderr
    assert_no_traceback(result)


def test_a_closed_pipe_ends_quietly():
    """``spider-solve show CODE | head -1``: the reader is gone before the output is written."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "spider_solver", "show", CODE], stdout=write,
                              stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 1 and done.stderr == b""


@pytest.mark.parametrize("args", [["replay", CODE, "9>4", "1>2"], ["replay", CODE, "9>4", "1>2", "--json"],
                                  ["analyze", CODE, "9>4", "1>2", "--json"]])
def test_a_refused_action_is_said_when_the_reader_is_gone(args):
    """``spider-solve replay CODE LOG | head -0``: the output is lost, the refusal is not."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "spider_solver", *args], stdout=write,
                              stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 1
    assert done.stderr.decode().startswith("error: action 2 (index 1: '1>2') refused: "), done.stderr


def spider_solve(*args: str, shell_suffix: str = "", **env: str) -> subprocess.CompletedProcess:
    """The real ``spider-solve`` process (as ``python -m spider_solver``), its standard
    streams redirected by ``shell_suffix`` (``>&-`` closes standard output)."""
    command = " ".join(["exec", '"$0"', "-m", "spider_solver", *map(shlex.quote, args), shell_suffix])
    return subprocess.run(["sh", "-c", command, sys.executable], capture_output=True, timeout=120,
                          env={**os.environ, **env})


def test_an_output_encoding_without_the_suit_symbols_writes_their_escapes():
    """A latin-1 or cp437 terminal: the symbols become ``\\u2660`` (which JSON reads back as
    ♠), never a UnicodeEncodeError traceback."""
    done = spider_solve("show", CODE, PYTHONIOENCODING="latin-1")
    assert done.returncode == 0 and done.stderr == b"" and b"\\u2660" in done.stdout
    done = spider_solve("replay", CODE, "2>1", "--json", PYTHONIOENCODING="cp437")
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert "6♠ cannot go onto 2♣" in json.loads(done.stdout)["error"]["message"]
    done = spider_solve("replay", CODE, "xé😀", "--json", PYTHONIOENCODING="latin-1")  # é in latin-1, 😀 not
    assert done.returncode == 2 and json.loads(done.stdout)["error"]["action"] == "xé😀"


@pytest.mark.parametrize("args", [["show", CODE], ["show", CODE, "--json"], ["-V"]])
def test_a_closed_standard_output_is_an_error_that_says_so(args):
    """``spider-solve show CODE >&-``: not an AttributeError traceback, not silence."""
    done = spider_solve(*args, shell_suffix=">&-")
    assert (done.returncode, done.stderr) == (2, b"error: standard output is closed\n")


@pytest.mark.parametrize("redirect", ["2>&-", pytest.param("2>/dev/full", marks=pytest.mark.skipif(
    not os.path.exists("/dev/full"), reason="a full disk: Linux's /dev/full"))])
def test_an_error_output_that_cannot_be_written_still_gives_the_exit_status(redirect):
    assert spider_solve("show", "NOT-A-CODE", shell_suffix=redirect).returncode == 2


def test_a_closed_standard_input_reads_as_empty():
    done = spider_solve("replay", CODE, "--file", "-", shell_suffix="<&-")
    assert done.returncode == 1 and done.stderr == b"" and done.stdout.startswith(b"not won: 0 moves")


@pytest.mark.parametrize("command", ["replay", "hint", "analyze"])
def test_file_given_twice_is_refused_not_half_read(tmp_path, command):
    """click would keep the last --file without a word, and replay half the game."""
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("D\n")
    second.write_text("D D\n")
    result = run(command, CODE, "--file", str(first), "--file", str(second))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == ("error: invalid value for '--file': given more than once: give one file "
                                             "(join the logs into one first)")
    assert run("replay", CODE, "--file", str(second)).stdout.startswith("not won: 2 moves")


def test_replay_a_missing_file(tmp_path):
    result = run("replay", CODE, "--file", str(tmp_path / "nope.txt"))
    assert result.exit_code == 2
    assert "nope.txt" in result.stderr
    assert_no_traceback(result)


def test_replay_a_file_far_longer_than_a_log_is_refused(tmp_path, monkeypatch):
    """--file /dev/zero read until memory ran out; a log has a size."""
    from spider_solver.cli import play

    monkeypatch.setattr(play, "MAX_LOG_FILE_CHARS", 10)
    log = tmp_path / "game.txt"
    log.write_text("D D D D D ")  # 10 characters: read
    assert run("replay", CODE, "--file", str(log)).exit_code == 1
    log.write_text("D D D D D D")
    result = run("replay", CODE, "--file", str(log))
    assert result.exit_code == 2
    assert "is over 10 characters, far longer than a game's log" in result.stderr
    assert_no_traceback(result)


def test_replay_a_file_that_is_not_utf8(tmp_path):
    log = tmp_path / "game.bin"
    log.write_bytes(b"D \xff\xfe D")
    result = run("replay", CODE, "--file", str(log))
    assert result.exit_code == 2
    assert "is not UTF-8 text (byte 0xff at byte offset 2)" in result.stderr
    assert_no_traceback(result)
    log.write_bytes(b"D " * 10_000 + b"\xe9 D")  # past the first chunk a text stream decodes
    result = run("replay", CODE, "--file", str(log))
    assert result.exit_code == 2 and "is not UTF-8 text (byte 0xe9 at byte offset 20000)" in result.stderr


def column_10_empties_deal():
    """One suit: column 10 holds 2 3 4 5 6 (6 face up), column 9 ends with a 7, so five
    moves 10>9 empty column 10 while the stock still holds five deals."""
    pool = list("A23456789TJQK") * 8
    for rank in "234567":
        pool.remove(rank)
    columns = [[pool.pop(0) for _ in range(6 if c < 4 else 5)] for c in range(8)]
    columns.append([pool.pop(0) for _ in range(4)] + ["7"])
    columns.append(list("23456"))
    layout = [columns[t % 10][t // 10] for t in range(54)]
    return " ".join(rank + "S" for rank in layout + pool)


def test_replay_deal_on_empty():
    deck = column_10_empties_deal()
    log = ["10>9"] * 5 + ["D"]
    status, data = replay_json("--deck", deck, "--suits", "1", *log)
    assert status == 2
    assert data["error"] == {"index": 5, "action": "D",
                             "message": "cannot deal while column 10 is empty: put a card there first"}
    status, data = replay_json("--deck", deck, "--suits", "1", "--deal-on-empty", *log)
    assert status == 1
    assert (data["moves"], data["stock_left"], data["error"]) == (6, 40, None)


def test_replay_undo_limit():
    log = ["D", "D", "D", "U", "U", "U"]
    assert replay_json(CODE, *log)[0] == 1
    status, data = replay_json(CODE, "--undo-limit", "2", *log)
    assert status == 2
    assert data["error"] == {"index": 5, "action": "U",
                             "message": "nothing more to undo: only the last 2 actions can be undone"}
    status, data = replay_json(CODE, "--undo-limit", "0", "D", "U")
    assert data["error"]["message"] == "cannot undo: undo is turned off (undo limit 0)"
    status, data = replay_json(CODE, "--unlimited-undo", *log)
    assert (status, data["moves"], data["error"]) == (1, 0, None)
    both = run("replay", CODE, "--undo-limit", "0", "--unlimited-undo", *log)
    assert both.exit_code == 2 and "cannot be given together" in both.stderr
    result = run("replay", CODE, "--undo-limit", "-1")
    assert result.exit_code == 2
    assert "--undo-limit" in result.stderr


def test_replay_the_rule_of_an_explicit_deck():
    # In SP1-S2C-AAAAAAD, 1>8 puts 2♥ on 3♠; 8>7 then moves that mixed-suit group onto
    # 4♠: Relaxed allows it, Classic does not. The default rule of --deck is Classic.
    deck = " ".join(str(card) for card in Deal.from_code("SP1-S2C-AAAAAAD").cards)
    log = ["1>8", "8>7"]
    for rule_args in ([], ["--rule", "classic"]):
        status, classic = replay_json("--deck", deck, "--suits", "2", *rule_args, *log)
        assert status == 2
        assert classic["error"] == {
            "index": 1, "action": "8>7",
            "message": "cannot play '8>7': under the Classic rule a group must be one suit: 2♥ lies on 3♠",
        }
    status, relaxed = replay_json("--deck", deck, "--suits", "2", "--rule", "relaxed", *log)
    assert (status, relaxed["error"], relaxed["moves"]) == (1, None, 2)


@pytest.mark.parametrize(
    "args, words",
    [
        (["SP1-S4C-AAAAAA8", "D"], "error: invalid game code 'SP1-S4C-AAAAAA8': invalid deal 'AAAAAA8': '8' is not a base32 character"),
        (["--deck", "AS 2S", "--suits", "1"], "error: invalid deal for 1 suit, classic (2 cards, expected 104): missing"),
        (["--deck", DECK_TEXT.replace("KS", "KH", 1), "--suits", "1"],
         "error: invalid deal for 1 suit, classic: missing KS; extra KH"),
        (["--deck", DECK_TEXT.replace("KS", "KX", 1), "--suits", "1"],
         "error: invalid deal: invalid card 'KX': the suit must be one of S H D C"),
        ([], "missing the game CODE (or --deck with an explicit deal)"),
        (["SP1-S1C-AAAAAAA", "--deck", DECK_TEXT], "give either a game CODE or --deck, not both"),
        (["--deck", DECK_TEXT, "--suits", "3"], "error: invalid value for '--suits'"),
    ],
)
def test_replay_bad_input_exits_2(args, words):
    result = run("replay", *args)
    assert result.exit_code == 2
    assert words in result.stderr
    assert result.stdout == ""
    assert_no_traceback(result)


def test_replay_deck_text_is_the_show_deck_output():
    deck = run("show", CODE, "--deck").stdout.strip()
    assert deck == format_cards(Deal.from_code(CODE).cards)
    _, by_deck = replay_json("--deck", deck, "9>4", "D")
    _, by_code = replay_json(CODE, "9>4", "D")
    assert {**by_deck, "code": CODE} == by_code


def test_help_and_version():
    assert run("show", "-h").exit_code == 0
    result = run("replay", "--help")
    assert result.exit_code == 0
    assert "--deal-on-empty" in result.stdout and "--undo-limit" in result.stdout
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("spider-solve, version ")


def test_importing_the_package_loads_nothing_until_a_name_is_used():
    """The command line's entry point imports the package first; Ctrl-C while the rest
    loads is answered by the entry point (a handler needs the package loaded to exist)."""
    import subprocess
    import sys

    code = ("import sys, spider_solver._console, spider_solver; "
            "print(sorted(m for m in sys.modules if m.startswith('spider_solver')), "
            "spider_solver.Deal.__module__, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['spider_solver', 'spider_solver._console'] spider_solver.rules.deal False"


def test_ctrl_c_while_the_command_line_loads_is_interrupted_not_a_traceback(monkeypatch, capsys):
    import builtins

    from spider_solver import _console

    real_import = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == "spider_solver.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    monkeypatch.setattr(_console.atexit, "register", lambda function: None)  # not in pytest's own exit
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(SystemExit) as exit_:
            _console.main()
    finally:  # both: a handler left behind would change how later tests see a Ctrl-C
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    assert exit_.value.code == 130 and capsys.readouterr().err == "interrupted\n"
