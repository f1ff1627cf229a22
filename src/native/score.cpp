#include "score.hpp"

#include <algorithm>

#include "hand.hpp"
#include "tables.hpp"

namespace chuanma {

const char* const kFanIds[kFans] = {
    "tianhu", "dihu", "shisanyao", "dasixi", "dasanyuan", "ziyise", "pinghu", "qingyise", "hunyise",
    "longqidui", "qidui", "duiduihu", "duanyaojiu", "zhongzhang", "daiyaojiu", "yaojiu", "jingoudiao",
    "jiangdui", "menqing", "xiaosixi", "xiaosanyuan", "jianke", "jiaxinwu", "shibaluohan", "zimo",
    "gangshanghua", "gangshangpao", "qiangganghu", "haidilaoyue", "haidipao", "gen",
};

const char* const kSituationIds[kSituations] = {
    "kong_replacement", "consecutive_kongs", "after_kong", "robbing_kong", "last_tile", "tianhu", "dihu",
};

namespace {

constexpr int kWinds = 27;    // 東南西北: 27-30
constexpr int kDragons = 31;  // 白發中: 31-33
constexpr int kHonourSuit = 3;

bool is_terminal(int t) { return t < kSuited && (t % kSuitKinds == 0 || t % kSuitKinds == 8); }
bool is_terminal_or_honour(int t) { return t >= kSuited || t % kSuitKinds == 0 || t % kSuitKinds == 8; }
int rank_of(int t) { return t % kSuitKinds + 1; }  // honours too: 1z-7z
bool is_258(int t) {
    const int r = rank_of(t);
    return r == 2 || r == 5 || r == 8;
}
std::uint32_t bit(Fan f) { return std::uint32_t{1} << static_cast<int>(f); }

// The fans of one reading: the value of each fan present, and their sum.
struct FanSet {
    std::uint32_t present = 0;
    std::array<int, kFans> value{};
    int sum = 0;

    void add(Fan f, int v) {
        present |= bit(f);
        value[static_cast<int>(f)] = v;
        sum += v;
    }
    void add(Fan f, const ScoreOptions& o) { add(f, o.value[static_cast<int>(f)]); }
    void merge(const FanSet& other) {
        for (int f = 0; f < kFans; ++f)
            if (other.present >> f & 1) add(static_cast<Fan>(f), other.value[f]);
    }
};

// What scoring reads of the whole hand: concealed tiles, melds and win tile.
struct Whole {
    int all[kKinds] = {};  // copies of each tile
    int suits = 0;         // bit per suit held, the honours bit 3
    int gen = 0;           // tiles held four times (根)
    bool any_terminal_or_honour = false;
    bool all_terminal = true;
    bool all_honours = true;
};

// One set of a standard reading, concealed or declared.
struct Set {
    bool sequence;
    int tile;  // a sequence's lowest
};

// The sets of a reading, its concealed ones then the melds (of a standard reading only: for the
// others the concealed ones mean nothing).
struct Sets {
    int size = 0;
    Set items[kReadingItems + kMaxMelds];
};

Sets sets_of(const Reading& r, const ScoreMeld* melds, int melds_size) {
    Sets s;
    for (int i = 0; i < r.size; ++i) s.items[s.size++] = {(r.items[i] & 1) != 0, r.items[i] >> 1};
    for (int i = 0; i < melds_size; ++i) s.items[s.size++] = {melds[i].kind == MeldKind::kChow, melds[i].tile};
    return s;
}

bool has_terminal(const Set& s) {
    return is_terminal_or_honour(s.tile) || (s.sequence && is_terminal(s.tile + 2));
}

// Whether the triplets of `s` hold every tile of [lo, lo + n).
bool triplets_cover(const Sets& s, int lo, int n) {
    int found = 0;
    for (int i = 0; i < s.size; ++i) {
        const int t = s.items[i].tile;
        if (!s.items[i].sequence && t >= lo && t < lo + n) found |= 1 << (t - lo);
    }
    return found == (1 << n) - 1;
}

// 大众麻将's limit hands (满贯, a fixed value like 天胡): 十三幺, 大四喜, 大三元, 字一色, the first that
// applies; none gives an empty set. They all need honours, so no Sichuan hand has one.
FanSet limit_fan(const Reading& r, const Sets& s, const Whole& w, const ScoreOptions& o) {
    FanSet fans;
    if (r.form == Form::kThirteenOrphans) fans.add(Fan::kShisanyao, o);
    else if (r.form == Form::kStandard && triplets_cover(s, kWinds, 4)) fans.add(Fan::kDasixi, o);
    else if (r.form == Form::kStandard && triplets_cover(s, kDragons, 3)) fans.add(Fan::kDasanyuan, o);
    else if (w.all_honours) fans.add(Fan::kZiyise, o);
    return fans;
}

// 箭刻 (each dragon triplet), 小三元 and 小四喜 (大众麻将; winds score only in 小四喜).
void honour_fans(const Reading& r, const Sets& s, const ScoreOptions& o, FanSet& fans) {
    int dragons = 0, winds = 0;
    for (int i = 0; i < s.size; ++i) {
        if (s.items[i].sequence) continue;
        dragons += s.items[i].tile >= kDragons;
        winds += s.items[i].tile >= kWinds && s.items[i].tile < kDragons;
    }
    if (dragons) fans.add(Fan::kJianke, dragons * o.value[static_cast<int>(Fan::kJianke)]);
    if (dragons == 2 && r.pair >= kDragons) fans.add(Fan::kXiaosanyuan, o);
    if (winds == 3 && r.pair >= kWinds && r.pair < kDragons) fans.add(Fan::kXiaosixi, o);
}

// The fans of a standard reading's shape beyond the hand-wide ones.
void standard_fans(const Reading& r, const Sets& s, const ScoreMeld* melds, int melds_size, int win_tile,
                   const ScoreOptions& o, FanSet& fans) {
    const bool dazhong = o.style == FanStyle::kDazhong;
    bool triplets = true, jiang = is_258(r.pair), terminals = is_terminal_or_honour(r.pair);
    for (int i = 0; i < s.size; ++i) {
        triplets = triplets && !s.items[i].sequence;
        jiang = jiang && is_258(s.items[i].tile);
        terminals = terminals && has_terminal(s.items[i]);
    }
    if (triplets) {
        fans.add(Fan::kDuiduihu, o);
        if (o.house & bit(Fan::kJiangdui) && jiang) fans.add(Fan::kJiangdui, o);
    }
    if (o.yaojiu == YaojiuRule::kDaiyaojiu && terminals) fans.add(Fan::kDaiyaojiu, o);
    if (melds_size == kMaxMelds && !dazhong) fans.add(Fan::kJingoudiao, o);
    honour_fans(r, s, o, fans);
    if (o.house & bit(Fan::kJiaxinwu) && rank_of(win_tile) == 5 &&
        std::find(r.items, r.items + r.size, 2 * (win_tile - 1) + 1) != r.items + r.size)
        fans.add(Fan::kJiaxinwu, o);
    int kongs = 0;
    bool concealed = true;
    for (int i = 0; i < melds_size; ++i) {
        kongs += melds[i].kind == MeldKind::kKong;
        concealed = concealed && melds[i].concealed;
    }
    if (o.house & bit(Fan::kShibaluohan) && kongs == kMaxMelds) fans.add(Fan::kShibaluohan, o);
    // 门清 is a house fan in Sichuan rules and a standard one in 大众麻将
    const bool menqing = o.house & bit(Fan::kMenqing) || dazhong;
    if (menqing && o.value[static_cast<int>(Fan::kMenqing)] && concealed) fans.add(Fan::kMenqing, o);
}

// Every fan that depends on the hand's shape (all but the situational ones).
FanSet pattern_fans(const Reading& r, const Sets& s, const ScoreMeld* melds, int melds_size, int win_tile,
                    const Whole& w, const ScoreOptions& o) {
    FanSet fans;
    int gen = w.gen;
    const int suited = w.suits & ~(1 << kHonourSuit);
    if (w.suits == suited && (suited & (suited - 1)) == 0) fans.add(Fan::kQingyise, o);
    else if (w.suits != suited && (suited & (suited - 1)) == 0 && suited) fans.add(Fan::kHunyise, o);
    if (r.form == Form::kSevenPairs) {
        if (o.longqidui && gen) {
            fans.add(Fan::kLongqidui, o);
            --gen;
        } else {
            fans.add(Fan::kQidui, o);
        }
    } else {
        standard_fans(r, s, melds, melds_size, win_tile, o, fans);
    }
    if (!w.any_terminal_or_honour) fans.add(o.house & bit(Fan::kZhongzhang) ? Fan::kZhongzhang : Fan::kDuanyaojiu, o);
    if (o.yaojiu == YaojiuRule::kLiteral && w.all_terminal) fans.add(Fan::kYaojiu, o);
    if (gen) fans.add(Fan::kGen, gen * o.value[static_cast<int>(Fan::kGen)]);
    if (o.style == FanStyle::kDazhong && !fans.present) fans.add(Fan::kPinghu, o);
    return fans;
}

FanSet situation_fans(bool self_drawn, std::uint32_t situations, const ScoreOptions& o) {
    FanSet fans;
    if (self_drawn && o.zimo_fan) fans.add(Fan::kZimo, o);
    if (situations & kKongReplacement) {
        const bool twice = o.gangshang_shuanghua && situations & kConsecutiveKongs;
        fans.add(Fan::kGangshanghua, (twice ? 2 : 1) * o.value[static_cast<int>(Fan::kGangshanghua)]);
    }
    if (situations & kAfterKong && o.gangshangpao) fans.add(Fan::kGangshangpao, o);
    if (situations & kRobbingKong) fans.add(Fan::kQiangganghu, o);
    if (situations & kLastTile) {
        if (self_drawn && o.haidilaoyue) fans.add(Fan::kHaidilaoyue, o);
        else if (!self_drawn && o.haidipao) fans.add(Fan::kHaidipao, o);
    }
    return fans;
}

bool valid_meld(const ScoreMeld& m) {
    if (m.tile < 0 || m.tile >= kKinds) return false;
    return m.kind != MeldKind::kChow || (m.tile < kSuited && m.tile % kSuitKinds < kSuitKinds - 2);
}

// Reads the whole hand into `w`; false for input the facade never gives.
bool read_whole(const std::uint8_t* hand, int len, const ScoreMeld* melds, int melds_size, Whole& w) {
    if ((len != kSuited && len != kKinds) || melds_size < 0 || melds_size > kMaxMelds) return false;
    for (int t = 0; t < len; ++t) w.all[t] = hand[t];
    for (int i = 0; i < melds_size; ++i) {
        const ScoreMeld& m = melds[i];
        if (!valid_meld(m)) return false;
        if (m.kind == MeldKind::kChow)
            for (int t = m.tile; t < m.tile + 3; ++t) ++w.all[t];
        else
            w.all[m.tile] += m.kind == MeldKind::kKong ? 4 : 3;
    }
    for (int t = 0; t < kKinds; ++t) {
        const int c = w.all[t];
        if (c > 4) return false;
        if (!c) continue;
        w.suits |= 1 << (t / kSuitKinds);
        w.gen += c == 4;
        w.any_terminal_or_honour = w.any_terminal_or_honour || is_terminal_or_honour(t);
        w.all_terminal = w.all_terminal && is_terminal(t);
        w.all_honours = w.all_honours && t >= kSuited;
    }
    return true;
}

Score result(const FanSet& fans, const Reading& reading, const ScoreOptions& o) {
    Score s;
    for (int f = 0; f < kFans; ++f)
        if (fans.present >> f & 1) s.fans[s.size++] = {static_cast<Fan>(f), fans.value[f]};
    s.total = o.max_fan >= 0 ? std::min(fans.sum, o.max_fan) : fans.sum;
    s.reading = reading;
    return s;
}

Score no_win(NoWin reason) {
    Score s;
    s.reason = reason;
    return s;
}

}  // namespace

const char* refusal(const ScoreOptions& o) {
    if (o.max_fan < -1 || o.max_fan > kMaxFanValue) return "max_fan is -1 (none) or 0 to 64";
    for (int v : o.value)
        if (v < 0 || v > kMaxFanValue) return "a fan's value is 0 to 64";
    constexpr std::uint32_t kHouse = 1u << static_cast<int>(Fan::kZhongzhang) | 1u << static_cast<int>(Fan::kJiangdui) |
                                     1u << static_cast<int>(Fan::kMenqing) | 1u << static_cast<int>(Fan::kJiaxinwu) |
                                     1u << static_cast<int>(Fan::kShibaluohan);
    if (o.house & ~kHouse) return "house holds only the house fans' bits";
    return nullptr;
}

int highest_total(const ScoreOptions& o) {
    constexpr std::array kLimits{Fan::kTianhu, Fan::kDihu, Fan::kShisanyao, Fan::kDasixi, Fan::kDasanyuan, Fan::kZiyise};
    int limit = 0, rest = 0;
    for (int f = 0; f < kFans; ++f) {
        const Fan fan = static_cast<Fan>(f);
        if (std::find(kLimits.begin(), kLimits.end(), fan) != kLimits.end()) {
            limit = std::max(limit, o.value[f]);
            continue;
        }
        const int times = fan == Fan::kGen ? 4 : fan == Fan::kJianke ? 3 : fan == Fan::kGangshanghua ? 2 : 1;
        rest += times * o.value[f];
    }
    const int most = std::max(limit, rest);
    return o.max_fan >= 0 ? std::min(o.max_fan, most) : most;
}

Score score(const std::uint8_t* hand, int len, const ScoreMeld* melds, int melds_size, int win_tile,
            bool self_drawn, int vi, std::uint32_t situations, const ScoreOptions& o) {
    Whole w;
    if (!read_whole(hand, len, melds, melds_size, w) || win_tile < 0 || win_tile >= len || !hand[win_tile] ||
        vi < kNoVoid || vi > 2)
        return no_win(NoWin::kRefused);
    if (vi != kNoVoid && w.suits >> vi & 1) return no_win(NoWin::kVoidHeld);
    if (o.void_suit && (w.suits & 7) == 7) return no_win(NoWin::kThreeSuits);
    if (situations & kRobbingKong && !o.robbing_kong) return no_win(NoWin::kRobbingKong);
    std::uint8_t concealed[kKinds] = {};
    std::copy(hand, hand + len, concealed);
    const std::vector<Reading> found = decompositions(concealed, kKinds);
    if (found.empty()) return no_win(NoWin::kIncomplete);
    FanSet fixed;
    if (situations & kTianhuWin) fixed.add(Fan::kTianhu, o);
    else if (situations & kDihuWin && (self_drawn || o.dihu_on_dealer_discard)) fixed.add(Fan::kDihu, o);
    if (fixed.present) return result(fixed, found[0], o);
    // 根 is Sichuan's: 大众麻将 pays its kongs and counts no 根
    if (o.style == FanStyle::kDazhong) w.gen = 0;
    const FanSet situational = situation_fans(self_drawn, situations, o);
    // the best reading by its total before the cap (capped, a weaker one could tie with it)
    FanSet best;
    const Reading* chosen = nullptr;
    for (const Reading& r : found) {
        const Sets s = sets_of(r, melds, melds_size);
        FanSet fans = limit_fan(r, s, w, o);
        if (!fans.present) {
            fans = pattern_fans(r, s, melds, melds_size, win_tile, w, o);
            fans.merge(situational);
        }
        if (!chosen || fans.sum > best.sum) {
            best = fans;
            chosen = &r;
        }
    }
    return result(best, *chosen, o);
}

int max_static_fan(const std::uint8_t* hand, int len, const ScoreMeld* melds, int melds_size, int vi,
                   const ScoreOptions& o) {
    Whole w;
    if (!read_whole(hand, len, melds, melds_size, w)) return kBadCounts;
    int melded[kKinds];
    for (int t = 0; t < kKinds; ++t) melded[t] = w.all[t] - (t < len ? hand[t] : 0);
    const std::int64_t mask = waits_beside(hand, len, vi, melded);
    if (mask < 0) return static_cast<int>(mask);
    std::uint8_t counts[kKinds] = {};
    std::copy(hand, hand + len, counts);
    int best = -1;
    for (int t = 0; t < len; ++t) {
        if (!(mask >> t & 1)) continue;
        ++counts[t];
        const Score s = score(counts, kKinds, melds, melds_size, t, false, vi, 0, o);
        --counts[t];
        if (s.reason == NoWin::kWins) best = std::max(best, s.total);
    }
    return best;
}

}  // namespace chuanma
