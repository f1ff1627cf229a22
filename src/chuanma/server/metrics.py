"""Prometheus metrics of one server (its own registry, so several apps can live in one process)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info, PlatformCollector, ProcessCollector
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from chuanma import __version__


@dataclass(slots=True)
class Metrics:
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    live_tables: Gauge = field(init=False)
    connected: Gauge = field(init=False)
    hands: Counter = field(init=False)
    decisions: Counter = field(init=False)
    decided: dict[str, Counter] = field(init=False)
    """``decisions`` by who decided (``player``, ``bot``, ``auto``): labelled once, counted per decision."""
    latency: Histogram = field(init=False)
    errors: Counter = field(init=False)
    settlement_failures: Counter = field(init=False)
    tables_given_up: Counter = field(init=False)
    progression_failures: Counter = field(init=False)
    gc_pause: Histogram = field(init=False)
    handovers: Counter = field(init=False)
    leases_lost: Counter = field(init=False)
    tables_refused: Counter = field(init=False)
    handed_over: Counter = field(init=False)
    bus_lag: Histogram = field(init=False)
    bus_reconnects: Counter = field(init=False)
    http_responses: Counter = field(init=False)
    sign_ins: Counter = field(init=False)
    ledger_rows: Counter = field(init=False)
    chips: Counter = field(init=False)
    build: Info = field(init=False)

    def __post_init__(self) -> None:
        r = self.registry
        self.live_tables = Gauge("chuanma_live_tables", "Tables open now", registry=r)
        self.connected = Gauge("chuanma_connected_players", "WebSocket connections open now", registry=r)
        self.hands = Counter("chuanma_hands", "Hands settled (rate() of it: hands per minute)", registry=r)
        self.decisions = Counter("chuanma_decisions", "Decisions applied", ["by"], registry=r)
        self.decided = {by: self.decisions.labels(by) for by in ("player", "bot", "auto")}
        self.latency = Histogram(
            "chuanma_decision_seconds", "From a player's command received to its events queued to send",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0), registry=r)
        self.errors = Counter("chuanma_errors", "Refusals and failures by code", ["code"], registry=r)
        self.settlement_failures = Counter(
            "chuanma_settlement_failures", "Hands voided because their settlement failed, by error", ["error"],
            registry=r)
        self.tables_given_up = Counter(
            "chuanma_tables_given_up", "Tables closed because they could not be resumed or kept failing", registry=r)
        self.progression_failures = Counter(
            "chuanma_progression_failures", "Hands settled without their figures (ratings, hand_players), by error",
            ["error"], registry=r)
        self.gc_pause = Histogram(
            "chuanma_gc_pause_seconds", "Pauses of the cyclic garbage collector (nothing else runs), by generation",
            ["generation"], buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0), registry=r)
        self.handovers = Counter(
            "chuanma_table_handovers", "Tables this node claimed after their lease lapsed (a cluster's failover)",
            registry=r)
        self.leases_lost = Counter(
            "chuanma_table_leases_lost", "Tables this node dropped because another node took their lease over",
            registry=r)
        self.handed_over = Counter(
            "chuanma_tables_handed_over", "Tables this node let go of while draining (another node runs them on)",
            registry=r)
        self.tables_refused = Counter(
            "chuanma_tables_refused", "Tables whose lease this node released at once: dealt by another of the "
            "cluster's dealer keys (a rotation under way), a node holding that key takes them", registry=r)
        self.bus_lag = Histogram(
            "chuanma_bus_lag_seconds", "From a bus message published to its receipt by this node (wall clocks)",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0), registry=r)
        self.bus_reconnects = Counter(
            "chuanma_bus_reconnects", "Times this node's bus lost Redis and subscribed again", registry=r)
        self.http_responses = Counter(
            "chuanma_http_responses", "HTTP responses by method, route (its path template) and status",
            ["method", "route", "status"], registry=r)
        self.sign_ins = Counter(
            "chuanma_sign_ins", "Registrations, logins and guest accounts, by kind and result (ok, or the refusal's "
            "code: login_failed, banned, username_taken, too_many_grants…; a rate limit's refusal is not counted "
            "here: chuanma_http_responses_total's 429)", ["kind", "result"], registry=r)
        self.ledger_rows = Counter(
            "chuanma_ledger_rows", "Ledger rows this node committed, by kind (grant, relief, hand, escape, "
            "adjustment): escapes are the escape rows", ["kind"], registry=r)
        self.chips = Counter(
            "chuanma_chips", "Chips this node's ledger rows moved, by kind and direction (in: to a balance, out: "
            "from one); grants and reliefs are the chips made, hands' in and out are equal", ["kind", "direction"],
            registry=r)
        self.build = Info("chuanma_build", "The release this server runs", registry=r)
        self.build.info({"version": __version__})
        ProcessCollector(registry=r)  # process_*: memory, CPU seconds, open file descriptors, start time
        PlatformCollector(registry=r)  # python_info

    def progression_failed(self, exc: Exception) -> None:
        """Count a settlement whose figures could not be written (``Store.on_settle_failed``)."""
        self.progression_failures.labels(type(exc).__name__).inc()

    def signed_in(self, kind: str, result: str) -> None:
        """Count a registration, login or guest account (``result``: ok, or the refusal's code)."""
        self.sign_ins.labels(kind, result).inc()

    def ledger_written(self, rows: list[tuple[str, int]]) -> None:
        """Count committed ledger rows (``Store.on_ledger``)."""
        for kind, amount in rows:
            self.ledger_rows.labels(kind).inc()
            if amount:
                self.chips.labels(kind, "in" if amount > 0 else "out").inc(abs(amount))

    def watch_queues(self, waiting: Callable[[], Mapping[str, Sequence[float]]], now: Callable[[], float]) -> None:
        """Show the queues as they are at each scrape: ``waiting()`` gives, by room, the times its
        waiting players joined."""
        self.registry.register(QueueCollector(waiting, now))

    def gc_watcher(self) -> Callable[[str, dict[str, Any]], None]:
        """A :data:`gc.callbacks` entry that times each collection into :attr:`gc_pause`."""
        pauses = [self.gc_pause.labels(str(g)) for g in range(3)]
        started = 0.0

        def watch(phase: str, info: dict[str, Any]) -> None:
            nonlocal started
            if phase == "start":
                started = time.perf_counter()
            else:
                pauses[info["generation"]].observe(time.perf_counter() - started)
        return watch


class QueueCollector(Collector):
    """``chuanma_queued_players`` and ``chuanma_queue_wait_seconds`` by room, read at each scrape."""

    def __init__(self, waiting: Callable[[], Mapping[str, Sequence[float]]], now: Callable[[], float]) -> None:
        self.waiting, self.now = waiting, now

    def collect(self) -> Iterator[Metric]:
        queued = GaugeMetricFamily("chuanma_queued_players", "Players waiting in a room's queue on this node",
                                   labels=["room"])
        longest = GaugeMetricFamily("chuanma_queue_wait_seconds", "How long the longest waiting player of a "
                                    "room's queue on this node has waited (0: none waits)", labels=["room"])
        now = self.now()
        for room, since in self.waiting().items():
            queued.add_metric([room], len(since))
            longest.add_metric([room], now - min(since) if since else 0.0)
        yield queued
        yield longest
