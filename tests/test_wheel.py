"""The release wheel as a user gets it (scripts/build-wheels): this Python's wheel is built with the
release compiler, labelled manylinux_2_17 by auditwheel, holds the licence, and runs installed in a
fresh environment away from the checkout; and a build from source without a compiler stops with one
line saying what to install.

The wheel's test needs the release tools (``pip install -e '.[release]'``; scripts/build-wheels
installs them) and skips without them, as in the suite's usual run: the first build by Zig on a
machine compiles its C++ library too (about 100 s more), which a CI run cannot spend;
scripts/build-wheels runs it, and tests every wheel it builds the same way."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import chuanma

ROOT = Path(__file__).resolve().parent.parent
NO_COMPILER = ("chuanma needs a C++17 compiler to build from source: apt-get install g++ "
               "(dnf install gcc-c++, apk add g++), or install a wheel")


def test_the_wheel_is_manylinux_and_runs_installed(tmp_path: Path) -> None:
    pytest.importorskip("ziglang", reason="the release tools: pip install -e '.[release]'")
    done = subprocess.run([ROOT / "scripts" / "build-wheels", "--quick", tmp_path], capture_output=True, text=True,
                          env={**os.environ, "WHEEL_TOOLS": sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'consistent with the following platform tag: "manylinux_2_17_x86_64"' in done.stderr
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    (wheel,) = tmp_path.glob(f"chuanma-{chuanma.__version__}-{tag}-{tag}-*manylinux_2_17_x86_64*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert f"chuanma-{chuanma.__version__}.dist-info/licenses/LICENSE" in names
    assert sorted(n for n in names if n.startswith("chuanma/_core")) == [
        f"chuanma/_core.cpython-{tag[2:]}-x86_64-linux-gnu.so", "chuanma/_core.pyi"]
    assert f"== {tag}  ok:" in done.stdout


def test_a_build_without_a_compiler_says_what_to_install(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", tmp_path,
                           "-C", f"build-dir={tmp_path / 'build'}", ROOT], capture_output=True, text=True,
                          env={**os.environ, "CXX": str(tmp_path / "no-such-c++")})
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines()]
    assert done.returncode != 0
    assert lines.count(NO_COMPILER) == 1
    assert not [line for line in lines if "CMAKE_CXX_COMPILER" in line]  # nor CMake's own account of it
