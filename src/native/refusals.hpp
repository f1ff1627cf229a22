// Why a decision is refused (chuanma.engine.legal.refusal): a stable code for programs, the rule
// that refuses it and the facts its wording names. The wording itself is data of the Python side
// (chuanma.engine.refusal_text): it only formats these facts.
#pragma once

#include <cstdint>

namespace chuanma {

enum class RefusalCode : std::uint8_t { kHandOver, kNotYourTurn, kMustWin, kIllegalAction };

// The rule that refuses, in the order of chuanma.engine.refusal_text.RULES.
enum class RefusalRule : std::uint8_t {
    kHandOver, kAlreadyChosen, kAlreadyAnswered, kNothingToClaim, kOthersTurn, kMustWinOnClaim, kMustWinOnDraw,
    kBadExchange, kExchangeFirst, kVoidFirst, kPassedWin, kWinBar, kPassedPong, kNoKongLastFour, kNoKongEmptyWall,
    kVoidClaim, kNoChow, kHonourChow, kChowFromLeft, kChooseOnClaim, kNothingToPass, kPongOnTurn, kChowOnTurn,
    kLockedDiscard, kNotHeld, kVoidDiscardFirst, kAfterPong, kPassedSelfWin, kHoldsVoid, kNotAWin, kVoidKong,
    kLockedKong, kNoKong, kChooseOnTurn,
};

// The facts a refusal names (-1 / 0: not named): a seat, a tile, the fan a win must beat, whose
// turn it is, tiles (a bit by tile), the action refused (-1 when it is not the seat's to
// take); `choices`: it names the seat's legal actions.
struct Refusal {
    RefusalCode code;
    RefusalRule rule;
    int seat = -1, tile = -1, bar = -1, current = -1;
    std::uint64_t tiles = 0;
    int action = -1;
    bool choices = false;
};

}  // namespace chuanma
