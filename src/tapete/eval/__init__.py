"""Hand strength and money: the evaluator, equity, ranges, ICM and insurance."""
