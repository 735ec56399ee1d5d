#include "core/tpu/lookup.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/tpu/sharding.h"

namespace qs::tpu {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

constexpr int64_t kMaxOutputValues = int64_t{1} << 28;  // 1 GiB of float32

Error noParams() {
    return valueError("Length of params is currently 0. Need at least one param.");
}

// GatherV2's bounds message.
Error gatherError(int64_t position, int64_t id, int64_t rows) {
    return invalidArgument("indices[" + str(position) + "] = " + str(id) + " is not in [0, " +
                           str(rows) + ")");
}

void copyRow(std::span<const float> src, std::span<float> dst) {
    for (size_t c = 0; c < src.size(); ++c) dst[c] = src[c];
}

// One segment of the sparse lookup: output row `out` combines entries [start, end).
struct Segment {
    int64_t out, start, end;
};

// Walks the segment ids the way TF's (Sparse)SegmentReduction kernels do, with their checks
// in their order. `checkEntry(k)` is the per-entry id check of the sparse kernel (fast path).
template <typename CheckEntry>
Result<std::vector<Segment>> walkSegments(std::span<const int64_t> seg, CheckEntry&& checkEntry) {
    std::vector<Segment> segments;
    const int64_t n = static_cast<int64_t>(seg.size());
    if (n == 0) return segments;
    const int64_t outputRows = seg[static_cast<size_t>(n - 1)] + 1;
    if (outputRows <= 0) return invalidArgument("segment ids must be >= 0");
    int64_t start = 0, end = 1, out = seg[0];
    while (true) {
        int64_t next = 0;
        if (end < n) {
            next = seg[static_cast<size_t>(end)];
            if (next == out) {
                ++end;
                continue;
            }
            if (!(out < next)) return invalidArgument("segment ids are not increasing");
        }
        if (out < 0 || out >= outputRows)
            return invalidArgument("Segment id " + str(out) + " out of range [0, " +
                                   str(outputRows) +
                                   "), possibly because 'segment_ids' input is not sorted.");
        for (int64_t k = start; k < end; ++k)
            if (auto st = checkEntry(k); !st) return st.error();
        segments.push_back({out, start, end});
        if (end >= n) break;
        start = end;
        ++end;
        out = next;
    }
    return segments;
}

// The reductions below work on one segment's gathered rows, contiguous in `g` (n rows of
// `cols`), and loop over rows outside and columns inside so the column loop vectorizes.
// Every output column still sees exactly the float32 operations of TF's kernels, in their
// order (the per-column order is all that matters for the result).
enum class Combiner { Sum, Mean, SqrtN };

// SparseSegmentSum/Mean/SqrtN's ReduceImpl for one segment of n >= 1 gathered rows:
// the first r rows (r = n & 7, 8 for r == 0, 9 for r == 1) summed left to right, times
// 1/n (1/sqrt(n)) when n < 10; then blocks of 8 added (block sum first); division by
// n (sqrt(n)) at the end when n >= 10. All float32.
void reduceUnweighted(const float* g, int64_t n, int64_t cols, Combiner combiner, float* out,
                      float* block) {
    auto row = [&](int64_t k) { return g + k * cols; };
    if (n == 1) {
        std::copy_n(row(0), cols, out);
        return;
    }
    const bool mean = combiner == Combiner::Mean, sqrtn = combiner == Combiner::SqrtN;
    float m = 1.0f;
    if (mean && n < 10) m = static_cast<float>(n);
    if (sqrtn && n < 10) m = static_cast<float>(std::sqrt(static_cast<double>(n)));
    const float scale = 1.0f / m;
    int64_t head = n & 7;
    if (head == 0) head = 8;
    else if (head == 1) head = 9;
    std::copy_n(row(0), cols, out);
    for (int64_t k = 1; k < head; ++k) {
        const float* x = row(k);
        for (int64_t c = 0; c < cols; ++c) out[c] = out[c] + x[c];
    }
    for (int64_t c = 0; c < cols; ++c) out[c] = out[c] * scale;
    for (int64_t k = head; k < n; k += 8) {
        std::copy_n(row(k), cols, block);
        for (int64_t j = 1; j < 8; ++j) {
            const float* x = row(k + j);
            for (int64_t c = 0; c < cols; ++c) block[c] = block[c] + x[c];
        }
        for (int64_t c = 0; c < cols; ++c) out[c] = out[c] + block[c];
    }
    if (n >= 10 && (mean || sqrtn)) {
        const float d = mean ? static_cast<float>(n) : static_cast<float>(std::sqrt(static_cast<double>(n)));
        for (int64_t c = 0; c < cols; ++c) out[c] = out[c] / d;
    }
}

// SegmentSum of x over a segment: a single entry is copied, otherwise Eigen's reduction
// accumulates from +0 left to right.
template <typename Get>
float segmentSum(int64_t n, Get&& x) {
    if (n == 1) return x(0);
    float acc = 0.0f;
    for (int64_t k = 0; k < n; ++k) acc = acc + x(k);
    return acc;
}

float divNoNan(float x, float y) { return y == 0.0f ? 0.0f : x / y; }

// embeddings *= weights; segment_sum; then div_no_nan by segment_sum(w) (mean) or
// sqrt(segment_sum(pow(w, 2))) (sqrtn). pow(w, 2) is taken as w * w: both are the
// correctly rounded square. `w` are the segment's n weights.
void reduceWeighted(const float* g, const float* w, int64_t n, int64_t cols, Combiner combiner,
                    float* out) {
    float denom = 1.0f;
    if (combiner == Combiner::Mean) {
        denom = segmentSum(n, [&](int64_t k) { return w[k]; });
    } else if (combiner == Combiner::SqrtN) {
        denom = std::sqrt(segmentSum(n, [&](int64_t k) { return w[k] * w[k]; }));
    }
    if (n == 1) {
        for (int64_t c = 0; c < cols; ++c) out[c] = g[c] * w[0];
    } else {
        std::fill_n(out, cols, 0.0f);
        for (int64_t k = 0; k < n; ++k) {
            const float* x = g + k * cols;
            const float wk = w[k];
            for (int64_t c = 0; c < cols; ++c) out[c] = out[c] + x[c] * wk;
        }
    }
    if (combiner != Combiner::Sum)
        for (int64_t c = 0; c < cols; ++c) out[c] = divNoNan(out[c], denom);
}

// Runs fn(first, last) over the segments split into contiguous groups, one per thread,
// when there is enough work (each output row is independent, so the split cannot change
// a result).
template <typename Fn>
void forSegmentGroups(const Exec& exec, int64_t segments, int64_t values, Fn&& fn) {
    // The work is in values, the split in segments: as many threads as the values support
    // (kParallelMinPerThread each), so each thread gets segments / that many segments.
    const int64_t groups = std::max<int64_t>(1, values / kParallelMinPerThread);
    parallelFor(exec, segments, (segments + groups - 1) / groups, std::forward<Fn>(fn));
}

}  // namespace

Result<RowMatrix> embeddingLookup(std::span<const RowMatrix> shards, std::span<const int64_t> ids,
                                  std::string_view partition_strategy) {
    if (shards.empty()) return noParams();
    const int64_t n = static_cast<int64_t>(ids.size());
    if (shards.size() == 1) {  // a plain gather; the strategy is not even checked
        const RowMatrix& p = shards[0];
        RowMatrix out = RowMatrix::zeros(n, p.cols);
        for (int64_t i = 0; i < n; ++i) {
            const int64_t id = ids[static_cast<size_t>(i)];
            if (id < 0 || id >= p.rows) return gatherError(i, id, p.rows);
            copyRow(p.row(id), out.row(i));
        }
        return out;
    }
    auto strategy = partitionStrategyFromName(partition_strategy);
    if (!strategy) return strategy.error();
    const int64_t np = static_cast<int64_t>(shards.size());
    int64_t total = 0;
    for (int64_t p = 0; p < np; ++p) {
        const RowMatrix& s = shards[static_cast<size_t>(p)];
        if (s.cols != shards[0].cols)
            return invalidArgument("all shards must have rows of the same width: shard 0 has " +
                                   str(shards[0].cols) + " columns, shard " + str(p) + " has " +
                                   str(s.cols));
        total += s.rows;
    }
    auto mapping = ShardMapping::make(*strategy, total, np);
    if (!mapping) return mapping.error();

    // dynamic_partition (first bad partition in id order), then one gather per shard in
    // shard order, each over that shard's ids in their original order.
    std::vector<ShardRow> where(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        where[static_cast<size_t>(i)] = mapping->map(ids[static_cast<size_t>(i)]);
        const int64_t p = where[static_cast<size_t>(i)].shard;
        if (p < 0 || p >= np)
            return invalidArgument("partitions[" + str(i) + "] = " + str(p) + " is not in [0, " +
                                   str(np) + ")");
    }
    for (int64_t p = 0; p < np; ++p) {
        const int64_t rows = shards[static_cast<size_t>(p)].rows;
        int64_t j = 0;
        for (const ShardRow& sr : where) {
            if (sr.shard != p) continue;
            if (sr.row < 0 || sr.row >= rows) return gatherError(j, sr.row, rows);
            ++j;
        }
    }
    RowMatrix out = RowMatrix::zeros(n, shards[0].cols);
    for (int64_t i = 0; i < n; ++i) {
        const ShardRow& sr = where[static_cast<size_t>(i)];
        copyRow(shards[static_cast<size_t>(sr.shard)].row(sr.row), out.row(i));
    }
    return out;
}

Result<RowMatrix> embeddingLookupSparse(std::span<const RowMatrix> params, const SparseIds& sp,
                                        const std::optional<std::vector<float>>& sp_weights,
                                        const SparseLookupOptions& opt) {
    const std::string& combiner = opt.combiner;
    if (combiner != "mean" && combiner != "sqrtn" && combiner != "sum")
        return valueError("combiner must be one of 'mean', 'sqrtn' or 'sum', got " + combiner);
    const int64_t nnz = static_cast<int64_t>(sp.values.size());
    if (static_cast<int64_t>(sp.indices.size()) != nnz)
        return valueError("Dimensions " + str(static_cast<int64_t>(sp.indices.size())) + " and " +
                          str(nnz) + " are not compatible");
    if (sp_weights && static_cast<int64_t>(sp_weights->size()) != nnz)
        return valueError("Shapes (" + str(nnz) + ",) and (" +
                          str(static_cast<int64_t>(sp_weights->size())) + ",) are incompatible");
    if (params.empty()) return noParams();
    const int64_t cols = params[0].cols;

    // TF's fast path (one table, no weights) indexes params directly and checks ids inside
    // the segment kernel; otherwise it looks up the unique ids with embedding_lookup and
    // re-expands them. Either way entry k reads one row: rowOf(k).
    const bool fastPath = params.size() == 1 && !sp_weights;
    std::vector<int64_t> idx;
    RowMatrix uniqueRows;
    if (!fastPath) {
        std::vector<int64_t> unique;
        idx.resize(static_cast<size_t>(nnz));
        std::unordered_map<int64_t, int64_t> seen;
        for (int64_t k = 0; k < nnz; ++k) {
            const int64_t id = sp.values[static_cast<size_t>(k)];
            auto [it, inserted] = seen.try_emplace(id, static_cast<int64_t>(unique.size()));
            if (inserted) unique.push_back(id);
            idx[static_cast<size_t>(k)] = it->second;
        }
        auto rows = embeddingLookup(params, unique, opt.partition_strategy);
        if (!rows) return rows.error();
        uniqueRows = std::move(rows).value();
    }

    std::vector<int64_t> seg(static_cast<size_t>(nnz));
    for (int64_t k = 0; k < nnz; ++k) seg[static_cast<size_t>(k)] = sp.indices[static_cast<size_t>(k)][0];
    const RowMatrix& table = params[0];
    auto segments = walkSegments(seg, [&](int64_t k) -> Status {
        if (!fastPath) return okStatus();
        const int64_t id = sp.values[static_cast<size_t>(k)];
        if (id < 0 || id >= table.rows)
            return invalidArgument("Bad: indices[" + str(k) + "] == " + str(id) +
                                   " out of range [0, " + str(table.rows) + ")");
        return okStatus();
    });
    if (!segments) return segments.error();
    auto rowOf = [&](int64_t k) {
        return fastPath ? table.row(sp.values[static_cast<size_t>(k)])
                        : std::as_const(uniqueRows).row(idx[static_cast<size_t>(k)]);
    };

    const Combiner how = combiner == "sum" ? Combiner::Sum : combiner == "mean" ? Combiner::Mean
                                                                                : Combiner::SqrtN;
    std::optional<SimQuantF32> quant;
    if (opt.quantization) quant = prepareF32(*opt.quantization);
    const int64_t outRows = nnz == 0 ? 0 : seg.back() + 1;
    // The output is sized by the last example index: a hostile index (10^15) must be TF's
    // allocation failure, not a bad_alloc that ends the process.
    if (cols > 0 && outRows > kMaxOutputValues / cols)
        return Error{"ResourceExhausted", "OOM when allocating tensor with shape[" + str(outRows) + "," +
                                              str(cols) + "] and type float (more than 2^28 values)"};
    RowMatrix out = RowMatrix::zeros(outRows, cols);  // examples without ids stay 0
    RowMatrix* plain = quant ? opt.float_output : nullptr;
    if (plain) *plain = RowMatrix::zeros(outRows, cols);
    auto combine = [&](const float* rows, const Segment& s, float* o, float* block) {
        const int64_t n = s.end - s.start;
        if (sp_weights)
            reduceWeighted(rows, sp_weights->data() + s.start, n, cols, how, o);
        else
            reduceUnweighted(rows, n, cols, how, o, block);
    };
    // Per segment: gather its rows, quantize them as the TPU does (each gathered value, the
    // element formula of simulateQuantizationF32), combine. A segment's rows stay in cache
    // (and are combined unquantized first when the float activation is wanted too).
    forSegmentGroups(opt.exec, static_cast<int64_t>(segments->size()), nnz * cols,
                     [&](int64_t first, int64_t last) {
        std::vector<float> rows, block(static_cast<size_t>(cols));
        for (int64_t i = first; i < last; ++i) {
            const Segment& s = (*segments)[static_cast<size_t>(i)];
            const int64_t n = s.end - s.start;
            rows.resize(static_cast<size_t>(n * cols));
            for (int64_t k = 0; k < n; ++k) {
                const auto src = rowOf(s.start + k);
                float* dst = rows.data() + k * cols;
                if (quant && !plain)
                    for (int64_t c = 0; c < cols; ++c) dst[c] = simulateQuantizationF32(src[static_cast<size_t>(c)], *quant);
                else
                    std::copy(src.begin(), src.end(), dst);
            }
            if (plain) {
                combine(rows.data(), s, plain->row(s.out).data(), block.data());
                for (float& v : rows) v = simulateQuantizationF32(v, *quant);
            }
            combine(rows.data(), s, out.row(s.out).data(), block.data());
        }
    });
    return out;
}

}  // namespace qs::tpu
