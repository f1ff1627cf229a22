// The refusal of a decision that is not legal (chuanma.engine.legal.refusal): each rule that
// allows also refuses, the rule that would have allowed the decision saying why.
#include "refusals.hpp"

#include <algorithm>
#include <vector>

#include "actions.hpp"
#include "reducer.hpp"
#include "reducer_facts.hpp"

namespace chuanma {
namespace {

Refusal illegal(RefusalRule rule) { return Refusal{RefusalCode::kIllegalAction, rule}; }

}  // namespace

Refusal Reducer::refusal(int seat, int action) const {
    const Phase phase = st_.phase;
    const bool window = phase == Phase::kClaim || phase == Phase::kRob;
    const int what = window ? st_.window.tile : kNoTile;
    if (phase == Phase::kEnd) return Refusal{RefusalCode::kHandOver, RefusalRule::kHandOver};
    const std::vector<int>& now = legal(seat);
    std::vector<int> acting;
    to_act(acting);
    if (std::find(acting.begin(), acting.end(), seat) == acting.end()) {
        Refusal r{RefusalCode::kNotYourTurn, RefusalRule::kOthersTurn, seat};
        if (phase == Phase::kExchange || phase == Phase::kVoid) r.rule = RefusalRule::kAlreadyChosen;
        else if (window) {
            r.rule = st_.seats[seat].claim >= 0 ? RefusalRule::kAlreadyAnswered : RefusalRule::kNothingToClaim;
            r.tile = what;
        } else {
            r.current = st_.current;
        }
        return r;
    }
    if (now.size() == 1 && now[0] == kHuAt)
        return Refusal{RefusalCode::kMustWin, window ? RefusalRule::kMustWinOnClaim : RefusalRule::kMustWinOnDraw, -1,
                       what};
    const Seat& s = st_.seats[seat];
    Refusal r = illegal(RefusalRule::kChooseOnTurn);
    r.action = action;
    const int t = action < kChowAt ? action % 34 : action < kHuAt ? chow_low(action) : kNoTile;
    const bool no_room = !kong_allowed();
    const RefusalRule room = st_.rules.no_kong_in_last_four ? RefusalRule::kNoKongLastFour : RefusalRule::kNoKongEmptyWall;
    if (phase == Phase::kExchange) {
        r.rule = action >= kExchangeAt ? RefusalRule::kBadExchange : RefusalRule::kExchangeFirst;
        return r;
    }
    if (phase == Phase::kVoid) {
        r.rule = RefusalRule::kVoidFirst;
        r.choices = true;
        return r;
    }
    if (window) {
        r.tile = what;
        const bool pong = action >= kPongAt && action < kKongAt, kong = action >= kKongAt && action < kChowAt;
        if (action == kHuAt && (s.banned & bit(what))) r.rule = RefusalRule::kPassedWin;
        else if (action == kHuAt && s.bar >= 0) {
            r.rule = RefusalRule::kWinBar;
            r.bar = s.bar;
        } else if (pong && (s.pong_ban & bit(what))) r.rule = RefusalRule::kPassedPong;
        else if (kong && no_room) r.rule = room;
        else if ((pong || kong) && s.void_suit >= 0 && suit_of(t) == s.void_suit) r.rule = RefusalRule::kVoidClaim;
        else if (action >= kChowAt && action < kHuAt && !st_.rules.has_chow()) r.rule = RefusalRule::kNoChow;
        else if (action >= kChowAt && action < kHuAt && what >= 27) r.rule = RefusalRule::kHonourChow;
        else if (action >= kChowAt && action < kHuAt && seat != (st_.window.from + 1) % kSeats) {
            r.rule = RefusalRule::kChowFromLeft;
            r.seat = (seat + 3) % kSeats;
        } else {
            r.rule = RefusalRule::kChooseOnClaim;
            r.choices = true;
        }
        return r;
    }
    // the seat's own turn
    const bool after_pong = st_.turn.after_pong;
    r.tile = t;
    if (action == kPassAt) r.rule = RefusalRule::kNothingToPass;
    else if (action >= kPongAt && action < kKongAt) r.rule = RefusalRule::kPongOnTurn;
    else if (action >= kChowAt && action < kHuAt) r.rule = RefusalRule::kChowOnTurn;
    else if (action < kPongAt) {
        if (!after_pong && st_.locked[seat] && s.drawn >= 0) {
            r.rule = RefusalRule::kLockedDiscard;
            r.tile = s.drawn;
        } else if (!s.hand[t]) {
            r.rule = RefusalRule::kNotHeld;
        } else if (s.holds_void()) {
            r.rule = RefusalRule::kVoidDiscardFirst;
            for (int x = 9 * s.void_suit; x < 9 * s.void_suit + 9; ++x)
                if (s.hand[x]) r.tiles |= bit(x);
        }
    } else if (action == kHuAt) {
        if (after_pong) r.rule = RefusalRule::kAfterPong;
        else if (s.drawn >= 0 && (s.banned & bit(s.drawn))) {
            r.rule = RefusalRule::kPassedSelfWin;
            r.tile = s.drawn;
        } else if (s.holds_void()) r.rule = RefusalRule::kHoldsVoid;
        else r.rule = RefusalRule::kNotAWin;
    } else if (action >= kKongAt && action < kChowAt) {
        if (after_pong) r.rule = RefusalRule::kAfterPong;
        else if (no_room) r.rule = room;
        else if (s.void_suit >= 0 && suit_of(t) == s.void_suit) r.rule = RefusalRule::kVoidKong;
        else if (st_.locked[seat]) r.rule = RefusalRule::kLockedKong;
        else r.rule = RefusalRule::kNoKong;
    }
    r.choices = r.rule == RefusalRule::kChooseOnTurn;
    return r;
}

}  // namespace chuanma
