"""Who is acting: a player, and whether they count as the battle's GM."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Actor:
    user_id: int
    name: str
    manage_channel: bool
    role_ids: frozenset[int]

    @classmethod
    def from_interaction(cls, interaction: discord.Interaction) -> Actor:
        user = interaction.user
        roles = frozenset(r.id for r in getattr(user, "roles", []) if not r.is_default())
        return cls(
            user_id=user.id,
            name=user.display_name,
            manage_channel=interaction.permissions.manage_channels,
            role_ids=roles,
        )

    def is_gm(self, created_by: int, gm_role_id: int | None) -> bool:
        """The battle's starter, anyone with Manage Channel, or holders of the GM role."""
        return (
            self.user_id == created_by
            or self.manage_channel
            or (gm_role_id is not None and gm_role_id in self.role_ids)
        )

    def may_change(self, added_by: int | None, created_by: int, gm_role_id: int | None) -> bool:
        """Who may edit or remove a unit or general: whoever added it, or a GM. Nobody is
        on record for those added before this was kept (None): those are the GM's."""
        return (added_by is not None and self.user_id == added_by) or self.is_gm(
            created_by, gm_role_id)
