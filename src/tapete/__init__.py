"""tapete: Texas Hold'em dealt and refereed exactly by the rules."""

__version__ = "0.1.0"
