// Many hands stepped together (chuanma.env.batch.BatchEnv): at each table the seat asked takes the
// action given, a finished hand is dealt again at once from the table's own generator, and every
// table's observation (the compact or planes encoding of the asked seat's view), legal-action
// mask, seat, rewards and end are written into the caller's arrays.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "reducer.hpp"
#include "view.hpp"

namespace chuanma {

// Where a step writes: row i of each array is table i's.
struct BatchOut {
    float* observations;    // n × observation_size()
    std::int8_t* masks;     // n × kActionCount
    std::int64_t* seats;    // n
    float* rewards;         // n × 4 (step only)
    bool* done;             // n (step only)
};

class BatchHands {
public:
    // `n` tables under `rules`; `event` rewards: each step's change of the seats' results (else only
    // the step that ends a hand pays, the hand's whole result); `scale` multiplies rewards;
    // `planes`: observations are planes encodings (else compact ones).
    BatchHands(const Rules& rules, int n, bool event, float scale, bool planes);

    int size() const { return static_cast<int>(tables_.size()); }
    int observation_size() const;  // floats in an observation
    bool planes() const { return planes_; }
    std::int64_t hands() const { return hands_; }  // hands finished since the last reset

    // Deals a hand at every table (table i's generator seeded seed + i) and observes them all.
    void reset(std::uint64_t seed, const BatchOut& out);
    // The first table whose action is not a legal action of its seat asked, with why; nothing
    // is changed.
    std::optional<std::string> refused(const std::int64_t* actions) const;
    // Applies actions[i] at table i (all legal: refused() first) and observes every table.
    void step(const std::int64_t* actions, const BatchOut& out);
    // The hand at table i.
    const Reducer& hand(int i) const { return *tables_[i].hand; }

    // Set by the bindings while a step runs without the GIL: another thread's call on the batch is
    // refused until it ends (read and written with the GIL held).
    bool stepping = false;

private:
    struct Table {
        std::mt19937_64 rng;
        std::optional<Reducer> hand;  // always dealt (a Reducer is built, not assigned)
        std::array<std::int64_t, kSeats> paid{};  // the results rewarded so far
        int seat = 0;                             // the seat asked
    };
    Reducer deal(std::mt19937_64& rng) const;
    void observe(int i, const BatchOut& out);

    Rules rules_;
    bool event_;
    float scale_;
    bool planes_;
    std::vector<Table> tables_;
    std::vector<std::uint8_t> set_;  // the tile set in order
    std::vector<int> acting_;
    SeatView view_;
    std::int64_t hands_ = 0;
};

}  // namespace chuanma
