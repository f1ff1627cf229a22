"""``python -m chuanma`` runs the command line."""

from chuanma.cli import main

main()
