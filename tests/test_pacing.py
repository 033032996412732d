"""The bots' turns after a person's move run as their own steps, never inside anyone's command."""

from __future__ import annotations

import asyncio
import contextlib
import itertools

from rules.base import Action, NotYourTurn
from table import Report, Table
from table.pacing import PEOPLE, Pacing, People
from tests.conftest import ALICE, FakeClock
from tests.table_reads import channel_row, tiny_state

CH = 400


class Held(Pacing):
    """Pacing that stops before the Nth automated step until released."""

    def __init__(self, stop_before: int) -> None:
        super().__init__()
        self.stop_before, self.steps = stop_before, 0
        self.reached, self.release = asyncio.Event(), asyncio.Event()

    @contextlib.asynccontextmanager
    async def automated_step(self):
        self.steps += 1
        if self.steps == self.stop_before:
            self.reached.set()
            await self.release.wait()
        async with super().automated_step():
            yield


async def human_move(table: Table) -> Report:
    row = await channel_row(table, CH)
    state = tiny_state(await table.inspect(row.id))
    action = Action.of("end") if state.played else Action.of("play", card=state.hands[0][0])
    return await table.act(CH, ALICE, action)


async def test_a_person_is_answered_before_the_bots_and_between_their_steps(store, clock: FakeClock) -> None:
    table = Table(store, clock=clock, seed_source=itertools.count(3).__next__, defer_auto=True)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=2)
    await table.start(CH, ALICE)
    before = (await channel_row(table, CH)).version
    report = await human_move(table)
    report = await human_move(table) if not report.pending_auto else report
    assert report.pending_auto and report.version <= before + 2, "answered with no bot move inside the command"
    table.pacing = held = Held(stop_before=2)
    chain = asyncio.ensure_future(table.resume(report.game_id))  # (resume is wrapped: an awaitable, run as a task)
    await asyncio.wait_for(held.reached.wait(), 10)  # one bot has moved, the next is about to
    # A person's command arrives in the middle of the bots' chain and waits for the channel...
    command = asyncio.create_task(human_move(table))
    for _ in range(100):
        if table._locks.contended(CH):
            break
        await asyncio.sleep(0.01)
    assert table._locks.contended(CH)
    held.release.set()
    # ...and is let in after the step under way, not after the whole chain: so it is answered "not your turn
    # yet" (had it waited for the whole chain, its move would have gone through).
    try:
        await asyncio.wait_for(command, 10)
        raise AssertionError("the person's command waited for the bots' whole chain")
    except NotYourTurn:
        pass
    follow = await asyncio.wait_for(chain, 10)
    assert follow is not None and held.steps >= 3, "the chain went on after the person's command"
    row = await channel_row(table, CH)
    assert tiny_state(await table.inspect(row.id)).turn == 0, "the chain went on to the person's turn"


async def test_background_work_waits_while_a_person_waits_for_an_answer() -> None:
    people = People()
    answered = people.arrive()
    calm = asyncio.create_task(people.calm(patience=10))
    await asyncio.sleep(0.05)
    assert not calm.done(), "a bot's step went ahead of a person waiting for their answer"
    answered()
    answered()  # a second call (the guard's, after the reply's) changes nothing
    await asyncio.wait_for(calm, 1)
    assert people.waiting == 0 and people.impatient == 0


async def test_background_work_is_never_starved_by_people_who_keep_coming() -> None:
    people = People()
    people.arrive()  # never answered
    await asyncio.wait_for(people.calm(patience=0.05), 1)
    assert people.impatient == 1 and people.waiting == 1


async def test_a_bots_step_waits_for_the_answer_of_a_person_in_another_channel() -> None:
    pacing = Pacing()
    answered = PEOPLE.arrive()
    stepped = asyncio.Event()

    async def step() -> None:
        async with pacing.automated_step():
            stepped.set()

    task = asyncio.create_task(step())
    await asyncio.sleep(0.05)
    assert not stepped.is_set()
    answered()
    await asyncio.wait_for(task, 1)
