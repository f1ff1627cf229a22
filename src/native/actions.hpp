// The fixed action space (chuanma.engine.indices): every decision as one index.
#pragma once

#include <array>

namespace chuanma {

constexpr int kDiscardAt = 0;
constexpr int kPongAt = 34;
constexpr int kKongAt = 68;
constexpr int kChowAt = 102;
constexpr int kHuAt = 123;
constexpr int kPassAt = 124;
constexpr int kVoidAt = 125;
constexpr int kExchangeAt = 128;
constexpr int kExchanges = 495;
constexpr int kActionCount = kExchangeAt + kExchanges;

inline int chow_index(int low) { return kChowAt + low / 9 * 7 + low % 9; }
inline int chow_low(int index) { return (index - kChowAt) / 7 * 9 + (index - kChowAt) % 7; }

// The three sorted tiles of one suit given in an exchange, by index from kExchangeAt.
const std::array<std::array<int, 3>, kExchanges>& exchange_tiles();
// The index of sorted tiles a <= b <= c of one suit.
int exchange_index(int a, int b, int c);

}  // namespace chuanma
