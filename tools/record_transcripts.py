"""Re-record every transcript in tests/transcripts/ with its recorder, seed and options, in one command.

    python -m tools.record_transcripts            # all of them, two at a time
    python -m tools.record_transcripts --jobs 1 gorgasali_duel_es.txt heroquest_trial.txt

Run it after a change of engine, AI or wording (labels of buttons and menus, command names), then replay them with
`python -m pytest tests/test_transcripts.py tests/e2e/test_heroquest_transcripts.py` and read the diff. Each
transcript's header names the same command for it alone. tests/transcripts/lobby.txt is written by hand.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = "tests/transcripts/"
TRIAL = "tests/fixtures/reference/heroquest/heroscribe/quests-eu-base/HQBase-01-TheTrial_EU.xml"

#: Transcript -> the recorder's arguments (`python -m ...`). The Hero Realms recorder lives in the test module.
RECORDERS: dict[str, list[str]] = {
    # one 2-player game of each game on a Spanish server, an English and a Spanish player, then the ways out
    "hero_realms_duel_es.txt": ["tests.test_transcripts", "hero_realms_duel_es.txt"],
    "gorgasali_duel_es.txt": ["tools.gg_transcript", "--seed", "7", "--ai", "0", "--spanish", "--exits"],
    "kings_armory_duel_es.txt": ["tools.ka_transcript", "--seed", "7", "--ai", "0", "--spanish", "--exits"],
    "indagar_duel.txt": ["tools.gi_transcript", "--seed", "7", "--players", "2", "--spanish", "--exits"],
    "heroquest_trial.txt": ["tools.hq_transcript", "--seed", "1", "--file", TRIAL, "--spanish", "--exits"],
    # the others, on an English server
    "hero_realms_ai.txt": ["tests.test_transcripts", "hero_realms_ai.txt"],
    "hero_realms_hydra.txt": ["tests.test_transcripts", "hero_realms_hydra.txt"],
    "gorgasali_ai.txt": ["tools.gg_transcript", "--seed", "7", "--mode", "ffa", "--ai", "2"],
    "gorgasali_duo.txt": ["tools.gg_transcript", "--seed", "7", "--mode", "duo", "--ai", "0"],
    "kings_armory_team.txt": ["tools.ka_transcript", "--seed", "7", "--ai", "1"],
    "kings_armory_solo.txt": ["tools.ka_transcript", "--seed", "7", "--solo"],
    "indagar_solo.txt": ["tools.gi_transcript", "--seed", "7", "--players", "1"],
    "heroquest_own.txt": ["tools.hq_transcript", "--seed", "2", "--quest", "crypt_of_ulfgar"],
}


def command(name: str) -> list[str]:
    args = RECORDERS[name]
    if args[0] == "tests.test_transcripts":  # writes to its own path
        return [sys.executable, "-m", *args]
    return [sys.executable, "-m", *args, "--out", OUT + name]


def record(name: str) -> tuple[str, int, float, str]:
    t0 = time.monotonic()
    done = subprocess.run(command(name), cwd=ROOT, capture_output=True, text=True)
    return name, done.returncode, time.monotonic() - t0, (done.stderr or done.stdout).strip()[-1500:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="transcript file names (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="recorders run at once")
    args = parser.parse_args(argv)
    names = args.names or list(RECORDERS)
    unknown = [n for n in names if n not in RECORDERS]
    if unknown:
        parser.error(f"no recorder for {', '.join(unknown)}; known: {', '.join(RECORDERS)}")
    failed = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, code, seconds, said in pool.map(record, names):
            lines = (ROOT / OUT / name).read_text(encoding="utf-8").count("\n") if code == 0 else 0
            print(f"{name}: {'ok' if code == 0 else 'FAILED'} in {seconds:.0f}s, {lines} lines", flush=True)
            if code:
                failed += 1
                print(said, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
