"""What each channel's battle was left as by this process's last move there."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.battles.moves import BattleRead

STATES_KEPT = 1_000
"""Channels whose last state is kept; a channel not kept costs one read on its next move."""


class ChannelStates:
    """The state each channel's battle was left in by this process's last move there.

    A guess that saves a move its read: the write's condition on ``last_seq`` checks it, so a
    state that another command or process has overtaken costs a read, never a wrong result.
    The store forgets a channel's state whenever another kind of command runs there.
    """

    def __init__(self, size: int = STATES_KEPT) -> None:
        self._size = size
        self._states: OrderedDict[int, BattleRead] = OrderedDict()

    def __len__(self) -> int:
        return len(self._states)

    def get(self, channel_id: int) -> BattleRead | None:
        state = self._states.get(channel_id)
        if state is not None:
            self._states.move_to_end(channel_id)
        return state

    def keep(self, channel_id: int, state: BattleRead) -> None:
        self._states[channel_id] = state
        self._states.move_to_end(channel_id)
        while len(self._states) > self._size:
            self._states.popitem(last=False)

    def forget(self, channel_id: int) -> None:
        self._states.pop(channel_id, None)
