#include "actions.hpp"

#include <vector>

namespace chuanma {
namespace {

struct ExchangeTable {
    std::array<std::array<int, 3>, kExchanges> tiles{};
    std::vector<int> index = std::vector<int>(27 * 27 * 27, -1);
    ExchangeTable() {
        int i = 0;  // combinations with replacement of the 27 suited tiles, one suit, in order
        for (int a = 0; a < 27; ++a)
            for (int b = a; b < 27; ++b)
                for (int c = b; c < 27; ++c)
                    if (a / 9 == c / 9) {
                        tiles[i] = {a, b, c};
                        index[(a * 27 + b) * 27 + c] = kExchangeAt + i;
                        ++i;
                    }
    }
};

const ExchangeTable& table() {
    static const ExchangeTable t;
    return t;
}

}  // namespace

const std::array<std::array<int, 3>, kExchanges>& exchange_tiles() { return table().tiles; }

int exchange_index(int a, int b, int c) { return table().index[(a * 27 + b) * 27 + c]; }

}  // namespace chuanma
