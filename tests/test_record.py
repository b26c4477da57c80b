"""The one record of a result: its plain-data form, its reader and its checks."""

import json

import pytest

from spider_solver.errors import SpiderError
from spider_solver.outcomes import AttemptSummary, BeamOutcome, Reason, SearchMode, Status
from spider_solver.record import FIELD_NAMES, FIELDS, InvalidRecordError, SolveRecord

CODE = "SP1-S2R-AAAAAAD"


def verified(**fields) -> SolveRecord:
    return SolveRecord(CODE, "verified", ("1>2", "D"), moves=2, score=1298, nodes=10, max_nodes=100, **fields)


def test_the_plain_data_form_is_the_fields_in_order():
    data = verified(seconds=0.25, solved_at="2026-01-31T12:00:00Z").to_dict()
    assert tuple(data) == FIELD_NAMES == tuple(spec.name for spec in FIELDS)
    assert (data["code"], data["suits"], data["rule"], data["deal"]) == (CODE, 2, "relaxed", 3)
    assert (data["status"], data["reason"], data["solution"], data["par"]) == ("verified", "won", ["1>2", "D"], 1298)
    assert type(data["status"]) is str and type(data["reason"]) is str
    assert json.loads(json.dumps(data)) == data


def test_a_record_read_back_from_its_plain_data_is_the_record():
    record = verified(difficulty=3, difficulty_raw=41.5, grader_version="fair-3")
    assert SolveRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_a_code_is_made_canonical_and_says_the_variant():
    record = SolveRecord(" sp1-s1c-aaaaaab ", "unknown", reason="nodes")
    assert (record.code, record.suits, record.rule, record.deal, record.par) == ("SP1-S1C-AAAAAAB", 1, "classic", 1,
                                                                                   None)


def test_an_explicit_deck_has_no_code_and_keeps_its_variant():
    record = SolveRecord(None, "unwinnable", suits=2, rule="relaxed")
    assert (record.code, record.deal, record.suits, record.rule, record.reason) == (None, None, 2, "relaxed",
                                                                                    Reason.EXHAUSTED)


def test_seconds_time_and_attempts_are_not_compared():
    assert verified(seconds=1.0, solved_at="x", attempts=(AttemptSummary(64, SearchMode.SEARCH, BeamOutcome.WON),)) == verified(
        seconds=2.0)


@pytest.mark.parametrize(("status", "reason", "message"), [
    ("unknown", None, "an unknown result must say why the search stopped"),
    ("verified", "nodes", "a verified result cannot stop for the reason 'nodes'"),
    ("unwinnable", "won", "a unwinnable result cannot stop for the reason 'won'"),
])
def test_status_and_reason_must_agree(status, reason, message):
    with pytest.raises(InvalidRecordError, match=message):
        SolveRecord(CODE, status, reason=reason)


@pytest.mark.parametrize(("change", "message"), [
    ({"moves": 3}, r"invalid moves 3 for 'SP1-S2R-AAAAAAD': its line has 2 actions"),
    ({"nodes": -1}, r"invalid nodes -1 .*expected a whole number from 0"),
    ({"max_nodes": 0}, r"invalid max_nodes 0 .*from 1"),
    ({"max_seconds": float("nan")}, r"invalid max_seconds nan"),
    ({"difficulty": 3}, r"needs difficulty, difficulty_raw and grader_version together"),
    ({"difficulty": 6, "difficulty_raw": 1.0, "grader_version": "g"}, r"invalid difficulty 6 .*from 1 to 5"),
    ({"difficulty": 2, "difficulty_raw": 101.0, "grader_version": "g"}, r"invalid difficulty_raw 101.0"),
    ({"improve_nodes": 5}, r"improve record .* needs improve_nodes, improve_seconds and improve_version"),
    ({"max_seconds": 0}, r"invalid max_seconds 0 .*expected a number of seconds above 0"),
    ({"solution": [1, 2]}, r"invalid action 1 in the line of 'SP1-S2R-AAAAAAD': expected D, F>T or F>T/N"),
    ({"solution": ["1>2", "U"]}, r"invalid action 'U' in the line"),
    ({"solution": ["9-4", "D"]}, r"invalid action '9-4' in the line"),
    ({"solution": ["d", "1>2"]}, r"invalid action 'd' in the line .*canonical notation"),
    ({"solution": ["03>07", "D"]}, r"invalid action '03>07'"),
    ({"solution": ["3>7/14", "D"]}, r"invalid action '3>7/14'"),
    ({"solution": ["3>3", "D"]}, r"invalid action '3>3'"),
    ({"solution": [" 3>7", "D"]}, r"invalid action ' 3>7'"),
    ({"solution": 5}, r"invalid solution 5 for 'SP1-S2R-AAAAAAD': expected a list of actions"),
    ({"solved_at": 5}, r"invalid solved_at 5 .*ISO 8601"),
    ({"code": None, "suits": "x"}, r"unknown suit count 'x': expected 1, 2 or 4 for a result"),
    ({"code": None, "rule": 7}, r"unknown rule 7: expected classic \(C\) or relaxed \(R\) for a result"),
])
def test_check_names_what_is_wrong(change, message):
    data = verified().to_dict() | change
    with pytest.raises(InvalidRecordError, match=message):
        SolveRecord.from_dict(data)


def test_only_a_verified_record_carries_a_grade():
    data = SolveRecord(CODE, "unknown", reason="nodes").to_dict() | {
        "difficulty": 2, "difficulty_raw": 10.0, "grader_version": "g"}
    with pytest.raises(InvalidRecordError, match="cannot carry a difficulty: only verified deals are graded"):
        SolveRecord.from_dict(data)


def test_an_unknown_status_is_refused_by_name():
    with pytest.raises(InvalidRecordError, match=r"invalid status 'won' for a result: expected one of verified"):
        SolveRecord.from_dict({"status": "won"})


def test_the_reader_takes_a_solution_as_text_and_counts_its_moves():
    record = SolveRecord.from_dict({"code": CODE, "status": "verified", "solution": "1>2 D", "score": 1298,
                                    "max_nodes": 100})
    assert (record.solution, record.moves, record.status) == (("1>2", "D"), 2, Status.VERIFIED)


def test_check_gives_plain_numbers():
    import numpy as np

    record = SolveRecord.from_dict(verified().to_dict() | {"nodes": np.int64(10), "seconds": np.float32(0.5)})
    assert type(record.nodes) is int and type(record.seconds) is float


def test_a_line_in_canonical_notation_is_kept_as_it_is():
    line = ["10>1", "3>7/2", "D", "9>10/13", "1>2"]
    record = SolveRecord.from_dict(verified().to_dict() | {"solution": line, "moves": 5})
    assert record.solution == tuple(line) and record.moves == 5


def test_the_export_schemas_action_is_the_records():
    from spider_solver.export import schema_text
    from spider_solver.record import LINE_ACTION

    assert json.loads(schema_text())["$defs"]["action"]["pattern"] == f"^({LINE_ACTION.pattern})$"


@pytest.mark.parametrize("data", [None, [1, 2], "SP1-S2R-AAAAAAD"])
def test_the_reader_refuses_what_is_not_a_mapping_by_name(data):
    with pytest.raises(InvalidRecordError, match=r"plain-data form is a mapping of its fields .*, not "):
        SolveRecord.from_dict(data)


def test_the_errors_are_the_projects_own():
    assert issubclass(InvalidRecordError, SpiderError) and issubclass(InvalidRecordError, ValueError)


def test_with_grade_sets_or_clears_the_grade():
    graded = verified().with_grade({"difficulty": 4, "difficulty_raw": 60.0, "grader_version": "g"})
    assert (graded.difficulty, graded.graded) == (4, True)
    assert not graded.with_grade(None).graded
