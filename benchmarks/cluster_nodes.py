"""Cluster nodes as processes (``chuanma serve --redis``): started, awaited, killed, stopped.

Used by ``bench_cluster.py`` and ``tests/test_cluster.py``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Node:
    """One ``chuanma serve --redis`` process."""

    proc: subprocess.Popen[bytes]
    base: str
    alive: bool = True

    @classmethod
    def start(cls, db: str, redis: str, data: Path, key: Path, lease: float, options: Sequence[str] = (),
              port: int | None = None, source: Path | None = None) -> Node:
        """Start a node on database ``db`` and Redis ``redis`` with its data in ``data`` (made here
        if missing), the dealer's ``key``, a lease time of ``lease`` seconds and ``serve``'s further
        ``options``, on ``port`` (a free one if None), running the package in ``source`` (another
        release's ``src``; this checkout's if None); its output is added to ``data/node.log``."""
        port = free_port() if port is None else port
        data.mkdir(exist_ok=True)
        env = None if source is None else {**os.environ, "PYTHONPATH": str(source)}
        with (data / "node.log").open("ab") as log:  # the node writes it through its own descriptor
            proc = subprocess.Popen(
                [sys.executable, "-m", "chuanma", "serve", "--port", str(port), "--db", db, "--redis", redis,
                 "--data", str(data), "--key", str(key), "--lease-seconds", str(lease), "--auto-delay", "0",
                 "--bot-wait", "0", *options], stdout=log, stderr=subprocess.STDOUT, env=env)
        return cls(proc, f"http://127.0.0.1:{port}")

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    async def ready(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=5) as http:
            for _ in range(600):
                assert self.proc.poll() is None, f"node {self.base} exited with {self.proc.returncode}"
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
        raise TimeoutError(f"node {self.base} did not start")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.alive = False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    async def metric(self, name: str) -> float:
        async with httpx.AsyncClient(base_url=self.base, timeout=5) as http:
            text = (await http.get("/metrics")).text
        return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))
