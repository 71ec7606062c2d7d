"""Huzzah's rules engine: pure Python, no I/O, no Discord, no database.

Each rule set lives in its own package over the shared core in ``rules.core``.
"""
