"""``chuanma play`` driven through a pseudo-terminal: a whole hand of each preset with bad input
at every kind of prompt, EOF and Ctrl-C, the session's records, and a settlement that lists every
payment of the ledger."""

from __future__ import annotations

import json
import re
import signal
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from chuanma.engine.record import replay
from chuanma.fairness.chain import verify_records
from chuanma.rules import PRESETS
from play_driver import ANSI, PROMPT, finish, screen, spawn

PAY = re.compile(r"^\s+(you|[上对下]家 \S+) pays? (you|[上对下]家 \S+) (\d+)", re.M)
STATUS = re.compile(r"hand \d+/\d+ · .* · wall \d+.* · (\S+)")
BAD = {"换三张": ["1m2p3s", "xyz"], "定缺": ["void z", "4"], "playing": ["8z", "pong"],
       "claim": ["9z", "hu 5m"], "抢杠?": ["9z"]}
OFFSET = {"you": 0, "下家": 1, "对家": 2, "上家": 3}


def seat_of(name: str, me: int) -> int:
    return (me + OFFSET[name.split(" ")[0]]) % 4


def settlement_payments(text: str, me: int) -> Counter[tuple[int, int, int]]:
    """The payments the settlement lists, as (payer, payee, amount)."""
    part = text.split("settlement 结算", 1)[1]
    return Counter((seat_of(a, me), seat_of(b, me), int(n)) for a, b, n in PAY.findall(part))


def ledger_payments(record_file: Path) -> Counter[tuple[int, int, int]]:
    game = replay(json.loads(record_file.read_text(encoding="utf-8")))
    return Counter((p.payer, p.payee, p.amount) for p in game.ledger)


def drive(child: pexpect.spawn, prompts: int) -> set[str]:
    """Answer ``prompts`` prompts with Enter (the default), first trying bad answers at each kind
    of prompt; then hand the seat to 托管. Returns the kinds of prompt met."""
    met: set[str] = set()
    for _ in range(prompts):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            return met
        phase = STATUS.findall(screen(child))[-1].strip()
        if phase not in met:
            met.add(phase)
            for bad in BAD.get(phase, ["xyz"]):
                child.sendline(bad)
                child.expect(PROMPT)
                assert "✗" in screen(child), (phase, bad, screen(child)[-800:])
        child.sendline("")
    child.expect(PROMPT)
    child.sendline("t")
    return met


@pytest.mark.parametrize("preset", list(PRESETS))
def test_play_whole_hand_of_each_preset(preset: str, tmp_path: Path) -> None:
    child = spawn("--seed", "11", "--rules", preset, "--seat", "1", "--record", str(tmp_path))
    met = drive(child, 12)
    out = finish(child)
    assert "playing" in met and (met & {"换三张", "定缺"} or preset == "dazhong")  # 大众麻将: neither
    assert "hands revealed" in out
    record_file = tmp_path / "hand-0000.json"
    assert settlement_payments(out, 1) == ledger_payments(record_file)
    assert all(v.ok for v in verify_records([json.loads(record_file.read_text(encoding="utf-8"))]))


def test_play_help_and_toggles_at_the_table() -> None:
    child = spawn("--seed", "3", "--rules", "xueliu")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect(PROMPT)
    assert "shanten" in screen(child) and "suggested" in screen(child)
    for command, said in (("ap", "auto-pass on"), ("aw", "auto-win on")):
        child.sendline(command)
        child.expect(PROMPT)
        assert said in screen(child)
    child.sendline("t")  # 托管: the bot plays the rest of the hand, no prompt comes again
    out = finish(child)
    assert PROMPT not in out and "settlement 结算" in out


@pytest.mark.parametrize("key", ["eof", "ctrl-c", "q"])
def test_play_ends_with_a_summary_on_eof_ctrl_c_and_quit(key: str) -> None:
    child = spawn("--seed", "5", "--hands", "3")
    child.expect("session seed 5")
    child.expect(PROMPT)
    if key == "eof":
        child.sendeof()
    elif key == "ctrl-c":
        child.sendintr()
    else:
        child.sendline("q")
    out = finish(child)
    assert "session ended" in out and "session: 0 hand(s) · seed 5" in out


def ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def block_sigint() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


@pytest.mark.parametrize("started", [ignore_sigint, block_sigint], ids=["ignored", "blocked"])
def test_ctrl_c_ends_the_session_even_if_the_game_was_started_deaf_to_it(started: Callable[[], None]) -> None:
    """A parent that ignores or blocks SIGINT passes that on to the game it starts (a test runner's
    worker, a script's trap): Ctrl-C still ends the session with its summary."""
    child = spawn("--seed", "5", "--hands", "3", preexec_fn=started)
    child.expect(PROMPT)
    child.sendintr()
    assert "session ended" in finish(child)


def test_play_offers_to_save_the_session_records(tmp_path: Path) -> None:
    child = spawn("--seed", "8", "--hands", "2", "--rules", "portal-xuezhan")
    child.expect(PROMPT)
    child.sendline("t")
    child.expect("next hand")
    child.sendeof()
    child.expect("save the finished hands' records")
    assert "session: 1 hand(s) · seed 8" in screen(child)
    child.sendline(str(tmp_path / "saved"))
    assert "fair verify" in finish(child)
    files = sorted((tmp_path / "saved").glob("hand-*.json"))
    assert [f.name for f in files] == ["hand-0000.json"]
    assert all(v.ok for v in verify_records([json.loads(files[0].read_text(encoding="utf-8"))]))


def test_play_random_seed_is_printed_and_replays() -> None:
    child = spawn()
    child.expect(r"session seed (\d+)")
    seed = child.match.group(1)
    child.expect(r"play it again with --seed (\d+)")
    assert seed == child.match.group(1)
    child.expect(PROMPT)
    first = screen(child).split("your hand", 1)[1][:200]
    child.sendeof()
    finish(child)
    again = spawn("--seed", seed)
    again.expect(PROMPT)
    assert screen(again).split("your hand", 1)[1][:200] == first
    again.sendeof()
    finish(again)


def test_play_tuoguan_is_taken_back_with_enter() -> None:
    child = spawn("--seed", "9")
    child.expect(PROMPT)
    child.send("t\n\n")  # 托管 on, and Enter already typed: the seat comes back at once
    child.expect(PROMPT)
    assert "托管 off: you play again" in screen(child)
    child.sendeof()
    assert "session ended" in finish(child)


CLEAR = "\x1b[2J"
"""What the terminal is sent when the table is drawn anew."""


def screens(child: pexpect.spawn) -> list[str]:
    """The screens drawn up to the last match, each without colour codes."""
    return [ANSI.sub("", part) for part in str(child.before).split(CLEAR)[1:]]


def test_play_fits_80_by_24_with_help_on_and_says_why_an_answer_is_refused() -> None:
    child = spawn("--seed", "3", rows=24)
    child.expect(PROMPT)
    # the exchange's choices are not numbered: a number is refused, saying so
    # the exchange's instruction is said once: what to give, then how to type it
    assert "换三张: give three tiles of one suit (29 ways)" in screen(child)
    assert "type the three tiles (258m or 2万 5万 8万)" in screen(child)
    assert screen(child).count("three tiles of one suit") == 1
    assert "a listed number" not in screen(child)
    child.sendline("xyz")  # 血战 has no honours: the refusal names only m, p, s
    child.expect(PROMPT)
    assert "✗ tiles: unknown character 'x' at position 0: use digits and m, p, s" in screen(child)
    assert "m, p, s, z" not in screen(child)
    child.sendline("4")
    child.expect(PROMPT)
    assert "✗ 4: these 29 choices are not numbered" in screen(child)
    child.sendline("?")
    child.expect(PROMPT)
    child.sendline("")  # the suggested exchange; the 定缺 is automatic (two suits left)
    child.expect(PROMPT)
    child.sendline("6m")  # not in the hand: the refusal says so, not "possible: 打"
    child.expect(PROMPT)
    assert "✗ 打 6万 is not possible: you hold no 6万; you can discard" in screen(child)
    child.sendline("打 9万")  # the choice's own label, typed back
    child.expect(PROMPT)
    assert "9万" in screen(child).split("you 庄", 1)[1].split("your hand", 1)[0]  # in the river
    for _ in range(15):  # every screen, help on: the status line and the prompt fit in 24 lines
        last = screens(child)[-1]
        assert "hand 1/1 · xuezhan · wall" in last and last.count("\n") <= 23, last
        child.sendline("")
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
    child.sendeof()
    finish(child)


def test_play_own_win_stays_on_screen_for_the_rest_of_the_hand() -> None:
    child = spawn("--seed", "1", rows=24)
    child.expect(PROMPT)
    child.sendline("t")
    child.expect("settlement 结算")
    final = screens(child)[-1]
    assert "★ You win" in final  # the win, though the bots played on after it


def test_play_tuoguan_takes_one_decision_at_a_time_and_stops_at_the_end_of_the_hand() -> None:
    child = spawn("--seed", "9", "--hands", "2", pace="0.01")
    child.expect(PROMPT)
    child.sendline("t")
    child.expect("next hand")
    assert len(screens(child)) >= 8  # the table drawn before each of 托管's decisions
    assert "托管 off: the hand is over" in screen(child)
    child.sendline("")
    child.expect(PROMPT)  # the next hand asks the player again
    assert "hand 2/2" in screens(child)[-1]
    child.sendeof()
    child.expect("save the finished hands' records")
    assert "session ended" in screen(child)
    child.sendline("")
    finish(child)
