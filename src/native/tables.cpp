// The hand-analysis tables, from the embedded distance classes (gen_tables): each part's
// completeness and waits, and the tables that join classes part by part (a min-plus product).
#include "tables.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

#include "embedded.hpp"

namespace chuanma {
namespace {

// Each code's class, completeness and waits, from the last code down (the codes a tile more
// than a code's are greater: their completeness is known when its waits are found).
std::vector<Part> parts(int kinds, const std::uint8_t* cls, const Distances* rows) {
    int total = 1;
    for (int r = 0; r < kinds; ++r) total *= 5;
    std::vector<Part> out(total);
    int digits[kSuitKinds];  // the counts of `code`, rank 1 first (an odometer counting down)
    std::fill(digits, digits + kinds, 4);
    for (int code = total - 1, size = 4 * kinds; code >= 0; --code) {
        Part& p = out[code];
        p.cls = cls[code];
        p.win = p.wait0 = p.wait1 = 0;
        if (size <= kMaxTiles) {  // no hand holds more: such a part is never complete nor read for waits
            const Distances& d = rows[cls[code]];
            const int sets = size / 3;
            if (size % 3 == 0 && d[2 * sets] == 0) p.win = 1;
            if (size % 3 == 2 && d[2 * sets + 1] == 0) p.win = 4;
            unsigned wait0 = 0, wait1 = 0;
            for (int r = 0, weight = total / 5; r < kinds; ++r, weight /= 5) {
                if (digits[r] == 4) continue;
                const unsigned win = out[code + weight].win;
                wait0 |= (win == 1) << r;
                wait1 |= (win == 4) << r;
            }
            p.wait0 = wait0;
            p.wait1 = wait1;
        }
        for (int r = kinds - 1; r >= 0; --r) {  // the code below
            if (digits[r] > 0) {
                --digits[r];
                --size;
                break;
            }
            digits[r] = 4;
            size += 4;
        }
    }
    return out;
}

// The min-plus product of two class lists: its distinct rows (the joined classes) and the join table.
std::vector<Distances> join(const std::vector<Distances>& a, const std::vector<Distances>& b,
                            std::vector<std::uint16_t>& table) {
    std::map<Distances, std::uint16_t> ids;
    std::vector<Distances> out;
    table.resize(a.size() * b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (std::size_t j = 0; j < b.size(); ++j) {
            Distances row;
            row.fill(kCap);
            for (int m1 = 0; m1 < kSets; ++m1)
                for (int m2 = 0; m1 + m2 < kSets; ++m2)
                    for (int h1 = 0; h1 < 2; ++h1)
                        for (int h2 = 0; h1 + h2 < 2; ++h2) {
                            const int sum = a[i][2 * m1 + h1] + b[j][2 * m2 + h2];
                            std::int8_t& cell = row[2 * (m1 + m2) + h1 + h2];
                            cell = static_cast<std::int8_t>(std::min<int>(cell, std::min(sum, kCap)));
                        }
            auto [it, added] = ids.try_emplace(row, static_cast<std::uint16_t>(out.size()));
            if (added) out.push_back(row);
            table[i * b.size() + j] = it->second;
        }
    }
    return out;
}

Tables build() {
    namespace e = embedded;
    Tables t;
    t.suit = parts(kSuitKinds, e::suit_class, e::suit_rows);
    t.honour = parts(kHonourKinds, e::honour_class, e::honour_rows);
    const std::vector<Distances> suit(e::suit_rows, e::suit_rows + e::suit_classes);
    const std::vector<Distances> honour(e::honour_rows, e::honour_rows + e::honour_classes);
    t.n2 = e::suit_classes;
    t.nz = e::honour_classes;
    const std::vector<Distances> two = join(suit, suit, t.join2);
    const std::vector<Distances> three = join(two, suit, t.join3);
    const std::vector<Distances> four = join(three, honour, t.join4);
    t.final.resize(four.size() * kSets);
    for (std::size_t c = 0; c < four.size(); ++c)
        for (int m = 0; m < kSets; ++m) t.final[c * kSets + m] = four[c][2 * m + 1];
    return t;
}

}  // namespace

namespace {
std::atomic<bool> ready{false};
}  // namespace

const Tables& tables() {
    static std::once_flag once;
    static Tables built;
    if (ready.load(std::memory_order_acquire)) return built;  // built: no call_once (costly on every call)
    std::call_once(once, [] {
        built = build();
        ready = true;
    });
    return built;
}

bool tables_built() { return ready; }

}  // namespace chuanma
