#include "reducer_module.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/typing.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "actions.hpp"
#include "random_play.hpp"
#include "reducer.hpp"
#include "state_json.hpp"
#include "view.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace chuanma {
namespace {

// The option `name` of a RuleSet as the index of its value among `choices`.
template <typename E, std::size_t N>
E choice(nb::handle rules, const char* name, const std::array<const char*, N>& choices) {
    const std::string value = nb::cast<std::string>(rules.attr(name));
    for (std::size_t i = 0; i < N; ++i)
        if (value == choices[i]) return static_cast<E>(i);
    throw nb::value_error((std::string("unknown value of ") + name + ": " + value).c_str());
}

// The on/off options of a RuleSet and where each goes.
constexpr std::array<std::pair<const char*, bool Rules::*>, 11> kFlags{{
    {"exchange", &Rules::exchange}, {"multiple_winners", &Rules::multiple_winners},
    {"winners_kong", &Rules::winners_kong}, {"no_kong_in_last_four", &Rules::no_kong_in_last_four},
    {"forced_win_in_last_four", &Rules::forced_win_in_last_four},
    {"late_added_kong_pays", &Rules::late_added_kong_pays},
    {"flower_pig_pays_winners", &Rules::flower_pig_pays_winners}, {"chadajiao", &Rules::chadajiao},
    {"refund", &Rules::refund}, {"escape_penalty", &Rules::escape_penalty},
    {"concealed_kong_shown", &Rules::concealed_kong_shown},
}};
// ... and those the scoring options hold.
constexpr std::array<std::pair<const char*, bool ScoreOptions::*>, 7> kScoreFlags{{
    {"robbing_kong", &ScoreOptions::robbing_kong}, {"longqidui", &ScoreOptions::longqidui},
    {"gangshangpao", &ScoreOptions::gangshangpao}, {"haidilaoyue", &ScoreOptions::haidilaoyue},
    {"haidipao", &ScoreOptions::haidipao}, {"gangshang_shuanghua", &ScoreOptions::gangshang_shuanghua},
    {"dihu_on_dealer_discard", &ScoreOptions::dihu_on_dealer_discard},
}};

// The values of each option that is a choice, in the order of its enum.
constexpr std::array kVariants{"xuezhan", "xueliu", "normal", "dazhong"};
constexpr std::array kDealers{"random", "first_winner", "discarder", "rotate"};
constexpr std::array kPassRules{"none", "same_turn", "forever"};
constexpr std::array kYaojiu{"daiyaojiu", "literal"};
constexpr std::array kZimoBonus{"fan", "base"};
constexpr std::array kExposedKong{"discarder_only", "everyone"};
constexpr std::array kCallTransfer{"each_winner", "first_winner", "off"};
constexpr std::array kExposedKongFlower{"zimo", "discarder_pays"};
constexpr std::array kFlowerPig{"ting_max", "fixed"};
constexpr std::array kHouseFanNames{"jiangdui", "menqing", "zhongzhang", "jiaxinwu", "shibaluohan"};
constexpr std::array kHouseFans{Fan::kJiangdui, Fan::kMenqing, Fan::kZhongzhang, Fan::kJiaxinwu, Fan::kShibaluohan};

// A rule set the core does not take: its scoring options disagree with it, or its payments could
// leave 64 bits.
struct RulesRefused : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// An action the seat may not take now, given to Hand.apply: the hand is unchanged.
struct NotLegal : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// Refuses `o` unless it is what chuanma.scoring.score_options makes of the RuleSet `r` (of variant
// `variant`; the fans' values other than the house fans' are the fan table's, not the RuleSet's).
void check_scoring(nb::handle r, Variant variant, const ScoreOptions& o) {
    if (const char* why = refusal(o)) throw RulesRefused(std::string("scoring options refused: ") + why);
    const auto differs = [](const char* name) {
        throw RulesRefused(std::string("the scoring options disagree with the rule set on ") + name);
    };
    for (const auto& [name, member] : kScoreFlags)
        if (o.*member != nb::cast<bool>(r.attr(name))) differs(name);
    if (o.yaojiu != choice<YaojiuRule>(r, "yaojiu", kYaojiu)) differs("yaojiu");
    const nb::object cap = r.attr("max_fan");
    if (o.max_fan != (cap.is_none() ? -1 : nb::cast<int>(cap))) differs("max_fan");
    if (o.zimo_fan != (choice<int>(r, "zimo_bonus", kZimoBonus) == 0)) differs("zimo_bonus");
    const bool dazhong = variant == Variant::kDazhong;
    if ((o.style == FanStyle::kDazhong) != dazhong || o.void_suit == dazhong) differs("variant");
    const nb::dict house = nb::cast<nb::dict>(r.attr("house_fans"));
    for (std::size_t i = 0; i < kHouseFans.size(); ++i) {
        const int f = static_cast<int>(kHouseFans[i]);
        const bool on = house.contains(kHouseFanNames[i]);
        if ((o.house >> f & 1) != on || (on && o.value[f] != nb::cast<int>(house[kHouseFanNames[i]])))
            differs("house_fans");
    }
    if (highest_total(o) > kMaxTotal)
        throw RulesRefused("the core pays up to 2^" + std::to_string(kMaxTotal) +
                           " base a payment; a win under these rules can reach " + std::to_string(highest_total(o)) +
                           " fan");
}

}  // namespace

Rules rules_from(nb::handle r, const ScoreOptions& scoring) {
    Rules out;
    for (const auto& [name, member] : kFlags) out.*member = nb::cast<bool>(r.attr(name));
    out.variant = choice<Variant>(r, "variant", kVariants);
    out.json = nb::cast<std::string>(nb::module_::import_("json").attr("dumps")(r.attr("to_json")()));
    out.base = nb::cast<std::int64_t>(r.attr("base"));
    if (out.base < 1) throw RulesRefused("base is at least 1");
    out.dealer = choice<DealerRule>(r, "dealer", kDealers);
    out.pass_rule = choice<PassRule>(r, "pass_rule", kPassRules);
    out.fan_label_offset = nb::cast<int>(r.attr("fan_label_offset"));
    check_scoring(r, out.variant, scoring);
    out.scoring = scoring;
    out.exposed_kong = choice<ExposedKong>(r, "exposed_kong", kExposedKong);
    out.call_transfer = choice<CallTransfer>(r, "call_transfer", kCallTransfer);
    out.exposed_kong_flower = choice<ExposedKongFlower>(r, "exposed_kong_flower", kExposedKongFlower);
    out.flower_pig = choice<FlowerPig>(r, "flower_pig", kFlowerPig);
    return out;
}

// The options as RuleSet.options() gives them (what the core took from the RuleSet).
nb::dict options_of(const Rules& r) {
    nb::dict out;
    for (const auto& [name, member] : kFlags) out[name] = r.*member;
    for (const auto& [name, member] : kScoreFlags) out[name] = r.scoring.*member;
    out["variant"] = kVariants[static_cast<int>(r.variant)];
    out["base"] = r.base;
    out["dealer"] = kDealers[static_cast<int>(r.dealer)];
    out["pass_rule"] = kPassRules[static_cast<int>(r.pass_rule)];
    out["yaojiu"] = kYaojiu[static_cast<int>(r.scoring.yaojiu)];
    out["max_fan"] = r.scoring.max_fan >= 0 ? nb::object(nb::int_(r.scoring.max_fan)) : nb::none();
    out["fan_label_offset"] = r.fan_label_offset;
    out["zimo_bonus"] = kZimoBonus[r.scoring.zimo_fan ? 0 : 1];
    nb::dict house;
    for (std::size_t i = 0; i < kHouseFans.size(); ++i) {
        const int f = static_cast<int>(kHouseFans[i]);
        if (r.scoring.house >> f & 1) house[kHouseFanNames[i]] = r.scoring.value[f];
    }
    out["house_fans"] = house;
    out["exposed_kong"] = kExposedKong[static_cast<int>(r.exposed_kong)];
    out["call_transfer"] = kCallTransfer[static_cast<int>(r.call_transfer)];
    out["exposed_kong_flower"] = kExposedKongFlower[static_cast<int>(r.exposed_kong_flower)];
    out["flower_pig"] = kFlowerPig[static_cast<int>(r.flower_pig)];
    return out;
}

namespace {

nb::list melds_of(const std::vector<Meld>& melds) {
    nb::list out;
    for (const Meld& m : melds)
        out.append(nb::make_tuple(static_cast<int>(m.kind), static_cast<int>(m.tile), static_cast<int>(m.kong)));
    return out;
}

constexpr std::array kRefusalCodes{"hand_over", "not_your_turn", "must_win", "illegal_action"};
constexpr std::array kRefusalRules{
    "hand_over", "already_chosen", "already_answered", "nothing_to_claim", "others_turn", "must_win_on_claim",
    "must_win_on_draw", "bad_exchange", "exchange_first", "void_first", "passed_win", "win_bar", "passed_pong",
    "no_kong_last_four", "no_kong_empty_wall", "void_claim", "no_chow", "honour_chow", "chow_from_left",
    "choose_on_claim", "nothing_to_pass", "pong_on_turn", "chow_on_turn", "locked_discard", "not_held",
    "void_discard_first", "after_pong", "passed_self_win", "holds_void", "not_a_win", "void_kong", "locked_kong",
    "no_kong", "choose_on_turn"};

// A refusal as (code, rule, facts): each fact it names by name, tiles as text, actions as indices.
nb::tuple refusal_of(const Reducer& r, int seat, int action) {
    const Refusal x = r.refusal(seat, action);
    nb::dict facts;
    const std::pair<const char*, int> numbers[] = {{"seat", x.seat}, {"bar", x.bar}, {"current", x.current}};
    for (const auto& [name, value] : numbers)
        if (value >= 0) facts[name] = value;
    if (x.tile >= 0) facts["tile"] = nb::cast(format_mask(TileMask{1} << x.tile));
    if (x.tiles) facts["tiles"] = nb::cast(format_mask(x.tiles));
    if (x.action >= 0) facts["action"] = x.action;
    if (x.choices) facts["legal"] = nb::cast(r.legal(seat));
    return nb::make_tuple(kRefusalCodes[static_cast<int>(x.code)], kRefusalRules[static_cast<int>(x.rule)], facts);
}

// A seat's legal actions as 0/1 bytes over the action space, handed to NumPy.
using LegalMask = nb::ndarray<nb::numpy, std::int8_t, nb::shape<kActionCount>, nb::c_contig>;

void check_seat(int seat) {
    if (seat < 0 || seat >= kSeats) throw nb::value_error("seats are 0-3");
}

}  // namespace

void bind_reducer(nb::module_& m) {
    nb::exception<RulesRefused>(m, "RulesRefused", PyExc_ValueError);
    nb::exception<NotLegal>(m, "NotLegal", PyExc_ValueError);
    nb::class_<Rules>(m, "Rules", "Every option of a chuanma.rules.RuleSet, for the compiled reducer.")
        .def("__init__",
             [](Rules* self, nb::handle rules, const ScoreOptions& scoring) { new (self) Rules(rules_from(rules, scoring)); },
             nb::sig("def __init__(self, rules: object, scoring: ScoreOptions) -> None"), "rules"_a, "scoring"_a,
             "A RuleSet's options, and what the fan scoring reads of them (chuanma.scoring.score_options, checked "
             "against the RuleSet); RulesRefused for a rule set whose wins could be paid more than 2^50 base.")
        .def("options", &options_of, nb::sig("def options(self) -> dict[str, object]"),
             "Every option and its value, as RuleSet.options() gives them.");

    m.attr("Item") = nb::type_var("Item");  // what Hand.legal_of's space holds (in the stubs: a TypeVar)
    nb::class_<Reducer>(m, "Hand",
                        "One hand as the compiled state machine: decisions are action indices "
                        "(chuanma.engine.indices); events are (type, seat, tile, from, a, b, value) tuples.")
        .def("__init__",
             [](Reducer* self, const Rules& rules, const std::vector<int>& wall, int dealer, int direction) {
                 std::vector<std::uint8_t> tiles;
                 for (int t : wall) {
                     if (t < 0 || t > 33) throw nb::value_error("the wall is not the whole set");
                     tiles.push_back(static_cast<std::uint8_t>(t));
                 }
                 try {
                     new (self) Reducer(rules, std::move(tiles), dealer, direction);
                 } catch (const std::invalid_argument& e) {
                     throw nb::value_error(e.what());
                 }
             },
             "rules"_a, "wall"_a, "dealer"_a, "direction"_a,
             "A hand dealt from `wall` (draw order); `direction`: the seats exchanged tiles travel (1-3).")
        .def_static("from_dict", [](nb::handle data) { return Reducer(state_from_dict(data)); },
                    nb::sig("def from_dict(data: dict[str, object]) -> Hand"), "data"_a,
                    "The hand of a state in the chuanma-state/1 JSON form (HandState.to_dict()); ValueError, naming "
                    "the field, for anything malformed.")
        .def("to_dict", &state_to_dict, nb::sig("def to_dict(self) -> dict[str, object]"),
             "The whole state in the chuanma-state/1 JSON form, as HandState.to_dict() gives it.")
        .def("__getstate__", &state_to_dict, nb::sig("def __getstate__(self) -> dict[str, object]"),
             "Pickled as its JSON form.")
        .def("__setstate__", [](Reducer& self, nb::handle data) { new (&self) Reducer(state_from_dict(data)); },
             nb::sig("def __setstate__(self, data: dict[str, object]) -> None"), "data"_a,
             "Unpickled from its JSON form (ValueError for a malformed one).")
        .def("set_seeds",
             [](Reducer& r, nb::handle seeds) {
                 r.set_seeds(seeds.is_none() ? std::string()
                                             : nb::cast<std::string>(nb::module_::import_("json").attr("dumps")(seeds)));
             },
             nb::sig("def set_seeds(self, seeds: dict[str, object] | None) -> None"), "seeds"_a,
             "Note what the wall was shuffled from (HandState.hidden.seeds).")
        .def("rederive", &Reducer::rederive,
             "Derive what a state read back with from_dict may leave out: the waits of each locked seat holding "
             "3n+1 tiles (where none are given) and, in an open claim window, the options of every seat it asks, their answers "
             "not given yet (how chuanma.engine.determinize completes a rebuilt hand).")
        .def("pass_pending", &Reducer::pass_pending,
             "Every seat that still owes an answer in a claim window passes (or, if it must win, wins).")
        .def("autos",
             [](const Reducer& r) {
                 std::vector<std::pair<int, int>> out;
                 for (const Decision& d : r.state().autos) out.emplace_back(d.seat, d.action);
                 return out;
             },
             nb::sig("def autos(self) -> list[tuple[int, int]]"),
             "The decisions the machine made for a seat, as (seat, action index).")
        .def("decisions",
             [](const Reducer& r) {
                 std::vector<std::pair<int, int>> out;
                 for (const Decision& d : r.state().decisions) out.emplace_back(d.seat, d.action);
                 return out;
             },
             nb::sig("def decisions(self) -> list[tuple[int, int]]"),
             "Every decision the seats made, in order, as (seat, action index; -1: it left).")
        .def_prop_ro(
            "left", [](const Reducer& r) { return std::vector<bool>(r.state().left.begin(), r.state().left.end()); },
            "Whether each seat has left (逃跑).")
        .def("__copy__", [](const Reducer& r) { return Reducer(r); }, "A whole copy: the two play on apart.")
        .def("__deepcopy__", [](const Reducer& r, nb::handle) { return Reducer(r); }, "memo"_a, "A whole copy.")
        .def_prop_ro("finished", &Reducer::finished, "Whether the hand is over.")
        .def_prop_ro("remaining", [](const Reducer& r) { return r.state().remaining(); }, "Tiles left in the wall.")
        .def_prop_ro("phase", [](const Reducer& r) { return static_cast<int>(r.state().phase); },
                     "0 exchange, 1 void, 2 turn, 3 claim, 4 rob (a claim window on an added kong), 6 end.")
        .def_prop_ro("current", [](const Reducer& r) { return r.state().current; },
                     "The seat whose turn it is (or whose discard or kong a claim window is on).")
        .def_prop_ro("version", [](const Reducer& r) { return r.state().version; },
                     "Decisions applied so far (every seat's).")
        .def("asked", &Reducer::asked, "seat"_a,
             "The version at which the seat's open question was posed (-1: it owes no decision).")
        .def("to_act",
             [](const Reducer& r) {
                 std::vector<int> seats;
                 r.to_act(seats);
                 PyObject* made = PyTuple_New(static_cast<Py_ssize_t>(seats.size()));
                 if (!made) throw nb::python_error();
                 nb::tuple out = nb::steal<nb::tuple>(made);
                 for (std::size_t i = 0; i < seats.size(); ++i)
                     PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), PyLong_FromLong(seats[i]));
                 return out;
             },
             nb::sig("def to_act(self) -> tuple[int, ...]"), "The seats that owe a decision.")
        .def("legal",
             [](const Reducer& r, int seat) {
                 check_seat(seat);
                 return r.legal(seat);
             },
             "seat"_a, "The seat's legal actions as indices (empty: it owes none).")
        .def("legal_of",
             [](const Reducer& r, int seat, nb::tuple space) {
                 check_seat(seat);
                 if (nb::len(space) != kActionCount) throw nb::value_error("the space must hold every action index");
                 const std::vector<int>& legal = r.legal(seat);
                 PyObject* made = PyList_New(static_cast<Py_ssize_t>(legal.size()));
                 if (!made) throw nb::python_error();
                 nb::list out = nb::steal<nb::list>(made);
                 for (std::size_t i = 0; i < legal.size(); ++i)
                     PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), space[legal[i]].inc_ref().ptr());
                 return out;
             },
             nb::sig("def legal_of(self, seat: int, space: tuple[Item, ...]) -> list[Item]"), "seat"_a, "space"_a,
             "The seat's legal actions as the items of `space` at their indices (chuanma.engine.indices.ACTIONS: "
             "the actions themselves).")
        .def("legal_mask",
             [](const Reducer& r, int seat) {
                 check_seat(seat);
                 std::unique_ptr<std::int8_t[]> mask(new std::int8_t[kActionCount]);
                 r.legal_mask(seat, mask.get());
                 const nb::capsule owner(mask.get(), [](void* p) noexcept { delete[] static_cast<std::int8_t*>(p); });
                 return LegalMask(mask.release(), {static_cast<std::size_t>(kActionCount)}, owner);
             },
             "seat"_a, "The seat's legal actions as a new int8 array over the action space: 1 at each legal index.")
        .def("apply",
             [](Reducer& r, int seat, int action) {
                 check_seat(seat);
                 if (!r.apply(seat, action)) throw NotLegal("not a legal action of the seat");
             },
             "seat"_a, "action"_a, "Apply a legal action (NotLegal, the hand unchanged, for any other).")
        .def("refusal",
             [](const Reducer& r, int seat, int action) {
                 check_seat(seat);
                 if (action < 0 || action >= kActionCount) throw nb::value_error("no such action index");
                 return refusal_of(r, seat, action);
             },
             nb::sig("def refusal(self, seat: int, action: int) -> tuple[str, str, dict[str, object]]"), "seat"_a,
             "action"_a,
             "Why the seat may not take the action now: (code, the rule that refuses it, the facts it names: "
             "seat, tile, tiles, bar, current, the action and, when it names the choices, the legal ones, as "
             "indices); chuanma.engine.refusal_text words it.")
        .def("leave",
             [](Reducer& r, int seat) {
                 check_seat(seat);
                 if (!r.leave(seat)) throw nb::value_error("the hand is over, or the seat has left");
             },
             "seat"_a, "逃跑: the seat leaves the table.")
        .def("events",
             [](const Reducer& r, std::size_t since) {
                 nb::list out;
                 const auto& events = r.state().events;
                 for (std::size_t i = since; i < events.size(); ++i) {
                     const Event& e = events[i];
                     out.append(nb::make_tuple(static_cast<int>(e.type), e.seat, e.tile, e.from, e.a, e.b, e.value));
                 }
                 return out;
             },
             nb::sig("def events(self, since: int = 0) -> list[tuple[int, int, int, int, int, int, int]]"),
             "since"_a = 0, "The events from `since` on (src/native/events.hpp says what each holds).")
        .def("logged", &logged_events,
             nb::sig("def logged(self, since: int = 0) -> list[chuanma.engine.events.Event]"), "since"_a = 0,
             "The events from `since` on as chuanma.engine.events.Event objects, the items of the state's JSON "
             "form: (seq, type, seat, data, private, visibility).")
        .def("counts",
             [](const Reducer& r, int seat) {
                 check_seat(seat);
                 const auto& h = r.state().seats[seat].hand;
                 return nb::bytes(h.data(), h.size());
             },
             "seat"_a, "The seat's concealed tiles as 34 counts.")
        .def("melds",
             [](const Reducer& r, int seat) {
                 check_seat(seat);
                 return melds_of(r.state().melds[seat]);
             },
             nb::sig("def melds(self, seat: int) -> list[tuple[int, int, int]]"), "seat"_a,
             "The seat's melds as (kind 0 pong 1 kong 2 chow, tile, kong kind 0 exposed 1 added 2 concealed).")
        .def("wins",
             [](const Reducer& r) {
                 nb::list out;
                 for (const WinRecord& w : r.state().wins) {
                     nb::list fans;
                     for (const FanValue& f : w.fans) fans.append(nb::make_tuple(static_cast<int>(f.fan), f.value));
                     out.append(nb::make_tuple(w.seat, w.tile, w.from, w.robbed, w.situations, w.total, fans, w.seq));
                 }
                 return out;
             },
             nb::sig("def wins(self) -> list[tuple[int, int, int, bool, int, int, list[tuple[int, int]], int]]"),
             "Every win so far as (seat, tile, from (-1: self-drawn), robbed, situations, total, its fans as "
             "(fan index, value), its event).")
        .def("view",
             [](const Reducer& r, std::optional<int> seat) {
                 if (seat) check_seat(*seat);
                 SeatView v;
                 redact(r.state(), seat.value_or(-1), v);
                 return view_parts(r.state().rules, v);
             },
             nb::sig(
                 "def view(self, seat: int | None) -> tuple[str, int, int | None, int, str | None, tuple[tuple[int, "
                 "list[tuple[str, int, str | None] | None], tuple[int, ...], tuple[int, ...], int, int, bool, bool, bool, bool, "
                 "bool, str | None, tuple[int, ...] | None, tuple[int, ...] | None, tuple[int, ...]], ...], "
                 "tuple[dict[str, object], ...], tuple[dict[str, object], ...], tuple[int, ...], tuple[int, ...], "
                 "tuple[int, int, bool, tuple[str, ...], int | None] | None, int | None, tuple[tuple[int, int], ...], "
                 "bool, int, bool, tuple[tuple[int, int | None, str, int, tuple[int, ...], bool], ...], dict[str, "
                 "object], tuple[bytes, int | None, tuple[int, int, int] | None, str | None, tuple[int, ...] | None, int | None, "
                 "tuple[int, ...], tuple[int, ...], int | None, tuple[int, ...], tuple[int, ...] | None, int] | None, bool, "
                 "int, int, int | None]"),
             "seat"_a.none(),
             "What the seat (None: a spectator) may see of the hand, the parts of a "
             "chuanma.engine.views.SeatView: phase, dealer, current, wall, direction, players (seat, melds as "
             "(kind, tile, kong kind or None), None for a hidden concealed kong; river, win pile, tiles, wins, out, left, locked, exchange "
             "chosen, void chosen, void, hand counts, exchange, claimed_at), wins and payments in their JSON form, "
             "totals, acting, claim (tile, from, robbing, situations, kong), drawn, discard log, voids revealed, "
             "version, finished, kongs (seat, tile or None, kind, seq, payments, transferred), the turn in JSON, "
             "the viewer's own seat (chuanma.engine.state.SeatState's fields in order; tiles, tiles of masks and "
             "actions as numbers), declared, live draws, dealer discards, first_multi_from.")
        .def("next_dealer", &Reducer::next_dealer, "Who deals the next hand under the rules' dealer rule.")
        .def("dealt",
             [](const Reducer& r) {
                 const HandState& st = r.state();
                 return nb::make_tuple(std::vector<int>(st.wall.begin(), st.wall.end()), st.dealer, st.direction);
             },
             nb::sig("def dealt(self) -> tuple[list[int], int, int]"),
             "What the hand was dealt from, as given to the constructor: (wall, dealer, direction).")
        .def("deltas", [](const Reducer& r) {
                 const auto d = r.deltas();
                 return std::vector<std::int64_t>(d.begin(), d.end());
             },
             "Net result per seat so far, in units of base.")
        .def("standing_waits", [](const Reducer& r, int seat) {
                 check_seat(seat);
                 return r.standing_waits(seat);
             },
             "seat"_a, "The seat's waits as a mask by tile, or -1 in the middle of its turn.");

    m.def("play_random",
          [](const Rules& rules, std::uint64_t seed, int hands) {
              nb::gil_scoped_release release;
              return play_random(rules, seed, hands);
          },
          "rules"_a, "seed"_a, "hands"_a,
          "Play `hands` random-policy hands from `seed` inside the core; returns the decisions made.");
}

}  // namespace chuanma
