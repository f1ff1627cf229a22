// The distance classes the build generates (gen_tables) and the extension embeds.
#pragma once

#include <cstdint>

#include "tables.hpp"

namespace chuanma::embedded {

extern const std::uint8_t suit_class[];  // by base-5 code of nine counts
extern const Distances suit_rows[];
extern const int suit_classes;
extern const std::uint8_t honour_class[];  // by base-5 code of seven counts
extern const Distances honour_rows[];
extern const int honour_classes;

}  // namespace chuanma::embedded
