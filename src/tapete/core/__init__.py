"""The rules engine: cards, rules and games, betting, pots, events, the hand, the table."""
