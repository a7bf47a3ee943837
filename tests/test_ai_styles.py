"""The test players of fixed styles play their style, on the same deals."""

from __future__ import annotations

import ginrummy
from ginrummy.ai import LEVELS, TEST_LEVELS, player
from ginrummy.arena import run_arena

RULES = ginrummy.Rules.preset("classic")


def test_styles_end_hands_their_own_way() -> None:
    results = {
        level: run_arena(level, "expert", RULES, deals=40, seed="styles")
        for level in ("style-knock", "style-gin", "style-undercut", "expert")
    }
    knock = results["style-knock"].style_a
    gin = results["style-gin"].style_a
    undercut = results["style-undercut"].style_a
    expert = results["expert"].style_a
    # knocks at once: more knocks and shorter hands than the expert on the same deals
    assert knock.knock > expert.knock
    assert knock.mean_hand_length < expert.mean_hand_length
    # never knocks: every hand it ends is a gin
    assert gin.knock == 0 and gin.gin > 0
    assert undercut.knock == 0
    # sits low: it undercuts more than the expert does
    assert undercut.undercut >= expert.undercut


def test_test_levels_are_not_offered_to_people() -> None:
    assert not set(TEST_LEVELS) & set(LEVELS)
    for level in TEST_LEVELS:
        assert player(level, 1).level == level
