"""Images as players saw them arrive: with a message, or added to it afterwards by an edit (cogs/late_images.py)."""

from __future__ import annotations

from collections.abc import Iterator

from standin.inprocess import InProcessDiscord
from standin.world import Output


def now(d: InProcessDiscord, out: Output) -> list[tuple[str, bytes]]:
    """The attachments of the message `out` showed, as it stands now (an image that followed by an edit counts)."""
    message = d.world.messages.get(out.message_id)
    return [(a.filename, a.data) for a in message.attachments] if message is not None else list(out.attachments)


def arrived(d: InProcessDiscord, outputs: list[Output]) -> Iterator[tuple[Output, list[tuple[str, bytes]]]]:
    """Each output of `outputs` that showed new images (a message sent with them, or an edit that added or changed
    them), with those images; an edit that only repeats a message's earlier image is left out."""
    wanted = {id(o) for o in outputs}
    before: dict[int, list[tuple[str, bytes]]] = {}
    for out in d.world.outputs:
        shown = list(out.attachments)
        if id(out) in wanted and shown and shown != before.get(out.message_id):
            yield out, shown
        before[out.message_id] = shown


def newest_board(d: InProcessDiscord, outputs: list[Output]) -> list[tuple[str, bytes]]:
    """The public image that arrived last on the newest message posted in `outputs` (else on any public message):
    the board as the channel sees it once everything is drawn. Boards of moves that a later one (a bot's) passed
    are the public views of those earlier states; this one must be the public view now."""
    public = [(o, shown) for o, shown in arrived(d, outputs) if o.recipient_id is None]
    posted = [o.message_id for o in outputs if o.kind == "channel"]
    on_newest = [(o, shown) for o, shown in public if posted and o.message_id == posted[-1]]
    chosen = on_newest or public
    return chosen[-1][1] if chosen else []
