"""The Chromium that the browser tests, benchmarks and screenshot scripts drive (Playwright)."""

CHROMIUM = "/usr/bin/chromium"
"""Installed by ``scripts/ensure-chromium`` (``apt-get install chromium``)."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
"""Headless (Playwright's default) in a container, without Chromium's own background traffic."""
