"""Device names and discovery (no heavy imports here: the CLI's start-up path uses it)."""
