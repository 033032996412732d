"""Tests of the Hero Realms rules engine, card data and AI."""
