"""The terminal table of ``chuanma play``: what one seat sees, drawn with Rich at 80 columns."""
