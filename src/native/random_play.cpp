#include "random_play.hpp"

#include <numeric>
#include <vector>

#include "reducer.hpp"

namespace chuanma {
namespace {

// splitmix64: small, fast, and the same on every platform.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(std::size_t n) { return static_cast<int>(next() % n); }
};

}  // namespace

std::int64_t play_random(const Rules& rules, std::uint64_t seed, int hands) {
    Random rng{seed};
    const int size = rules.wall_size();
    std::vector<std::uint8_t> wall(size);
    std::vector<int> seats;
    std::int64_t decisions = 0;
    for (int hand = 0; hand < hands; ++hand) {
        for (int i = 0; i < size; ++i) wall[i] = static_cast<std::uint8_t>(i / 4);
        for (int i = size - 1; i > 0; --i) std::swap(wall[i], wall[rng.below(i + 1)]);
        const int dealer = rng.below(4);
        Reducer r(rules, wall, dealer, 1 + rng.below(3));
        while (!r.finished()) {
            r.to_act(seats);
            const int seat = seats[rng.below(seats.size())];
            const std::vector<int>& actions = r.legal(seat);
            r.apply(seat, actions[rng.below(actions.size())]);
            ++decisions;
        }
    }
    return decisions;
}

}  // namespace chuanma
