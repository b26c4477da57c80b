"""The fair hint's chance model (``CHANCE_MODELS``): its contract, whatever the fitted numbers."""

import pytest

from spider_solver.engine.fair_hint import CHANCE_MODELS, chance_features, chance_of


@pytest.mark.parametrize("suits", sorted(CHANCE_MODELS))
def test_the_chances_of_a_positions_actions_rank_as_their_layouts_won(suits):
    # Every action of one position shares the position's figures; only its layouts won differ.
    # A model fitted freely can weigh the wins below 0 (fit_chance.py --share holds it), and
    # then a hint would show an action that won fewer layouts with a higher chance.
    for position in [(0.3, 23.4, 44, 0, 0), (2.5, 8.0, 20, 3, 2), (7.0, 0.5, 2, 5, 6)]:
        chances = [chance_of(chance_features(wins, 16, *position, suits), suits) for wins in range(17)]
        assert all(0 < c < 1 for c in chances)
        assert chances == sorted(chances)
    assert CHANCE_MODELS[suits][1] >= 0


def test_every_suit_count_has_a_model_of_the_features_read():
    width = len(chance_features(3, 16, 1.0, 20.0, 30, 1, 0, 4))
    assert set(CHANCE_MODELS) == {1, 2, 4}
    assert all(len(beta) == width + 1 for beta in CHANCE_MODELS.values())
