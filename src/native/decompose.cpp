#include "decompose.hpp"

#include "hand.hpp"
#include "tables.hpp"

namespace chuanma {

namespace {

constexpr int kPairs = 7;  // of a seven-pairs hand

// Every multiset of sets using exactly `counts` from `t` on, appended to `found` after `head`.
void sets(int* counts, int len, int t, Reading& head, std::vector<Reading>& found) {
    while (t < len && counts[t] == 0) ++t;
    if (t == len) {
        found.push_back(head);
        return;
    }
    const int c = counts[t];
    for (int triplets = c >= 3 ? 1 : 0; triplets >= 0; --triplets) {
        const int runs = c - 3 * triplets;
        if (runs && (t >= kSuited || t % kSuitKinds > kSuitKinds - 3 || counts[t + 1] < runs || counts[t + 2] < runs)) continue;
        const int size = head.size;
        counts[t] -= c;
        if (runs) {
            counts[t + 1] -= runs;
            counts[t + 2] -= runs;
        }
        for (int i = 0; i < triplets; ++i) head.items[head.size++] = static_cast<std::int8_t>(2 * t);
        for (int i = 0; i < runs; ++i) head.items[head.size++] = static_cast<std::int8_t>(2 * t + 1);
        sets(counts, len, t + 1, head, found);
        head.size = size;
        counts[t] += c;
        if (runs) {
            counts[t + 1] += runs;
            counts[t + 2] += runs;
        }
    }
}

}  // namespace

std::vector<Reading> decompositions(const std::uint8_t* k, int len) {
    std::vector<Reading> found;
    Hand h;
    if (!read_hand(k, len, h) || h.n % 3 != 2) return found;
    if (is_thirteen_orphans(k, len)) {
        Reading r{Form::kThirteenOrphans, 0, 0, {}};
        while (k[r.pair] != 2) ++r.pair;
        found.push_back(r);
        return found;
    }
    int counts[34];
    bool even = true;
    for (int t = 0; t < len; ++t) {
        counts[t] = k[t];
        even = even && k[t] % 2 == 0;
    }
    for (int pair = 0; pair < len; ++pair) {
        if (counts[pair] < 2) continue;
        counts[pair] -= 2;
        Reading head{Form::kStandard, pair, 0, {}};
        sets(counts, len, 0, head, found);
        counts[pair] += 2;
    }
    if (even && h.n == 2 * kPairs) {
        Reading r{Form::kSevenPairs, -1, 0, {}};
        for (int t = 0; t < len; ++t)
            for (int i = 0; i < k[t] / 2; ++i) r.items[r.size++] = static_cast<std::int8_t>(t);
        found.push_back(r);
    }
    return found;
}

}  // namespace chuanma
