"""Experiments: solving instances end to end, the runner, tables and the CLI."""
