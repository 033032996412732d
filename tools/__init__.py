"""Command-line tools: simulate, bench and content checkers."""
