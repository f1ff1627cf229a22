"""Simulation: play hands between bots, collect statistics, rank bots by duplicate play."""
