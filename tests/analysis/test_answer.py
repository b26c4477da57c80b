"""The answer declared once (spider_solver/analysis/answer.py): each record's fields drive its
plain-data form, the service's response models and the key list of ``analyze --help``; a test
here holds them together."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from spider_solver.analysis import (
    ANALYSIS_FIELDS,
    BRACKET_FIELDS,
    PROBE_FIELDS,
    Bracket,
    Probe,
    analyze,
    to_plain,
)
from spider_solver.analysis.answer import field_names
from spider_solver.outcomes import Reason, Status
from tests.analysis.helpers import FOUR_SUITS

pytestmark = pytest.mark.usefixtures("engine")


def test_to_dict_is_json_with_enums_as_strings(lines):
    analysis = analyze(FOUR_SUITS, lines[FOUR_SUITS][:5], known_line=lines[FOUR_SUITS])
    data = json.loads(json.dumps(analysis.to_dict()))
    assert set(data) == {"code", "replay", "status", "reason", "hint", "line", "source", "lost_at", "lost_at_action",
                         "lost_at_line", "bracket", "effective", "tried", "nodes", "seconds", "max_nodes",
                         "max_seconds", "probes", "summary"}
    assert data["tried"] is None  # said only of an unknown position
    assert set(data["replay"]) == {"won", "moves", "score", "runs_removed", "stock_left", "error"}
    assert (data["status"], data["reason"], data["source"]) == ("verified", "won", "known-line")
    assert data["line"] == list(analysis.line) and data["hint"] == data["line"][0]


# -- one declaration: the dataclass, to_dict, the HTTP models and the help's key list -----------


def declared_names(record: type) -> tuple[str, ...]:
    """What a record's declaration says its plain-data form holds: its dataclass fields, in
    order, then the properties it serialises (Bracket.width)."""
    from dataclasses import fields

    return tuple(f.name for f in fields(record)) + tuple(
        spec.name for spec in record.FIELDS if isinstance(getattr(record, spec.name, None), property))


@pytest.mark.parametrize("record", ["Analysis", "Bracket", "Probe"])
def test_each_record_is_its_fields_declaration(record):
    """The dataclass and its FIELDS name the same fields in the same order: a field added to
    one and not to the other fails here."""
    from spider_solver import analysis

    cls = getattr(analysis, record)
    assert declared_names(cls) == field_names(cls.FIELDS)


def test_the_checker_sees_a_field_left_out_of_the_declaration():
    from dataclasses import dataclass

    from spider_solver.record import Field

    @dataclass(frozen=True)
    class Drifted:
        FIELDS = (Field("a", int, False, "A."),)
        a: int
        b: int

    assert declared_names(Drifted) != field_names(Drifted.FIELDS)


def test_to_dict_the_http_models_and_the_help_list_the_declared_keys(lines):
    """One declaration drives the plain-data form, the service's response models and the
    key list that ``analyze --help`` documents; the served body validates against its model."""
    pytest.importorskip("fastapi")
    from click.testing import CliRunner

    from spider_solver.cli import cli
    from spider_solver.service.models import AnalysisResponse, BracketResponse, ProbeResponse
    from spider_solver.service.routes.games import analysis_body

    analysis = analyze(FOUR_SUITS, lines[FOUR_SUITS][:5], known_line=lines[FOUR_SUITS])
    assert tuple(analysis.to_dict()) == field_names(ANALYSIS_FIELDS)
    bracket = Bracket(winnable=1, winnable_after=0, line=("D",), unwinnable=2, unwinnable_after=1)
    assert tuple(bracket.to_dict()) == field_names(BRACKET_FIELDS)
    probe = Probe(3, Status.UNWINNABLE, Reason.EXHAUSTED, None, 10, 0.5)
    assert tuple(probe.to_dict()) == field_names(PROBE_FIELDS)
    for model, declared in ((AnalysisResponse, ANALYSIS_FIELDS), (BracketResponse, BRACKET_FIELDS),
                            (ProbeResponse, PROBE_FIELDS)):
        assert tuple(model.model_fields) == field_names(declared)
        assert [f.description for f in model.model_fields.values()] == [spec.description for spec in declared]
    AnalysisResponse.model_validate(analysis_body(replace(analysis, bracket=bracket, probes=(probe,))))
    help_text = CliRunner().invoke(cli, ["analyze", "--help"]).output
    listed = re.search(r"--json prints \{(.*?)\}\.", help_text, re.S)
    assert listed is not None and tuple(re.findall(r'"(\w+)"', listed.group(1))) == field_names(ANALYSIS_FIELDS)


def test_to_plain_makes_enums_text_tuples_lists_and_nested_records_plain():
    probe = Probe(0, Status.UNWINNABLE, Reason.EXHAUSTED, None, 7, 0.25)
    bracket = Bracket(winnable=None, winnable_after=None, line=(), unwinnable=4, unwinnable_after=9)
    data = to_plain(bracket)
    assert data == {"winnable": None, "winnable_after": None, "line": [], "unwinnable": 4, "unwinnable_after": 9,
                    "width": None}
    assert to_plain(probe) == {"position": 0, "status": "unwinnable", "reason": "exhausted", "source": None,
                               "nodes": 7, "seconds": 0.25, "first": 0, "last": 0}
    # A probe's answer holds for the positions joined to it by moves back.
    joined = Probe(5, Status.UNKNOWN, Reason.NODES, None, 7, 0.25, 3, 5)
    assert (to_plain(joined)["first"], to_plain(joined)["last"]) == (3, 5)
    assert type(to_plain(probe)["status"]) is str
