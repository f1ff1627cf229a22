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

template <std::size_t N>
int index_of(const std::array<const char*, N>& names, const std::string& name) {
    for (std::size_t i = 0; i < N; ++i)
        if (name == names[i]) return static_cast<int>(i);
    throw nb::value_error(("unknown value in a state: " + name).c_str());
}

template <typename... T>
nb::list list_of(const T&... items) {
    nb::list out;
    (out.append(items), ...);
    return out;
}

nb::object none_or(int value, int none = -1) { return value == none ? nb::none() : nb::object(nb::int_(value)); }

// ------------------------------------------------------------------ tiles as text

int suit_index(nb::handle letter) {
    const std::string text = nb::cast<std::string>(letter);
    const char* at = text.size() == 1 ? std::char_traits<char>::find(kSuitLetters, 3, text[0]) : nullptr;
    if (!at) throw nb::value_error(("not a suit: " + text).c_str());
    return static_cast<int>(at - kSuitLetters);
}

std::string tile_str(int t) { return std::to_string(t < 27 ? t % 9 + 1 : t - 26) + kSuitLetters[t / 9]; }

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


std::vector<int> parse_tiles(const std::string& text) {
    std::vector<int> out;
    std::string digits;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            digits += c;
            continue;
        }
        const char* at = std::char_traits<char>::find(kSuitLetters, 4, c);
        if (!at) throw nb::value_error(("not tiles: " + text).c_str());
        const int suit = static_cast<int>(at - kSuitLetters);
        for (char d : digits) out.push_back(suit < 3 ? 9 * suit + (d - '1') : 27 + (d - '1'));
        digits.clear();
    }
    return out;
}

int parse_tile(nb::handle text) { return parse_tiles(nb::cast<std::string>(text)).at(0); }

TileMask parse_mask(nb::handle text) {
    TileMask out = 0;
    for (int t : parse_tiles(nb::cast<std::string>(text))) out |= TileMask{1} << t;
    return out;
}

// ------------------------------------------------------------------ actions

nb::dict action_json(int index) {
    nb::dict out;
    if (index == kLeaveAction) out["leave"] = true;
    else if (index < kPongAt) out["discard"] = tile_str(index - kDiscardAt);
    else if (index < kKongAt) out["pong"] = tile_str(index - kPongAt);
    else if (index < kChowAt) out["kong"] = tile_str(index - kKongAt);
    else if (index < kHuAt) out["chow"] = tile_str(chow_low(index));
    else if (index == kHuAt) out["hu"] = true;
    else if (index == kPassAt) out["pass"] = true;
    else if (index < kExchangeAt) out["void"] = std::string(1, kSuitLetters[index - kVoidAt]);
    else {
        const auto& t = exchange_tiles()[index - kExchangeAt];
        out["exchange"] = format_tiles({t[0], t[1], t[2]});
    }
    return out;
}

int action_index(nb::handle data) {
    const nb::dict d = nb::borrow<nb::dict>(data);
    if (d.contains("leave")) return kLeaveAction;
    if (d.contains("hu")) return kHuAt;
    if (d.contains("pass")) return kPassAt;
    if (d.contains("discard")) return kDiscardAt + parse_tile(d["discard"]);
    if (d.contains("pong")) return kPongAt + parse_tile(d["pong"]);
    if (d.contains("kong")) return kKongAt + parse_tile(d["kong"]);
    if (d.contains("chow")) return chow_index(parse_tile(d["chow"]));
    if (d.contains("void")) return kVoidAt + suit_index(d["void"]);
    std::vector<int> t = parse_tiles(nb::cast<std::string>(d["exchange"]));
    std::sort(t.begin(), t.end());
    return exchange_index(t.at(0), t.at(1), t.at(2));
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

std::vector<Decision> decisions_from(nb::handle data) {
    std::vector<Decision> out;
    for (nb::handle d : data) out.push_back({nb::cast<int>(d["seat"]), action_index(d)});
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

std::uint32_t situations_from(nb::handle names) {
    std::uint32_t out = 0;
    for (nb::handle n : names) out |= 1u << index_of(kSituations, nb::cast<std::string>(n));
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

WinRecord win_from(nb::handle d) {
    const nb::list fan_ids = nb::list(fan_table());
    WinRecord w{nb::cast<int>(d["seat"]), parse_tile(d["tile"]), 0, nb::cast<bool>(d["robbed_kong"]),
                situations_from(d["situations"]), nb::cast<int>(d["total"]), {}, nb::cast<int>(d["seq"]), {}};
    w.from = d["from"].is_none() ? -1 : nb::cast<int>(d["from"]);
    for (int t : parse_tiles(nb::cast<std::string>(d["hand"]))) ++w.hand[t];
    for (nb::handle f : d["fans"]) {
        const int id = nb::cast<int>(fan_ids.attr("index")(f["id"]));
        w.fans.push_back(FanValue{static_cast<Fan>(id), nb::cast<int>(f["fan"])});
    }
    return w;
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

int bits_from(nb::handle flags) {
    int out = 0, s = 0;
    for (nb::handle f : flags) out |= nb::cast<bool>(f) << s++;
    return out;
}

nb::object rules_json(const Rules& rules) { return nb::module_::import_("json").attr("loads")(rules.json); }

// ------------------------------------------------------------------ events

std::string suit_name(int suit) { return std::string(1, kSuitLetters[suit]); }

Event event_from(nb::handle ev) {
    const int type = index_of(kEventTypes, nb::cast<std::string>(ev[1]));
    Event e{static_cast<EventType>(type)};
    e.seat = static_cast<std::int8_t>(ev[2].is_none() ? -1 : nb::cast<int>(ev[2]));
    nb::dict d = nb::borrow<nb::dict>(ev[3]);
    d = nb::borrow<nb::dict>(d.attr("copy")());
    d.update(nb::borrow<nb::dict>(ev[4]));
    auto flag = [&](const char* key) { return d.contains(key) && nb::cast<bool>(d[key]); };
    switch (e.type) {
        case EventType::kStart: e.a = nb::cast<int>(d["dealer"]); e.b = nb::cast<int>(d["wall"]); break;
        case EventType::kDealDone:
        case EventType::kLeave: e.a = nb::cast<int>(d["wall"]); break;
        case EventType::kExchangeChosen:
        case EventType::kExchangeReceived: {
            nb::dict action;
            action["exchange"] = d["tiles"];
            e.a = action_index(action);
            if (d.contains("from")) e.from = static_cast<std::int8_t>(nb::cast<int>(d["from"]));
            break;
        }
        case EventType::kExchange: e.a = index_of(kDirections, nb::cast<std::string>(d["direction"])); break;
        case EventType::kVoidChosen:
            e.a = suit_index(d["suit"]);
            e.b = flag("automatic");
            break;
        case EventType::kVoids: {
            int s = 0;
            for (nb::handle v : d["voids"])
                e.a |= suit_index(v) << 2 * s++;
            break;
        }
        case EventType::kDraw:
        case EventType::kDiscard:
            e.tile = static_cast<std::int8_t>(parse_tile(d["tile"]));
            e.a = nb::cast<int>(d["wall"]);
            e.b = e.type == EventType::kDraw ? flag("replacement") | flag("last_four") << 1 : flag("automatic");
            break;
        case EventType::kClaim: e.a = action_index(d["claim"]); break;
        case EventType::kKong:
            e.a = index_of(kKongKinds, nb::cast<std::string>(d["kind"]));
            e.b = flag("late");
            [[fallthrough]];
        case EventType::kPong:
        case EventType::kChow:
            e.tile = static_cast<std::int8_t>(parse_tile(d["tile"]));
            if (d.contains("from")) e.from = static_cast<std::int8_t>(nb::cast<int>(d["from"]));
            if (e.type == EventType::kChow) e.a = parse_tile(d["claimed"]);
            break;
        case EventType::kKongDeclared:
        case EventType::kKongRobbed: e.tile = static_cast<std::int8_t>(parse_tile(d["tile"])); break;
        case EventType::kHu:
            e.tile = static_cast<std::int8_t>(parse_tile(d["tile"]));
            e.from = static_cast<std::int8_t>(d["from"].is_none() ? -1 : nb::cast<int>(d["from"]));
            e.a = static_cast<int>(situations_from(d["situations"])) | flag("robbed_kong") << 16 | flag("forced") << 17;
            e.b = nb::cast<int>(d["total"]);
            e.value = static_cast<std::int64_t>(parse_mask(d["waits"]));
            break;
        case EventType::kPayment:
            e.from = static_cast<std::int8_t>(nb::cast<int>(d["payer"]));
            e.a = nb::cast<int>(d["payee"]) | index_of(kReasons, nb::cast<std::string>(d["reason"])) << 4;
            e.b = nb::cast<int>(d["for"]);
            e.value = nb::cast<std::int64_t>(d["amount"]);
            break;
        case EventType::kExhausted:
            e.a = bits_from(d["part"]) | bits_from(d["pig"]) << 4 | bits_from(d["ready"]) << 8;
            if (d.contains("fan")) {
                e.b = 1;
                int s = 0;
                for (nb::handle f : d["fan"]) e.value |= static_cast<std::int64_t>(f.is_none() ? 0 : nb::cast<int>(f) + 1) << 8 * s++;
            }
            break;
        case EventType::kEnd:
            e.a = index_of(kEndReasons, nb::cast<std::string>(d["reason"]));
            e.b = bits_from(d["pig"]);
            break;
        case EventType::kDeal: break;
    }
    return e;
}

// ------------------------------------------------------------------ seats

nb::dict seat_json(const Seat& s, bool exchanged) {
    nb::dict d;
    d["hand"] = format_counts(s.hand);
    d["drawn"] = s.drawn < 0 ? nb::none() : nb::object(nb::str(tile_str(s.drawn).c_str()));
    d["exchange"] = exchanged ? nb::object(nb::str(format_tiles({s.exchange[0], s.exchange[1], s.exchange[2]}).c_str()))
                              : nb::none();
    d["void"] = s.void_suit < 0 ? nb::none() : nb::object(nb::str(suit_name(s.void_suit).c_str()));
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

Seat seat_from(nb::handle d) {
    Seat s;
    for (int t : parse_tiles(nb::cast<std::string>(d["hand"]))) s.add(t, 1);
    s.drawn = d["drawn"].is_none() ? kNoTile : parse_tile(d["drawn"]);
    if (!d["exchange"].is_none()) {
        std::vector<int> t = parse_tiles(nb::cast<std::string>(d["exchange"]));
        s.exchange = {t.at(0), t.at(1), t.at(2)};
    }
    s.void_suit = d["void"].is_none() ? -1 : suit_index(d["void"]);
    s.asked = !d["claim_options"].is_none();
    if (s.asked)
        for (nb::handle a : d["claim_options"]) s.claim_options.push_back(action_index(a));
    s.claim = d["claim"].is_none() ? -1 : action_index(d["claim"]);
    s.banned = parse_mask(d["banned"]);
    s.pong_ban = parse_mask(d["pong_ban"]);
    s.bar = d["bar"].is_none() ? -1 : nb::cast<int>(d["bar"]);
    s.late_pongs = parse_mask(d["late_pongs"]);
    s.waits_locked = !d["locked_waits"].is_none();
    if (s.waits_locked) s.locked_waits = parse_mask(d["locked_waits"]);
    s.live_draws = nb::cast<int>(d["live_draws"]);
    return s;
}

}  // namespace

nb::list event_json(const Reducer& hand, int seq) {
    const HandState& st = hand.state();
    const Event& e = st.events[seq];
    nb::dict data, hidden;
    bool private_event = false;
    switch (e.type) {
        case EventType::kStart:
            data["dealer"] = e.a;
            data["rules"] = rules_json(st.rules);
            data["base"] = st.rules.base;
            data["wall"] = e.b;
            break;
        case EventType::kDeal:
            hidden["hand"] = format_counts(st.dealt[e.seat]);
            private_event = true;
            break;
        case EventType::kDealDone:
        case EventType::kLeave:
            data["wall"] = e.a;
            break;
        case EventType::kExchangeChosen:
        case EventType::kExchangeReceived: {
            const auto& t = exchange_tiles()[e.a - kExchangeAt];
            hidden["tiles"] = format_tiles({t[0], t[1], t[2]});
            if (e.type == EventType::kExchangeReceived) {
                hidden["from"] = e.from;
                private_event = true;
            }
            break;
        }
        case EventType::kExchange:
            data["direction"] = kDirections[e.a];
            break;
        case EventType::kVoidChosen:
            hidden["suit"] = suit_name(e.a);
            if (e.b) hidden["automatic"] = private_event = true;
            break;
        case EventType::kVoids: {
            nb::list voids;
            for (int s = 0; s < kSeats; ++s) voids.append(suit_name(e.a >> 2 * s & 3));
            data["voids"] = voids;
            break;
        }
        case EventType::kDraw:
            data["wall"] = e.a;
            data["replacement"] = static_cast<bool>(e.b & 1);
            if (e.b & 2) data["last_four"] = true;
            hidden["tile"] = tile_str(e.tile);
            break;
        case EventType::kDiscard:
            data["tile"] = tile_str(e.tile);
            data["wall"] = e.a;
            if (e.b) data["automatic"] = true;
            break;
        case EventType::kClaim:
            hidden["claim"] = action_json(e.a);
            private_event = true;
            break;
        case EventType::kPong:
        case EventType::kChow:
            data["tile"] = tile_str(e.tile);
            data["from"] = e.from;
            if (e.type == EventType::kChow) data["claimed"] = tile_str(e.a);
            break;
        case EventType::kKong: {
            const KongKind kind = static_cast<KongKind>(e.a);
            // the keys in the Python engine's order: a concealed kong's kind first, any other's tile
            if (kind != KongKind::kConcealed) data["tile"] = tile_str(e.tile);
            data["kind"] = kKongKinds[e.a];
            if (kind == KongKind::kConcealed) (st.rules.concealed_kong_shown ? data : hidden)["tile"] = tile_str(e.tile);
            if (kind == KongKind::kExposed) data["from"] = e.from;
            if (kind == KongKind::kAdded) data["late"] = static_cast<bool>(e.b);
            break;
        }
        case EventType::kKongDeclared:
            data["tile"] = tile_str(e.tile);
            data["kind"] = "added";
            break;
        case EventType::kKongRobbed:
            data["tile"] = tile_str(e.tile);
            break;
        case EventType::kHu:
            for (const WinRecord& w : st.wins)
                if (w.seq == seq) data = win_json(st.rules, w);
            data["waits"] = format_mask(static_cast<TileMask>(e.value));
            if (e.a >> 17 & 1) data["forced"] = true;
            break;
        case EventType::kPayment:
            data["payer"] = e.from;
            data["payee"] = e.a & 15;
            data["amount"] = e.value;
            data["reason"] = kReasons[e.a >> 4];
            data["for"] = e.b;
            break;
        case EventType::kExhausted:
            data["part"] = seat_bits(e.a);
            data["pig"] = seat_bits(e.a >> 4);
            data["ready"] = seat_bits(e.a >> 8);
            if (e.b) {
                nb::list fans;
                for (int s = 0; s < kSeats; ++s) fans.append(none_or(static_cast<int>(e.value >> 8 * s & 255) - 1));
                data["fan"] = fans;
            }
            break;
        case EventType::kEnd: {
            data["reason"] = kEndReasons[e.a];
            nb::list hands, melds, deltas, waits;
            const auto d = hand.deltas();
            for (int s = 0; s < kSeats; ++s) {
                hands.append(format_counts(st.seats[s].hand));
                melds.append(melds_json(st.melds[s]));
                deltas.append(d[s]);
                const std::int64_t w = hand.standing_waits(s);
                waits.append(w < 0 ? nb::none() : nb::object(nb::str(format_mask(static_cast<TileMask>(w)).c_str())));
            }
            data["hands"] = hands;
            data["melds"] = melds;
            data["deltas"] = deltas;
            data["pig"] = seat_bits(e.b);
            data["waits"] = waits;
            break;
        }
    }
    return list_of(seq, kEventTypes[static_cast<int>(e.type)], none_or(e.seat), data, hidden,
                   private_event ? "private" : "public");
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

HandState state_from_dict(nb::handle data) {
    if (!nb::isinstance<nb::dict>(data) || !nb::borrow<nb::dict>(data).contains("format") ||
        nb::cast<std::string>(nb::str(data["format"])) != kFormat)
        throw nb::value_error("not a chuanma-state/1 state");
    HandState st;
    nb::object ruleset = nb::module_::import_("chuanma.rules").attr("RuleSet").attr("from_json")(data["rules"]);
    if (!ruleset.attr("base").equal(data["base"])) {
        nb::dict base;
        base["base"] = data["base"];
        ruleset = ruleset.attr("with_options")(**base);
    }
    st.rules = rules_from(ruleset, nb::cast<ScoreOptions>(nb::module_::import_("chuanma.scoring").attr("score_options")(ruleset)));
    nb::handle h = data["hidden"], p = data["public"];
    for (nb::handle t : h["wall"]) st.wall.push_back(static_cast<std::uint8_t>(parse_tile(t)));
    st.direction = index_of(kDirections, nb::cast<std::string>(h["direction"]));
    if (!h["seeds"].is_none()) st.seeds = nb::cast<std::string>(nb::module_::import_("json").attr("dumps")(h["seeds"]));
    st.dealer = nb::cast<int>(p["dealer"]);
    st.phase = static_cast<Phase>(index_of(kPhases, nb::cast<std::string>(p["phase"])));
    st.current = nb::cast<int>(p["current"]);
    st.live = nb::cast<int>(p["live"]);
    st.tail = nb::cast<int>(p["tail"]);
    for (int s = 0; s < kSeats; ++s) {
        for (nb::handle m : p["melds"][s]) {
            Meld meld{static_cast<MeldKind>(index_of(kMeldKinds, nb::cast<std::string>(m["kind"]))),
                      static_cast<std::int8_t>(parse_tile(m["tile"]))};
            if (nb::borrow<nb::dict>(m).contains("kong"))
                meld.kong = static_cast<KongKind>(index_of(kKongKinds, nb::cast<std::string>(m["kong"])));
            st.melds[s].push_back(meld);
        }
        for (int t : parse_tiles(nb::cast<std::string>(p["discards"][s]))) st.discards[s].push_back(static_cast<std::uint8_t>(t));
        for (nb::handle n : p["claimed_at"][s]) st.claimed_at[s].push_back(nb::cast<int>(n));
        for (int t : parse_tiles(nb::cast<std::string>(p["win_piles"][s]))) st.win_piles[s].push_back(static_cast<std::uint8_t>(t));
        st.exchanged[s] = nb::cast<bool>(p["exchanged"][s]);
        st.void_chosen[s] = nb::cast<bool>(p["void_chosen"][s]);
        st.out[s] = nb::cast<bool>(p["out"][s]);
        st.left[s] = nb::cast<bool>(p["left"][s]);
        st.locked[s] = nb::cast<bool>(p["locked"][s]);
    }
    for (nb::handle x : p["discard_log"]) {
        const int seat = nb::cast<int>(x[0]);
        if (seat < 0 || seat >= kSeats) throw nb::value_error("discard_log: seats are 0-3");
        st.discard_log.emplace_back(seat, parse_tile(x[1]));
    }
    st.voids_revealed = nb::cast<bool>(p["voids_revealed"]);
    for (nb::handle w : p["wins"]) {
        st.wins.push_back(win_from(w));
        st.won[st.wins.back().seat] = true;
    }
    for (nb::handle x : p["ledger"])
        st.ledger.push_back(Payment{nb::cast<int>(x["payer"]), nb::cast<int>(x["payee"]), nb::cast<std::int64_t>(x["amount"]),
                                    static_cast<Reason>(index_of(kReasons, nb::cast<std::string>(x["reason"]))),
                                    nb::cast<int>(x["seq"])});
    for (nb::handle k : p["kongs"]) {
        KongRecord r{nb::cast<int>(k["seat"]), parse_tile(k["tile"]),
                     static_cast<KongKind>(index_of(kKongKinds, nb::cast<std::string>(k["kind"]))), nb::cast<int>(k["seq"]), {},
                     nb::cast<bool>(k["transferred"])};
        for (nb::handle i : k["payments"]) r.payments.push_back(nb::cast<int>(i));
        st.kongs.push_back(std::move(r));
    }
    nb::handle turn = p["turn"];
    st.turn.draw_kind = turn["draw_kind"].is_none() ? DrawKind::kNone
                        : static_cast<DrawKind>(index_of(kDrawKinds, nb::cast<std::string>(turn["draw_kind"])));
    st.turn.after_pong = nb::cast<bool>(turn["after_pong"]);
    st.turn.kong = turn["kong"].is_none() ? -1 : nb::cast<int>(turn["kong"]);
    st.turn.kongs = nb::cast<int>(turn["kongs"]);
    st.turn.drew_last = nb::cast<bool>(turn["drew_last"]);
    st.turn.first = nb::cast<bool>(turn["first"]);
    st.turn.dihu = nb::cast<bool>(turn["dihu"]);
    nb::handle claim = p["claim"];
    if (!claim.is_none()) {
        st.window.tile = parse_tile(claim["tile"]);
        st.window.from = nb::cast<int>(claim["from"]);
        st.window.situations = situations_from(claim["situations"]);
        st.window.rob = nb::cast<bool>(claim["rob"]);
        st.window.kong = claim["kong"].is_none() ? -1 : nb::cast<int>(claim["kong"]);
    }
    st.declared = nb::cast<bool>(p["declared"]);
    st.live_draws = nb::cast<int>(p["live_draws"]);
    st.dealer_discards = nb::cast<int>(p["dealer_discards"]);
    st.first_multi_from = p["first_multi_from"].is_none() ? -1 : nb::cast<int>(p["first_multi_from"]);
    st.version = nb::cast<int>(p["version"]);
    st.posed = nb::cast<int>(p["posed"]);
    int s = 0;
    for (nb::handle x : data["seats"]) st.seats[s++] = seat_from(x);
    for (nb::handle ev : data["events"]) {
        st.events.push_back(event_from(ev));
        if (st.events.back().type == EventType::kDeal) {
            const int seat = st.events.back().seat;
            for (int t : parse_tiles(nb::cast<std::string>(ev[4]["hand"]))) ++st.dealt[seat][t];
        }
    }
    st.decisions = decisions_from(data["decisions"]);
    st.autos = decisions_from(data["autos"]);
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
        s.void_suit < 0 ? nb::none() : nb::object(nb::str(suit_name(s.void_suit).c_str())),
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
        p.void_chosen, p.void_suit < 0 ? nb::none() : nb::object(nb::str(suit_name(p.void_suit).c_str())),
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
