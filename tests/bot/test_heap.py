"""The garbage collector tuned once the bot is set up, in a process that runs it."""

from __future__ import annotations

import gc

import pytest

from bot.heap import YOUNG_THRESHOLD, settle_heap


@pytest.fixture
def collector():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_heap_freezes_what_is_loaded_and_collects_young_objects_less_often(collector):
    kept = [object() for _ in range(10)]
    settle_heap()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
