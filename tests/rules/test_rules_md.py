"""RULES.md exists, and every section that the code and the documents cite exists in it.

A citation is written ``RULES.md §5 Moves``: the section number, then its title, so that
a reader finds it without opening the file and a renumbering cannot go unnoticed. Inside
RULES.md a bare ``§5`` is enough.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "RULES.md"

#: ``## 5. Moves`` and ``### 9.1 From deal number to cards``.
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? (.+?)\s*$", re.MULTILINE)
CITATION = re.compile(r"§(\d+(?:\.\d+)?)")
#: Older references by name: RULES.md, "Game code" / RULES.md ("From deal number to cards").
NAMED = re.compile(r"RULES\.md[,:]? \(?[\"'“]([^\"'”]+)[\"'”]")
LINK = re.compile(r"RULES\.md#([\w-]+)")


def sections():
    """Section number -> title, from RULES.md's headings."""
    return dict(HEADING.findall(RULES.read_text(encoding="utf-8")))


def slug(title):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def citing_files():
    """Every file of the project that may cite RULES.md, except RULES.md itself."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for folder, patterns in (("spider_solver", ["*.py", "*.js"]), ("tests", ["*.py", "*.mjs"]),
                             ("data", ["*.py", "*.json", "*.sql"]),
                             ("benchmarks", ["*.py", "*.md"])):
        for pattern in patterns:
            files.extend(sorted((ROOT / folder).rglob(pattern)))
    return [path for path in files if path.is_file() and path != Path(__file__).resolve()]


def flatten(text):
    """Join wrapped lines: a line break, the indentation and a comment leader (Python's ``#``,
    JavaScript's ``//`` and ``*``) become one space."""
    return re.sub(r"\s*\n\s*(?:(?:#|//|\*)\s*)?", " ", text)


def test_rules_md_is_at_the_root_with_numbered_sections_in_order():
    assert RULES.is_file()
    numbers = [number for number in sections() if "." not in number]
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)]
    assert len(numbers) >= 10
    for number in sections():
        if "." in number:
            assert number.split(".")[0] in numbers


def test_every_citation_names_an_existing_section_by_number_and_title():
    known = sections()
    cited = {}
    for path in citing_files():
        text = flatten(path.read_text(encoding="utf-8"))
        for match in CITATION.finditer(text):
            number = match[1]
            where = f"{path.relative_to(ROOT)}: {text[max(0, match.start() - 30) : match.end() + 40]!r}"
            assert number in known, f"no section §{number} in RULES.md, cited by {where}"
            assert text[match.end() :].lstrip().startswith(known[number]), (
                f"§{number} is titled {known[number]!r} in RULES.md; cite it as 'RULES.md §{number} "
                f"{known[number]}' in {where}"
            )
            cited.setdefault(number, []).append(path)
    # The rules engine cites the sections it implements.
    assert len(cited) >= 10


def test_every_rules_module_cites_rules_md():
    for path in sorted((ROOT / "spider_solver" / "rules").glob("*.py")):
        assert "RULES.md §" in flatten(path.read_text(encoding="utf-8")), path.name


def test_every_section_is_cited_by_a_test():
    """Each rule has a unit test that says which section it checks ("RULES.md §6 Deals"):
    a section no test cites is a rule nobody has tied to a test."""
    tests = [path for path in sorted((ROOT / "tests").rglob("*.py")) if path != Path(__file__).resolve()]
    cited = {number for path in tests for number in CITATION.findall(path.read_text(encoding="utf-8"))}
    # A section cited only through its subsections ("§5.4") counts as cited.
    cited |= {number.split(".")[0] for number in cited}
    assert sorted(set(sections()) - cited, key=lambda n: [int(part) for part in n.split(".")]) == []


def test_references_by_name_and_links_point_to_existing_headings():
    titles = set(sections().values())
    anchors = {slug(f"{number} {title}") for number, title in sections().items()}
    for path in citing_files():
        text = flatten(path.read_text(encoding="utf-8"))
        for name in NAMED.findall(text):
            assert name in titles, f"{path.relative_to(ROOT)} refers to RULES.md section {name!r}, which does not exist"
        for anchor in LINK.findall(text):
            assert anchor in anchors, f"{path.relative_to(ROOT)} links to RULES.md#{anchor}, which does not exist"
    # RULES.md's own table of contents.
    rules = RULES.read_text(encoding="utf-8")
    for anchor in re.findall(r"\]\(#([\w-]+)\)", rules):
        assert anchor in anchors, f"RULES.md links to #{anchor}, which does not exist"


def test_rules_md_cites_only_its_own_sections():
    known = sections()
    for number in CITATION.findall(RULES.read_text(encoding="utf-8")):
        assert number in known, f"RULES.md cites §{number}, which does not exist"


def test_the_repository_does_not_depend_on_the_shared_brief():
    for path in [RULES, *citing_files()]:
        assert "/work/shared" not in path.read_text(encoding="utf-8"), path


# -- the examples RULES.md gives are what the engine does ---------------------------


def section(number):
    """The text of one section of RULES.md, up to the next heading of its level or above."""
    text = RULES.read_text(encoding="utf-8")
    level = "##" if "." not in number else "###"
    start = re.search(rf"^{level} {re.escape(number)}\.? ", text, re.MULTILINE).start()
    end = re.compile(rf"^#{{2,{len(level)}}} ", re.MULTILINE).search(text, start + 1)
    return text[start : end.start() if end else len(text)]


def test_the_layout_example_is_the_layout_of_its_code():
    from spider_solver.rules import Board, Deal, format_cards

    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
    found = re.findall(r"column (\d+): +\[([^\]]*)\] (\w+)", section("4"))
    shown = {int(c): (down.split(), up) for c, down, up in found}
    assert sorted(shown) == list(range(1, 11))
    for c, (down, up) in shown.items():
        assert down == [str(card) for card in board.columns[c - 1][:-1]]
        assert board.down[c - 1] == len(down)
        assert [str(card) for card in board.face_up(c)] == [up]
    first_deal = re.search(r"its first deal puts `([^`]+)` on columns 1 to 10", section("4"))[1]
    assert first_deal == format_cards(board.deal.stock()[:10])


def test_the_check_values_are_those_of_the_code_and_of_the_vectors():
    import itertools
    import json

    from spider_solver.rules import splitmix64

    text = section("9.2")
    data = json.loads((ROOT / "data" / "deal_vectors.json").read_text(encoding="utf-8"))
    vectors = {entry["seed"]: entry["outputs"] for entry in data["splitmix64"]["values"]}
    from_0 = re.search(r"from s = 0 returns first ((?:`0x[0-9a-f]+`,?\s*)+)", text)[1]
    from_3 = re.search(r"From s = 3 it\s+returns ((?:`0x[0-9a-f]+`,?\s*)+)", text)[1]
    for seed, shown in ((0, from_0), (3, from_3)):
        values = re.findall(r"0x[0-9a-f]+", shown)
        assert values == vectors[str(seed)][: len(values)]
        assert [int(v, 16) for v in values] == list(itertools.islice(splitmix64(seed), len(values)))
    assert "mod 104 = 61" in text and int(vectors["3"][0], 16) % 104 == 61


def test_the_helper_examples_are_what_the_board_answers():
    from spider_solver.rules import Board, Deal, replay

    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
    assert "`targets(9, 1)` is `[4, 5]`" in flatten(section("13.1")) and board.targets(9, 1) == [4, 5]
    listed = re.search(r"`SP1-S4C-AAAAAAD`, `([^`]+)`", section("13.2"))[1]
    assert listed == " ".join(board.notation(action) for action in board.legal_moves())
    result = replay(board.deal, "9>4 D 1>2")
    assert "`won=False, moves=2, score=498`" in flatten(section("12"))
    assert (result.won, result.moves, result.score) == (False, 2, 498)
    assert (result.error.index, result.error.action) == (2, "1>2")
    assert flatten(result.error.message) in flatten(section("12"))


def test_the_auto_place_examples_are_what_the_board_answers():
    import pytest

    from spider_solver.rules import Board, Deal, Move, Variant

    board = Board(Deal.from_code("SP1-S4C-AAAAAAD"))
    text = flatten(section("13.6"))
    examples = re.findall(r"`best_target\((\d+)\)` is `(\w+)`", text)
    assert len(examples) >= 3
    for column, answer in examples:
        assert board.best_target(int(column)) == (None if answer == "None" else int(answer)), column
    assert "`targets(9, 1)` is `[4, 5]`" in text and board.targets(9, 1) == [4, 5]
    assert "`best_move(9)` is `Move(9, 5, 1)`" in text and board.best_move(9) == Move(9, 5, 1)
    # The refusals: 3♠ | 2♠ | A♠ in a shrunken game; A♠ onto 2♠ empties column 3.
    small = Board(Deal.from_columns(["3S", "2S", "AS"], ["3S 2S AS"], Variant(1, ranks=3, runs=2, columns=3, layout=3)))
    small.push_notation("3>2")
    calls = {
        "invalid column 0: columns are numbered 1 to 10": lambda: board.best_target(0),
        "invalid count 0: column 1 holds 6 cards, expected 1 to 6": lambda: board.best_target(1, 0),
        "invalid count 1: column 3 is empty": lambda: small.best_target(3, 1),
    }
    assert sorted(re.findall(r"`(invalid (?:count|column) [^`]+)`", text)) == sorted(calls)
    for message, call in calls.items():
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == message


def test_the_rule_reminders_list_every_message_the_engine_refuses_an_action_with():
    """RULES.md §13.3 Rule reminders is the complete list: each IllegalActionError of the
    rules engine has a message there of its form, and each message there is one the engine writes."""
    import ast

    patterns = []
    for path in sorted((ROOT / "spider_solver" / "rules").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalActionError":
                (message,) = node.args
                parts = message.values if isinstance(message, ast.JoinedStr) else [message]
                patterns.append("".join(
                    re.escape(part.value) if isinstance(part, ast.Constant) else ".*?" for part in parts
                ))
    assert len(patterns) >= 15
    listed = re.findall(r"`((?:cannot|nothing)[^`]+)`", flatten(section("13.3")))
    for pattern in patterns:
        assert any(re.fullmatch(pattern, message) for message in listed), f"not in RULES.md §13.3: {pattern}"
    for message in listed:
        assert any(re.fullmatch(pattern, message) for pattern in patterns), f"no such message: {message}"


def test_the_white_space_listed_is_what_the_engine_strips_and_splits_on():
    """RULES.md §1 Conventions lists the white space characters one by one, for ports whose
    own notion differs (JavaScript's \\s and trim() take U+FEFF and miss U+001C-U+001F, U+0085)."""
    import sys

    from spider_solver.rules import GameCode, split_actions

    text = flatten(section("1"))
    listed = set()
    for first, last in re.findall(r"U\+([0-9A-F]{4})(?: to U\+([0-9A-F]{4}))?", text.split("Nothing else is")[0]):
        listed.update(chr(code) for code in range(int(first, 16), int(last or first, 16) + 1))
    python = {char for char in map(chr, range(sys.maxunicode + 1)) if char.isspace()}
    assert listed == python and len(listed) == 29 and "exactly these 29 characters" in text
    for char in python:
        assert GameCode.parse(f"{char}SP1-S4C-AAAAAAD{char}").number == 3
        assert split_actions(f"D{char}U") == ["D", "U"]
    for char in "\u200b\u180e\ufeff":
        assert char not in python and f"U+{ord(char):04X}" in text.split("Nothing else is")[1]


def test_the_quoting_example_is_what_the_parser_writes():
    from spider_solver.errors import QUOTE_LIMIT
    from spider_solver.rules import parse_action

    assert QUOTE_LIMIT == 40 and "first 40 characters (`QUOTE_LIMIT`" in flatten(section("1"))
    shown = re.search(r"fifty `3`s: `([^`]+)`", flatten(section("1")))[1]
    try:
        parse_action("1>2/" + "3" * 50)
    except ValueError as error:
        assert str(error) == shown
    else:
        raise AssertionError("not refused")
