// chuanma._core: the compiled rules. The Python package is its facade (see chuanma.analysis and
// chuanma.scoring).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "batch_module.hpp"
#include "decompose.hpp"
#include "hand.hpp"
#include "hand_eval.hpp"
#include "reducer_module.hpp"
#include "rules.hpp"
#include "score.hpp"
#include "tables.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

const std::uint8_t* data(const nb::bytes& b) { return reinterpret_cast<const std::uint8_t*>(b.c_str()); }
int size(const nb::bytes& b) { return static_cast<int>(b.size()); }

using Hands = nb::ndarray<const std::uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Column = nb::ndarray<const std::int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
template <typename T>
using Out = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// The shape checks of the batch functions.
void check_rows(const Hands& hands, std::size_t rows, const char* what) {
    if (hands.shape(1) != chuanma::kSuited && hands.shape(1) != chuanma::kKinds)
        throw nb::value_error("hands must have 27 or 34 columns");
    if (rows != hands.shape(0)) throw nb::value_error((std::string(what) + " must have one entry per hand").c_str());
}

// Raises the chuanma.errors class `name` with `message`.
void raise_error(const char* name, const char* message) {
    nb::object cls = nb::module_::import_("chuanma.errors").attr(name);
    PyErr_SetString(cls.ptr(), message);
}

nb::list tiles_of(std::int64_t mask) {
    nb::list out;
    for (int t = 0; mask; ++t, mask >>= 1)
        if (mask & 1) out.append(t);
    return out;
}

// A reading as the tuple (form, pair, *items): form 0 standard, 1 seven pairs, 2 十三幺.
nb::tuple reading_tuple(const chuanma::Reading& r) {
    PyObject* out = PyTuple_New(2 + r.size);
    PyTuple_SET_ITEM(out, 0, PyLong_FromLong(static_cast<long>(r.form)));
    PyTuple_SET_ITEM(out, 1, PyLong_FromLong(r.pair));
    for (int i = 0; i < r.size; ++i) PyTuple_SET_ITEM(out, 2 + i, PyLong_FromLong(r.items[i]));
    return nb::steal<nb::tuple>(out);
}

// Melds as the facade gives them: (kind, tile, concealed).
using MeldTuples = std::vector<std::tuple<chuanma::MeldKind, int, bool>>;

std::vector<chuanma::ScoreMeld> score_melds(const MeldTuples& melds) {
    std::vector<chuanma::ScoreMeld> out;
    out.reserve(melds.size());
    for (const auto& [kind, tile, concealed] : melds) out.push_back({kind, tile, concealed});
    return out;
}

nb::list ids(const char* const* names, int n) {
    nb::list out;
    for (int i = 0; i < n; ++i) out.append(names[i]);
    return out;
}

// Sets a field of `o`, refusing a value out of range (chuanma::refusal) and leaving `o` as it was.
template <typename T>
void checked_set(chuanma::ScoreOptions& o, T chuanma::ScoreOptions::*field, const T& v) {
    chuanma::ScoreOptions next = o;
    next.*field = v;
    if (const char* why = chuanma::refusal(next)) throw nb::value_error(why);
    o = next;
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "The compiled rules of chuanma; the Python package is their facade.";
    // the module's types and functions outlive the interpreter's last collection at exit (the
    // package's caches hold them to the end): nanobind's report of them says nothing of a leak
    nb::set_leak_warnings(false);
    m.attr("BAD_COUNTS") = chuanma::kBadCounts;
    m.attr("BAD_SIZE") = chuanma::kBadSize;
    m.attr("BAD_VOID") = chuanma::kBadVoid;
    m.attr("MAX_TOTAL") = chuanma::kMaxTotal;
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const chuanma::TileRefused& e) {
            raise_error("TileCountError", e.what());
        } catch (const chuanma::SizeRefused& e) {
            raise_error("HandSizeError", e.what());
        }
    });

    m.def("load_tables", [] { chuanma::tables(); },
          "Build the hand-analysis tables now (else the first analysis call does), e.g. before forking workers.");
    m.def("tables_built", &chuanma::tables_built,
          "Whether the hand-analysis tables are built (here, or in the parent this process was forked from).");
    m.def("counts_ok", [](const nb::bytes& k) {
              chuanma::Hand h;
              return chuanma::read_hand(data(k), size(k), h);
          }, "k"_a, "True for 27 or 34 counts of 0-4, at most 14 of a suit or of the honours.");
    m.def("is_win", [](const nb::bytes& k) { return chuanma::is_win(data(k), size(k)); }, "k"_a,
          "True for n sets and a pair, seven pairs (14 tiles) or 十三幺; False for bad counts.");
    m.def("decompositions",
          [](const nb::bytes& k) {
              nb::list out;
              for (const chuanma::Reading& r : chuanma::decompositions(data(k), size(k))) out.append(reading_tuple(r));
              return out;
          },
          nb::sig("def decompositions(k: bytes) -> list[tuple[int, ...]]"), "k"_a,
          "Every reading of a complete hand as (form, pair, *items): form 0 sets and a pair (items: the sets, "
          "2*tile for a triplet, 2*tile+1 for a sequence from tile), 1 seven pairs (items: the pairs' tiles, "
          "pair -1), 2 十三幺 (pair: the kind held twice); empty if incomplete or bad counts.");
    m.def("shanten", [](const nb::bytes& k, int vi) { return chuanma::shanten(data(k), size(k), vi); }, "k"_a,
          "vi"_a, "Shanten of the best form, or a refusal code (below -1).");
    m.def("shanten_standard", [](const nb::bytes& k, int vi) { return chuanma::shanten_standard(data(k), size(k), vi); },
          "k"_a, "vi"_a, "Shanten of the sets-and-pair form, or a refusal code.");
    m.def("shanten_seven_pairs",
          [](const nb::bytes& k, int vi) { return chuanma::shanten_seven_pairs(data(k), size(k), vi); }, "k"_a,
          "vi"_a, "Shanten of the seven-pairs form, or a refusal code.");
    m.def("shanten_thirteen_orphans",
          [](const nb::bytes& k) { return chuanma::shanten_thirteen_orphans(data(k), size(k)); }, "k"_a,
          "Shanten of the 十三幺 form, or a refusal code.");
    m.def("waits",
          [](const nb::bytes& k, int vi, const std::vector<std::vector<int>>& melds) -> nb::object {
              int melded[chuanma::kKinds] = {};
              const int kinds = std::min(size(k), chuanma::kKinds);
              for (const auto& tiles : melds)
                  for (int t : tiles)
                      if (t >= 0 && t < kinds) ++melded[t];
              const std::int64_t mask = chuanma::waits_beside(data(k), size(k), vi, melded);
              if (mask < 0) return nb::int_(mask);
              return tiles_of(mask);
          },
          nb::sig("def waits(k: bytes, vi: int, melds: collections.abc.Sequence[collections.abc.Sequence[int]]) "
                  "-> list[int] | int"),
          "k"_a, "vi"_a, "melds"_a,
          "The waits (ascending) of a 3n+1 hand but the tiles it and its melds hold all four of, or a refusal code.");
    m.def("is_win_batch",
          [](Hands hands, Out<bool> out) -> std::int64_t {
              check_rows(hands, out.shape(0), "out");
              const int kinds = static_cast<int>(hands.shape(1));
              for (std::size_t i = 0; i < hands.shape(0); ++i) {
                  const std::uint8_t* row = hands.data() + i * kinds;
                  if (std::any_of(row, row + kinds, [](std::uint8_t c) { return c > 4; }))
                      return static_cast<std::int64_t>(i);
                  out(i) = chuanma::is_win(row, kinds);
              }
              return -1;
          },
          "hands"_a, "out"_a, "Win check of every row into out; -1, or the first row with a count above 4.");
    m.def("shanten_batch",
          [](Hands hands, Column voids, Out<std::int8_t> out) -> std::int64_t {
              check_rows(hands, out.shape(0), "out");
              check_rows(hands, voids.shape(0), "voids");
              const int kinds = static_cast<int>(hands.shape(1));
              for (std::size_t i = 0; i < hands.shape(0); ++i) {
                  const int sh = chuanma::shanten(hands.data() + i * kinds, kinds, voids(i));
                  if (sh < -1) return static_cast<std::int64_t>(i);
                  out(i) = static_cast<std::int8_t>(sh);
              }
              return -1;
          },
          "hands"_a, "voids"_a, "out"_a, "Shanten of every row into out; -1, or the first row refused.");

    nb::enum_<chuanma::FanStyle>(m, "FanStyle", "Whose fan table scores: Sichuan's or 大众麻将's.")
        .value("SICHUAN", chuanma::FanStyle::kSichuan)
        .value("DAZHONG", chuanma::FanStyle::kDazhong);
    nb::enum_<chuanma::YaojiuRule>(m, "YaojiuRule", "幺九 as 带幺九 (every set a 1 or 9) or every tile a 1 or 9.")
        .value("DAIYAOJIU", chuanma::YaojiuRule::kDaiyaojiu)
        .value("LITERAL", chuanma::YaojiuRule::kLiteral);
    nb::enum_<chuanma::MeldKind>(m, "MeldKind", "A declared set's kind.")
        .value("PONG", chuanma::MeldKind::kPong)
        .value("KONG", chuanma::MeldKind::kKong)
        .value("CHOW", chuanma::MeldKind::kChow);
    nb::enum_<chuanma::NoWin>(m, "NoWin", "Why a hand does not win (WINS: it does).")
        .value("WINS", chuanma::NoWin::kWins)
        .value("VOID_HELD", chuanma::NoWin::kVoidHeld)
        .value("THREE_SUITS", chuanma::NoWin::kThreeSuits)
        .value("ROBBING_KONG", chuanma::NoWin::kRobbingKong)
        .value("INCOMPLETE", chuanma::NoWin::kIncomplete);
    nb::class_<chuanma::ScoreOptions>(m, "ScoreOptions", "The rule options scoring reads.")
        .def(nb::init<>())
        .def(nb::init<const chuanma::ScoreOptions&>(), "other"_a, "A copy of other.")
        .def_rw("style", &chuanma::ScoreOptions::style)
        .def_rw("void_suit", &chuanma::ScoreOptions::void_suit, "定缺 is played: three suits cannot win.")
        .def_rw("longqidui", &chuanma::ScoreOptions::longqidui)
        .def_rw("yaojiu", &chuanma::ScoreOptions::yaojiu)
        .def_prop_rw("max_fan", [](const chuanma::ScoreOptions& o) { return o.max_fan; },
                     [](chuanma::ScoreOptions& o, int v) { checked_set(o, &chuanma::ScoreOptions::max_fan, v); },
                     "封顶, -1 for none (0 to 64).")
        .def_rw("zimo_fan", &chuanma::ScoreOptions::zimo_fan, "自摸 is a fan.")
        .def_rw("gangshangpao", &chuanma::ScoreOptions::gangshangpao)
        .def_rw("haidilaoyue", &chuanma::ScoreOptions::haidilaoyue)
        .def_rw("haidipao", &chuanma::ScoreOptions::haidipao)
        .def_rw("gangshang_shuanghua", &chuanma::ScoreOptions::gangshang_shuanghua)
        .def_rw("dihu_on_dealer_discard", &chuanma::ScoreOptions::dihu_on_dealer_discard)
        .def_rw("robbing_kong", &chuanma::ScoreOptions::robbing_kong)
        .def_prop_rw("house", [](const chuanma::ScoreOptions& o) { return o.house; },
                     [](chuanma::ScoreOptions& o, std::uint32_t v) { checked_set(o, &chuanma::ScoreOptions::house, v); },
                     "The house fans enabled: bit 1 << fan index.")
        .def_prop_rw("value", [](const chuanma::ScoreOptions& o) { return o.value; },
                     [](chuanma::ScoreOptions& o, const std::array<int, chuanma::kFans>& v) {
                         checked_set(o, &chuanma::ScoreOptions::value, v);
                     },
                     "Each fan's value (0 to 64), by fan index (fan_ids()).");
    m.def("fan_ids", [] { return ids(chuanma::kFanIds, chuanma::kFans); },
          nb::sig("def fan_ids() -> list[str]"), "Every fan's id, by its index in the core.");
    m.def("situation_ids", [] { return ids(chuanma::kSituationIds, chuanma::kSituations); },
          nb::sig("def situation_ids() -> list[str]"), "Every situation's id, by its bit in a situation set.");
    m.def("score",
          [](const nb::bytes& k, const MeldTuples& melds, int win_tile, bool self_drawn, int vi,
             std::uint32_t situations, const chuanma::ScoreOptions& options) -> nb::tuple {
              const std::vector<chuanma::ScoreMeld> ms = score_melds(melds);
              const chuanma::Score s = chuanma::score(data(k), size(k), ms.data(), static_cast<int>(ms.size()),
                                                      win_tile, self_drawn, vi, situations, options);
              if (s.reason == chuanma::NoWin::kRefused) throw nb::value_error("refused: not a hand the facade gives");
              nb::list fans;
              for (int i = 0; i < s.size; ++i)
                  fans.append(nb::make_tuple(static_cast<int>(s.fans[i].fan), s.fans[i].value));
              if (s.reason != chuanma::NoWin::kWins) return nb::make_tuple(s.reason, fans, s.total, nb::none());
              return nb::make_tuple(s.reason, fans, s.total, reading_tuple(s.reading));
          },
          nb::sig("def score(k: bytes, melds: collections.abc.Sequence[tuple[MeldKind, int, bool]], win_tile: int, "
                  "self_drawn: bool, vi: int, situations: int, options: ScoreOptions) "
                  "-> tuple[NoWin, list[tuple[int, int]], int, tuple[int, ...] | None]"),
          "k"_a, "melds"_a, "win_tile"_a, "self_drawn"_a, "vi"_a, "situations"_a, "options"_a,
          "Score a win (k: the concealed counts, win tile included; situations: bits by situation_ids()) as "
          "(reason, [(fan index, value)] in table order, total capped, the reading scored as decompositions() "
          "gives it, None when no win).");
    m.def("highest_total", [](const chuanma::ScoreOptions& options) { return chuanma::highest_total(options); },
          "options"_a,
          "The highest total a win can reach under `options` (an upper bound: 封顶 when set, else the larger of "
          "the limit hands' values and the sum of every other fan at its most); Rules refuses rules whose "
          "highest total is above MAX_TOTAL.");
    m.def("max_static_fan",
          [](const nb::bytes& k, const MeldTuples& melds, int vi, const chuanma::ScoreOptions& options) {
              const std::vector<chuanma::ScoreMeld> ms = score_melds(melds);
              return chuanma::max_static_fan(data(k), size(k), ms.data(), static_cast<int>(ms.size()), vi, options);
          },
          "k"_a, "melds"_a, "vi"_a, "options"_a,
          "查大叫: the best total over every wait of a 3n+1 hand, won on a discard with no situation; -1 when "
          "not ready, a refusal code (below -1) for counts, a size or a void waits() refuses.");

    nb::class_<chuanma::HandEval>(m, "HandEval",
                                  "Shanten of a hand and of its one-tile changes (counts checked by the facade).")
        .def("__init__",
             [](chuanma::HandEval* self, const nb::bytes& k, int vi) {
                 chuanma::Hand h;
                 if (!chuanma::read_hand(data(k), size(k), h)) throw nb::value_error("bad counts");
                 if (vi < chuanma::kNoVoid || vi > 2) throw nb::value_error("bad void");
                 new (self) chuanma::HandEval(h, vi);
             },
             "k"_a, "vi"_a)
        .def("shanten", &chuanma::HandEval::shanten, "Shanten of the hand.")
        .def("without", &chuanma::HandEval::without, "t"_a, "Shanten after discarding t.")
        .def("swap", &chuanma::HandEval::swap, "t"_a, "u"_a, "Shanten after discarding t and drawing u.")
        .def("with_", &chuanma::HandEval::with, "u"_a, "Shanten after drawing u.")
        .def("useful_tiles", &chuanma::HandEval::useful_tiles, "t"_a, "sh"_a,
             "The tiles that, drawn after discarding t, lower sh (the shanten without t), ascending.")
        .def("useful",
             [](const chuanma::HandEval& self, int t, int sh, const std::vector<int>& unseen) {
                 int total = 0;
                 for (int u : self.useful_tiles(t, sh))
                     if (u < static_cast<int>(unseen.size())) total += unseen[u];
                 return total;
             },
             "t"_a, "sh"_a, "unseen"_a, "Unseen copies (by tile) of the useful tiles after discarding t.");
    chuanma::bind_reducer(m);
    chuanma::bind_batch(m);
}
