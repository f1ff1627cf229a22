"""The verifier page, run in a real Chromium: same verdicts as the Python verifier."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from chuanma.fairness import VRFKey, sign_record, verifier_page_path, verify_record
from chuanma.fairness.keys import signing_key_of
from chuanma.rules import RuleSet
from chuanma.tiles import ALL_TILES
from fairness_records import CASES, KEY, MUTATIONS, SEED, VRF_SECRET, build, fixed_played, mutated_record, vrf_record


def _open(browser: Any, locale: str) -> Any:
    pg = browser.new_page(locale=locale)
    with verifier_page_path() as path:
        pg.goto(path.as_uri())
    return pg


@pytest.fixture(scope="module")
def page(browser: Any) -> Any:
    return _open(browser, "en-US")


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
        "level": page.get_attribute("#verdict", "data-level"),
        "verdict": page.inner_text("#verdict"),
        "error": page.inner_text("#error"),
    }


@pytest.mark.parametrize("case", sorted(CASES))
def test_page_verdicts_match_python(page: Any, tmp_path: Path, case: str) -> None:
    record = build(case)
    result = _check_in_page(page, tmp_path, record, f"{case}.json")
    verdict = verify_record(record)
    expected = {c.name: c.status.value for c in verdict.checks}
    assert result["error"] == ""
    assert result["statuses"] == expected
    assert result["level"] == verdict.level.value and result["verdict"].startswith("Verdict: ")
    _, _, must_fail, _ = CASES[case]
    assert result["ok"] == ("false" if must_fail else "true")
    failed = {n for n, s in result["statuses"].items() if s == "failed"}
    assert must_fail <= failed
    assert result["statuses"]["replay"] == "not_run"


def test_page_in_chinese_words_every_check_its_details_and_the_verdict_in_chinese(
        browser: Any, page: Any, tmp_path: Path) -> None:
    """A browser speaking Chinese: each check's name and detail and the verdict are Chinese (the
    English page's details nowhere), and so is why a record cannot be checked."""
    zh = _open(browser, "zh-CN")
    cjk = re.compile("[\u4e00-\u9fff]")
    english = re.compile(r"\b(?:the|not|is|are|record|seeds?|checked|passed|failed|consistent|verified)\b")
    rows = "#checks tbody tr"
    for case in sorted(CASES):
        _check_in_page(page, tmp_path, build(case), f"{case}.json")
        en_details = page.eval_on_selector_all(rows, "rows => rows.map(r => r.cells[2].textContent)")
        result = _check_in_page(zh, tmp_path, build(case), f"{case}.json")
        cells = zh.eval_on_selector_all(rows, "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
        assert len(cells) == len(en_details) > 0
        for (name, _, detail), en in zip(cells, en_details, strict=True):
            assert cjk.search(name) and cjk.search(detail) and detail != en, (case, name, detail)
            assert not english.search(detail), (case, detail)
            if name == "换牌方向" and _ == "通过":  # the direction by name, never by its id
                assert detail.startswith("换三张方向：换给") and "_" not in detail, detail
        assert zh.text_content("#status") == f"已检查{case}.json。"
        assert result["verdict"].startswith("结论：") and not english.search(result["verdict"]), result["verdict"]
    broken = _check_in_page(zh, tmp_path, {"seeds": {}}, "empty.json")
    assert broken["error"] == "无法验证：记录里没有 seeds.'scheme' 字段"
    zh.close()


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

    deal = derive_deal(bytes(range(32)), "a|b|c|d", 3, ALL_TILES)
    got = page.evaluate(
        "async (seed) => { const F = window.chuanmaFair;"
        " return await F.deriveDeal(F.fromHex(seed), 'a|b|c|d', 3, 136); }",
        bytes(range(32)).hex(),
    )
    assert got == {"dealer": deal.dealer, "direction": deal.direction, "wall": list(deal.wall)}


def _session_records(preset: str = "portal-xuezhan") -> list[dict[str, Any]]:
    """The records of a two-hand session of ``preset`` played by greedy bots."""
    from chuanma.bots import make_bot
    from chuanma.rules import RuleSet
    from chuanma.sim.play import bot_seed
    from chuanma.sim.session import play_sessions

    def bots(i: int) -> list[Any]:
        return [make_bot("greedy", bot_seed(3, i, s)) for s in range(4)]

    played = play_sessions(RuleSet.from_preset(preset), 3, 0, 2, bots, record={})
    return [r.record for _, r in played if r.record is not None]


def test_page_checks_signatures_and_session_dealers_like_python(page: Any, tmp_path: Path) -> None:
    from chuanma.fairness import VRFKey, sign_record
    from fairness_records import VRF_SECRET

    signed = sign_record(_session_records()[1], VRFKey(VRF_SECRET))
    tampered = {**signed, "base": 2}
    for name, record in (("signed.json", signed), ("tampered.json", tampered)):
        result = _check_in_page(page, tmp_path, record, name)
        expected = {c.name: c.status.value for c in verify_record(record).checks}
        assert result["error"] == ""
        # the page cannot replay the decisions: everything else agrees with the Python verifier
        assert expected.pop("replay") == "passed" and result["statuses"].pop("replay") == "not_run"
        assert expected.pop("result") == "passed" and result["statuses"].pop("result") == "not_run"
        assert result["statuses"] == expected
    assert expected["signature"] == "failed" and expected["dealer"] == "passed"


@pytest.mark.parametrize("preset", ["dazhong", "classic-normal"])
def test_page_verdicts_on_first_win_sessions_match_python(page: Any, tmp_path: Path, preset: str) -> None:
    """Both hands of a 大众麻将 session (136 tiles, chows, honours; dealer rule rotate) and of a
    普通场 session (dealer rule discarder): the page gives Python's verdict on every check but
    the two that need the engine; a second hand dealt by another seat fails the dealer check in
    both."""
    first, second = _session_records(preset)
    moved = {**second, "dealer": (second["dealer"] + 1) % 4}
    for name, record in (("first.json", first), ("second.json", second), ("moved.json", moved)):
        result = _check_in_page(page, tmp_path, record, f"{preset}-{name}")
        expected = {c.name: c.status.value for c in verify_record(record).checks}
        assert result["error"] == ""
        engine = (expected.pop("replay"), expected.pop("result"))
        assert engine == ("passed", "passed") or name == "moved.json"
        assert (result["statuses"].pop("replay"), result["statuses"].pop("result")) == ("not_run", "not_run")
        assert result["statuses"] == expected
    assert len(first["wall"]) == (136 if preset == "dazhong" else 108)
    assert second["session"]["dealer_rule"] == RuleSet.from_preset(preset).dealer
    assert result["statuses"]["dealer"] == "failed"


def test_page_refuses_a_short_server_seed_and_a_dealer_outside_the_rule(page: Any, tmp_path: Path) -> None:
    import hashlib

    short = build("hmac-genuine")
    short["seeds"].update(server_seed="01", commitment=hashlib.sha256(b"\x01").hexdigest())
    moved = _session_records()[1]
    moved["rules"] = "xuezhan"
    for name, record in (("short.json", short), ("moved.json", moved)):
        result = _check_in_page(page, tmp_path, record, name)
        expected = {c.name: c.status.value for c in verify_record(record).checks}
        for check in ("commitment", "dealer", "direction", "wall", "signature"):
            assert result["statuses"][check] == expected[check]
    assert result["statuses"]["dealer"] == "failed"


def test_page_canonical_json_and_dealer_rules_match_python(page: Any) -> None:
    from chuanma.fairness import canonical_json
    from chuanma.rules import PRESETS, RuleSet

    record = {"b": "中\n\t\x01\"\\", "a": [1, {"d": -2, "c": None, "e": True}], "signature": {}}
    got = page.evaluate("r => { const b = Object.assign({}, r); delete b.signature;"
                        " return window.chuanmaFair.canonical(b); }", record)
    assert got.encode() == canonical_json(record)
    rules = [*PRESETS, {"preset": "xuezhan", "options": {"dealer": "first_winner"}},
             {"preset": "portal-xueliu", "options": {"dealer": "random"}}]
    got_rules = page.evaluate("rs => rs.map(r => window.chuanmaFair.dealerOption({rules: r}))", rules)
    assert got_rules == [RuleSet.from_json(r).dealer for r in rules]


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_page_never_passes_a_changed_record(page: Any, tmp_path: Path, name: str) -> None:
    """Signed, any change fails the signature; unsigned, the page says nothing binds the play or the
    stake, and that it did not replay the hand (it used to say "no check failed")."""
    signed = _check_in_page(page, tmp_path, mutated_record(name, signed=True), f"signed-{name}.json")
    assert signed["level"] == "failed" and signed["statuses"]["signature"] == "failed"
    unsigned = _check_in_page(page, tmp_path, mutated_record(name, signed=False), f"unsigned-{name}.json")
    assert unsigned["level"] == "consistent"
    assert unsigned["verdict"].startswith("Verdict: CONSISTENT BUT UNSIGNED") and "nothing binds" in unsigned["verdict"]
    assert unsigned["verdict"].endswith("not checked: replay, result")


def test_page_requires_the_dealers_key_when_given(page: Any, tmp_path: Path) -> None:
    record = sign_record(fixed_played(SEED), KEY)
    page.fill("#public-key", KEY.public_key.hex())
    try:
        good = _check_in_page(page, tmp_path, record, "signed.json")
        assert good["statuses"]["signature"] == "passed" and good["level"] == "consistent"
        assert good["verdict"] == "Verdict: CONSISTENT BUT NOT VERIFIED; not checked: replay, result"
        unsigned = _check_in_page(page, tmp_path, fixed_played(SEED), "unsigned.json")
        assert unsigned["statuses"]["signature"] == "failed" and unsigned["level"] == "failed"
        page.fill("#public-key", bytes(range(32)).hex())
        other = _check_in_page(page, tmp_path, record, "other.json")
        assert other["statuses"]["signature"] == "failed" and "not by the required key" in page.inner_text("#checks")
    finally:
        page.fill("#public-key", "")


def test_page_accepts_a_record_signed_by_the_pinned_vrf_key_as_python_does(page: Any) -> None:
    """A record signed before the dealer's signing key was derived carries the VRF key as its signer:
    with both of the server's keys pinned it passes, in the page as in Python; another signer fails."""
    dealer = VRFKey(VRF_SECRET)
    signer = signing_key_of(dealer)
    for record, passes in ((sign_record(vrf_record(), dealer), True), (sign_record(vrf_record(), KEY), False)):
        python = verify_record(record, public_key=signer.public_key, vrf_public_key=dealer.public_key)
        status = page.evaluate(
            """async ([record, key, vrf]) => {
                const F = window.chuanmaFair;
                const verdict = await F.verifyRecord(record, F.fromHex(key), F.fromHex(vrf));
                return verdict.checks.find((c) => c.name === "signature").status;
            }""",
            [record, signer.public_key.hex(), dealer.public_key.hex()],
        )
        assert status == python["signature"].status.value == ("passed" if passes else "failed")


def test_page_refuses_a_duplicated_key(page: Any, tmp_path: Path) -> None:
    """Like fair verify: a stake written twice is ambiguous, whichever comes last."""
    text = json.dumps(sign_record(fixed_played(SEED), KEY))
    doubled = {"first": '{"base": 1000, ' + text[1:], "last": text[:-1] + ', "base": 1000}',
               "escaped": text[:-1] + ', "b\\u0061se": 1000}'}
    for name, body in doubled.items():
        result = _check_in_page(page, tmp_path, body, f"doubled-{name}.json")
        assert "has the key 'base' twice in one object" in result["error"] and result["statuses"] == {}
    nested = _check_in_page(page, tmp_path, text[:-1] + ', "x": [{"base": 1}, {"base": 2}]}', "nested.json")
    assert nested["error"] == ""  # one key in each of two objects
