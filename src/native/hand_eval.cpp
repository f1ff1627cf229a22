#include "hand_eval.hpp"

#include <algorithm>
#include <string>

#include "tables.hpp"

namespace chuanma {
namespace {

int weight(int t) {
    const int r = t < kSuited ? 8 - t % 9 : kKinds - 1 - t;
    int w = 1;
    for (int i = 0; i < r; ++i) w *= 5;
    return w;
}

}  // namespace

HandEval::HandEval(const Hand& h, int vi) : len_(h.len), n_(h.n), vi_(vi), hand_(h) {
    if (h.n > kMaxTiles)
        throw SizeRefused("a hand holds at most " + std::to_string(kMaxTiles) + " tiles, got " + std::to_string(h.n));
    std::copy_n(h.k, h.len, counts_);
    std::fill(counts_ + h.len, counts_ + kKinds, 0);
    std::copy_n(h.code, 4, code_);
    hand_.k = counts_;
}

int HandEval::changed(int out, int in, int n) const {
    int code[4] = {code_[0], code_[1], code_[2], code_[3]};
    if (out >= 0) code[out / 9] -= weight(out);
    if (in >= 0) code[in / 9] += weight(in);
    return shanten_of(hand_, code, n, vi_);
}

void HandEval::check_held(int t) const {
    if (t < 0 || t >= len_)
        throw TileRefused("tile " + std::to_string(t) + " is not one of the " + std::to_string(len_) + " kinds");
    if (!counts_[t]) throw TileRefused("tile " + std::to_string(t) + " is not held");
}

void HandEval::check_drawn(int u, int t) const {
    if (u < 0 || u >= len_)
        throw TileRefused("tile " + std::to_string(u) + " is not one of the " + std::to_string(len_) + " kinds");
    if (counts_[u] - (u == t) >= 4) throw TileRefused("tile " + std::to_string(u) + " is held four times");
    if (t < 0 && n_ >= kMaxTiles)
        throw SizeRefused("a hand holds at most " + std::to_string(kMaxTiles) + " tiles, got " +
                          std::to_string(n_ + 1));
}

int HandEval::shanten() const { return shanten_of(hand_, code_, n_, vi_); }

int HandEval::without(int t) const {
    if (!held(t)) check_held(t);
    return changed(t, -1, n_ - 1);
}

int HandEval::swap(int t, int u) const {
    if (!held(t) || !drawable(u, t)) {
        check_held(t);
        check_drawn(u, t);
    }
    return changed(t, u, n_);
}

int HandEval::with(int u) const {
    if (!drawable(u, -1)) check_drawn(u, -1);
    return changed(-1, u, n_ + 1);
}

std::vector<int> HandEval::useful_tiles(int t, int sh) const {
    // Candidates: a tile of the void suit never; a tile held four times (after the discard)
    // never; an honour only in a hand holding one after the discard (counts without honours may
    // be a Sichuan hand's, which has none to draw) and holding no void tile.
    if (!held(t)) check_held(t);
    int after[kKinds];
    for (int u = 0; u < len_; ++u) after[u] = counts_[u] - (u == t);
    int honours = 0;
    bool void_held = false;
    for (int u = kSuited; u < len_; ++u) honours += after[u];
    if (vi_ >= 0)
        for (int u = 9 * vi_; u < 9 * vi_ + 9; ++u) void_held = void_held || after[u] > 0;
    std::vector<int> out;
    for (int u = 0; u < len_; ++u) {
        if (after[u] >= 4) continue;
        if (u < kSuited ? u / 9 == vi_ : (void_held || honours <= 0)) continue;
        if (changed(t, u, n_) < sh) out.push_back(u);
    }
    return out;
}

}  // namespace chuanma
