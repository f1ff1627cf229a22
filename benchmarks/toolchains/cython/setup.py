"""The Cython kernel: translated by Cython, compiled by setuptools."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(ext_modules=cythonize([Extension("kernel_cy", ["kernel_cy.pyx"], extra_compile_args=["-O2"])]))
