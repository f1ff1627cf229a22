// tomohxx's formulation of shanten: for every way a part can be held, the tiles it lacks to hold
// m sets and h pairs, derived from the definition of a set and a pair; parts with the same
// distances share a class.
#include "classes.hpp"

#include <algorithm>
#include <map>

namespace chuanma {
namespace {

int power5(int k) {
    int p = 1;
    for (int i = 0; i < k; ++i) p *= 5;
    return p;
}

// Marks every vector of exactly `sets` sets (units from `first` on) and `pairs` pairs, at most 4 a kind.
void mark(std::vector<std::uint8_t>& covered, std::vector<int>& w, const std::vector<std::vector<int>>& units,
          std::size_t first, int sets, int pairs, const std::vector<int>& weight) {
    const std::size_t kinds = w.size();
    if (sets > 0) {
        for (std::size_t u = first; u < units.size(); ++u) {
            bool fits = true;
            for (std::size_t r = 0; r < kinds; ++r) fits = fits && w[r] + units[u][r] <= 4;
            if (!fits) continue;
            for (std::size_t r = 0; r < kinds; ++r) w[r] += units[u][r];
            mark(covered, w, units, u, sets - 1, pairs, weight);
            for (std::size_t r = 0; r < kinds; ++r) w[r] -= units[u][r];
        }
        return;
    }
    if (pairs > 0) {
        for (std::size_t r = 0; r < kinds; ++r) {
            if (w[r] + 2 > 4) continue;
            w[r] += 2;
            mark(covered, w, units, first, 0, pairs - 1, weight);
            w[r] -= 2;
        }
        return;
    }
    int code = 0;
    for (std::size_t r = 0; r < kinds; ++r) code += w[r] * weight[r];
    covered[code] = 1;
}

}  // namespace

// The distances by suffix-or of the complete patterns (a vector fits in one), then prefix-max of
// the tiles they use, along every axis.
Classes build_classes(int kinds, bool sequences) {
    const int total = power5(kinds);
    std::vector<int> weight(kinds);
    for (int r = 0; r < kinds; ++r) weight[r] = power5(kinds - 1 - r);
    std::vector<std::int8_t> size(total);
    for (int code = 0; code < total; ++code) {
        int s = 0;
        for (int c = code; c; c /= 5) s += c % 5;
        size[code] = static_cast<std::int8_t>(s);
    }
    std::vector<std::vector<int>> units;
    for (int i = 0; i < kinds; ++i) {
        std::vector<int> u(kinds, 0);
        u[i] = 3;
        units.push_back(u);
    }
    for (int i = 0; sequences && i + 2 < kinds; ++i) {
        std::vector<int> u(kinds, 0);
        u[i] = u[i + 1] = u[i + 2] = 1;
        units.push_back(u);
    }
    std::vector<Distances> dist(total);
    std::vector<std::uint8_t> covered(total);
    std::vector<std::int8_t> best(total);
    std::vector<int> w(kinds, 0);
    for (int m = 0; m < kSets; ++m) {
        for (int h = 0; h < 2; ++h) {
            std::fill(covered.begin(), covered.end(), 0);
            mark(covered, w, units, 0, m, h, weight);
            for (int r = 0; r < kinds; ++r) {
                const int step = weight[r], block = 5 * step;
                for (int o = 0; o < total; o += block)
                    for (int d = 3; d >= 0; --d)
                        for (int lo = 0; lo < step; ++lo) covered[o + d * step + lo] |= covered[o + (d + 1) * step + lo];
            }
            for (int code = 0; code < total; ++code) best[code] = covered[code] ? size[code] : -1;
            for (int r = 0; r < kinds; ++r) {
                const int step = weight[r], block = 5 * step;
                for (int o = 0; o < total; o += block)
                    for (int d = 1; d < 5; ++d)
                        for (int lo = 0; lo < step; ++lo) {
                            std::int8_t& b = best[o + d * step + lo];
                            b = std::max(b, best[o + (d - 1) * step + lo]);
                        }
            }
            for (int code = 0; code < total; ++code)
                dist[code][2 * m + h] =
                    static_cast<std::int8_t>(best[code] < 0 ? kCap : std::min(3 * m + 2 * h - best[code], kCap));
        }
    }
    Classes out;
    out.of_code.resize(total);
    std::map<Distances, std::uint8_t> ids;
    for (int code = 0; code < total; ++code) {
        auto [it, added] = ids.try_emplace(dist[code], static_cast<std::uint8_t>(out.rows.size()));
        if (added) out.rows.push_back(dist[code]);
        out.of_code[code] = it->second;
    }
    return out;
}

}  // namespace chuanma
