"""How a result says its effects and rolls in few lines: a loss said once however its plural,
alike effects counted, a roll made again under the same label on its first one's line."""

from __future__ import annotations

from bot.render.resolution import _alike, public_roll_lines, summed
from rules.core.dice import plain_readings
from rules.core.records import Effect, EffectKind, Roll, Step


def test_a_loss_of_one_block_and_one_of_two_are_one_loss_of_three():
    # Tricorne says "1 block" in the singular: it adds up with "2 blocks".
    lost = summed([Effect(EffectKind.DAMAGE, "Fusiliers", 1, measure="block"),
                   Effect(EffectKind.MOVED, "Fusiliers", 1, value="retreats", measure="hex"),
                   Effect(EffectKind.DAMAGE, "Fusiliers", 2, measure="blocks")])
    assert [e.describe() for e in lost] == ["Fusiliers loses 3 blocks",
                                            "Fusiliers retreats 1 hex"]
    # Two losses of one each are two blocks; a lone move of one stays "1 hex".
    two = summed([Effect(EffectKind.DAMAGE, "A", 1, measure="block"),
                  Effect(EffectKind.DAMAGE, "A", 1, measure="block")])
    assert [e.describe() for e in two] == ["A loses 2 blocks"]


def test_alike_parts_are_counted_with_their_reasons_kept():
    assert _alike(["wins a Victory Banner", "loses 1 block", "wins a Victory Banner"]) == [
        "wins a Victory Banner ×2", "loses 1 block"]
    assert _alike(["is shaken (charged)", "is shaken (general killed)"]) == [
        "is shaken ×2 (charged; general killed)"]


def roll(label: str, dice: tuple[int, ...], target: str, result: str) -> Roll:
    return Roll(label, "2d6", dice, total=sum(dice), target=target, result=result,
                readings=plain_readings(dice))


def test_a_roll_made_again_joins_its_first_line_its_label_and_target_said_once():
    steps = [
        Step("Melee", "", (roll("Black Watch melee", (3, 4), "Fusiliers", "1 hit"),)),
        Step("Rally", "", (roll("Fusiliers rally check", (6,), "6", "rallies"),)),
        Step("Bonus melee", "", (roll("Black Watch melee", (5, 6), "Fusiliers", "2 hits"),)),
        Step("Leader", "", (roll("Murray check", (1, 2), "2 sabers", "survives"),)),
        Step("Leader", "", (roll("Murray check", (6,), "1 saber", "killed"),)),
    ]
    assert public_roll_lines(steps) == [
        "**Black Watch melee** 🎲 3 4 = **7** vs Fusiliers → 1 hit; 🎲 5 6 = **11** → 2 hits",
        "**Fusiliers rally check** 🎲 6 vs 6 → rallies",
        # Read against another target: it is said.
        "**Murray check** 🎲 1 2 = **3** vs 2 sabers → survives; 🎲 6 vs 1 saber → killed",
    ]
