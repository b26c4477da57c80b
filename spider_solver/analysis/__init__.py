"""Games in progress: "still winnable?", a hint on a winning line, where the game was lost,
and the fair hint.

``analyze(deal, actions)`` replays a game log and answers for the position reached, with
full knowledge of the face-down cards and the stock, with the three honest outcomes of
:func:`spider_solver.verify.solve`. One concern a module: the options
(:mod:`.options`), the answer declared once (:mod:`.answer`), the replay (:mod:`.start`),
the search of a position (:mod:`.search`), hints from a known line (:mod:`.hints`), where
the game was lost (:mod:`.lost`), and :func:`analyze` itself (:mod:`.position`). What the
answers mean is written out in docs/engine.md, "Games in progress".

``fair_hint(deal, actions)`` (:mod:`.fair`) is the hint a player may take without being
told what the game has not shown: the best next action judged only on the cards seen,
with its chance to win; ``fair_game`` plays a whole game by following it
(docs/engine.md, "Fair hints"). ``review(deal, actions)`` (:mod:`.reviewing`) judges each
decision of a game by what the player could see, and names the costliest with the better
action (docs/engine.md, "Reviews").
"""

from spider_solver.analysis.answer import (
    ANALYSIS_FIELDS,
    BRACKET_FIELDS,
    PROBE_FIELDS,
    Analysis,
    Bracket,
    Probe,
    Source,
    to_plain,
)
from spider_solver.analysis.fair import (
    FAIR_CHOICE_FIELDS,
    FAIR_GAME_FIELDS,
    FAIR_HINT_FIELDS,
    FAIR_STEP_FIELDS,
    FairChoice,
    FairGame,
    FairHint,
    FairOptions,
    FairStep,
    fair_game,
    fair_hint,
)
from spider_solver.analysis.lost import LOST_AT_LAST_DEAL_SHARE, LOST_AT_SHARE
from spider_solver.analysis.options import AnalysisOptions, KnownLine
from spider_solver.analysis.position import analyze, analyze_without_search, hint_from_line
from spider_solver.analysis.reviewing import (
    DECISION_FIELDS,
    MISTAKE_FIELDS,
    REVIEW_FIELDS,
    Decision,
    Mistake,
    Review,
    ReviewOptions,
    review,
)
from spider_solver.analysis.search import EARLY_PROOF_DEALS_LEFT, EARLY_PROOF_NODES, EARLY_PROOF_SHARE

__all__ = [
    "ANALYSIS_FIELDS", "BRACKET_FIELDS", "DECISION_FIELDS", "EARLY_PROOF_DEALS_LEFT", "EARLY_PROOF_NODES",
    "EARLY_PROOF_SHARE", "FAIR_CHOICE_FIELDS", "FAIR_GAME_FIELDS", "FAIR_HINT_FIELDS", "FAIR_STEP_FIELDS",
    "LOST_AT_LAST_DEAL_SHARE", "LOST_AT_SHARE", "MISTAKE_FIELDS", "PROBE_FIELDS", "REVIEW_FIELDS", "Analysis",
    "AnalysisOptions", "Bracket", "Decision", "FairChoice", "FairGame", "FairHint", "FairOptions", "FairStep",
    "KnownLine", "Mistake", "Probe", "Review", "ReviewOptions", "Source", "analyze", "analyze_without_search",
    "fair_game", "fair_hint", "hint_from_line", "review", "to_plain",
]
