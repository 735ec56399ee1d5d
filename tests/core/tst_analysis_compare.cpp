// The comparisons moved out of the UI: computeComparison (the comparison tab and
// `quantscope-cli analyze compare`) and the Frameworks tab's setup, comparison and examples.
#include <QtTest>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "core/analysis/comparison.h"
#include "core/analysis/explorer.h"
#include "core/analysis/framework_compare.h"
#include "core/data/generators.h"

using namespace qs;
using namespace qs::analysis;

class TstAnalysisCompare : public QObject {
    Q_OBJECT
private slots:
    // Each configuration's numbers are the explorer's; the curves share one window that
    // holds every configuration's own curve, the error histograms one span (the largest step).
    void comparisonUsesTheExplorersNumbersOnASharedWindow() {
        const data::Dataset d = data::normal(20000, 7);
        const std::vector<QuantSpec> specs{qdq(8), qdq(4, -2.0f, 2.0f)};
        auto r = computeComparison(d.ref(), specs, Exec{2});
        QVERIFY(bool(r));
        QCOMPARE(r->entries.size(), size_t{2});
        double widest = 0;
        for (size_t i = 0; i < specs.size(); ++i) {
            const ComparisonEntry& e = r->entries[i];
            QVERIFY(!e.failed());
            auto alone = computeExplorer(specs[i], d.ref());
            QVERIFY(bool(alone));
            QCOMPARE(e.stats.mse, alone->stats.mse);
            QCOMPARE(e.stats.fraction_clipped, alone->stats.fraction_clipped);
            QCOMPARE(e.stats.distinct_levels, alone->stats.distinct_levels);
            QCOMPARE(e.slice.output_min, alone->clip_lo);
            QCOMPARE(e.slice.step, alone->step);
            QCOMPARE(e.slices, int64_t{1});
            QVERIFY(r->window_first <= alone->curve.x_first && r->window_last >= alone->curve.x_last);
            QCOMPARE(e.curve.x_first, r->window_first);
            QCOMPARE(e.curve.x_last, r->window_last);
            widest = std::max(widest, std::abs(e.slice.step));
        }
        QCOMPARE(r->error_span, widest);
    }

    // Each configuration's error histogram counts its own errors x - Q(x) over the shared
    // span: every value once (in a bin or past the span), the counts those of the
    // explorer's output; it was empty (the outputs were not kept) in the tab and the CLI.
    void errorHistogramsCountEveryConfigurationsErrors() {
        const data::Dataset d = data::normal(20000, 11);
        const std::vector<QuantSpec> specs{qdq(8), qdq(4, -2.0f, 2.0f)};
        auto r = computeComparison(d.ref(), specs, Exec{2});
        QVERIFY(bool(r));
        for (size_t i = 0; i < specs.size(); ++i) {
            const Histogram& h = r->entries[i].error_hist;
            QVERIFY(h.bins() > 0);
            QCOMPARE(h.lo, -r->error_span);
            QCOMPARE(h.hi, r->error_span);
            auto alone = computeExplorer(specs[i], d.ref());
            QVERIFY(bool(alone));
            std::vector<float> errors(d.values.size());
            for (size_t k = 0; k < errors.size(); ++k) errors[k] = d.values[k] - alone->output[k];
            auto expected = histogram(errors, -r->error_span, r->error_span, h.bins());
            QVERIFY(bool(expected));
            QCOMPARE(h.counts, expected->counts);
            QCOMPARE(h.underflow, expected->underflow);
            QCOMPARE(h.overflow, expected->overflow);
            int64_t inBins = 0;
            for (int64_t c : h.counts) inBins += c;
            QCOMPARE(inBins + h.underflow + h.overflow + h.nan_count, static_cast<int64_t>(d.values.size()));
            QVERIFY(inBins > static_cast<int64_t>(d.values.size()) / 2);  // most errors are within a step
        }
    }

    void aRejectedConfigurationCarriesItsErrorAndTheOthersRun() {
        const data::Dataset d = data::uniform(1000, 3);
        const std::vector<QuantSpec> specs{qdq(8, 1.0f, -1.0f), qdq(8)};
        auto r = computeComparison(d.ref(), specs);
        QVERIFY(bool(r));
        QVERIFY(r->entries[0].failed());
        QCOMPARE(r->entries[0].failure.kind, std::string("InvalidArgument"));
        QVERIFY(r->entries[0].errorText().rfind("InvalidArgument: ", 0) == 0);
        QVERIFY(!r->entries[1].failed());
        QVERIFY(!r->entries[1].curve.x.empty());
        QCOMPARE(r->entries[1].errorText(), std::string());
    }

    void comparisonWithoutDataIsAnError() {
        const std::vector<float> none;
        auto r = computeComparison(TensorRef<float>{none, Shape{0}}, {qdq(8)});
        QVERIFY(!r);
        QCOMPARE(r.error().message, std::string("comparison: there is no data"));
    }

    void frameworkSetupFollowsTheSpec() {
        FrameworkSetup given = frameworkSetupFor(qdq(6, -0.5f, 0.7f), -3.0f, 3.0f, false);
        QCOMPARE(given.schemes.size(), size_t{5});
        QCOMPARE(given.schemes.front().kind, SchemeKind::Tf);
        QCOMPARE(given.min, -0.5f);
        QCOMPARE(given.max, 0.7f);
        QCOMPARE(given.bits, 6);
        QVERIFY(given.range_given);

        QuantSpec fromData = qdq(8);
        fromData.range_source = RangeSource::FromData;
        FrameworkSetup data = frameworkSetupFor(fromData, -3.0f, 2.5f, true);
        QCOMPARE(data.min, -3.0f);
        QCOMPARE(data.max, 2.5f);
        QVERIFY(!data.range_given);
        QCOMPARE(data.schemes.size(), size_t{6});
        QCOMPARE(data.schemes.back().kind, SchemeKind::ScaledR14);

        QuantSpec tpu;
        tpu.op = QuantOp::TpuSimulatedQuantization;
        tpu.num_buckets = int64_t{1} << 20;
        FrameworkSetup wide = frameworkSetupFor(tpu, -1.0f, 1.0f, false);
        QCOMPARE(wide.op_bits, 20);
        QCOMPARE(wide.bits, 16);  // clamped to what the schemes take
    }

    // One example per pair and reason, each an element where that pair's outputs differ.
    void frameworkExamplesAreDifferingElements() {
        const data::Dataset d = data::uniform(20000, 5, -1.0, 0.7);
        const FrameworkSetup setup = frameworkSetupFor(qdq(8, -1.0f, 0.7f), -1.0f, 0.7f, false);
        auto r = compareFrameworks(d.values, setup);
        QVERIFY(bool(r));
        QCOMPARE(r->comparison.outputs.size(), setup.schemes.size());
        QVERIFY(!r->examples.empty());
        std::set<std::string> seen;
        for (const DiffExample& e : r->examples) {
            QVERIFY(e.text.find(" vs ") != std::string::npos);
            QVERIFY(seen.insert(e.text).second);
            QVERIFY(e.step > 0);
            bool differs = false;  // some pair disagrees at x
            for (size_t i = 0; i < d.values.size() && !differs; ++i) {
                if (d.values[i] != static_cast<float>(e.x)) continue;
                for (size_t a = 0; a < r->comparison.outputs.size(); ++a)
                    for (size_t b = a + 1; b < r->comparison.outputs.size(); ++b)
                        differs |= r->comparison.outputs[a].output[i] != r->comparison.outputs[b].output[i];
            }
            QVERIFY2(differs, e.text.c_str());
        }
        int64_t reasons = 0;
        for (const PairDiff& p : r->comparison.diffs)
            for (int64_t n : p.by_reason) reasons += n > 0;
        QCOMPARE(static_cast<int64_t>(r->examples.size()), reasons);
    }

    void aBadSetupIsAnError() {
        FrameworkSetup setup = frameworkSetupFor(qdq(8), -1.0f, 1.0f, false);
        setup.min = 2.0f;  // min > max
        setup.max = 1.0f;
        const std::vector<float> values{0.5f};
        QVERIFY(!compareFrameworks(values, setup));
        QVERIFY(!prepareSchemes(setup));
    }

private:
    // QuantizeAndDequantizeV2 with a given range, rounding half to even.
    static QuantSpec qdq(int bits, float lo = -1.0f, float hi = 1.0f) {
        QuantSpec s;
        s.op = QuantOp::QuantizeAndDequantizeV2;
        s.num_bits = bits;
        s.round_mode = RoundMode::HalfToEven;
        s.min_range = lo;
        s.max_range = hi;
        return s;
    }
};

QTEST_GUILESS_MAIN(TstAnalysisCompare)
#include "tst_analysis_compare.moc"
