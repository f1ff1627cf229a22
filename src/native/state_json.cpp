// The JSON form of a compiled hand's state (chuanma.engine.state.HandState.to_dict / from_dict):
// tiles as text ("123m45p"), actions and events as the Python engine writes them; and a seat's
// view in the parts chuanma.engine.views.seat_view reads.
#include "state_json.hpp"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "actions.hpp"
#include "reducer_facts.hpp"
#include "reducer_module.hpp"

namespace nb = nanobind;

namespace chuanma {
namespace {

constexpr const char* kFormat = "chuanma-state/1";
constexpr int kJipinFan = 4;  // 极品: a win of this many fan or more in the preset's labels
constexpr std::array kPhases{"exchange", "void", "turn", "claim", "rob", "draw", "end"};
constexpr std::array kDirections{"", "to_next", "opposite", "to_previous"};
constexpr std::array kDrawKinds{"", "live", "replacement"};
constexpr std::array kMeldKinds{"pong", "kong", "chow"};
constexpr std::array kKongKinds{"exposed", "added", "concealed"};
constexpr std::array kReasons{"zimo", "dianpao", "qianggang", "kong_exposed", "kong_concealed", "kong_added",
                              "call_transfer", "flower_pig", "chadajiao", "refund", "escape"};
constexpr std::array kEndReasons{"three_won", "too_few_players", "won", "escape", "exhausted"};
constexpr std::array kEventTypes{"start", "deal", "deal_done", "exchange_chosen", "exchange", "exchange_received",
                                 "void_chosen", "voids", "draw", "discard", "claim", "pong", "chow", "kong",
                                 "kong_declared", "kong_robbed", "hu", "payment", "leave", "exhausted", "end"};
// The situations by bit (chuanma.scoring.SITUATIONS), and the order the engine lists them in.
constexpr std::array kSituations{"kong_replacement", "consecutive_kongs", "after_kong", "robbing_kong",
                                 "last_tile", "tianhu", "dihu"};
constexpr std::array kSituationOrder{5, 0, 1, 6, 2, 3, 4};
constexpr const char* kSuitLetters = "mpsz";
constexpr std::array kSuitNames{"m", "p", "s", "z"};
constexpr std::array kVisibilities{"public", "private"};
// A payment is at most 2^50 + 1 base (rules.hpp, kMaxTotal).
constexpr std::int64_t kMaxPayment = (std::int64_t{1} << (kMaxTotal + 1)) - 1;

template <typename... T>
nb::list list_of(const T&... items) {
    nb::list out;
    (out.append(items), ...);
    return out;
}

nb::object none_or(int value, int none = -1) { return value == none ? nb::none() : nb::object(nb::int_(value)); }

// ------------------------------------------------------------------ Python strings made once

// The strings below are made on first use and kept for good: never freed, so that nothing is left to
// destroy after the interpreter has ended.
PyObject* interned(const char* text) {
    PyObject* out = PyUnicode_InternFromString(text);
    if (!out) throw nb::python_error();
    return out;
}

// names[i] as a Python string.
template <const auto& names>
nb::handle py_name(int i) {
    static const auto strings = [] {
        std::array<PyObject*, std::tuple_size_v<std::decay_t<decltype(names)>>> out{};
        for (std::size_t j = 0; j < out.size(); ++j) out[j] = interned(names[j]);
        return out;
    }();
    return strings[i];
}

// d[key] = value.
void put(nb::handle d, PyObject* key, nb::handle value) {
    if (PyDict_SetItem(d.ptr(), key, value.ptr()) != 0) throw nb::python_error();
}

// The keys of the events' data and of actions, as Python strings.
struct Keys {
    PyObject* dealer = interned("dealer");
    PyObject* rules = interned("rules");
    PyObject* base = interned("base");
    PyObject* wall = interned("wall");
    PyObject* hand = interned("hand");
    PyObject* tiles = interned("tiles");
    PyObject* from = interned("from");
    PyObject* direction = interned("direction");
    PyObject* suit = interned("suit");
    PyObject* automatic = interned("automatic");
    PyObject* voids = interned("voids");
    PyObject* replacement = interned("replacement");
    PyObject* last_four = interned("last_four");
    PyObject* tile = interned("tile");
    PyObject* claim = interned("claim");
    PyObject* claimed = interned("claimed");
    PyObject* kind = interned("kind");
    PyObject* late = interned("late");
    PyObject* waits = interned("waits");
    PyObject* forced = interned("forced");
    PyObject* payer = interned("payer");
    PyObject* payee = interned("payee");
    PyObject* amount = interned("amount");
    PyObject* reason = interned("reason");
    PyObject* paid_for = interned("for");
    PyObject* part = interned("part");
    PyObject* pig = interned("pig");
    PyObject* ready = interned("ready");
    PyObject* fan = interned("fan");
    PyObject* hands = interned("hands");
    PyObject* melds = interned("melds");
    PyObject* deltas = interned("deltas");
    PyObject* leave = interned("leave");
    PyObject* discard = interned("discard");
    PyObject* pong = interned("pong");
    PyObject* kong = interned("kong");
    PyObject* chow = interned("chow");
    PyObject* hu = interned("hu");
    PyObject* pass = interned("pass");
    PyObject* void_suit = interned("void");
    PyObject* exchange = interned("exchange");
};

const Keys& keys() {
    static const Keys k;
    return k;
}

// ------------------------------------------------------------------ tiles as text

std::string tile_str(int t) { return std::to_string(t < 27 ? t % 9 + 1 : t - 26) + kSuitLetters[t / 9]; }

// tile_str(t) as a Python string.
nb::handle tile_name(int t) {
    static const auto names = [] {
        std::array<PyObject*, 34> out{};
        for (int u = 0; u < 34; ++u) out[u] = interned(tile_str(u).c_str());
        return out;
    }();
    return names[t];
}

nb::handle suit_name(int suit) { return py_name<kSuitNames>(suit); }

std::string format_tiles(const std::vector<int>& tiles) {  // in the order given, a suit letter after each run
    std::string out;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        const int t = tiles[i];
        out += static_cast<char>('0' + (t < 27 ? t % 9 + 1 : t - 26));
        if (i + 1 == tiles.size() || tiles[i + 1] / 9 != t / 9) out += kSuitLetters[t / 9];
    }
    return out;
}

std::string format_counts(const std::array<std::uint8_t, 34>& counts) {
    std::vector<int> tiles;
    for (int t = 0; t < 34; ++t)
        for (int i = 0; i < counts[t]; ++i) tiles.push_back(t);
    return format_tiles(tiles);
}

// ------------------------------------------------------------------ actions

nb::dict action_json(int index) {
    const Keys& k = keys();
    nb::dict out;
    if (index == kLeaveAction) put(out, k.leave, Py_True);
    else if (index < kPongAt) put(out, k.discard, tile_name(index - kDiscardAt));
    else if (index < kKongAt) put(out, k.pong, tile_name(index - kPongAt));
    else if (index < kChowAt) put(out, k.kong, tile_name(index - kKongAt));
    else if (index < kHuAt) put(out, k.chow, tile_name(chow_low(index)));
    else if (index == kHuAt) put(out, k.hu, Py_True);
    else if (index == kPassAt) put(out, k.pass, Py_True);
    else if (index < kExchangeAt) put(out, k.void_suit, suit_name(index - kVoidAt));
    else {
        const auto& t = exchange_tiles()[index - kExchangeAt];
        put(out, k.exchange, nb::str(format_tiles({t[0], t[1], t[2]}).c_str()));
    }
    return out;
}

nb::list decisions_json(const std::vector<Decision>& decisions) {
    nb::list out;
    for (const Decision& d : decisions) {
        nb::dict entry;
        entry["seat"] = d.seat;
        entry.update(action_json(d.action));
        out.append(entry);
    }
    return out;
}

// ------------------------------------------------------------------ public records

nb::list melds_json(const std::vector<Meld>& melds) {
    nb::list out;
    for (const Meld& m : melds) {
        nb::dict d;
        d["kind"] = kMeldKinds[static_cast<int>(m.kind)];
        d["tile"] = tile_str(m.tile);
        if (m.kind == MeldKind::kKong) d["kong"] = kKongKinds[static_cast<int>(m.kong)];
        out.append(d);
    }
    return out;
}

nb::list situations_json(std::uint32_t situations) {
    nb::list out;
    for (int bit : kSituationOrder)
        if (situations >> bit & 1) out.append(kSituations[bit]);
    return out;
}

// Every fan id with its name, in the compiled scoring's order (chuanma.scoring.FAN_NAMES).
nb::dict fan_table() { return nb::borrow<nb::dict>(nb::module_::import_("chuanma.scoring").attr("FAN_NAMES")); }

nb::dict win_json(const Rules& rules, const WinRecord& w) {
    const nb::dict fan_names = fan_table();
    const nb::list fan_ids = nb::list(fan_names);
    nb::dict d;
    d["seat"] = w.seat;
    d["tile"] = tile_str(w.tile);
    d["from"] = none_or(w.from);
    d["self_drawn"] = w.from < 0;
    d["robbed_kong"] = w.robbed;
    d["hand"] = format_counts(w.hand);
    nb::list fans;
    for (const FanValue& f : w.fans) {
        nb::dict fan;
        fan["id"] = fan_ids[static_cast<int>(f.fan)];
        fan["name"] = fan_names[fan_ids[static_cast<int>(f.fan)]];
        fan["fan"] = f.value;
        fans.append(fan);
    }
    d["fans"] = fans;
    d["total"] = w.total;
    d["multiplier"] = multiplier(w.total);
    d["situations"] = situations_json(w.situations);
    d["seq"] = w.seq;
    d["jipin"] = w.total + rules.fan_label_offset >= kJipinFan;
    return d;
}

nb::dict payment_json(const Payment& p) {
    nb::dict d;
    d["payer"] = p.payer;
    d["payee"] = p.payee;
    d["amount"] = p.amount;
    d["reason"] = kReasons[static_cast<int>(p.reason)];
    d["seq"] = p.seq;
    return d;
}

nb::dict turn_json(const Turn& t) {
    nb::dict d;
    d["draw_kind"] = t.draw_kind == DrawKind::kNone ? nb::none() : nb::object(nb::str(kDrawKinds[static_cast<int>(t.draw_kind)]));
    d["after_pong"] = t.after_pong;
    d["kong"] = none_or(t.kong);
    d["kongs"] = t.kongs;
    d["drew_last"] = t.drew_last;
    d["first"] = t.first;
    d["dihu"] = t.dihu;
    return d;
}

nb::dict kong_json(const KongRecord& k) {
    nb::dict d;
    d["seat"] = k.seat;
    d["tile"] = tile_str(k.tile);
    d["kind"] = kKongKinds[static_cast<int>(k.kind)];
    d["seq"] = k.seq;
    nb::list payments;
    for (int i : k.payments) payments.append(i);
    d["payments"] = payments;
    d["transferred"] = k.transferred;
    return d;
}

nb::list bools(const std::array<bool, kSeats>& flags) {
    nb::list out;
    for (bool f : flags) out.append(f);
    return out;
}

nb::list seat_bits(int mask) {
    nb::list out;
    for (int s = 0; s < kSeats; ++s) out.append(static_cast<bool>(mask >> s & 1));
    return out;
}

nb::object rules_json(const Rules& rules) { return nb::module_::import_("json").attr("loads")(rules.json); }

// ------------------------------------------------------------------ seats

nb::dict seat_json(const Seat& s, bool exchanged) {
    nb::dict d;
    d["hand"] = format_counts(s.hand);
    d["drawn"] = s.drawn < 0 ? nb::none() : nb::object(nb::str(tile_str(s.drawn).c_str()));
    d["exchange"] = exchanged ? nb::object(nb::str(format_tiles({s.exchange[0], s.exchange[1], s.exchange[2]}).c_str()))
                              : nb::none();
    d["void"] = s.void_suit < 0 ? nb::none() : nb::borrow(suit_name(s.void_suit));
    nb::object options = nb::none();
    if (s.asked) {
        nb::list opts;
        for (int a : s.claim_options) opts.append(action_json(a));
        options = opts;
    }
    d["claim_options"] = options;
    d["claim"] = s.claim < 0 ? nb::none() : nb::object(action_json(s.claim));
    d["banned"] = format_mask(s.banned);
    d["pong_ban"] = format_mask(s.pong_ban);
    d["bar"] = none_or(s.bar);
    d["late_pongs"] = format_mask(s.late_pongs);
    d["locked_waits"] = s.waits_locked ? nb::object(nb::str(format_mask(s.locked_waits).c_str())) : nb::none();
    d["live_draws"] = s.live_draws;
    return d;
}

// ------------------------------------------------------------------ events

// Event `seq` of the hand as its six items: seq, type, seat, data, private, visibility.
std::array<nb::object, 6> event_items(const Reducer& hand, int seq) {
    const Keys& k = keys();
    const HandState& st = hand.state();
    const Event& e = st.events[seq];
    nb::dict data, hidden;
    bool private_event = false;
    switch (e.type) {
        case EventType::kStart:
            put(data, k.dealer, nb::int_(e.a));
            put(data, k.rules, rules_json(st.rules));
            put(data, k.base, nb::int_(st.rules.base));
            put(data, k.wall, nb::int_(e.b));
            break;
        case EventType::kDeal:
            put(hidden, k.hand, nb::str(format_counts(st.dealt[e.seat]).c_str()));
            private_event = true;
            break;
        case EventType::kDealDone:
        case EventType::kLeave:
            put(data, k.wall, nb::int_(e.a));
            break;
        case EventType::kExchangeChosen:
        case EventType::kExchangeReceived: {
            const auto& t = exchange_tiles()[e.a - kExchangeAt];
            put(hidden, k.tiles, nb::str(format_tiles({t[0], t[1], t[2]}).c_str()));
            if (e.type == EventType::kExchangeReceived) {
                put(hidden, k.from, nb::int_(e.from));
                private_event = true;
            }
            break;
        }
        case EventType::kExchange:
            put(data, k.direction, py_name<kDirections>(e.a));
            break;
        case EventType::kVoidChosen:
            put(hidden, k.suit, suit_name(e.a));
            if (e.b) {
                put(hidden, k.automatic, Py_True);
                private_event = true;
            }
            break;
        case EventType::kVoids: {
            nb::list voids;
            for (int s = 0; s < kSeats; ++s) voids.append(suit_name(e.a >> 2 * s & 3));
            put(data, k.voids, voids);
            break;
        }
        case EventType::kDraw:
            put(data, k.wall, nb::int_(e.a));
            put(data, k.replacement, nb::bool_(e.b & 1));
            if (e.b & 2) put(data, k.last_four, Py_True);
            put(hidden, k.tile, tile_name(e.tile));
            break;
        case EventType::kDiscard:
            put(data, k.tile, tile_name(e.tile));
            put(data, k.wall, nb::int_(e.a));
            if (e.b) put(data, k.automatic, Py_True);
            break;
        case EventType::kClaim:
            put(hidden, k.claim, action_json(e.a));
            private_event = true;
            break;
        case EventType::kPong:
        case EventType::kChow:
            put(data, k.tile, tile_name(e.tile));
            put(data, k.from, nb::int_(e.from));
            if (e.type == EventType::kChow) put(data, k.claimed, tile_name(e.a));
            break;
        case EventType::kKong: {
            const KongKind kind = static_cast<KongKind>(e.a);
            // the keys in the Python engine's order: a concealed kong's kind first, any other's tile
            if (kind != KongKind::kConcealed) put(data, k.tile, tile_name(e.tile));
            put(data, k.kind, py_name<kKongKinds>(e.a));
            if (kind == KongKind::kConcealed) put(st.rules.concealed_kong_shown ? data : hidden, k.tile, tile_name(e.tile));
            if (kind == KongKind::kExposed) put(data, k.from, nb::int_(e.from));
            if (kind == KongKind::kAdded) put(data, k.late, nb::bool_(e.b));
            break;
        }
        case EventType::kKongDeclared:
            put(data, k.tile, tile_name(e.tile));
            put(data, k.kind, py_name<kKongKinds>(static_cast<int>(KongKind::kAdded)));
            break;
        case EventType::kKongRobbed:
            put(data, k.tile, tile_name(e.tile));
            break;
        case EventType::kHu:
            for (const WinRecord& w : st.wins)
                if (w.seq == seq) data = win_json(st.rules, w);
            put(data, k.waits, nb::str(format_mask(static_cast<TileMask>(e.value)).c_str()));
            if (e.a >> 17 & 1) put(data, k.forced, Py_True);
            break;
        case EventType::kPayment:
            put(data, k.payer, nb::int_(e.from));
            put(data, k.payee, nb::int_(e.a & 15));
            put(data, k.amount, nb::int_(e.value));
            put(data, k.reason, py_name<kReasons>(e.a >> 4));
            put(data, k.paid_for, nb::int_(e.b));
            break;
        case EventType::kExhausted:
            put(data, k.part, seat_bits(e.a));
            put(data, k.pig, seat_bits(e.a >> 4));
            put(data, k.ready, seat_bits(e.a >> 8));
            if (e.b) {
                nb::list fans;
                for (int s = 0; s < kSeats; ++s) fans.append(none_or(static_cast<int>(e.value >> 8 * s & 255) - 1));
                put(data, k.fan, fans);
            }
            break;
        case EventType::kEnd: {
            put(data, k.reason, py_name<kEndReasons>(e.a));
            nb::list hands, melds, deltas, waits;
            const auto d = hand.deltas();
            for (int s = 0; s < kSeats; ++s) {
                hands.append(format_counts(st.seats[s].hand));
                melds.append(melds_json(st.melds[s]));
                deltas.append(d[s]);
                const std::int64_t w = hand.standing_waits(s);
                waits.append(w < 0 ? nb::none() : nb::object(nb::str(format_mask(static_cast<TileMask>(w)).c_str())));
            }
            put(data, k.hands, hands);
            put(data, k.melds, melds);
            put(data, k.deltas, deltas);
            put(data, k.pig, seat_bits(e.b));
            put(data, k.waits, waits);
            break;
        }
    }
    return {nb::int_(seq), nb::borrow(py_name<kEventTypes>(static_cast<int>(e.type))), none_or(e.seat), std::move(data),
            std::move(hidden), nb::borrow(py_name<kVisibilities>(private_event))};
}

// chuanma.engine.events.Event, imported on first use and kept for good. A plain pointer, which the GIL
// guards: importing runs Python code, which may let another thread in, and a C++ static's guard would
// then hold that thread waiting while it holds the GIL.
PyTypeObject* event_class() {
    static PyTypeObject* type = nullptr;
    if (type) return type;
    nb::object event = nb::module_::import_("chuanma.engine.events").attr("Event");
    if (!PyType_Check(event.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(event.ptr()), &PyTuple_Type))
        throw nb::type_error("chuanma.engine.events.Event is not a tuple type");
    if (!type) type = reinterpret_cast<PyTypeObject*>(event.release().ptr());  // else another thread's import won
    return type;
}

// Event `seq` as a list, or as a `type` (a subclass of tuple). Up to Python 3.13 made as CPython's
// tuple_subtype_new makes it (the type's tp_alloc, then the items); from 3.14, whose tuples cache their
// hash in a field tp_alloc leaves 0, by tuple's own constructor.
nb::object event_as(const Reducer& hand, int seq, PyTypeObject* type) {
    std::array<nb::object, 6> items = event_items(hand, seq);
    const bool list = type == &PyList_Type;
#if PY_VERSION_HEX >= 0x030E0000
    PyObject* out = list ? PyList_New(items.size()) : PyTuple_New(items.size());
#else
    PyObject* out = list ? PyList_New(items.size()) : type->tp_alloc(type, items.size());
#endif
    if (!out) throw nb::python_error();
    for (std::size_t i = 0; i < items.size(); ++i) {
        PyObject* item = items[i].release().ptr();
        if (list) PyList_SET_ITEM(out, i, item);
        else PyTuple_SET_ITEM(out, i, item);
    }
    nb::object made = nb::steal(out);
#if PY_VERSION_HEX >= 0x030E0000
    if (!list) {
        const nb::object args = nb::make_tuple(made);
        PyObject* typed = PyTuple_Type.tp_new(type, args.ptr(), nullptr);
        if (!typed) throw nb::python_error();
        made = nb::steal(typed);
    }
#endif
    return made;
}

}  // namespace

nb::list event_json(const Reducer& hand, int seq) { return nb::steal<nb::list>(event_as(hand, seq, &PyList_Type).release()); }

nb::list logged_events(const Reducer& hand, int since) {
    PyTypeObject* const type = event_class();
    const int n = static_cast<int>(hand.state().events.size());
    since = std::clamp(since, 0, n);
    std::vector<nb::object> made;  // every event made before the list holds them (no half-filled list)
    made.reserve(n - since);
    for (int i = since; i < n; ++i) made.push_back(event_as(hand, i, type));
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(made.size()));
    if (!out) throw nb::python_error();
    for (std::size_t i = 0; i < made.size(); ++i) PyList_SET_ITEM(out, i, made[i].release().ptr());
    return nb::steal<nb::list>(out);
}

std::string format_mask(TileMask mask) {
    std::vector<int> tiles;
    for (int t = 0; t < 34; ++t)
        if (mask >> t & 1) tiles.push_back(t);
    return format_tiles(tiles);
}

nb::dict state_to_dict(const Reducer& hand) {
    const HandState& st = hand.state();
    nb::dict out, hidden, pub;
    out["format"] = kFormat;
    out["rules"] = rules_json(st.rules);
    out["base"] = st.rules.base;
    std::vector<int> wall(st.wall.begin(), st.wall.end());
    nb::list wall_tiles;
    for (int t : wall) wall_tiles.append(tile_str(t));
    hidden["wall"] = wall_tiles;
    hidden["direction"] = kDirections[st.direction];
    hidden["seeds"] = st.seeds.empty() ? nb::none() : nb::module_::import_("json").attr("loads")(st.seeds);
    out["hidden"] = hidden;

    pub["dealer"] = st.dealer;
    pub["phase"] = kPhases[static_cast<int>(st.phase)];
    pub["current"] = st.current;
    pub["live"] = st.live;
    pub["tail"] = st.tail;
    nb::list melds, discards, claimed_at, win_piles, log;
    for (int s = 0; s < kSeats; ++s) {
        melds.append(melds_json(st.melds[s]));
        discards.append(format_tiles({st.discards[s].begin(), st.discards[s].end()}));
        nb::list at;
        for (int n : st.claimed_at[s]) at.append(n);
        claimed_at.append(at);
        win_piles.append(format_tiles({st.win_piles[s].begin(), st.win_piles[s].end()}));
    }
    for (const auto& [seat, t] : st.discard_log) log.append(list_of(seat, tile_str(t)));
    pub["melds"] = melds;
    pub["discards"] = discards;
    pub["discard_log"] = log;
    pub["claimed_at"] = claimed_at;
    pub["win_piles"] = win_piles;
    pub["voids_revealed"] = st.voids_revealed;
    // the direction is shown once every seat has chosen its tiles: they were exchanged at once
    const bool exchanged = std::all_of(st.exchanged.begin(), st.exchanged.end(), [](bool x) { return x; });
    pub["direction"] = exchanged ? nb::object(nb::str(kDirections[st.direction])) : nb::none();
    pub["exchanged"] = bools(st.exchanged);
    pub["void_chosen"] = bools(st.void_chosen);
    pub["out"] = bools(st.out);
    pub["left"] = bools(st.left);
    pub["locked"] = bools(st.locked);
    nb::list wins, ledger, kongs;
    for (const WinRecord& w : st.wins) wins.append(win_json(st.rules, w));
    for (const Payment& p : st.ledger) ledger.append(payment_json(p));
    for (const KongRecord& k : st.kongs) kongs.append(kong_json(k));
    pub["wins"] = wins;
    pub["ledger"] = ledger;
    pub["kongs"] = kongs;
    pub["turn"] = turn_json(st.turn);
    nb::object claim = nb::none();
    if (st.phase == Phase::kClaim || st.phase == Phase::kRob) {
        nb::dict w;
        w["tile"] = tile_str(st.window.tile);
        w["from"] = st.window.from;
        w["situations"] = situations_json(st.window.situations);
        w["rob"] = st.window.rob;
        w["kong"] = none_or(st.window.kong);
        claim = w;
    }
    pub["claim"] = claim;
    pub["declared"] = st.declared;
    pub["live_draws"] = st.live_draws;
    pub["dealer_discards"] = st.dealer_discards;
    pub["first_multi_from"] = none_or(st.first_multi_from);
    nb::object end_reason = nb::none();
    if (!st.events.empty() && st.events.back().type == EventType::kEnd) end_reason = nb::str(kEndReasons[st.events.back().a]);
    pub["end_reason"] = end_reason;
    pub["version"] = st.version;
    pub["posed"] = st.posed;
    out["public"] = pub;

    nb::list seats, events;
    for (int s = 0; s < kSeats; ++s) seats.append(seat_json(st.seats[s], st.exchanged[s]));
    out["seats"] = seats;
    for (int i = 0; i < static_cast<int>(st.events.size()); ++i) events.append(event_json(hand, i));
    out["events"] = events;
    out["decisions"] = decisions_json(st.decisions);
    out["autos"] = decisions_json(st.autos);
    return out;
}

namespace {

// ------------------------------------------------------------------ reading, checked

// The reader trusts nothing: every value is checked before it is used as an index or a count, and
// anything the form cannot hold is refused with a ValueError naming the field ("state: public.current
// is 40, not 0-3").

[[noreturn]] void refuse(const std::string& field, const std::string& what) {
    throw nb::value_error(("state: " + field + " " + what).c_str());
}

std::string shown(nb::handle value) {  // a value as a message quotes it (at most 60 characters)
    std::string text = nb::cast<std::string>(nb::repr(value));
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string at(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }
std::string at(const std::string& path, int i) { return path + "[" + std::to_string(i) + "]"; }

// The dict at `path`.
nb::dict object(nb::handle value, const std::string& path) {
    if (!PyDict_Check(value.ptr())) refuse(path, "is not an object: " + shown(value));
    return nb::borrow<nb::dict>(value);
}

bool has(nb::handle dict, const char* key) { return PyDict_GetItemString(dict.ptr(), key) != nullptr; }

// Entry `key` of the dict `dict` at `path` (which must have it).
nb::handle entry(nb::handle dict, const std::string& path, const char* key) {
    PyObject* value = PyDict_GetItemString(object(dict, path).ptr(), key);
    if (!value) refuse(at(path, key), "is missing");
    return value;
}

nb::list list(nb::handle value, const std::string& path) {
    if (!PyList_Check(value.ptr())) refuse(path, "is not a list: " + shown(value));
    return nb::borrow<nb::list>(value);
}

// A list of one entry a seat.
nb::list per_seat(nb::handle value, const std::string& path) {
    nb::list out = list(value, path);
    if (out.size() != kSeats) refuse(path, "has " + std::to_string(out.size()) + " entries, a hand has 4");
    return out;
}

long long integer(nb::handle value, const std::string& path, long long low, long long high) {
    if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) refuse(path, "is not an integer: " + shown(value));
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow || n < low || n > high)
        refuse(path, "is " + shown(value) + ", not " + std::to_string(low) + "-" + std::to_string(high));
    return n;
}

int number(nb::handle value, const std::string& path, int low, int high) {
    return static_cast<int>(integer(value, path, low, high));
}

int seat(nb::handle value, const std::string& path) { return number(value, path, 0, kSeats - 1); }

int seat_or_none(nb::handle value, const std::string& path) { return value.is_none() ? -1 : seat(value, path); }

bool flag(nb::handle value, const std::string& path) {
    if (!PyBool_Check(value.ptr())) refuse(path, "is not true or false: " + shown(value));
    return value.ptr() == Py_True;
}

// An optional flag of an event's data: false when absent.
bool flag_if(nb::handle dict, const std::string& path, const char* key) {
    return has(dict, key) && flag(entry(dict, path, key), at(path, key));
}

std::string text(nb::handle value, const std::string& path) {
    if (!PyUnicode_Check(value.ptr())) refuse(path, "is not text: " + shown(value));
    return nb::cast<std::string>(value);
}

// The index of a name among `names` (from `first` on: the empty name at 0 means none).
template <typename Names>
int name(nb::handle value, const std::string& path, const Names& names, std::size_t first = 0) {
    const std::size_t N = std::size(names);
    const std::string given = text(value, path);
    for (std::size_t i = first; i < N; ++i)
        if (given == names[i]) return static_cast<int>(i);
    std::string known;
    for (std::size_t i = first; i < N; ++i) known += (i > first ? ", " : "") + std::string(names[i]);
    refuse(path, "is " + shown(value) + ", not one of " + known);
}

int suit(nb::handle value, const std::string& path) {  // a void suit: m, p or s
    const std::string given = text(value, path);
    if (given.size() != 1 || !std::char_traits<char>::find(kSuitLetters, 3, given[0]))
        refuse(path, "is " + shown(value) + ", not a suit m, p or s");
    return static_cast<int>(std::char_traits<char>::find(kSuitLetters, 3, given[0]) - kSuitLetters);
}

std::uint32_t situations(nb::handle value, const std::string& path) {
    std::uint32_t out = 0;
    const nb::list names = list(value, path);
    for (std::size_t i = 0; i < names.size(); ++i) out |= 1u << name(names[i], at(path, static_cast<int>(i)), kSituations);
    return out;
}

// Four flags as bits by seat.
int seat_flags(nb::handle value, const std::string& path) {
    const nb::list flags = per_seat(value, path);
    int out = 0;
    for (int s = 0; s < kSeats; ++s) out |= flag(flags[s], at(path, s)) << s;
    return out;
}

// The entries of a list, each read by `read(value, path)`.
template <typename Read>
auto each(nb::handle value, const std::string& path, Read read) {
    const nb::list items = list(value, path);
    std::vector<decltype(read(nb::handle(), path))> out;
    for (std::size_t i = 0; i < items.size(); ++i) out.push_back(read(items[i], at(path, static_cast<int>(i))));
    return out;
}

// An index into a list of `size` entries (`what` names them).
int index(nb::handle value, const std::string& path, std::size_t size, const char* what) {
    if (size == 0) refuse(path, "is " + shown(value) + ", but there are no " + what);
    return number(value, path, 0, static_cast<int>(size) - 1);
}

// A payment: in the ledger (its event's number under "seq") or in its event (the event it pays for,
// before it, under "for"). A state rebuilt from a view has records but no events: a record's seq is
// not checked against the log.
Payment payment(nb::handle d, const std::string& path, const char* seq_key, int last_seq) {
    auto field = [&](const char* key) { return entry(d, path, key); };
    Payment p{seat(field("payer"), at(path, "payer")), seat(field("payee"), at(path, "payee")),
              integer(field("amount"), at(path, "amount"), 1, kMaxPayment),
              static_cast<Reason>(name(field("reason"), at(path, "reason"), kReasons)),
              number(field(seq_key), at(path, seq_key), 0, last_seq)};
    if (p.payer == p.payee) refuse(path, "pays seat " + std::to_string(p.payer) + " to itself");
    return p;
}

// What reads a state's parts that depend on its rules: tiles of the rules' set, actions of its
// variant, counts bounded by its wall.
class StateReader {
public:
    explicit StateReader(const Rules& rules) : rules_(rules) {}

    // Tiles as text ("123m45p"), in the order written: a run of ranks, then its suit letter.
    std::vector<int> tiles(nb::handle value, const std::string& path) const {
        const std::string given = text(value, path);
        std::vector<int> out;
        std::string ranks;
        for (char c : given) {
            if (c >= '1' && c <= '9') {
                ranks += c;
                continue;
            }
            const char* letter = c ? std::char_traits<char>::find(kSuitLetters, 4, c) : nullptr;
            if (!letter || ranks.empty()) refuse(path, "is " + shown(value) + ", not tiles");
            for (char r : ranks) {
                const int t = 9 * static_cast<int>(letter - kSuitLetters) + (r - '1');
                if (t >= rules_.kinds()) refuse(path, "has " + std::string{r, c} + ", not a tile of this hand's set");
                out.push_back(t);
            }
            ranks.clear();
        }
        if (!ranks.empty()) refuse(path, "is " + shown(value) + ", not tiles");
        return out;
    }

    int tile(nb::handle value, const std::string& path) const {
        const std::vector<int> t = tiles(value, path);
        if (t.size() != 1) refuse(path, "is " + shown(value) + ", not one tile");
        return t[0];
    }

    int tile_or_none(nb::handle value, const std::string& path) const { return value.is_none() ? kNoTile : tile(value, path); }

    // Tiles as counts by kind, at most four of a kind.
    std::array<std::uint8_t, 34> counts(nb::handle value, const std::string& path) const {
        std::array<std::uint8_t, 34> out{};
        for (int t : tiles(value, path))
            if (++out[t] > 4) refuse(path, "holds more than 4 of " + tile_str(t));
        return out;
    }

    TileMask mask(nb::handle value, const std::string& path) const {
        TileMask out = 0;
        for (int t : tiles(value, path)) out |= TileMask{1} << t;
        return out;
    }

    // A count of tiles of the wall (0 to its size).
    int wall_count(nb::handle value, const std::string& path) const { return number(value, path, 0, rules_.wall_size()); }

    // Three tiles of one suit chosen to exchange, as their action index.
    int exchange(nb::handle value, const std::string& path) const {
        if (!rules_.has_exchange()) refuse(path, "is an exchange, which these rules do not have");
        std::vector<int> t = tiles(value, path);
        std::sort(t.begin(), t.end());
        const int index = t.size() == 3 && t[2] < 27 ? exchange_index(t[0], t[1], t[2]) : -1;
        if (index < 0) refuse(path, "is " + shown(value) + ", not three tiles of one suit");
        return index;
    }

    int void_suit(nb::handle value, const std::string& path) const {
        if (!rules_.has_void()) refuse(path, "is a void, which these rules do not have");
        return suit(value, path);
    }

    // The lowest tile of a chow.
    int chow(nb::handle value, const std::string& path) const {
        const int t = tile(value, path);
        if (!rules_.has_chow()) refuse(path, "is a chow, which these rules do not have");
        if (t >= 27 || t % 9 > 6) refuse(path, "is " + shown(value) + ", not the lowest tile of a chow");
        return t;
    }

    // An action in its JSON form ({"discard": "5m"}) as its index (a decision's dict also has its
    // "seat", and may be a leave).
    int action(nb::handle value, const std::string& path, bool decision = false) const {
        const nb::dict d = object(value, path);
        if (d.size() != (decision ? 2u : 1u)) refuse(path, "is " + shown(value) + ", not one action");
        for (auto [key, v] : d) {
            const std::string k = text(key, path + " key");
            const std::string field = path + "." + k;
            if (k == "seat" && decision) continue;
            if (k == "hu" || k == "pass" || (k == "leave" && decision)) {
                if (!flag(v, field)) refuse(field, "is not true");
                return k == "hu" ? kHuAt : k == "pass" ? kPassAt : kLeaveAction;
            }
            if (k == "discard") return kDiscardAt + tile(v, field);
            if (k == "pong") return kPongAt + tile(v, field);
            if (k == "kong") return kKongAt + tile(v, field);
            if (k == "chow") return chow_index(chow(v, field));
            if (k == "void") return kVoidAt + void_suit(v, field);
            if (k == "exchange") return exchange(v, field);
            refuse(path, "is " + shown(value) + ", not an action");
        }
        refuse(path, "has no action");
    }

    Meld meld(nb::handle value, const std::string& path) const {
        const MeldKind kind = static_cast<MeldKind>(name(entry(value, path, "kind"), at(path, "kind"), kMeldKinds));
        nb::handle t = entry(value, path, "tile");
        Meld m{kind, static_cast<std::int8_t>(kind == MeldKind::kChow ? chow(t, at(path, "tile")) : tile(t, at(path, "tile")))};
        if (kind == MeldKind::kKong) m.kong = static_cast<KongKind>(name(entry(value, path, "kong"), at(path, "kong"), kKongKinds));
        else if (has(value, "kong")) refuse(at(path, "kong"), "is given for a " + std::string(kMeldKinds[static_cast<int>(kind)]));
        return m;
    }

    std::vector<Decision> decisions(nb::handle value, const std::string& path) const {
        return each(value, path, [&](nb::handle d, const std::string& p) {
            return Decision{seat(entry(d, p, "seat"), at(p, "seat")), action(d, p, true)};
        });
    }

    WinRecord win(nb::handle d, const std::string& path) const {
        auto field = [&](const char* key) { return entry(d, path, key); };
        WinRecord w{seat(field("seat"), at(path, "seat")), tile(field("tile"), at(path, "tile")),
                    seat_or_none(field("from"), at(path, "from")), flag(field("robbed_kong"), at(path, "robbed_kong")),
                    situations(field("situations"), at(path, "situations")),
                    number(field("total"), at(path, "total"), 0, kMaxTotal), {},
                    number(field("seq"), at(path, "seq"), 0, INT32_MAX), counts(field("hand"), at(path, "hand"))};
        w.fans = each(field("fans"), at(path, "fans"), [](nb::handle f, const std::string& p) {
            return FanValue{static_cast<Fan>(name(entry(f, p, "id"), at(p, "id"), kFanIds)),
                            number(entry(f, p, "fan"), at(p, "fan"), 0, kMaxTotal)};
        });
        return w;
    }

    KongRecord kong(nb::handle d, const std::string& path, std::size_t payments) const {
        auto field = [&](const char* key) { return entry(d, path, key); };
        KongRecord k{seat(field("seat"), at(path, "seat")), tile(field("tile"), at(path, "tile")),
                     static_cast<KongKind>(name(field("kind"), at(path, "kind"), kKongKinds)),
                     number(field("seq"), at(path, "seq"), 0, INT32_MAX), {},
                     flag(field("transferred"), at(path, "transferred"))};
        k.payments = each(field("payments"), at(path, "payments"), [&](nb::handle i, const std::string& p) {
            return index(i, p, payments, "payments in the ledger");
        });
        return k;
    }

    Seat seat_state(nb::handle d, const std::string& path) const {
        auto field = [&](const char* key) { return entry(d, path, key); };
        Seat s;
        const auto hand = counts(field("hand"), at(path, "hand"));
        for (int t = 0; t < 34; ++t)
            if (hand[t]) s.add(t, hand[t]);
        s.drawn = tile_or_none(field("drawn"), at(path, "drawn"));
        if (s.drawn != kNoTile && !s.hand[s.drawn])
            refuse(at(path, "drawn"), "is " + tile_str(s.drawn) + ", which the hand does not hold");
        if (!field("exchange").is_none()) {
            const auto& t = exchange_tiles()[exchange(field("exchange"), at(path, "exchange")) - kExchangeAt];
            s.exchange = {t[0], t[1], t[2]};
        }
        s.void_suit = field("void").is_none() ? -1 : void_suit(field("void"), at(path, "void"));
        s.asked = !field("claim_options").is_none();
        if (s.asked)
            s.claim_options = each(field("claim_options"), at(path, "claim_options"),
                                   [&](nb::handle a, const std::string& p) { return action(a, p); });
        s.claim = field("claim").is_none() ? -1 : action(field("claim"), at(path, "claim"));
        s.banned = mask(field("banned"), at(path, "banned"));
        s.pong_ban = mask(field("pong_ban"), at(path, "pong_ban"));
        s.bar = field("bar").is_none() ? -1 : number(field("bar"), at(path, "bar"), 0, kMaxTotal);
        s.late_pongs = mask(field("late_pongs"), at(path, "late_pongs"));
        s.waits_locked = !field("locked_waits").is_none();
        if (s.waits_locked) s.locked_waits = mask(field("locked_waits"), at(path, "locked_waits"));
        s.live_draws = wall_count(field("live_draws"), at(path, "live_draws"));
        return s;
    }

    // Event `seq` of the log, [seq, type, seat, data, private, visibility]; a deal's hand is added
    // to `dealt`.
    Event event(nb::handle value, const std::string& path, int seq,
                std::array<std::array<std::uint8_t, 34>, kSeats>& dealt) const {
        const nb::list ev = list(value, path);
        if (ev.size() != 6) refuse(path, "has " + std::to_string(ev.size()) + " entries, an event has 6");
        if (number(ev[0], at(path, 0), 0, INT32_MAX) != seq)
            refuse(at(path, 0), "is " + shown(ev[0]) + ", not its place " + std::to_string(seq));
        Event e{static_cast<EventType>(name(ev[1], at(path, 1), kEventTypes))};
        e.seat = static_cast<std::int8_t>(seat_or_none(ev[2], at(path, 2)));
        name(ev[5], at(path, 5), kVisibilities);
        // the data and the private data, as one dict
        nb::dict d = nb::borrow<nb::dict>(object(ev[3], at(path, 3)).attr("copy")());
        d.update(object(ev[4], at(path, 4)));
        const std::string p = path + " data";
        auto field = [&](const char* key) { return entry(d, p, key); };
        auto tile_of = [&](const char* key) { return static_cast<std::int8_t>(tile(field(key), at(p, key))); };
        auto from = [&] { e.from = static_cast<std::int8_t>(seat(field("from"), at(p, "from"))); };
        switch (e.type) {
            case EventType::kStart:
                e.a = seat(field("dealer"), at(p, "dealer"));
                e.b = number(field("wall"), at(p, "wall"), rules_.wall_size(), rules_.wall_size());
                break;
            case EventType::kDeal:
                if (e.seat < 0) refuse(at(path, 2), "is None, but a deal is to a seat");
                if (dealt[e.seat] != std::array<std::uint8_t, 34>{}) refuse(at(path, 2), "is a seat dealt to before");
                dealt[e.seat] = counts(field("hand"), at(p, "hand"));
                break;
            case EventType::kDealDone:
            case EventType::kLeave: e.a = wall_count(field("wall"), at(p, "wall")); break;
            case EventType::kExchangeChosen:
            case EventType::kExchangeReceived:
                e.a = exchange(field("tiles"), at(p, "tiles"));
                if (e.type == EventType::kExchangeReceived) from();
                break;
            case EventType::kExchange: e.a = name(field("direction"), at(p, "direction"), kDirections, 1); break;
            case EventType::kVoidChosen:
                e.a = void_suit(field("suit"), at(p, "suit"));
                e.b = flag_if(d, p, "automatic");
                break;
            case EventType::kVoids: {
                const nb::list voids = per_seat(field("voids"), at(p, "voids"));
                for (int s = 0; s < kSeats; ++s) e.a |= void_suit(voids[s], at(at(p, "voids"), s)) << 2 * s;
                break;
            }
            case EventType::kDraw:
            case EventType::kDiscard:
                e.tile = tile_of("tile");
                e.a = wall_count(field("wall"), at(p, "wall"));
                e.b = e.type == EventType::kDraw ? flag_if(d, p, "replacement") | flag_if(d, p, "last_four") << 1
                                                 : flag_if(d, p, "automatic");
                break;
            case EventType::kClaim: e.a = action(field("claim"), at(p, "claim")); break;
            case EventType::kKong:
                e.a = name(field("kind"), at(p, "kind"), kKongKinds);
                e.b = flag_if(d, p, "late");
                e.tile = tile_of("tile");
                if (e.a == static_cast<int>(KongKind::kExposed)) from();
                break;
            case EventType::kPong:
                e.tile = tile_of("tile");
                from();
                break;
            case EventType::kChow:
                e.tile = static_cast<std::int8_t>(chow(field("tile"), at(p, "tile")));
                from();
                e.a = tile_of("claimed");
                break;
            case EventType::kKongDeclared:
            case EventType::kKongRobbed: e.tile = tile_of("tile"); break;
            case EventType::kHu:
                e.tile = tile_of("tile");
                e.from = static_cast<std::int8_t>(seat_or_none(field("from"), at(p, "from")));
                e.a = static_cast<int>(situations(field("situations"), at(p, "situations"))) |
                      flag_if(d, p, "robbed_kong") << 16 | flag_if(d, p, "forced") << 17;
                e.b = number(field("total"), at(p, "total"), 0, kMaxTotal);
                e.value = static_cast<std::int64_t>(mask(field("waits"), at(p, "waits")));
                break;
            case EventType::kPayment: {
                const Payment pay = payment(d, p, "for", seq);
                e.from = static_cast<std::int8_t>(pay.payer);
                e.a = pay.payee | static_cast<int>(pay.reason) << 4;
                e.b = pay.seq;
                e.value = pay.amount;
                break;
            }
            case EventType::kExhausted:
                e.a = seat_flags(field("part"), at(p, "part")) | seat_flags(field("pig"), at(p, "pig")) << 4 |
                      seat_flags(field("ready"), at(p, "ready")) << 8;
                if (has(d, "fan")) {
                    e.b = 1;
                    const nb::list fans = per_seat(field("fan"), at(p, "fan"));
                    for (int s = 0; s < kSeats; ++s)
                        if (!fans[s].is_none())
                            e.value |= static_cast<std::int64_t>(number(fans[s], at(at(p, "fan"), s), 0, kMaxTotal) + 1) << 8 * s;
                }
                break;
            case EventType::kEnd:
                e.a = name(field("reason"), at(p, "reason"), kEndReasons);
                e.b = seat_flags(field("pig"), at(p, "pig"));
                break;
        }
        return e;
    }

private:
    const Rules& rules_;
};


// Every tile of the set is in one place: the wall holds the whole set, and what is left of it (from
// live to tail), the hands, melds, rivers and win piles hold it again (HandState.tile_total, by kind).
void check_tiles(const HandState& st) {
    std::array<int, 34> wall{}, held{};
    for (int t : st.wall) ++wall[t];
    for (int i = st.live; i <= st.tail; ++i) ++held[st.wall[i]];
    for (int s = 0; s < kSeats; ++s) {
        for (int t = 0; t < 34; ++t) held[t] += st.seats[s].hand[t];
        for (const Meld& m : st.melds[s])
            for (int i = 0; i < (m.kind == MeldKind::kKong ? 4 : 3); ++i) ++held[m.tile + (m.kind == MeldKind::kChow ? i : 0)];
        for (int t : st.discards[s]) ++held[t];
        for (int t : st.win_piles[s]) ++held[t];
    }
    for (int t = 0; t < st.rules.kinds(); ++t) {
        if (wall[t] != 4) refuse("hidden.wall", "holds " + std::to_string(wall[t]) + " of " + tile_str(t) + ", not 4");
        if (held[t] != 4)
            refuse("tile " + tile_str(t), "is in " + std::to_string(held[t]) +
                                              " places (the wall from live to tail, hands, melds, rivers, win piles), not 4");
    }
}

}  // namespace

HandState state_from_dict(nb::handle data) {
    PyObject* format = PyDict_Check(data.ptr()) ? PyDict_GetItemString(data.ptr(), "format") : nullptr;
    if (!format || !PyUnicode_Check(format) || nb::cast<std::string>(nb::handle(format)) != kFormat)
        throw nb::value_error("not a chuanma-state/1 state");
    HandState st;
    // RuleSet refuses rules and a base it does not know with a RuleSetError (a ValueError)
    nb::object ruleset = nb::module_::import_("chuanma.rules").attr("RuleSet").attr("from_json")(entry(data, "", "rules"));
    if (!ruleset.attr("base").equal(entry(data, "", "base"))) {
        nb::dict base;
        base["base"] = data["base"];
        ruleset = ruleset.attr("with_options")(**base);
    }
    st.rules = rules_from(ruleset, nb::cast<ScoreOptions>(nb::module_::import_("chuanma.scoring").attr("score_options")(ruleset)));
    const StateReader read(st.rules);
    const int size = st.rules.wall_size();
    auto field = [](nb::handle d, const char* path, const char* key) { return entry(d, path, key); };

    const nb::list events = list(entry(data, "", "events"), "events");
    for (std::size_t i = 0; i < events.size(); ++i)
        st.events.push_back(read.event(events[i], at("events", static_cast<int>(i)), static_cast<int>(i), st.dealt));

    const nb::handle h = field(data, "", "hidden"), p = field(data, "", "public");
    st.wall.reserve(size);
    for (int t : each(field(h, "hidden", "wall"), "hidden.wall", [&](nb::handle x, const std::string& where) { return read.tile(x, where); }))
        st.wall.push_back(static_cast<std::uint8_t>(t));
    if (static_cast<int>(st.wall.size()) != size)
        refuse("hidden.wall", "has " + std::to_string(st.wall.size()) + " tiles, these rules' wall " + std::to_string(size));
    st.direction = name(field(h, "hidden", "direction"), "hidden.direction", kDirections, 1);
    const nb::handle seeds = field(h, "hidden", "seeds");
    if (!seeds.is_none()) {
        try {
            st.seeds = nb::cast<std::string>(nb::module_::import_("json").attr("dumps")(object(seeds, "hidden.seeds")));
        } catch (nb::python_error& e) {  // a value json cannot write (a set, an object)
            if (!e.matches(PyExc_TypeError)) throw;
            refuse("hidden.seeds", "is not JSON data: " + shown(seeds));
        }
    }

    st.dealer = seat(field(p, "public", "dealer"), "public.dealer");
    st.phase = static_cast<Phase>(name(field(p, "public", "phase"), "public.phase", kPhases));
    st.current = seat(field(p, "public", "current"), "public.current");
    st.live = read.wall_count(field(p, "public", "live"), "public.live");
    st.tail = number(field(p, "public", "tail"), "public.tail", st.live - 1, size - 1);
    const nb::list melds = per_seat(field(p, "public", "melds"), "public.melds");
    const nb::list discards = per_seat(field(p, "public", "discards"), "public.discards");
    const nb::list claimed_at = per_seat(field(p, "public", "claimed_at"), "public.claimed_at");
    const nb::list win_piles = per_seat(field(p, "public", "win_piles"), "public.win_piles");
    const nb::list exchanged = per_seat(field(p, "public", "exchanged"), "public.exchanged");
    const nb::list void_chosen = per_seat(field(p, "public", "void_chosen"), "public.void_chosen");
    const nb::list out = per_seat(field(p, "public", "out"), "public.out");
    const nb::list left = per_seat(field(p, "public", "left"), "public.left");
    const nb::list locked = per_seat(field(p, "public", "locked"), "public.locked");
    for (int s = 0; s < kSeats; ++s) {
        st.melds[s] = each(melds[s], at("public.melds", s), [&](nb::handle m, const std::string& where) { return read.meld(m, where); });
        for (int t : read.tiles(discards[s], at("public.discards", s))) st.discards[s].push_back(static_cast<std::uint8_t>(t));
        st.claimed_at[s] = each(claimed_at[s], at("public.claimed_at", s),
                                [&](nb::handle n, const std::string& where) { return read.wall_count(n, where); });
        for (int t : read.tiles(win_piles[s], at("public.win_piles", s))) st.win_piles[s].push_back(static_cast<std::uint8_t>(t));
        st.exchanged[s] = flag(exchanged[s], at("public.exchanged", s));
        if (st.exchanged[s] && !st.rules.has_exchange()) refuse(at("public.exchanged", s), "is true, but these rules have no exchange");
        st.void_chosen[s] = flag(void_chosen[s], at("public.void_chosen", s));
        st.out[s] = flag(out[s], at("public.out", s));
        st.left[s] = flag(left[s], at("public.left", s));
        st.locked[s] = flag(locked[s], at("public.locked", s));
    }
    st.discard_log = each(field(p, "public", "discard_log"), "public.discard_log", [&](nb::handle x, const std::string& where) {
        const nb::list pair = list(x, where);
        if (pair.size() != 2) refuse(where, "has " + std::to_string(pair.size()) + " entries, not a seat and a tile");
        return std::pair<int, int>(seat(pair[0], at(where, 0)), read.tile(pair[1], at(where, 1)));
    });
    st.voids_revealed = flag(field(p, "public", "voids_revealed"), "public.voids_revealed");
    st.wins = each(field(p, "public", "wins"), "public.wins", [&](nb::handle w, const std::string& where) { return read.win(w, where); });
    for (const WinRecord& w : st.wins) st.won[w.seat] = true;
    for (std::size_t i = 0; i < st.events.size(); ++i)  // a win's event is written from its record
        if (st.events[i].type == EventType::kHu &&
            std::none_of(st.wins.begin(), st.wins.end(), [&](const WinRecord& w) { return w.seq == static_cast<int>(i); }))
            refuse(at("events", static_cast<int>(i)), "is a win with no record in public.wins");
    st.ledger = each(field(p, "public", "ledger"), "public.ledger",
                     [&](nb::handle x, const std::string& where) { return payment(x, where, "seq", INT32_MAX); });
    st.kongs = each(field(p, "public", "kongs"), "public.kongs",
                    [&](nb::handle k, const std::string& where) { return read.kong(k, where, st.ledger.size()); });
    const nb::handle turn = field(p, "public", "turn");
    const nb::handle draw_kind = field(turn, "public.turn", "draw_kind");
    st.turn.draw_kind = draw_kind.is_none() ? DrawKind::kNone
                                            : static_cast<DrawKind>(name(draw_kind, "public.turn.draw_kind", kDrawKinds, 1));
    st.turn.after_pong = flag(field(turn, "public.turn", "after_pong"), "public.turn.after_pong");
    const nb::handle turn_kong = field(turn, "public.turn", "kong");
    st.turn.kong = turn_kong.is_none() ? -1 : index(turn_kong, "public.turn.kong", st.kongs.size(), "kongs");
    st.turn.kongs = number(field(turn, "public.turn", "kongs"), "public.turn.kongs", 0, static_cast<int>(st.kongs.size()));
    st.turn.drew_last = flag(field(turn, "public.turn", "drew_last"), "public.turn.drew_last");
    st.turn.first = flag(field(turn, "public.turn", "first"), "public.turn.first");
    st.turn.dihu = flag(field(turn, "public.turn", "dihu"), "public.turn.dihu");
    const nb::handle claim = field(p, "public", "claim");
    const bool window = st.phase == Phase::kClaim || st.phase == Phase::kRob;
    if (claim.is_none() == window)
        refuse("public.claim", window ? "is None in a claim window" : "is given outside a claim window");
    if (window) {
        st.window.tile = read.tile(field(claim, "public.claim", "tile"), "public.claim.tile");
        st.window.from = seat(field(claim, "public.claim", "from"), "public.claim.from");
        st.window.situations = situations(field(claim, "public.claim", "situations"), "public.claim.situations");
        st.window.rob = flag(field(claim, "public.claim", "rob"), "public.claim.rob");
        const nb::handle kong = field(claim, "public.claim", "kong");
        st.window.kong = kong.is_none() ? -1 : index(kong, "public.claim.kong", st.kongs.size(), "kongs");
    }
    st.declared = flag(field(p, "public", "declared"), "public.declared");
    st.live_draws = read.wall_count(field(p, "public", "live_draws"), "public.live_draws");
    st.dealer_discards = read.wall_count(field(p, "public", "dealer_discards"), "public.dealer_discards");
    st.first_multi_from = seat_or_none(field(p, "public", "first_multi_from"), "public.first_multi_from");
    st.version = number(field(p, "public", "version"), "public.version", 0, INT32_MAX);
    st.posed = number(field(p, "public", "posed"), "public.posed", 0, st.version);

    const nb::list seats = per_seat(entry(data, "", "seats"), "seats");
    for (int s = 0; s < kSeats; ++s) st.seats[s] = read.seat_state(seats[s], at("seats", s));
    st.decisions = read.decisions(entry(data, "", "decisions"), "decisions");
    st.autos = read.decisions(entry(data, "", "autos"), "autos");
    check_tiles(st);
    return st;
}

namespace {

constexpr std::array kViewPhases{"exchange", "void", "turn", "claim", "rob", "waiting", "end"};

template <typename Range>
nb::tuple ints(const Range& values) {
    nb::tuple out = nb::steal<nb::tuple>(PyTuple_New(std::distance(std::begin(values), std::end(values))));
    Py_ssize_t i = 0;
    for (auto v : values) PyTuple_SET_ITEM(out.ptr(), i++, PyLong_FromLongLong(v));
    return out;
}

nb::object tile_or_none(int t) { return t == kNoTile ? nb::none() : nb::object(nb::int_(t)); }

// The tiles of a mask, in order.
nb::tuple mask_tiles(TileMask mask) {
    std::vector<int> tiles;
    for (int t = 0; t < 34; ++t)
        if (mask >> t & 1) tiles.push_back(t);
    return ints(tiles);
}

// The viewer's own seat in the order of SeatState's fields, tiles and actions as numbers (action
// indices): (hand counts, drawn, exchange, void, claim options, claim, banned, pong_ban, bar,
// late_pongs, locked_waits, live_draws).
nb::tuple own_parts(const Seat& s, bool exchanged) {
    return nb::make_tuple(
        nb::bytes(s.hand.data(), s.hand.size()), tile_or_none(s.drawn),
        exchanged ? nb::object(ints(s.exchange)) : nb::none(),
        s.void_suit < 0 ? nb::none() : nb::borrow(suit_name(s.void_suit)),
        s.asked ? nb::object(ints(s.claim_options)) : nb::none(), none_or(s.claim), mask_tiles(s.banned),
        mask_tiles(s.pong_ban), none_or(s.bar), mask_tiles(s.late_pongs),
        s.waits_locked ? nb::object(mask_tiles(s.locked_waits)) : nb::none(), s.live_draws);
}

nb::tuple player_parts(const SeatView& v, int s) {
    const PlayerView& p = v.players[s];
    nb::list melds;
    for (int i = 0; i < p.meld_count; ++i) {
        const Meld& m = p.melds[i];
        melds.append(m.tile == kNoTile ? nb::none()
                                       : nb::object(nb::make_tuple(
                                             kMeldKinds[static_cast<int>(m.kind)], m.tile,
                                             m.kind == MeldKind::kKong ? nb::object(nb::str(kKongKinds[static_cast<int>(m.kong)]))
                                                                       : nb::none())));
    }
    const bool own = s == v.seat;
    return nb::make_tuple(
        s, melds, ints(p.river), ints(p.win_pile), p.tiles, p.wins, p.out, p.left, p.locked, p.exchange_chosen,
        p.void_chosen, p.void_suit < 0 ? nb::none() : nb::borrow(suit_name(p.void_suit)),
        p.shown ? nb::object(ints(p.hand)) : nb::none(),
        own && v.exchange_shown ? nb::object(ints(v.exchange)) : nb::none(), ints(*p.claimed_at));
}

}  // namespace

nb::tuple view_parts(const Rules& rules, const SeatView& v) {
    nb::list players, wins, payments, kongs, log;
    for (int s = 0; s < kSeats; ++s) players.append(player_parts(v, s));
    for (const WinRecord& w : *v.wins) wins.append(win_json(rules, w));
    for (const Payment& p : *v.payments) payments.append(payment_json(p));
    for (const KongRecord& k : *v.kongs) {
        const bool hidden = k.kind == KongKind::kConcealed && v.players[k.seat].kongs_hidden;
        kongs.append(nb::make_tuple(k.seat, hidden ? nb::none() : nb::object(nb::int_(k.tile)),
                                    kKongKinds[static_cast<int>(k.kind)], k.seq, ints(k.payments), k.transferred));
    }
    for (const auto& [seat, t] : *v.discard_log) log.append(nb::make_tuple(seat, t));
    nb::object claim = nb::none();
    if (v.claim)
        claim = nb::make_tuple(v.claim_tile, v.claim_from, v.claim_rob, nb::tuple(situations_json(v.claim_situations)),
                               none_or(v.claim_kong));
    const int acting = v.acting_count;
    return nb::make_tuple(
        kViewPhases[static_cast<int>(v.phase)], v.dealer, none_or(v.current), v.wall,
        v.direction ? nb::object(nb::str(kDirections[v.direction])) : nb::none(), nb::tuple(players),
        nb::tuple(wins), nb::tuple(payments), ints(v.totals),
        ints(std::vector<int>(v.acting.begin(), v.acting.begin() + acting)), claim, tile_or_none(v.drawn),
        nb::tuple(log), v.voids_revealed, v.version, v.finished, nb::tuple(kongs), turn_json(*v.turn),
        v.own ? nb::object(own_parts(*v.own, v.players[v.seat].exchange_chosen)) : nb::none(), v.declared,
        v.live_draws, v.dealer_discards, none_or(v.first_multi_from));
}

}  // namespace chuanma
