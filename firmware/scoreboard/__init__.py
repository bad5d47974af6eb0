"""Scoreboard views: each renders the `state` payload of contracts.md §6 and nothing else."""
