"""Offline Discord stand-in: a fake Discord for running the unmodified bot in tests and local play."""
