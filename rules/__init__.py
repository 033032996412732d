"""Pure, deterministic rule engines: one package per game, plus the shared contract."""
