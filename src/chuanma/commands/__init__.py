"""The CLI's commands, one module per command group."""
