"""Games written by earlier releases open and play on under today's code."""
