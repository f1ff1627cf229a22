// The reducer's events in a compact form: a type and a few numbers (what each holds: EventType).
#pragma once

#include <cstdint>

namespace chuanma {

// Fields by type (seat -1: the table's; tile, from -1: none):
//   kStart a dealer, b wall size; kDeal seat; kDealDone a wall; kExchangeChosen seat, a exchange index;
//   kExchange a seats the tiles travel; kExchangeReceived seat, from, a exchange index; kVoidChosen
//   seat, a suit, b automatic; kVoids a the four suits (2 bits each); kDraw seat, tile, a wall, b
//   replacement | last_four << 1; kDiscard seat, tile, a wall, b automatic; kClaim seat, a action;
//   kPong seat, tile, from; kChow seat, tile (the lowest), from, a the tile claimed; kKong seat, tile,
//   from, a kind (KongKind), b late; kKongDeclared, kKongRobbed seat, tile; kHu seat, tile, from, a
//   situations (Situation) | robbed << 16 | forced << 17, b fan, value waits (a bit by tile); kPayment from the
//   payer, a payee | reason << 4 (Reason), b the event paid for, value amount; kLeave seat, a wall;
//   kExhausted a part |
//   pig << 4 | ready << 8 (a bit by seat), b 1 when anything is settled, value each seat's 查大叫 fan + 1 (0: none) in a byte by
//   seat; kEnd a reason (EndReason), b pig (a bit by seat).
enum class EventType : std::uint8_t {
    kStart, kDeal, kDealDone, kExchangeChosen, kExchange, kExchangeReceived, kVoidChosen, kVoids,
    kDraw, kDiscard, kClaim, kPong, kChow, kKong, kKongDeclared, kKongRobbed, kHu, kPayment, kLeave, kExhausted, kEnd,
};

// Why a payment is made (chuanma.engine.ledger.Reason, in order).
enum class Reason : std::uint8_t {
    kZimo, kDianpao, kQianggang, kKongExposed, kKongConcealed, kKongAdded, kCallTransfer, kFlowerPig, kChadajiao,
    kRefund, kEscape,
};

enum class EndReason : std::uint8_t { kThreeWon, kTooFewPlayers, kWon, kEscape, kExhausted };

struct Event {
    EventType type;
    std::int8_t seat = -1, tile = -1, from = -1;
    std::int32_t a = 0, b = 0;
    std::int64_t value = 0;
};

}  // namespace chuanma
