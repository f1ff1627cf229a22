// The spike's kernel in C++17 with nanobind: a win check over 34 tile counts and a table stepped
// draw, win check, discard (see benchmarks/bench_toolchains.py).
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

namespace {

constexpr int KINDS = 34, SUITED = 27, WALL = 108;
using Counts = std::array<std::uint8_t, KINDS>;

bool sets(Counts &c, int i) {
    while (i < KINDS && c[i] == 0) i++;
    if (i == KINDS) return true;
    if (c[i] >= 3) {
        c[i] -= 3;
        bool r = sets(c, i);
        c[i] += 3;
        if (r) return true;
    }
    if (i < SUITED && i % 9 < 7 && c[i + 1] && c[i + 2]) {
        c[i]--; c[i + 1]--; c[i + 2]--;
        bool r = sets(c, i);
        c[i]++; c[i + 1]++; c[i + 2]++;
        if (r) return true;
    }
    return false;
}

bool is_win(const std::uint8_t *counts) {
    Counts c;
    int n = 0, odd = 0;
    std::memcpy(c.data(), counts, KINDS);
    for (int i = 0; i < KINDS; i++) { n += c[i]; odd |= c[i] & 1; }
    if (n % 3 != 2) return false;
    if (n == 14 && !odd) return true;  // seven pairs; a four is two pairs
    for (int i = 0; i < KINDS; i++) {
        if (c[i] < 2) continue;
        c[i] -= 2;
        bool r = sets(c, 0);
        c[i] += 2;
        if (r) return true;
    }
    return false;
}

struct Table {
    std::array<Counts, 4> hands{};
    std::array<std::uint8_t, WALL> wall{};
    int pos = 0, turn = 0;
    std::uint64_t rng;

    explicit Table(std::uint64_t seed) : rng(seed ^ 0x9E3779B97F4A7C15ull) { reset(); }

    std::uint64_t next_random() {
        rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
        return rng;
    }

    void reset() {
        for (int i = 0; i < WALL; i++) wall[i] = static_cast<std::uint8_t>(i / 4);
        for (int i = WALL - 1; i > 0; i--) std::swap(wall[i], wall[next_random() % static_cast<std::uint64_t>(i + 1)]);
        hands = {};
        pos = 0;
        for (auto &h : hands)
            for (int k = 0; k < 13; k++) h[wall[pos++]]++;
        turn = 0;
    }

    int step(long action) {
        Counts &h = hands[turn];
        h[wall[pos++]]++;
        if (is_win(h.data())) { reset(); return 1; }
        int k = 0;
        if (action >= 0 && action < KINDS && h[action]) k = static_cast<int>(action);
        else while (h[k] == 0) k++;
        h[k]--;
        turn = (turn + 1) & 3;
        if (pos == WALL) { reset(); return -1; }
        return 0;
    }
};

// ---- glue: the Python bindings ----

namespace nb = nanobind;
using Actions = nb::ndarray<const std::int32_t, nb::numpy, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Observations = nb::ndarray<std::uint8_t, nb::numpy, nb::shape<-1, KINDS>, nb::c_contig, nb::device::cpu>;
using Rewards = nb::ndarray<std::int8_t, nb::numpy, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

struct Batch {
    std::vector<Table> tables;

    Batch(std::size_t n, std::uint64_t seed) {
        if (n < 1) throw nb::value_error("a batch needs at least one table");
        tables.reserve(n);
        for (std::size_t i = 0; i < n; i++) tables.emplace_back(seed + i);
    }

    void step(Actions actions, Observations obs, Rewards rewards) {
        std::size_t n = tables.size();
        if (actions.shape(0) != n || obs.shape(0) != n || rewards.shape(0) != n)
            throw nb::value_error("arrays of the batch's size expected");
        const std::int32_t *a = actions.data();
        std::uint8_t *o = obs.data();
        std::int8_t *r = rewards.data();
        nb::gil_scoped_release release;
        for (std::size_t i = 0; i < n; i++) {
            Table &t = tables[i];
            r[i] = static_cast<std::int8_t>(t.step(a[i]));
            std::memcpy(o + i * KINDS, t.hands[t.turn].data(), KINDS);
        }
    }
};

}  // namespace

NB_MODULE(kernel_cpp, m) {
    m.def("is_win", [](nb::bytes counts) {
        if (counts.size() != KINDS) throw nb::value_error("is_win needs bytes of 34 tile counts");
        return is_win(reinterpret_cast<const std::uint8_t *>(counts.c_str()));
    }, "Whether 34 tile counts are a winning hand.");
    nb::class_<Table>(m, "Table")
        .def(nb::init<std::uint64_t>())
        .def("step", &Table::step, "Draw, check the win, discard; 1 a win, -1 a drawn hand, else 0.");
    nb::class_<Batch>(m, "Batch")
        .def(nb::init<std::size_t, std::uint64_t>())
        .def("step", &Batch::step, "Step every table; hands and rewards into the arrays.");
}
