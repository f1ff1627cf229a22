#include "batch.hpp"

#include <algorithm>
#include <stdexcept>

#include "actions.hpp"
#include "encode_planes.hpp"

namespace chuanma {
namespace {

// A uniform draw below `n` (the modulo bias of a 64-bit draw is negligible and the same everywhere).
int below(std::mt19937_64& rng, int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); }

}  // namespace

BatchHands::BatchHands(const Rules& rules, int n, bool event, float scale, bool planes)
    : rules_(rules), event_(event), scale_(scale), planes_(planes) {
    if (n < 1) throw std::invalid_argument("a batch has at least one table");
    for (int i = 0; i < rules.wall_size(); ++i) set_.push_back(static_cast<std::uint8_t>(i / 4));
    std::mt19937_64 rng(0);
    tables_.reserve(n);
    for (int i = 0; i < n; ++i) {
        tables_.push_back(Table{rng, deal(rng)});
        tables_.back().hand->to_act(acting_);
        tables_.back().seat = acting_.front();  // asked before any reset
    }
}

int BatchHands::observation_size() const {
    return planes_ ? planes_size(rules_.kinds()) : compact_size(rules_.kinds());
}

// A shuffled wall, a dealer and a direction from the generator.
Reducer BatchHands::deal(std::mt19937_64& rng) const {
    std::vector<std::uint8_t> wall = set_;
    for (int i = static_cast<int>(wall.size()) - 1; i > 0; --i) std::swap(wall[i], wall[below(rng, i + 1)]);
    const int dealer = below(rng, kSeats);
    const int direction = 1 + below(rng, 3);
    return Reducer(rules_, std::move(wall), dealer, direction);
}

void BatchHands::reset(std::uint64_t seed, const BatchOut& out) {
    for (int i = 0; i < size(); ++i) {
        Table& t = tables_[i];
        t.rng.seed(seed + static_cast<std::uint64_t>(i));
        t.hand.emplace(deal(t.rng));
        t.paid.fill(0);
        observe(i, out);
    }
    hands_ = 0;
}

std::optional<std::string> BatchHands::refused(const std::int64_t* actions) const {
    for (int i = 0; i < size(); ++i) {
        const std::int64_t a = actions[i];
        const Table& t = tables_[i];
        if (a < 0 || a >= kActionCount)
            return "table " + std::to_string(i) + ": action " + std::to_string(a) + " is not in the action space (0-" +
                   std::to_string(kActionCount - 1) + ")";
        const std::vector<int>& legal = t.hand->legal(t.seat);
        if (std::find(legal.begin(), legal.end(), static_cast<int>(a)) == legal.end())
            return "table " + std::to_string(i) + ": action " + std::to_string(a) + " is not legal for seat " +
                   std::to_string(t.seat);
    }
    return std::nullopt;
}

void BatchHands::step(const std::int64_t* actions, const BatchOut& out) {
    for (int i = 0; i < size(); ++i) {
        Table& t = tables_[i];
        t.hand->apply(t.seat, static_cast<int>(actions[i]));
        float* rewards = out.rewards + 4 * i;
        const bool finished = t.hand->finished();
        out.done[i] = finished;
        if (event_ || finished) {
            const auto totals = t.hand->deltas();
            for (int s = 0; s < kSeats; ++s) rewards[s] = static_cast<float>(totals[s] - t.paid[s]) * scale_;
            t.paid = totals;
        } else {
            std::fill(rewards, rewards + 4, 0.0f);
        }
        if (finished) {
            ++hands_;
            t.hand.emplace(deal(t.rng));
            t.paid.fill(0);
        }
        observe(i, out);
    }
}

void BatchHands::observe(int i, const BatchOut& out) {
    Table& t = tables_[i];
    t.hand->to_act(acting_);
    t.seat = acting_.front();
    out.seats[i] = t.seat;
    t.hand->legal_mask(t.seat, out.masks + static_cast<std::ptrdiff_t>(i) * kActionCount);
    redact(t.hand->state(), t.seat, view_);
    float* obs = out.observations + static_cast<std::ptrdiff_t>(i) * observation_size();
    if (planes_) encode_planes(view_, obs);
    else encode_compact(view_, obs);
}

}  // namespace chuanma
