"""A build from source without a compiler stops with one line saying what to install.

The release wheels themselves are built and tested installed by scripts/build-wheels (each one
audited manylinux_2_17 and run in a fresh environment away from the checkout), not here: the first
build by Zig's Clang on a machine compiles its C++ library too (about 100 s more), which a CI run on
a fresh machine cannot spend."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NO_COMPILER = ("chuanma needs a C++17 compiler to build from source: apt-get install g++ "
               "(dnf install gcc-c++, apk add g++), or install a wheel")


def test_a_build_without_a_compiler_says_what_to_install(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", tmp_path,
                           "-C", f"build-dir={tmp_path / 'build'}", ROOT], capture_output=True, text=True,
                          env={**os.environ, "CXX": str(tmp_path / "no-such-c++")})
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines()]
    assert done.returncode != 0
    assert lines.count(NO_COMPILER) == 1
    assert not [line for line in lines if "CMAKE_CXX_COMPILER" in line]  # nor CMake's own account of it
