"""Send a command whose option values are replaced as they are, as a crafted payload could (Discord's checks absent)."""

from __future__ import annotations

from typing import Any

from standin.driver import APP_COMMAND, Driver
from standin.world import Output


def _patch(options: list[dict[str, Any]], raw: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for opt in options:
        if opt["name"] in raw:
            opt = {**opt, "value": raw[opt["name"]]}
        if "options" in opt:
            opt = {**opt, "options": _patch(opt["options"], raw)}
        out.append(opt)
    return out


async def crafted(d: Driver, who: str, line: str, **raw: Any) -> list[Output]:
    """Run `line` (a valid command line) with the named options' values swapped for `raw` ones, unchecked."""
    user = d.user(who)
    ch = d.channel
    assert ch is not None
    data = d.command_data(user, ch, line)
    data["options"] = _patch(data.get("options") or [], raw)
    inter = d.world.new_interaction(APP_COMMAND, user, ch)
    return await d._run(inter, d.interaction_payload(inter, user, ch, data))
