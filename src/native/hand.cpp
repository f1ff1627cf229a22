#include "hand.hpp"

#include <algorithm>

#include "tables.hpp"

namespace chuanma {
namespace {

constexpr int kOrphans[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
constexpr int kOrphanSize = 14;

const Part& part(const Tables& t, const int code[4], int i) { return i < 3 ? t.suit[code[i]] : t.honour[code[3]]; }

int standard_distance(const Tables& t, const int code[4], int n) {
    const int c2 = t.join2[t.suit[code[0]].cls * t.n2 + t.suit[code[1]].cls];
    const int c3 = t.join3[c2 * t.n2 + t.suit[code[2]].cls];
    const int c4 = t.join4[c3 * t.nz + t.honour[code[3]].cls];
    return t.final[c4 * kSets + n / 3];
}

// Pairs (count // 2) and odd counts of a part's code, split into its first five ranks and its last
// four (two look-ups: no loop over the digits).
struct Halves {
    std::uint8_t pairs_hi[3125], odd_hi[3125], pairs_lo[625], odd_lo[625];
    Halves() {
        for (int code = 0; code < 3125; ++code) {
            int pairs = 0, odd = 0;
            for (int c = code; c; c /= 5) {
                pairs += (c % 5) / 2;
                odd += (c % 5) & 1;
            }
            pairs_hi[code] = static_cast<std::uint8_t>(pairs);
            odd_hi[code] = static_cast<std::uint8_t>(odd);
            if (code < 625) {
                pairs_lo[code] = pairs_hi[code];
                odd_lo[code] = odd_hi[code];
            }
        }
    }
};
const Halves halves;

// Pairs (count // 2) and odd counts over the four parts of `code`.
void pairs_and_odd(const int code[4], int& pairs, int& odd) {
    pairs = odd = 0;
    for (int i = 0; i < 4; ++i) {
        const int hi = code[i] / 625, lo = code[i] % 625;
        pairs += halves.pairs_hi[hi] + halves.pairs_lo[lo];
        odd += halves.odd_hi[hi] + halves.odd_lo[lo];
    }
}

bool valid_size(int n, bool three_n_plus_one_only) {
    if (n > kMaxTiles) return false;
    return three_n_plus_one_only ? n % 3 == 1 : n % 3 != 0;
}

}  // namespace

bool read_hand(const std::uint8_t* k, int len, Hand& h) {
    if (len != kSuited && len != kKinds) return false;
    h.k = k;
    h.len = len;
    h.n = h.honours = 0;
    for (int i = 0; i < 4; ++i) {
        const int lo = 9 * i, kinds = i < 3 ? kSuitKinds : (len == kKinds ? kHonourKinds : 0);
        int code = 0, size = 0;
        for (int r = 0; r < kinds; ++r) {
            const int c = k[lo + r];
            if (c > 4) return false;
            code = code * 5 + c;
            size += c;
        }
        if (kinds == 0) code = 0;
        else if (kinds == kHonourKinds) h.honours = size;
        if (size > kMaxTiles) return false;
        h.code[i] = code;
        h.n += size;
    }
    return true;
}

int thirteen_orphans_distance(const std::uint8_t* k, int len) {
    if (len < kKinds) return kOrphanSize;
    int kinds = 0, pair = 0;
    for (int t : kOrphans) {
        if (k[t]) ++kinds;
        if (k[t] > 1) pair = 1;
    }
    return kOrphanSize - kinds - pair;
}

bool is_thirteen_orphans(const std::uint8_t* k, int len) {
    int n = 0;
    for (int i = 0; i < len; ++i) n += k[i];
    return n == kOrphanSize && thirteen_orphans_distance(k, len) == 0;
}

bool is_win(const std::uint8_t* k, int len) {
    Hand h;
    if (!read_hand(k, len, h)) return false;
    const Tables& t = tables();
    int win = 0;
    bool even = true;
    for (int i = 0; i < 4; ++i) win += part(t, h.code, i).win;
    if (win == 7) return true;
    for (int i = 0; i < len; ++i) even = even && !(k[i] & 1);
    if (even && h.n == kOrphanSize) return true;
    return len == kKinds && is_thirteen_orphans(k, len);
}

int shanten_of(const Hand& h, const int code[4], int n, int vi) {
    const Tables& t = tables();
    int voided[4] = {code[0], code[1], code[2], code[3]};
    if (vi >= 0) voided[vi] = 0;
    int sh = standard_distance(t, voided, n) - 1;
    if (n < 13) return sh;
    int pairs, odd;
    pairs_and_odd(voided, pairs, odd);
    const int need = 7 - pairs;
    if (need <= 0) return -1;
    sh = std::min(sh, need + std::max(0, need - odd) - 1);
    // 十三幺 holds at most six suited kinds and as many honour kinds as honours: its shanten is at
    // least 6 minus the honours held, so only a hand holding honours can find it lower
    int honours = 0;
    for (int c = code[3]; c; c /= 5) honours += c % 5;
    if (vi < 0 && 6 - honours < sh && h.len == kKinds) {
        int counts[kKinds];
        for (int i = 0; i < 4; ++i) {
            const int kinds = i < 3 ? kSuitKinds : kHonourKinds;
            for (int c = code[i], r = kinds - 1; r >= 0; --r, c /= 5) counts[9 * i + r] = c % 5;
        }
        std::uint8_t bytes[kKinds];
        for (int i = 0; i < kKinds; ++i) bytes[i] = static_cast<std::uint8_t>(counts[i]);
        sh = std::min(sh, thirteen_orphans_distance(bytes, kKinds) - 1);
    }
    return sh;
}

int shanten(const std::uint8_t* k, int len, int vi) {
    Hand h;
    if (!read_hand(k, len, h)) return kBadCounts;
    if (!valid_size(h.n, false)) return kBadSize;
    if (vi < kNoVoid || vi > 2) return kBadVoid;
    return shanten_of(h, h.code, h.n, vi);
}

int shanten_standard(const std::uint8_t* k, int len, int vi) {
    Hand h;
    if (!read_hand(k, len, h)) return kBadCounts;
    if (!valid_size(h.n, false)) return kBadSize;
    if (vi < kNoVoid || vi > 2) return kBadVoid;
    int voided[4] = {h.code[0], h.code[1], h.code[2], h.code[3]};
    if (vi >= 0) voided[vi] = 0;
    return standard_distance(tables(), voided, h.n) - 1;
}

int shanten_seven_pairs(const std::uint8_t* k, int len, int vi) {
    Hand h;
    if (!read_hand(k, len, h)) return kBadCounts;
    if (h.n != 13 && h.n != 14) return kBadSize;
    if (vi < kNoVoid || vi > 2) return kBadVoid;
    int voided[4] = {h.code[0], h.code[1], h.code[2], h.code[3]};
    if (vi >= 0) voided[vi] = 0;
    int pairs, odd;
    pairs_and_odd(voided, pairs, odd);
    const int need = std::max(0, 7 - pairs);
    return need + std::max(0, need - odd) - 1;
}

int shanten_thirteen_orphans(const std::uint8_t* k, int len) {
    Hand h;
    if (!read_hand(k, len, h)) return kBadCounts;
    if (h.n != 13 && h.n != 14) return kBadSize;
    return thirteen_orphans_distance(k, len) - 1;
}

std::int64_t waits(const std::uint8_t* k, int len, int vi) {
    Hand h;
    if (!read_hand(k, len, h)) return kBadCounts;
    if (!valid_size(h.n, true)) return kBadSize;
    if (vi < kNoVoid || vi > 2) return kBadVoid;
    const Tables& t = tables();
    if (vi >= 0 && h.code[vi]) return 0;  // a void tile held
    int total = 0;
    for (int i = 0; i < 4; ++i) total += part(t, h.code, i).win;
    std::int64_t mask = 0;
    for (int i = 0; i < 4; ++i) {
        const Part& p = part(t, h.code, i);
        const int others = total - p.win;
        if (others == 3) mask |= static_cast<std::int64_t>(p.wait1) << (9 * i);
        else if (others == 6) mask |= static_cast<std::int64_t>(p.wait0) << (9 * i);
    }
    if (h.n == 13) {
        int pairs, odd;
        pairs_and_odd(h.code, pairs, odd);
        if (pairs == 6)  // seven pairs: the one kind held an odd number of times
            for (int i = 0; i < len; ++i)
                if (k[i] & 1) mask |= std::int64_t{1} << i;
        if (h.honours && thirteen_orphans_distance(k, len) == 1) {
            std::int64_t missing = 0, all = 0;
            for (int o : kOrphans) {
                all |= std::int64_t{1} << o;
                if (!k[o]) missing |= std::int64_t{1} << o;
            }
            mask |= missing ? missing : all;  // 十三面: one of each waits on all thirteen
        }
    }
    return mask;
}

std::int64_t waits_beside(const std::uint8_t* k, int len, int vi, const int* melded) {
    std::int64_t mask = waits(k, len, vi);
    if (mask <= 0) return mask;
    for (int t = 0; t < len; ++t)
        if (k[t] + melded[t] >= 4) mask &= ~(std::int64_t{1} << t);
    return mask;
}

}  // namespace chuanma
