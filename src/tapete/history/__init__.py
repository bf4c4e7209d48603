"""Hand histories: one module per format, all reading to and writing from :class:`HandRecord`."""
