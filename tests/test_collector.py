"""Full garbage collections run only when nobody waits for an answer, and Python's own schedule comes back after."""

from __future__ import annotations

import gc

import pytest

from cogs import collector
from table.pacing import PEOPLE


@pytest.fixture
def policy():
    before = gc.get_threshold()
    collector.start()
    yield
    collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_no_automatic_full_collection_while_the_bot_runs(policy) -> None:
    assert gc.get_threshold()[2] == collector.NEVER
    assert gc.get_freeze_count() > 0, "start-up objects are frozen"


async def test_a_due_full_collection_waits_for_the_person_being_answered(policy) -> None:
    late = collector._Policy.last_full + collector.FULL_EVERY + 1
    answered = PEOPLE.arrive()
    assert not collector.collect_if_due(late), "a full collection paused a person's answer"
    answered()
    assert collector.collect_if_due(late)
    assert not collector.collect_if_due(late), "collected again right after"


async def test_a_full_collection_is_due_after_many_young_ones(policy, monkeypatch) -> None:
    now = collector._Policy.last_full + 1
    monkeypatch.setattr(collector.gc, "get_count", lambda: (0, 0, collector.PROMOTIONS))
    assert collector.full_due(now)
    monkeypatch.setattr(collector.gc, "get_count", lambda: (0, 0, collector.PROMOTIONS - 1))
    assert not collector.full_due(now)


def test_auto_leaves_pythons_schedule_alone(monkeypatch) -> None:
    monkeypatch.setenv("TABLETOP_GC", "auto")
    before = gc.get_threshold()
    collector.start()
    assert gc.get_threshold() == before
    collector.stop()
