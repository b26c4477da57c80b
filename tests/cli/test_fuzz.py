"""Random and hostile argument lists for every command, run in-process with CliRunner.

For the batch (no command), ``show``, ``replay``, ``verify``, ``hint --fair``, ``play``,
``check``, ``export`` and ``--help`` / ``--version``, hypothesis builds argument lists that mix valid
codes, actions and options with hostile values: numbers of thousands of digits,
negative numbers, ``nan``, ``inf``, ``1e999``, empty strings, unicode look-alikes,
NUL-free binary-ish text (undecodable argv bytes, as Python hands them over with
``surrogateescape``), unknown, repeated and value-less options, and paths to
directories, missing files and files that are not catalogs, all inside a
temporary directory. Whatever it gets, a command must (docs/commands/exit-statuses.md):

* exit with a documented status: 0, 1, 2, 3 or 130;
* never show a traceback (``result.exception`` is None or a SystemExit);
* write valid UTF-8 to stdout;
* on status 2, say what is wrong on stderr in an ``error: ...`` line.

Inputs found to break these once are kept as explicit cases (``KNOWN``). Every
message on status 2 is one line ``error: ...``, at most followed by a hint to
``--help`` (``test_bad_input_is_one_error_line``).

Costs are kept small: the solver is replaced by a fake that answers "unknown" at
once and the fair hint's kernels by one that finds no action (fixture ``fast_solver``), the batch's workers by one thread, and every
command that takes a catalog gets ``--catalog`` inside the temporary directory
(and runs with the temporary directory as its working directory, so that even a
relative path an argument list makes up stays there). Nothing is written
outside ``tmp_path``.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import tempfile
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from spider_solver.cli import cli
from spider_solver.record import SolveRecord
from spider_solver.rules import Deal

#: The documented exit statuses (docs/commands/exit-statuses.md).
EXIT_STATUSES = {0, 1, 2, 3, 130}

CODE = "SP1-S4C-AAAAAAD"
DECK = Deal.from_code(CODE).text()
ONE_SUIT_DECK = Deal.from_code("SP1-S1C-AAAAAAB").text()

#: Examples per command and test: a share of the profile's count (40 under "ci"), so
#: that the file stays fast in CI and HYPOTHESIS_PROFILE=dev explores more.
EXAMPLES = max(1, int(settings.default.max_examples * 2))


# --------------------------------------------------------------------------- #
# The fast solver and the in-process pool
# --------------------------------------------------------------------------- #


def fake_solve(deal, *, max_nodes=25_000_000, max_seconds=30.0, deal_on_empty=False, progress=False):
    """What ``solve`` returns when its budget runs out at once; a bad code or budget still raises."""
    from spider_solver.verify import check_budget, coerce_deal

    check_budget(max_nodes, max_seconds)
    deal = coerce_deal(deal)
    return SolveRecord(str(deal.code) if deal.code else None, "unknown", nodes=0, seconds=0.0,
                       max_nodes=max_nodes, max_seconds=max_seconds, reason="nodes")


def fake_task(code: str, max_nodes: int, max_seconds: float | None) -> SolveRecord:
    """The batch's worker task (``solve_deal``) with the fake solver."""
    return replace(fake_solve(code, max_nodes=max_nodes, max_seconds=max_seconds), solver_version="fuzz")


@pytest.fixture(scope="module")
def fast_solver():
    """Replace the search by ``fake_solve`` wherever the commands reach it.

    * ``verify`` imports ``spider_solver.verify.solve`` and ``load_engine`` when it runs;
    * the batch runs ``run_batch(options, task=SOLVE)`` (a keyword default) in ``spawn``
      worker processes made by ``batch.run.local_pool``: the task becomes ``fake_task``
      and the pool one thread;
    * ``hint --fair`` and ``play`` load the fair hint's kernels and ask them through
      ``analysis.fair``: none is loaded, and no action is found (the game is lost);
    * ``review`` judges each decision through ``analysis.reviewing.judge``, here, never in
      worker processes: each decision's action played is its only choice.
    """
    from contextlib import contextmanager

    import spider_solver.analysis.fair as fair
    import spider_solver.analysis.reviewing as review
    import spider_solver.batch.run as run
    import spider_solver.verify as verify
    from spider_solver.analysis.fair import FairChoice
    from spider_solver.batch import Task
    from spider_solver.batch.pools import Pool

    def thread_pool(workers: int, *, warm=None, meters=False):
        return Pool(ThreadPoolExecutor(max_workers=1), slots=2, where="a test thread")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify, "solve", fake_solve)
        patch.setattr(verify, "load_engine", lambda say=None: None)
        patch.setitem(run.run_batch.__kwdefaults__, "task", Task(fake_task))
        patch.setattr(run, "local_pool", thread_pool)
        patch.setattr(fair, "load_fair_hint", lambda say=None: None)
        patch.setattr(fair, "_view_key", lambda board: 0)
        patch.setattr(fair, "_choices", lambda board, history, options: ())
        patch.setattr(review, "judge", lambda job: review.Judged((FairChoice(job.extra[0], 0, job.layouts, 0.0),),
                                                                 ((),)))
        patch.setattr(review, "_judges", contextmanager(lambda workers, jobs: iter([review._here])))
        yield


# --------------------------------------------------------------------------- #
# Files the argument lists may name, copied afresh for every example
# --------------------------------------------------------------------------- #


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A directory of the files an argument list can point at."""
    from spider_solver.catalog import Catalog

    root = tmp_path_factory.mktemp("fuzz-template")
    with Catalog(root / "catalog.sqlite") as db:
        db.record(SolveRecord("SP1-S1C-AAAAAAA", "unknown", nodes=10, seconds=0.1, max_nodes=10, reason="nodes"))
        # Stored as verified, but the line does not win: `check` exits 1 on it.
        db.record(SolveRecord("SP1-S2R-AAAAAAB", "verified", ("D",), moves=1, score=499, max_nodes=10))
    other = sqlite3.connect(root / "other.sqlite")
    other.execute("CREATE TABLE results (code TEXT)")
    other.commit()
    other.close()
    (root / "notes.txt").write_text("shopping list: eggs, milk\n" * 20, encoding="utf-8")
    (root / "binary.bin").write_bytes(bytes(range(1, 256)) * 4)
    (root / "log.txt").write_text("9>4, D\n7>1 U\n", encoding="utf-8")
    (root / "subdir").mkdir()
    return root


#: Placeholders for paths; ``{tmp}`` becomes the example's own directory.
PATHS = [
    "{tmp}/catalog.sqlite",  # a catalog with two rows
    "{tmp}/fresh.sqlite",  # does not exist yet
    "{tmp}/other.sqlite",  # SQLite, not a catalog
    "{tmp}/notes.txt",  # text
    "{tmp}/binary.bin",  # bytes 1-255
    "{tmp}/log.txt",  # a game log
    "{tmp}/subdir",  # a directory
    "{tmp}",
    "{tmp}/missing.txt",
    "{tmp}/no/such/dir/file.sqlite",
    "relative.sqlite",  # the working directory is the example's directory
    "-",
]


# --------------------------------------------------------------------------- #
# Values
# --------------------------------------------------------------------------- #

def weighted(*choices):
    """One of the (strategy, weight) ``choices``, in proportion to the weights (st.one_of
    does not weight a branch given twice, and st.integers favours its bounds)."""
    return st.sampled_from([strategy for strategy, weight in choices for _ in range(weight)]).flatmap(
        lambda strategy: strategy)


HUGE = "9" * 5000  # more digits than int() reads (4300)

HOSTILE_WORDS = [
    "", " ", "\t", "\n", "-", "--", "---", "=", "nan", "NaN", "inf", "-inf", "+inf", "1e999", "-1e999", "1e-999",
    "0", "-0", "-1", "-5", "1.5", "0x10", "1_0", "+4", " 4 ", "4.0", "1" + "0" * 30, "-1" + "0" * 30, HUGE, "-" + HUGE,
    "0" * 5000 + "1", "None", "null", "true", "[]", "{}", "%s", "{0}", "\\", "'", '"', ";", "&&", "$(echo)",
    # unicode look-alikes: fullwidth, Arabic-Indic and mathematical digits, dotless i, long s,
    # Kelvin sign, Cyrillic and Greek capitals, a fullwidth '>', zero-width and RTL marks
    "４", "１>２", "٣>4", "𝟒", "²", "SP1-S4C-AAAAAAı", "Aſ", "K", "ЅР1-Ѕ4С-ААААААD", "ＳＰ１－Ｓ４Ｃ－ＡＡＡＡＡＡＤ",
    "9＞4", "Ｄ", "\u200b", "D\u200b", "\u202e4>9", "🂡", "♠", "10♠",
    # undecodable argv bytes, as Python decodes them (surrogateescape)
    "\udcff", "SP1-S4C-\udcc3\udca9", "9>\udc80",
]

BINARYISH = st.binary(min_size=1, max_size=16).filter(lambda b: 0 not in b).map(
    lambda b: b.decode("utf-8", "surrogateescape"))
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
HOSTILE = st.one_of(st.sampled_from(HOSTILE_WORDS), BINARYISH, TEXT,
                    st.integers(-(10**40), 10**40).map(str), st.integers(10**40, 10**4000).map(str))

GOOD_CODES = st.sampled_from([CODE, "sp1-s1r-aaaaaab", " SP1-S2C-7777777 "])
BAD_CODES = st.sampled_from(["SP1-S3C-AAAAAAD", "SP2-S4C-AAAAAAD", "SP1-S4C-AAAAAA", "SP1-S4C-" + "A" * 5000, "hello"])
CODES = weighted((GOOD_CODES, 3), (BAD_CODES, 1))
ACTIONS = st.sampled_from(["9>4", "D", "U", "d", "1>2/3", "02>5", "10>1", "D,D", "9>4 D 7>1", "3-5", "0>4", "11>3",
                           "1>2/0", "1>2/1000", "99999999999999999999999>1", "1>2/" + HUGE, "9>4/" + "0" * 5000 + "1"])
DECKS = st.sampled_from([DECK, ONE_SUIT_DECK, "AS 2S", "XX " * 104, DECK.replace("8S", "8X", 1), DECK + " AS",
                         "AS " * 5000, "A" * 5000])
SUITS = st.sampled_from(["1", "2", "4", "3", "0", "04"])
RULES = st.sampled_from(["classic", "relaxed", "C", "r", "RELAXED", "spider"])
STATUSES = st.sampled_from(["verified", "unwinnable", "unknown", "VERIFIED", "won"])
FORMATS = st.sampled_from(["json", "jsonl", "csv", "CSV", "xml"])
INTS = st.sampled_from(["0", "1", "2", "5", "100", "34359738367", "34359738368"])
SECONDS = st.sampled_from(["0", "0.5", "1e-9", "30", "1"])
SEEDS = st.sampled_from(["0", "7", str(2**64 - 1), str(2**64), "-1", "1" + "0" * 30])
#: A batch's --count, never mixed with random numbers: tiny, or out of range. A valid large
#: count plans that many deals in memory first (2**35 of them would exhaust it), then
#: solves them; those are not bad input, only slow, so they are left out here.
COUNTS = st.sampled_from(["0", "1", "2", "-1", "-" + HUGE, "34359738369", "1" + "0" * 11, "1" + "0" * 30,
                          str(2**63), HUGE, "nan", "1e999", "", "２", "1.5"])
#: Hostile addresses that fail at once, never mixed with random text: a host name would
#: wait for DNS, another protocol than tcp for the scheduler's 10 s connect timeout.
SCHEDULERS = st.sampled_from(["", "  ", "nowhere", "tcp://127.0.0.1:1", "127.0.0.1:1", "[::1]:1",
                              "tcp://127.0.0.1:99999", "tcp://127.0.0.1:" + "9" * 30, "tcp://127.0.0.1:" + HUGE,
                              "tcp://127.0.0.1:-1", "tcp://127.0.0.1:", "127.0.0.1:²", "127.0.0.1:１"])
PATH = st.sampled_from(PATHS)


def value(valid, wild: bool = True):
    """A value of the right kind; a hostile one once in four draws (wild) or in twenty (calm)."""
    return weighted((valid, 3 if wild else 19), (HOSTILE, 1))


def option(name: str, values, wild: bool = True, *, hostile: bool = True):
    """``[name, value]``; sometimes ``name=value`` or the bare option (a missing value)."""
    values = value(values, wild) if hostile else values
    return weighted((values.map(lambda v: [name, v]), 14), (values.map(lambda v: [f"{name}={v}"]), 3),
                    (st.just([name]), 1 if wild else 0))


def flag(*names: str):
    return st.sampled_from(names).map(lambda name: [name])


COMMON = [
    flag("--help", "-h", "--version", "-V", "--nope", "-x", "--json=1", "--", "-"),
    HOSTILE.map(lambda word: [word]),
]

#: How each command's argument list starts.
STARTS = {"batch": [], "show": ["show"], "replay": ["replay"], "verify": ["verify"], "check": ["check"],
          "export": ["export"], "hint-fair": ["hint", "--fair"], "play": ["play"], "review": ["review"]}
#: The commands whose argument lists start with a CODE most of the time.
WITH_CODE = ("show", "replay", "verify", "hint-fair", "play", "review")


def pieces(command: str, wild: bool) -> list:
    """What may follow the start (and, for show, replay and verify, the CODE)."""
    def opt(name, values, **kwargs):
        return option(name, values, wild, **kwargs)

    game_log = [  # what the commands that replay a game log take
        *[value(ACTIONS, wild).map(lambda action: [action])] * 3, opt("--deck", DECKS), opt("--suits", SUITS),
        opt("--rule", RULES), opt("--file", PATH), opt("--undo-limit", INTS),
        flag("--deal-on-empty", "--unlimited-undo"),
    ]

    return {
        "batch": [
            opt("--suits", SUITS | INTS), opt("--count", COUNTS, hostile=False), opt("--rule", RULES),
            opt("--start", INTS), opt("--workers", INTS), opt("--catalog", PATH), opt("--max-nodes", INTS),
            opt("--max-seconds", SECONDS), opt("--scheduler", SCHEDULERS, hostile=False), flag("-q", "--quiet"),
        ],
        "show": [flag("--deck", "--describe", "--json")],
        "replay": [*game_log, flag("--json")],
        "verify": [
            opt("--deck", DECKS), opt("--suits", SUITS), opt("--rule", RULES), opt("--max-nodes", INTS),
            opt("--max-seconds", SECONDS), flag("--deal-on-empty", "--progress", "--no-progress", "--json"),
        ],
        "hint-fair": [*game_log, opt("--layouts", INTS), opt("--seed", SEEDS), flag("--json", "-q")],
        "play": [*game_log, opt("--layouts", INTS), opt("--seed", SEEDS), flag("--json", "-q", "--fair")],
        "review": [*game_log, opt("--layouts", INTS), opt("--confirm-layouts", INTS), opt("--seed", SEEDS),
                   opt("--workers", INTS), flag("--json", "-q")],
        "check": [opt("--catalog", PATH)],
        "export": [
            opt("--catalog", PATH), opt("--suits", SUITS), opt("--rule", RULES), opt("--status", STATUSES),
            opt("--format", FORMATS), opt("-o", PATH), opt("--output", PATH),
        ],
    }[command]


#: Per command, the pieces of calm lists (few hostile values) and of wild ones.
PIECES = {command: {wild: st.one_of(*pieces(command, wild)) for wild in (False, True)} for command in STARTS}

#: The options every run starts with, so that no file is written outside the example's
#: directory and a batch plans two deals (an argument list may override either).
FORCED = {
    "batch": ["--catalog", "{tmp}/fresh.sqlite", "--count", "2"],
    "check": ["--catalog", "{tmp}/catalog.sqlite"],
    "export": ["--catalog", "{tmp}/catalog.sqlite"],
}


@st.composite
def argument_lists(draw, command: str) -> list[str]:
    """A CODE (show, replay, verify: three lists in four), then up to 5 of the command's
    own pieces; some lists also get a stray piece (a hostile word, an unknown option,
    --help, ...) somewhere. Half the lists are calm, with few hostile values and no
    missing ones, so that they get past click's parsing into the command itself."""
    wild = draw(st.booleans())
    chosen = draw(st.lists(PIECES[command][wild], max_size=5))
    if command in WITH_CODE and draw(st.sampled_from([True] * 3 + [False])):
        chosen.insert(0, [draw(value(CODES, wild))])
    if draw(st.sampled_from([True] + [False] * (3 if wild else 9))):
        chosen.insert(draw(st.integers(0, len(chosen))), draw(st.one_of(*COMMON)))
    return [arg for group in chosen for arg in group]


# --------------------------------------------------------------------------- #
# Running one argument list
# --------------------------------------------------------------------------- #


def invoke(args: list[str], template: Path):
    """Run ``spider-solve ARGS`` in a fresh copy of the template ({tmp} in ARGS names it),
    with that copy as the working directory; the copy is removed afterwards."""
    work = Path(tempfile.mkdtemp(dir=template.parent, prefix="run-"))
    try:
        shutil.copytree(template, work, dirs_exist_ok=True)
        args = [arg.replace("{tmp}", str(work)) for arg in args]
        runner = CliRunner()
        with contextlib.chdir(work):
            result = runner.invoke(cli, args, input="9>4 D\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return args, result


def run(command: str, hostile: list[str], template: Path):
    """``spider-solve`` with the command, its forced options, then ``hostile``."""
    return invoke([*STARTS[command], *FORCED.get(command, []), *hostile], template)


def described(args: list[str], result) -> str:
    shown = " ".join(repr(arg) if len(arg) <= 60 else repr(arg[:60]) + "..." for arg in args)
    text = f"spider-solve {shown}\nexit status {result.exit_code}\nstderr: {result.stderr[-600:]!r}"
    if result.exc_info is not None and not isinstance(result.exception, SystemExit):
        text += "\n" + "".join(traceback.format_exception(*result.exc_info))[-1500:]
    return text


def check_contract(args: list[str], result) -> None:
    """What every command promises whatever its arguments (module docstring)."""
    where = described(args, result)
    assert result.exception is None or isinstance(result.exception, SystemExit), where
    assert "Traceback" not in result.output, where
    assert result.exit_code in EXIT_STATUSES, where
    try:
        result.stdout_bytes.decode("utf-8")
    except UnicodeDecodeError as error:
        pytest.fail(f"stdout is not UTF-8 ({error})\n{where}")
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert any(line.startswith(("error: ", "Error: ")) for line in lines), where


def check_error_form(args: list[str], result) -> None:
    """The documented form of bad input: one ``error: ...`` line, at most a hint to --help after it."""
    if result.exit_code != 2:
        return
    lines = result.stderr.splitlines()
    where = described(args, result)
    assert lines and lines[0].startswith("error: "), where
    assert len(lines) == 1 or (len(lines) == 2 and "--help" in lines[1]), where


# --------------------------------------------------------------------------- #
# The tests
# --------------------------------------------------------------------------- #


@pytest.mark.usefixtures("fast_solver")
@pytest.mark.parametrize("command", sorted(STARTS))
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_arguments_never_crash_a_command(command, template, data):
    hostile = data.draw(argument_lists(command), label="arguments")
    check_contract(*run(command, hostile, template))


#: (name, command, arguments, exit status, whether stderr must be short lines). These reach
#: the rules engine's parsers, which refuse numbers and text of thousands of characters
#: with their own errors and short messages (tests/rules/test_hostile_input.py).
KNOWN = [
    ("huge-group", "replay", [CODE, "9>4", "1>2/" + HUGE, "--json"], 2, True),
    ("huge-column", "replay", [CODE, "9>4", "D", HUGE + ">1", "--json"], 2, True),
    ("zeros-then-1", "replay", [CODE, "9>4/" + "0" * 5000 + "1"], 1, True),
    ("huge-undo-limit", "replay", [CODE, "--undo-limit", "1" + "0" * 30, "D", "U"], 2, True),
    ("deck-of-5000", "replay", ["--deck", "AS " * 5000, "--suits", "1"], 2, True),
    ("huge-card", "replay", ["--deck", "A" * 5000], 2, True),
    ("huge-deal-part", "show", ["SP1-S4C-" + "A" * 5000], 2, True),
    ("huge-code", "show", ["S" * 5000], 2, True),
    ("verify-deck-of-5000", "verify", ["--deck", "AS " * 5000], 2, True),
    ("infinite-seconds", "verify", [CODE, "--max-seconds", "1e999", "--max-nodes", "1"], 2, True),
    ("count-past-last-deal", "batch", ["--count", "34359738369"], 2, True),
    ("nan-seconds", "batch", ["--max-seconds", "nan"], 2, True),
    ("huge-suits", "batch", ["--suits", "9" * 4000], 2, True),
    ("export-huge-suits", "export", ["--suits", "9" * 5000], 2, True),
    ("huge-format", "export", ["--format", "x" * 5000], 2, True),
]
#: Found by this file before the command line was rewritten (issue 7), kept as cases.
KNOWN += [
    ("scheduler-digit", "batch", ["--scheduler", "127.0.0.1:²"], 2, True),
    ("scheduler-port", "batch", ["--scheduler", "tcp://127.0.0.1:" + "9" * 30], 2, True),
    ("count-int64", "batch", ["--count", str(2**63)], 2, True),
    ("count-int64", "batch", ["--count", "1" + "0" * 30], 2, True),
    ("nodes-int64", "batch", ["--max-nodes", str(2**63)], 2, True),
    ("nodes-int64", "batch", ["--start", "0", "--max-nodes", str(2**63)], 2, True),
    ("json-surrogate", "replay", [CODE, "9>4", "\udcff", "--json"], 2, True),
    ("long-line", "replay", [CODE, "1>2/" + HUGE], 2, True),
    ("long-line", "batch", ["--start", "9" * 4000], 2, True),
    ("long-line", "batch", ["--workers", "-" + "9" * 4000], 2, True),
    ("long-line", "verify", [CODE, "--max-nodes", HUGE], 2, True),
]
#: The fair hint's options (issue 50).
KNOWN += [
    ("huge-seed", "hint-fair", [CODE, "--seed", HUGE, "--json"], 2, True),
    ("seed-past-64-bits", "play", [CODE, "--seed", str(2**64)], 2, True),
    ("huge-layouts", "play", [CODE, "--layouts", "9" * 40], 2, True),
    ("peeking-budget", "hint-fair", [CODE, "--max-nodes", "5"], 2, True),
]
#: The review's options (issue 51).
KNOWN += [
    ("huge-confirm-layouts", "review", [CODE, "--confirm-layouts", HUGE, "--json"], 2, True),
    ("huge-workers", "review", [CODE, "--workers", "9" * 40], 2, True),
    ("refused-action", "review", [CODE, "9>4", "1>2", "--json"], 2, True),
    ("reviewed", "review", [CODE, "9>4", "D", "--json"], 0, True),
]


@pytest.mark.usefixtures("fast_solver")
@pytest.mark.parametrize("command, hostile, status, short", [
    *[pytest.param(*case, id=f"{name}-{i}") for i, (name, *case) in enumerate(KNOWN)],
])
def test_known_hostile_arguments(command, hostile, status, short, template):
    args, result = run(command, hostile, template)
    check_contract(args, result)
    assert status is None or result.exit_code == status, described(args, result)
    if short:  # whatever the input's size, the message is a short line
        assert all(len(line) < 300 for line in result.stderr.splitlines()), described(args, result)
    if "--json" in hostile and command == "replay" and status == 2:  # the refusal, from the rules engine
        assert len(json.loads(result.stdout)["error"]["message"]) < 300, described(args, result)


@pytest.mark.usefixtures("fast_solver")
@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--version"], ["-V"], ["--version", "--help"],
                                  *[[name, "--help"] for name in ("show", "replay", "verify", "check", "export")],
                                  *[[name, "-h"] for name in ("show", "replay", "verify", "check", "export")]])
def test_help_and_version_exit_0(args, template):
    args, result = invoke(args, template)
    check_contract(args, result)
    assert result.exit_code == 0, described(args, result)
    assert result.stdout.startswith(("Usage: ", "spider-solve, version ")), described(args, result)


# Reporting a failure makes hypothesis import libcst, which warns about mypy_extensions.
@pytest.mark.filterwarnings("ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")
@pytest.mark.usefixtures("fast_solver")
@pytest.mark.parametrize("command", sorted(STARTS))
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])  # an expected failure: no time spent shrinking it
@given(data=st.data())
def test_bad_input_is_one_error_line(command, template, data):
    hostile = data.draw(argument_lists(command), label="arguments")
    check_error_form(*run(command, hostile, template))
