"""The shipped proxy configurations (deploy/nginx-cluster.conf, deploy/haproxy-cluster.cfg) run in
front of nodes by a test or a benchmark as its own process, on free ports, with a certificate of
its own (tests/test_cluster_proxy.py, benchmarks/rolling_restart.py)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cluster_harness import started
from cluster_nodes import free_port

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
NGINX_MAIN = """worker_processes 1;
pid nginx.pid;
error_log error.log info;
events {{ worker_connections 256; }}
http {{
    access_log access.log;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    include {site};
}}
"""
"""nginx's main configuration around the shipped file (as Debian's nginx.conf includes
conf.d/*.conf), with every path under the test's own directory (nginx's ``-p`` prefix)."""


def binary(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin")


def rendered(shipped: Path, names: dict[str, str], nodes: list[int]) -> str:
    """The ``shipped`` file with this installation's ``names`` and the nodes' ports (each found
    exactly once, or the shipped file changed shape)."""
    text = shipped.read_text()
    names = {**names, **{f"127.0.0.1:{8001 + k}": f"127.0.0.1:{node}" for k, node in enumerate(nodes)}}
    for there, here in names.items():
        assert text.count(there) == 1, f"{shipped.name} has {text.count(there)} {there!r}"
        text = text.replace(there, here)
    return text


@dataclass
class Proxy:
    """A proxy in the foreground, run by this test's user, with everything under ``prefix``,
    listening on ``base`` (TLS, with the certificate ``prefix/proxy.pem``)."""

    proc: subprocess.Popen[bytes]
    prefix: Path
    base: str
    plain: str
    """Its plain HTTP address (redirecting to ``base``'s)."""
    passed_over: str
    """What its log says once it passed the node that is not there over."""
    alive: bool = True

    @classmethod
    def start(cls, kind: str, prefix: Path, nodes: list[int]) -> Proxy:
        """Run ``deploy/<kind>-cluster.*`` in front of the nodes listening on ``nodes``."""
        (prefix / "temp").mkdir(parents=True)
        cert, key = prefix / "proxy.pem", prefix / "proxy.key"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        port, plain = free_port(), free_port()
        log = prefix / "error.log"
        if kind == "nginx":
            site = prefix / "chuanma.conf"
            site.write_text(rendered(DEPLOY / "nginx-cluster.conf", {
                "listen 443 ": f"listen 127.0.0.1:{port} ", "listen 80;": f"listen 127.0.0.1:{plain};",
                "/etc/ssl/mahjong.example.com.pem": str(cert),
                "/etc/ssl/mahjong.example.com.key": str(key)}, nodes))
            (prefix / "nginx.conf").write_text(NGINX_MAIN.format(site=site))
            # run as root (a CI container), nginx's workers would switch to "nobody", who may not enter
            # the test's directory: they stay the test's user
            main = "daemon off;" + (" user root;" if os.geteuid() == 0 else "")
            command = [str(binary("nginx")), "-p", str(prefix), "-c", "nginx.conf", "-e", str(log), "-g", main]
            passed_over = "Connection refused) while connecting to upstream"
        else:
            both = prefix / "proxy-and-key.pem"  # HAProxy's one file: the certificate, then its key
            both.write_text(cert.read_text() + key.read_text())
            (prefix / "haproxy.cfg").write_text(rendered(DEPLOY / "haproxy-cluster.cfg", {
                "bind :443 ": f"bind 127.0.0.1:{port} ", "bind :80\n": f"bind 127.0.0.1:{plain}\n",
                "/etc/ssl/mahjong.example.com.pem": str(both)}, nodes))
            command = [str(binary("haproxy")), "-db", "-f", str(prefix / "haproxy.cfg")]
            passed_over = "Server chuanma_nodes/node3 is DOWN"
        with log.open("ab") as out:
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        started(proc, lambda: listening(port), f"{kind} (its log: {log})")
        return cls(proc, prefix, f"https://127.0.0.1:{port}", f"http://127.0.0.1:{plain}", passed_over)

    @property
    def cert(self) -> Path:
        return self.prefix / "proxy.pem"

    def log(self) -> str:
        return (self.prefix / "error.log").read_text()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True
