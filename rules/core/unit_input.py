"""A quick lookup's units, as a procedure is given them: written in the notation (a slash
command's option, ``2nd Foot: inf regular``, or the same text in a JSON request) or as JSON
objects with their ``name`` (``huzzah resolve``). One reader takes either, so that a
procedure reads its options on one path whether they come from Discord or from JSON; a
battle's units are roster names, which each rule set reads with the roster.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules.core.errors import InvalidInput
from rules.core.fields import FieldSet, split_units

T = TypeVar("T")

# A rule set's unit from its name, the values read for it and where it was given (for the
# messages): the very builder its JSON and its notation share.
Build = Callable[[str, Mapping[str, Any], str], T]


@dataclass(frozen=True)
class UnitReader(Generic[T]):
    """Reads one kind of unit: ``words`` are the notation's, ``json`` a JSON object's (the
    same and ``name``); ``noun`` is what players call it (``unit``, ``stack``)."""

    words: FieldSet
    json: FieldSet
    build: Build[T]
    noun: str = "unit"

    def one(self, value: Any, where: str, default: str) -> T:
        """One unit: ``Name: words`` (unnamed, it is ``default``) or a JSON object."""
        if isinstance(value, Mapping):
            return self._from_json(value, where)
        if not isinstance(value, str) or not value.strip():
            raise InvalidInput(f"`{where}` needs a {self.noun}.",
                               hint="Write it as `Name: words`, or in JSON as an object with its "
                                    "`name`.")
        (text,) = split_units(value, where, 1)
        name, values = self.words.read_text(text, where, several=False)
        return self.build(name or default, values, where)

    def several(self, value: Any, where: str, default: str, limit: int) -> list[T]:
        """Up to ``limit`` units: ``Name: words; Name: words`` (an unnamed one is ``default``
        and its number) or a JSON list of objects."""
        if isinstance(value, list):
            if not 1 <= len(value) <= limit:
                raise InvalidInput(f"`{where}` must be a list of 1 to {limit} {self.noun}s.")
            return [self._from_json(item, f"{where}[{i}]") for i, item in enumerate(value)]
        if not isinstance(value, str):
            raise InvalidInput(f"`{where}` must be a list of {self.noun}s.",
                               hint="Write them as `Name: words; Name: words`, or in JSON as "
                                    "a list of objects.")
        units = []
        for number, part in enumerate(split_units(value, where, limit), start=1):
            # A named unit is named in what is refused of it; one unnamed, by its place.
            name, values = self.words.read_text(part, f"{where} #{number}", option=where)
            label = f"{where}: {name}" if name else f"{where} #{number}"
            units.append(self.build(name or f"{default} {number}", values, label))
        return units

    def _from_json(self, data: Any, where: str) -> T:
        values = self.json.read_json(data, where)
        if "name" not in values:
            raise InvalidInput(f"{where}: every {self.noun} needs a `name`.")
        return self.build(values["name"], values, where)
