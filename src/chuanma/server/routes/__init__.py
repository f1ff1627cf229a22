"""The server's HTTP routes, one router per domain."""
