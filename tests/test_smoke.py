import ginrummy


def test_public_api_example() -> None:
    cards = ginrummy.parse_cards("As 2s 3s 7h 7d 7c Kd Qd Jd 5c")
    arrangement = ginrummy.arrange(cards)
    assert arrangement.deadwood_points == 5
    assert [str(c) for c in arrangement.deadwood] == ["5c"]
