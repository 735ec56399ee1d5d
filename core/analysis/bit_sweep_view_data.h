// What the bit-width sweep view draws, derived from a BitSweep without maths in the widget:
// the measured and theoretical SQNR and MSE per width, the textbook 6.02·b (+ 1.76 dB for a
// full-scale sine) line, the bounds of the finite values (for the axes), the closed form the
// theory follows when it is one, and the example row its caption describes. Pure C++.
#pragma once

#include <vector>

#include "core/analysis/bit_sweep.h"

namespace qs::analysis {

// The textbook SQNR of 2^b cells of width range/2^b: 20·log10(2^b), + 10·log10(1.5)
// (1.76 dB) for a full-scale sine.
double textbookSqnrDb(int bits, DataKind kind);

struct BitSweepCurves {
    std::vector<double> bits;
    std::vector<double> sqnr_db, theory_sqnr_db, textbook_sqnr_db;
    std::vector<double> mse, theory_mse;  // theory_mse = Δ²/12
    // Bounds of the finite SQNR values (measured and theory) and of the positive, finite MSE
    // values (measured and theory); lo > hi when there are none.
    double sqnr_lo = 1e300, sqnr_hi = -1e300;
    double mse_lo = 1e300, mse_hi = 0;
};
BitSweepCurves bitSweepCurves(const BitSweep& sweep);

// Uniform data (and a full-scale sine) over a range spanned end to end by L levels gives
// 20·log10(L − 1) (+ 1.76 dB for the sine). When every row has L = 2^b − k + 1 and its theory
// is that closed form (within 0.01 dB), the theory reads 20·log10(2^b − k): returns k;
// -1 when the rows do not follow that form or the data is measured (DataKind::Other).
int theoryLevelOffset(const BitSweep& sweep);

// The row nearest 8 bits (the first of equals); the sweep must have rows.
const BitSweepRow& exampleRow(const BitSweep& sweep);

// Whether the sweep varies TPUSimulatedQuantization's num_buckets (b = log2(num_buckets)).
bool isTpuSweep(const BitSweep& sweep);

}  // namespace qs::analysis
