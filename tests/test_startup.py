"""`python bot.py` without a token stops at once and says how to set one or use --local."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_token_fails_fast_with_guidance(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    # An empty variable wins over a developer's .env file (python-dotenv never overrides).
    env["DISCORD_TOKEN"] = ""
    result = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=env, cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode != 0
    assert "DISCORD_TOKEN" in result.stderr and "--local" in result.stderr
