"""The verifier page, run in a real Chromium: same verdicts as the Python verifier."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chuanma.fairness import verifier_page_path, verify_record
from fairness_records import CASES, build

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
)
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pg = browser.new_page()
            with verifier_page_path() as path:
                pg.goto(path.as_uri())
                yield pg
        finally:
            browser.close()


def _check_in_page(page: Any, tmp_path: Path, record: Any, name: str) -> dict[str, Any]:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    page.set_input_files("#file", [])
    page.set_input_files("#file", str(path))
    page.wait_for_function(
        "name => { const s = document.getElementById('status').dataset;"
        " return s.file === name && (s.state === 'done' || s.state === 'error'); }",
        arg=name,
    )
    rows = page.eval_on_selector_all(
        "#checks tbody tr", "rows => rows.map(r => [r.dataset.check, r.dataset.status])"
    )
    return {
        "statuses": dict(rows),
        "ok": page.get_attribute("#verdict", "data-ok"),
        "error": page.inner_text("#error"),
    }


@pytest.mark.parametrize("case", sorted(CASES))
def test_page_verdicts_match_python(page: Any, tmp_path: Path, case: str) -> None:
    record = build(case)
    result = _check_in_page(page, tmp_path, record, f"{case}.json")
    expected = {c.name: c.status.value for c in verify_record(record).checks}
    assert result["error"] == ""
    assert result["statuses"] == expected
    _, _, must_fail, _ = CASES[case]
    assert result["ok"] == ("false" if must_fail else "true")
    failed = {n for n, s in result["statuses"].items() if s == "failed"}
    assert must_fail <= failed
    assert result["statuses"]["replay"] == "not_run"


def test_page_reports_unreadable_records(page: Any, tmp_path: Path) -> None:
    result = _check_in_page(page, tmp_path, "{oops", "broken.json")
    assert "is not JSON" in result["error"]
    assert result["statuses"] == {}
    result = _check_in_page(page, tmp_path, {"seeds": {}}, "empty.json")
    assert "seeds.'scheme'" in result["error"]


def test_page_vrf_matches_rfc9381_vectors(page: Any) -> None:
    vectors = json.loads((Path(__file__).parent / "data" / "rfc9381_b3_vectors.json").read_text())
    results = page.evaluate(
        """async (vectors) => {
            const F = window.chuanmaFair;
            const out = [];
            for (const v of vectors) {
                const pk = F.fromHex(v.pk), alpha = F.fromHex(v.alpha), pi = F.fromHex(v.pi);
                const beta = await F.vrfVerify(pk, alpha, pi);
                const forged = pi.slice(); forged[40] ^= 1;
                const rejected = await F.vrfVerify(pk, alpha, forged);
                out.push([beta === null ? null : F.toHex(beta), rejected]);
            }
            return out;
        }""",
        vectors["vectors"],
    )
    assert results == [[v["beta"], None] for v in vectors["vectors"]]


def test_page_derivation_matches_python_for_136_tiles(page: Any) -> None:
    from chuanma.fairness import derive_deal

    deal = derive_deal(bytes(range(32)), "a|b|c|d", 3, honors=True)
    got = page.evaluate(
        "async (seed) => { const F = window.chuanmaFair;"
        " return await F.deriveDeal(F.fromHex(seed), 'a|b|c|d', 3, 136); }",
        bytes(range(32)).hex(),
    )
    assert got == {"dealer": deal.dealer, "direction": deal.direction, "wall": list(deal.wall)}
