"""The shipped monitoring (deploy/prometheus-alerts.yml, deploy/grafana-dashboard.json): the rules
pass ``promtool check rules``, and every series the rules and the dashboard's panels ask for is one
a node exports (a renamed metric would leave an alert that never fires), selected by labels it has
where a fresh node's series show them (those of labelled counters appear with their first sample)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client import ProcessCollector
from prometheus_client.registry import CollectorRegistry

from chuanma.server.metrics import Metrics

DEPLOY = Path(__file__).parent.parent / "deploy"
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "info": ("_info",)}
SCRAPED = {"job", "instance"}
"""The labels Prometheus adds to every series it scrapes."""
SERIES = re.compile(r"\b((?:chuanma|process)_[a-z_]+)(\{[^}]*\})?")


def exported() -> dict[str, set[str] | None]:
    """Every series name a node's /metrics has, with the labels its samples show (``None``: no sample yet)."""
    metrics = Metrics()
    metrics.watch_queues(lambda: {"chuji-xuezhan": [0.0]}, lambda: 1.0)  # as the app does with its lobby
    registry: CollectorRegistry = metrics.registry
    ProcessCollector(registry=registry)  # registered once per registry, as the app's
    found: dict[str, set[str] | None] = {}
    for family in registry.collect():
        labels = {name for sample in family.samples for name in sample.labels} if family.samples else None
        for suffix in SUFFIXES.get(family.type, ("",)):
            found[family.name + suffix] = labels
    return found


def expressions() -> list[str]:
    rules = yaml.safe_load((DEPLOY / "prometheus-alerts.yml").read_text())
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    return ([rule["expr"] for group in rules["groups"] for rule in group["rules"]]
            + [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]])


def test_every_series_the_alerts_and_the_dashboard_ask_for_is_exported_with_its_labels() -> None:
    series = exported()
    asked = [(m[1], m[2]) for expr in expressions() for m in SERIES.finditer(expr)]
    assert len(asked) >= 25
    for name, selector in asked:
        assert name in series, f"{name} is exported by no node"
        labels = series[name]
        used = set(re.findall(r"([a-z_]+)\s*=~?", selector or ""))
        assert labels is None or used <= labels | SCRAPED, f"{name} has no label {used - labels - SCRAPED}"
    panels = json.loads((DEPLOY / "grafana-dashboard.json").read_text())["panels"]
    assert len({p["id"] for p in panels}) == len(panels)


def test_the_alert_rules_pass_promtool() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("no promtool (Debian's prometheus package; scripts/ensure-system-packages installs it)")
    done = subprocess.run([promtool, "check", "rules", str(DEPLOY / "prometheus-alerts.yml")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "SUCCESS: 14 rules found" in done.stdout, done.stdout + done.stderr
