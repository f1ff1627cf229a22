"""The portal's endpoints over HTTP: the calculator, the fan table and presets, the worked examples
and the replays of finished hands (good input and bad; bad input is a 400 that changes nothing)."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from chuanma import scoring
from chuanma.engine.record import replay
from chuanma.engine.wins import self_drawn_each
from chuanma.errors import ERROR_CODES
from chuanma.portal import calculator
from chuanma.portal.calculator import SCORING_OPTIONS
from chuanma.portal.examples import TOPICS
from chuanma.rules import PRESETS, RuleSet
from chuanma.scoring import FANS, score_hand
from chuanma.server.routes.service import STATIC
from chuanma.tiles import parse_tile, parse_tiles
from portal_harness import PLAYERS, PLAYING, REFUSED, SETTLED, PortalServer, portal_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalServer]:
    with portal_server(Path(tmp_path_factory.mktemp("portal"))) as srv:
        yield srv


@pytest.fixture(scope="module")
def http(server: PortalServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def guest(server: PortalServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=60) as client:
        assert client.post("/api/guest").status_code == 200  # the session cookie stays in the client
        yield client


def _rows(result: dict[str, Any]) -> list[tuple[int, int]]:
    return [(p["payer"], p["amount"]) for p in result["payments"]]


# ------------------------------------------------------------------ the calculator


def test_calculator_dianpao_the_discarder_alone_pays_the_multiplier(http: httpx.Client) -> None:
    # 清一色 (2) on a discard: 2^2 = 4 base, paid by the discarder (seat 2) alone
    r = http.post("/api/portal/score", json={"hand": "1112345678999m", "win_tile": "5m", "from": 2})
    assert r.status_code == 200
    data = r.json()
    expected = score_hand(RuleSet.from_preset("xuezhan"), parse_tiles("1112345678999m"), [], parse_tile("5m"),
                          self_drawn=False)
    assert data["total"] == expected.total == 2 and data["multiplier"] == 4
    assert [f["id"] for f in data["fans"]] == [f.id for f in expected.fans]
    assert _rows(data) == [(2, 4)] and data["deltas"] == [4, 0, -4, 0]
    assert data["fans"][0]["when_en"] == FANS["qingyise"].when_en


def test_calculator_zimo_each_of_the_three_others_pays(http: httpx.Client) -> None:
    # 清一色 2 + 自摸 1 = 3 fan, 2^3 = 8 base from each of seats 1, 2, 3
    r = http.post("/api/portal/score", json={"hand": "1112345678999m", "win_tile": "5m", "self_drawn": True})
    data = r.json()
    assert data["total"] == 3 and _rows(data) == [(1, 8), (2, 8), (3, 8)] and data["deltas"] == [24, -8, -8, -8]


def test_calculator_zimo_jiadi_classic_adds_one_base_and_counts_chips_in_its_base(http: httpx.Client) -> None:
    # classic: 自摸 adds 1 base per payer instead of a fan; 底分 6. 清一色 2 → 4, +1 = 5 base = 30 chips each
    r = http.post("/api/portal/score", json={"hand": "1112345678999m", "win_tile": "5m", "self_drawn": True,
                                             "rules": "classic"})
    data = r.json()
    assert data["total"] == 2 and data["label"] == 3
    assert [(p["payer"], p["amount"], p["chips"]) for p in data["payments"]] == [(1, 5, 30), (2, 5, 30), (3, 5, 30)]


def test_calculator_qiangganghu_the_kong_declarer_pays(http: httpx.Client) -> None:
    # 抢杠胡 1 + 断幺九 1 = 2 fan: 4 base from the seat whose added kong was robbed (seat 3)
    r = http.post("/api/portal/score", json={"hand": "234m456m678m5566p", "win_tile": "6p", "from": 3,
                                             "situations": ["robbing_kong"]})
    data = r.json()
    assert {f["id"] for f in data["fans"]} == {"qiangganghu", "duanyaojiu"}
    assert data["payments"] == [{"payer": 3, "payee": 0, "amount": 4, "chips": 4, "reason": "qianggang"}]


def test_calculator_fengding_caps_the_total(http: httpx.Client) -> None:
    # portal-xuezhan caps at 4: 清一色 2 + 对对胡 1 + 根 1 + 自摸 1 + 杠上花 1 = 6, counted as 4 (16 base each)
    r = http.post("/api/portal/score", json={"hand": "5556667m", "win_tile": "7m", "self_drawn": True,
                                             "melds": ["kong:1m:concealed", "pong:3m"],
                                             "situations": ["kong_replacement"], "rules": "portal-xuezhan"})
    data = r.json()
    assert sum(f["fan"] for f in data["fans"]) == 6 and data["total"] == 4 and data["capped"]
    assert _rows(data) == [(1, 16), (2, 16), (3, 16)]


def test_calculator_a_hand_that_cannot_win_says_why(http: httpx.Client) -> None:
    r = http.post("/api/portal/score", json={"hand": "1112345678999m", "win_tile": "5m", "void": "m"})
    assert r.status_code == 200 and r.json()["win"] is False and "void suit" in r.json()["reason"]
    held = " ".join(f"{n}万" for n in "一一一二三四五五六七八九九九")
    assert r.json()["reason_zh"] == f"手里还有缺门（万）的牌：{held}"


@pytest.mark.parametrize("body", [
    {"hand": "1112345678999m", "win_tile": "5m", "void": "m"},
    {"hand": "123m456p789s1155s", "win_tile": "5s"},
    {"hand": "1112345678999m", "win_tile": "5m", "situations": ["robbing_kong"], "rules": {"preset": "xuezhan",
     "options": {"robbing_kong": False}}},
    {"hand": "1112345678999m", "win_tile": "1p"},
    {"hand": "19m19p19s1234566z", "win_tile": "2m", "rules": "dazhong"},
])
def test_calculator_says_why_a_hand_cannot_win_in_both_languages(http: httpx.Client, body: dict[str, Any]) -> None:
    data = http.post("/api/portal/score", json=body).json()
    assert data["win"] is False and data["reason"][0].islower(), data
    assert re.search("[\u4e00-\u9fff]", data["reason_zh"]) and not re.search("[A-Za-z]", data["reason_zh"]), data


@pytest.mark.parametrize(("body", "words"), [
    ("not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"hand": "1112345678999m"}', "'hand' and 'win_tile' are required"),
    ('{"hand": "1112345678999m", "win_tile": "5m", "colour": "red"}', "unknown key"),
    ('{"hand": "111234567899m", "win_tile": "5m"}', "needs 13"),
    ('{"hand": "1112345678999x", "win_tile": "5m"}', "'hand'"),
    ('{"hand": "1112345678999m", "win_tile": "5m", "from": 4}', "'from' must be"),
    ('{"hand": "1112345678999m", "win_tile": "5m", "from": true}', "'from' must be"),
    ('{"hand": "1112345678999m", "win_tile": "5m", "rules": "mahjong"}', "preset"),
    ('{"hand": "1112345678999m", "win_tile": "5m", "rules": {"preset": "xuezhan", "options": {"max_fan": 0}}}',
     "max_fan"),
    ('{"hand": "1112345678999m", "win_tile": "5m", "situations": ["tianhu"]}', "self-drawn"),
    ('{"hand": "1112345678999m", "win_tile": "5m", "melds": ["chow:1m"]}', "hand"),
])
def test_calculator_refuses_bad_input_with_a_reason(http: httpx.Client, body: str, words: str) -> None:
    r = http.post("/api/portal/score", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json()["code"] == "bad_hand" and words in r.json()["message"]


@pytest.mark.parametrize("code", list(ERROR_CODES))
def test_calculator_says_what_is_wrong_as_a_code_and_its_facts(http: httpx.Client, code: str) -> None:
    """Every code a refusal may carry (a new code needs a hand here, and words on the page: the
    browser test reads them) comes with its facts, for the page to word in its language."""
    r = http.post("/api/portal/score", json=REFUSED[code])
    assert r.status_code == 400
    facts = r.json()["facts"]
    assert facts["code"] == code and tuple(k for k in facts if k != "code") == ERROR_CODES[code], facts


def test_calculator_refuses_a_body_too_large_or_not_utf8(http: httpx.Client) -> None:
    r = http.post("/api/portal/score", content=b"\xff\xfe{}")
    assert r.status_code == 400 and "UTF-8" in r.json()["message"]
    r = http.post("/api/portal/score", content=b" " * (1 << 20) + b"{}")
    assert r.status_code == 400 and "larger" in r.json()["message"]


# ------------------------------------------------------------------ reference


def test_fan_table_is_the_scorings_own(http: httpx.Client) -> None:
    fans = http.get("/api/portal/fans").json()
    assert [(f["id"], f["name"], f["fan"]) for f in fans["fans"]] == [(f.id, f.name, f.fan) for f in FANS.values()]
    assert "kong_replacement" in fans["situations"]


def test_presets_list_every_option_of_every_preset(http: httpx.Client) -> None:
    data = http.get("/api/portal/presets").json()
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    assert all(p["zh"] and p["en"] for p in data["presets"])  # every preset is named in both languages
    for option in data["options"]:
        for preset, value in option["values"].items():
            assert RuleSet.from_preset(preset).options()[option["name"]] == value
    assert {o["name"] for o in data["options"]} == set(RuleSet.model_fields) - {"preset"}


def test_the_calculator_offers_the_options_scoring_reads(http: httpx.Client) -> None:
    """calc.js shows the options the server marks ``scoring``: SCORING_OPTIONS, which holds every
    option the scoring and the calculator's payments read (house fans have their own switches)."""
    data = http.get("/api/portal/presets").json()
    assert [o["name"] for o in data["options"] if o["scoring"]] == [
        name for name in RuleSet.model_fields if name in SCORING_OPTIONS]
    assert set(SCORING_OPTIONS) <= set(RuleSet.model_fields)
    read = set()
    for source in (inspect.getsource(scoring), inspect.getsource(calculator), inspect.getsource(self_drawn_each)):
        read |= set(re.findall(r"\brules\.(\w+)", source))
    assert read & set(RuleSet.model_fields) - {"preset", "house_fans"} <= set(SCORING_OPTIONS)
    calc = (STATIC / "portal" / "calc.js").read_text(encoding="utf-8")
    assert "o.scoring" in calc and not any(f'"{name}"' in calc for name in SCORING_OPTIONS)  # no copy of the list


# ------------------------------------------------------------------ worked examples


def _example(http: httpx.Client, topic: str, example: str) -> dict[str, Any]:
    r = http.get(f"/api/portal/examples/{topic}")
    assert r.status_code == 200
    found: dict[str, Any] = next(x for x in r.json()["examples"] if x["id"] == example)
    return found


def _paid(example: dict[str, Any], reason: str) -> list[tuple[int, int, int]]:
    return [(p["payer"], p["payee"], p["amount"]) for p in example["payments"] if p["reason"] == reason]


def test_example_huansanzhang_opposite_swaps_zero_with_two(http: httpx.Client) -> None:
    x = _example(http, "exchange", "exchange")
    # seat 0 gives 567p and receives seat 2's 234m: 1111234m567p99p58s → 1111223344m99p58s
    assert x["hands"][0] == "1111234m56799p58s" and x["hands_after"][0] == "1111223344m99p58s"


def test_example_dingque_void_tiles_go_first(http: httpx.Client) -> None:
    x = _example(http, "void", "void")
    refused = [s for s in x["steps"] if "refused" in s]
    assert refused and "void-suit tile first" in refused[0]["refused"]


def test_example_guafeng_xiayu_kong_payments(http: httpx.Client) -> None:
    # 下雨: a concealed kong earns 2 from each other seat; 刮风: an exposed kong 2 from the discarder,
    # an added kong 1 from each other seat
    assert _paid(_example(http, "kongs", "concealed_kong"), "kong_concealed") == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert _paid(_example(http, "kongs", "exposed_kong"), "kong_exposed") == [(0, 1, 2)]
    assert _paid(_example(http, "kongs", "added_kong"), "kong_added") == [(2, 1, 1), (3, 1, 1), (0, 1, 1)]


def test_example_hujiao_zhuanyi_each_winner_receives_the_kong_money(http: httpx.Client) -> None:
    # the kong earned 2 from each of three seats (6); each of the three winners on the discard after it gets 6
    x = _example(http, "call_transfer", "call_transfer")
    assert _paid(x, "call_transfer") == [(0, 1, 6), (0, 2, 6), (0, 3, 6)]


def test_example_cha_huazhu_dajiao_tuishui(http: httpx.Client) -> None:
    x = _example(http, "flower_pig", "exhaustive_draw")
    # 查花猪 (fixed): the pig (seat 1) pays each other seat the cap value, 16 without max_fan
    assert _paid(x, "flower_pig") == [(1, 0, 16), (1, 2, 16), (1, 3, 16)]
    # 查大叫: the two seats not ready (0, 3) pay the ready seat 2 its best wait's value
    assert [(p, q) for p, q, _ in _paid(x, "chadajiao")] == [(0, 2), (3, 2)]
    # 退税: seat 0 is not ready and returns its concealed kong's 2 to each payer
    assert _paid(x, "refund") == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]
    assert sum(x["deltas"]) == 0 and x["finished"]


def test_example_xuezhan_winner_leaves_xueliu_winner_wins_again(http: httpx.Client) -> None:
    xz, xl = (_example(http, "xuezhan_xueliu", name) for name in ("xuezhan", "xueliu"))
    assert xz["wins"][0]["seat"] == xl["wins"][0]["seat"] == 2
    assert [w["seat"] for w in xz["wins"]].count(2) == 1
    assert [w["seat"] for w in xl["wins"]].count(2) > 1


def test_examples_refuse_an_unknown_topic(http: httpx.Client) -> None:
    r = http.get("/api/portal/examples/mahjong")
    assert r.status_code == 404 and r.json()["code"] == "no_topic"


def test_guide_opens_the_first_topic_and_an_unknown_topic_is_an_html_page(http: httpx.Client) -> None:
    r = http.get("/guide", follow_redirects=False)
    assert r.is_redirect and r.headers["location"] == f"/guide/{TOPICS[0]}"
    page = http.get("/guide/mahjong")  # the guide page, which says so; not the API's JSON
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/portal/guide.js">' in page.text


def test_the_pages_know_the_same_guide_topics_as_the_server() -> None:
    common = (STATIC / "portal" / "common.js").read_text(encoding="utf-8")
    listed = re.search(r"export const GUIDE_TOPICS = \[(.*?)\];", common)
    assert listed is not None and json.loads(f"[{listed[1]}]") == list(TOPICS)
    strings = (STATIC / "portal" / "strings.js").read_text(encoding="utf-8")
    guide = (STATIC / "portal" / "guide.js").read_text(encoding="utf-8")
    for name in TOPICS:  # each named in both languages, and explained
        assert strings.count(f'"topic.{name}"') == 2 and re.search(rf"^  {name}: {{$", guide, re.M), name


# ------------------------------------------------------------------ replays


def test_replay_of_a_stored_hand_needs_a_session(http: httpx.Client) -> None:
    assert http.get(f"/api/replay/{SETTLED}").status_code == 401


def test_replay_of_a_stored_hand_names_its_players_for_the_report_control(guest: httpx.Client,
                                                                          server: PortalServer) -> None:
    """The replay page's ⚑ beside the people of the hand: their ids and names as they are now, the
    bot marked; a guest may not report, a registered player may, and the report posted as the
    page's dialog posts it names the player by id."""
    data = guest.get(f"/api/replay/{SETTLED}").json()
    assert [(p["name"], p["bot"], p["you"]) for p in data["players"]] == [
        *((name, False, False) for name in PLAYERS), ("Robot3", True, False)]
    assert data["can_report"] is False
    with httpx.Client(base_url=server.base, timeout=30) as http:
        r = http.post("/api/register", json={"username": "Watcher1", "password": "correct horse"})
        assert r.status_code == 200, r.text
        auth = {"authorization": f"Bearer {r.json()['token']}"}
        mine = http.get(f"/api/replay/{SETTLED}", headers=auth).json()
        assert mine["can_report"] is True and mine["players"] == data["players"]
        first = mine["players"][0]["id"]
        r = http.post("/api/reports", json={"player": first, "hand_id": SETTLED, "reason": "bot", "text": None},
                      headers=auth)
    assert r.status_code == 201 and r.json()["report"]["player"] == first, r.text


def test_replay_refuses_a_hand_in_play_or_unknown(guest: httpx.Client) -> None:
    for hand_id in (PLAYING, "nope"):
        r = guest.get(f"/api/replay/{hand_id}")
        assert r.status_code == 404 and r.json()["code"] == "no_record"


def test_replay_seat_view_hides_other_hands_until_the_end(guest: httpx.Client, server: PortalServer) -> None:
    first = guest.get(f"/api/replay/{SETTLED}", params={"seat": 1, "move": 0}).json()
    moves = first["moves"]
    players = first["view"]["players"]
    assert "hand" in players[1] and all("hand" not in players[s] for s in (0, 2, 3))
    # another seat's draws carry no tile in seat 1's events
    assert all("tile" not in e for e in first["events"] if e["type"] == "draw" and e["seat"] != 1)
    last = guest.get(f"/api/replay/{SETTLED}", params={"seat": 1, "move": "end"}).json()
    assert last["move"] == moves and last["view"]["phase"] == "end"
    assert last["view"]["totals"] == replay(server.record).deltas() == server.record["result"]["deltas"]


def test_replay_all_hands_open_shows_every_hand(guest: httpx.Client) -> None:
    data = guest.get(f"/api/replay/{SETTLED}", params={"seat": "all", "move": 12}).json()
    assert data["move"] == 12 and all("hand" in p for p in data["view"]["players"])
    assert all("tile" in e for e in data["events"] if e["type"] == "draw")


def test_replay_views_step_with_the_moves(guest: httpx.Client, server: PortalServer) -> None:
    walls = [guest.get(f"/api/replay/{SETTLED}", params={"seat": 0, "move": k}).json()["view"]["wall"]
             for k in range(0, 30, 3)]
    assert walls == sorted(walls, reverse=True) and walls[0] > walls[-1]


@pytest.mark.parametrize(("params", "words"), [
    ({"seat": 4}, "seat must be"), ({"seat": "north"}, "seat must be"), ({"move": -1}, "move must be"),
    ({"move": "x"}, "move must be"), ({"move": 100000}, "past the end"),
])
def test_replay_refuses_bad_parameters(guest: httpx.Client, params: dict[str, Any], words: str) -> None:
    r = guest.get(f"/api/replay/{SETTLED}", params=params)
    assert r.status_code == 400 and words in r.json()["message"]


def test_replay_of_an_uploaded_record_is_the_stored_one(http: httpx.Client, guest: httpx.Client,
                                                        server: PortalServer) -> None:
    stored = guest.get(f"/api/replay/{SETTLED}", params={"seat": 2, "move": 7}).json()
    uploaded = http.post("/api/replay", json={"record": server.record, "seat": 2, "move": 7})
    del stored["players"], stored["can_report"]  # a stored hand's alone
    assert uploaded.status_code == 200 and uploaded.json() == stored


@pytest.mark.parametrize(("body", "words"), [
    ({"seat": 0}, "send"),
    ({"record": {"format": "chuanma-record/2"}, "seat": 0}, "no 'dealer' field"),
    ({"record": {}, "extra": 1}, "unknown key"),
])
def test_replay_refuses_a_bad_upload(http: httpx.Client, body: dict[str, Any], words: str) -> None:
    r = http.post("/api/replay", json=body)
    assert r.status_code == 400 and words in r.json()["message"], r.text


def test_replay_refuses_an_unfinished_record(http: httpx.Client, server: PortalServer) -> None:
    record = {**server.record, "decisions": server.record["decisions"][:10]}
    r = http.post("/api/replay", json={"record": record})
    assert r.status_code == 400 and "before the hand is over" in r.json()["message"]


@pytest.mark.parametrize("path", ["/calc", "/rules", "/guide/kongs", "/replay", f"/replay/{SETTLED}"])
def test_pages_are_served(http: httpx.Client, path: str) -> None:
    r = http.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/portal/' in r.text


@pytest.mark.parametrize("path", ["/", "/calc", "/rules", "/guide/kongs", "/replay", f"/replay/{SETTLED}"])
def test_pages_declare_an_icon_the_server_serves(http: httpx.Client, path: str) -> None:
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', http.get(path).text)
    assert icon is not None
    r = http.get(icon[1])
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml" and r.text.startswith("<svg")


def test_favicon_ico_is_the_icon_not_a_404(http: httpx.Client) -> None:
    r = http.get("/favicon.ico")  # asked for by browsers on pages that declare none (verify.html, JSON)
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.content == (STATIC / "favicon.svg").read_bytes() and len(r.content) < 1024
