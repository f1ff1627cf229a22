// 逃跑 (RULES §6): a seat leaves the table.
#include <algorithm>

#include "actions.hpp"
#include "reducer.hpp"
#include "reducer_facts.hpp"

namespace chuanma {

// A seat that has won leaves without stopping the hand (血流: it stops playing); any other leaver
// ends it, paying each other seat that has not won 16 base (in the last four tiles that seat's
// 查大叫 amount if higher) under escape_penalty.
bool Reducer::leave(int seat) {
    if (seat < 0 || seat >= kSeats || finished() || st_.left[seat]) return false;
    legal_known_ = 0;
    st_.decisions.push_back({seat, kLeaveAction});
    ++st_.version;
    st_.left[seat] = true;
    const int seq = static_cast<int>(st_.events.size());
    emit(EventType::kLeave, seat, kNoTile, -1, st_.remaining());
    if (st_.out[seat]) return true;
    if (st_.rules.winners_stay() && st_.locked[seat]) {
        winner_leaves(seat);
        return true;
    }
    if (st_.rules.escape_penalty) escape_payments(seat, seq);
    end(EndReason::kEscape);
    return true;
}

void Reducer::winner_leaves(int seat) {
    st_.out[seat] = true;
    if (hand_over()) {
        end_over();
        return;
    }
    const bool window = st_.phase == Phase::kClaim || st_.phase == Phase::kRob;
    if (st_.phase == Phase::kRob && st_.window.from == seat) {
        // its added kong is withdrawn: the next seat still playing draws
        close_window();
        begin_turn(seat);
        draw_due(next_active(seat));
    } else if (window && st_.seats[seat].asked) {
        st_.seats[seat].claim = kPassAt;  // whatever it answered, it claims nothing
    } else if (st_.phase == Phase::kTurn && st_.current == seat) {
        begin_turn(seat);
        draw_due(next_active(seat));
    } else {
        return;
    }
    run();
}

// 查大叫 value of the seat's hand; in the middle of its turn, the best over the discards it could make.
int Reducer::best_static_fan(int seat) {
    Seat& s = st_.seats[seat];
    if (s.tiles % 3 == 1) return static_fan(seat);
    int best = -1;
    for (int t = 0; t < 34; ++t) {
        if (!s.hand[t]) continue;
        s.add(t, -1);
        best = std::max(best, static_fan(seat));
        s.add(t, 1);
    }
    return best;
}

void Reducer::escape_payments(int seat, int seq) {
    for (int i = 0; i < 3; ++i) {
        const int s = after(seat, i);
        if (st_.won[s] || st_.left[s]) continue;
        std::int64_t amount = 16;
        if (st_.remaining() <= kLastFour && !st_.seats[s].holds_void()) {
            const int fan = best_static_fan(s);
            if (fan >= 0) amount = std::max(amount, multiplier(fan));
        }
        pay(seat, s, amount, Reason::kEscape, seq);
    }
}

}  // namespace chuanma
