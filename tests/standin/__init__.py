"""Tests of the offline Discord stand-in."""
