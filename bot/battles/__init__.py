"""Battles that last: per-channel state, the event log, undo and the GM's tools."""
