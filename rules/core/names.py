"""How names are compared: the one lookup form of a unit's, a general's or a side's name.

A name is found whatever its case and spacing, and whichever apostrophe was typed: a phone
types ``Lochiel’s`` (a curly apostrophe) where a keyboard types ``Lochiel's``, and both mean
the same regiment.
"""

from __future__ import annotations

from functools import lru_cache

APOSTROPHES = "’‘"
"""Typed in place of ``'``: a phone's right and left single quotation marks."""
_STRAIGHT = str.maketrans(dict.fromkeys(APOSTROPHES, "'"))


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """The lookup form of a name. A move asks it of every unit of the roster (a big battle
    has hundreds) and of the same few names a dozen times: remembered by the standard
    library's cache, whose look-up costs a fraction of a call to Python."""
    return " ".join(name.translate(_STRAIGHT).split()).casefold()
