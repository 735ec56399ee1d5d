#include "core/analysis/bit_sweep_view_data.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace qs::analysis {

namespace {

double sineBonusDb(DataKind kind) { return kind == DataKind::Sine ? 10.0 * std::log10(1.5) : 0.0; }

}  // namespace

double textbookSqnrDb(int bits, DataKind kind) {
    return 20.0 * std::log10(std::ldexp(1.0, bits)) + sineBonusDb(kind);
}

BitSweepCurves bitSweepCurves(const BitSweep& s) {
    BitSweepCurves c;
    for (const auto& r : s.rows) {
        const double theoryMse = r.step * r.step / 12.0;
        c.bits.push_back(r.bits);
        c.sqnr_db.push_back(r.sqnr_db);
        c.theory_sqnr_db.push_back(r.theory_sqnr_db);
        c.textbook_sqnr_db.push_back(textbookSqnrDb(r.bits, s.kind));
        c.mse.push_back(r.mse);
        c.theory_mse.push_back(theoryMse);
        for (double v : {r.sqnr_db, r.theory_sqnr_db})
            if (std::isfinite(v)) c.sqnr_lo = std::min(c.sqnr_lo, v), c.sqnr_hi = std::max(c.sqnr_hi, v);
        for (double v : {r.mse, theoryMse})
            if (v > 0 && std::isfinite(v)) c.mse_lo = std::min(c.mse_lo, v), c.mse_hi = std::max(c.mse_hi, v);
    }
    return c;
}

int theoryLevelOffset(const BitSweep& s) {
    if (s.rows.empty() || s.kind == DataKind::Other) return -1;
    const double sine = sineBonusDb(s.kind);
    const auto& first = s.rows.front();
    const int64_t k = (int64_t{1} << first.bits) - first.levels_in_range + 1;
    for (const auto& r : s.rows) {
        if ((int64_t{1} << r.bits) - r.levels_in_range + 1 != k) return -1;
        const double closed = 20.0 * std::log10(static_cast<double>(r.levels_in_range - 1)) + sine;
        if (!(std::abs(closed - r.theory_sqnr_db) < 0.01)) return -1;
    }
    return static_cast<int>(k);
}

const BitSweepRow& exampleRow(const BitSweep& s) {
    return *std::min_element(s.rows.begin(), s.rows.end(), [](const auto& a, const auto& b) {
        return std::abs(a.bits - 8) < std::abs(b.bits - 8);
    });
}

bool isTpuSweep(const BitSweep& s) {
    return !s.rows.empty() && opDescriptor(s.rows.front().spec.op).family == OpFamily::TpuSimulated;
}

}  // namespace qs::analysis
