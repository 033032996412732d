"""Tests for the renderers and their shared toolkit."""
