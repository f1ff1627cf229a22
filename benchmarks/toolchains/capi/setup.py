"""The C kernel: one extension module compiled by setuptools."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("kernel_c", ["kernel_c.c"], extra_compile_args=["-O2"])])
