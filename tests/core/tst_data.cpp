// Over 500 lines on purpose: the three readers and the generators share the fixture writers and
// one error table.
// Data sources of the explorer: generators (determinism, statistics), the generator spec
// syntax (parsing, canonical form, every error), and the file readers (.npy, CSV, .vec)
// on fixture files written here byte by byte, including their errors and cancellation.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/data/generator_spec.h"
#include "core/data/generators.h"
#include "core/data/load_file.h"
#include "core/data/npy_reader.h"
#include "core/data/vec_reader.h"
#include "tests/core/sample_helpers.h"

using namespace qs::data;
using qs::Exec;
using qs::Shape;

namespace {

using namespace qs::testing;

QString errorOf(const qs::Result<Dataset>& r) {
    return r.ok() ? QString("(no error)") : QString::fromStdString(r.error().kind + ": " + r.error().message);
}

QString specError(std::string_view text) {
    auto r = parseGeneratorSpec(text);
    return r.ok() ? QString("(no error)") : QString::fromStdString(r.error().kind + ": " + r.error().message);
}

}  // namespace

class TstData : public QObject {
    Q_OBJECT

private slots:
    // ---- generators ------------------------------------------------------------------

    void deterministicAndThreadIndependent() {
        const int64_t n = 1'000'003;  // odd, several parallel chunks
        const auto all = [&](const Exec& e) {
            return std::vector<Dataset>{uniform(n, 5, -1, 1, e), normal(n, 5, 0, 1, e), laplace(n, 5, 0, 1, e),
                                        sine(n, 1, e), mixture(n, 5, 1, 0.01, 20, e)};
        };
        const auto one = all(Exec{1});
        for (int threads : {2, 3, 7}) {
            const auto many = all(Exec{threads});
            for (size_t k = 0; k < one.size(); ++k)
                QVERIFY2(sameBits(one[k].values, many[k].values), one[k].label.c_str());
        }
        QVERIFY(sameBits(normal(1000, 5).values, normal(1000, 5).values));
        QVERIFY(!sameBits(normal(1000, 5).values, normal(1000, 6).values));
        QVERIFY(!sameBits(uniform(1000, 5).values, uniform(1000, 6).values));
        QVERIFY(!sameBits(laplace(1000, 5).values, laplace(1000, 6).values));
        // A prefix does not depend on n: sample i is a function of (seed, i) only.
        const auto shortRun = normal(999, 5).values, longRun = normal(5000, 5).values;
        QVERIFY(std::equal(shortRun.begin(), shortRun.end(), longRun.begin()));
        QCOMPARE(one[1].shape, Shape{n});
        QCOMPARE(one[1].label, std::string("normal(n=1000003, mean=0, std=1, seed=5)"));
        QCOMPARE(one[3].label, std::string("sine(n=1000003, amplitude=1)"));
        QCOMPARE(one[4].label,
                 std::string("mixture(n=1000003, std=1, outlier_fraction=0.01, outlier_scale=20, seed=5)"));
    }

    void goldenValues() {
        // Pinned bit patterns: the generators are specified exactly (generators.h), so these
        // must hold on every platform and compiler. A change here changes users' data.
        const auto bits = [](const Dataset& d) {
            std::vector<uint32_t> b;
            for (float x : d.values) b.push_back(std::bit_cast<uint32_t>(x));
            return b;
        };
        const std::vector<uint32_t> normalBits = bits(normal(4, 1));
        const std::vector<uint32_t> uniformBits = bits(uniform(4, 1));
        const std::vector<uint32_t> laplaceBits = bits(laplace(4, 1));
        qInfo("golden normal %08x %08x %08x %08x", normalBits[0], normalBits[1], normalBits[2], normalBits[3]);
        qInfo("golden uniform %08x %08x %08x %08x", uniformBits[0], uniformBits[1], uniformBits[2], uniformBits[3]);
        qInfo("golden laplace %08x %08x %08x %08x", laplaceBits[0], laplaceBits[1], laplaceBits[2], laplaceBits[3]);
        QCOMPARE(normalBits, (std::vector<uint32_t>{0x3fb39efd, 0x3f5eb5be, 0xbfb80f38, 0xbf22d5e4}));
        QCOMPARE(uniformBits, (std::vector<uint32_t>{0xbef9f93b, 0xbf52c737, 0xbed6885d, 0x3e07bf7e}));
        QCOMPARE(laplaceBits, (std::vector<uint32_t>{0xbf2b7d34, 0xbfdde689, 0xbf0b035f, 0x3e11a129}));
        // The sine hits exact zeros and extremes where the phase is a multiple of pi/2.
        const auto s = sine(400, 2.5);  // n < 388 * ... k = 97 (400 is not a multiple of 97)
        QCOMPARE(sinePeriods(400), int64_t{97});
        QCOMPARE(s.values[0], 0.0f);
        QCOMPARE(s.values[100], 2.5f);  // (100 * 97) mod 400 = 100: phase 1/4
        QCOMPARE(s.values[300], -2.5f);  // (300 * 97) mod 400 = 300: phase 3/4
    }

    void statistics() {
        const int64_t n = 1'000'000;
        const Moments nm = moments(normal(n, 11, 2, 3).values);
        QVERIFY2(std::fabs(nm.mean - 2) < 0.015, qPrintable(QString::number(nm.mean)));
        QVERIFY2(std::fabs(nm.std - 3) < 0.015, qPrintable(QString::number(nm.std)));
        // Tails: P(|z| > 3) = 0.0027.
        int64_t beyond3 = 0;
        for (float x : normal(n, 12).values) beyond3 += std::fabs(x) > 3;
        QVERIFY2(std::fabs(beyond3 / 1e6 - 0.0026998) < 0.0003, qPrintable(QString::number(beyond3)));

        const Moments lm = moments(laplace(n, 11, 1, 2).values);
        QVERIFY2(std::fabs(lm.mean - 1) < 0.015, qPrintable(QString::number(lm.mean)));
        QVERIFY2(std::fabs(lm.std - 2 * std::sqrt(2.0)) < 0.03, qPrintable(QString::number(lm.std)));

        const Moments um = moments(uniform(n, 11, -3, 5).values);
        QVERIFY(um.min >= -3 && um.max <= 5);
        QVERIFY(um.min < -2.999 && um.max > 4.999);
        QVERIFY2(std::fabs(um.mean - 1) < 0.015, qPrintable(QString::number(um.mean)));
        QVERIFY2(std::fabs(um.std - 8 / std::sqrt(12.0)) < 0.01, qPrintable(QString::number(um.std)));

        const Moments sm = moments(sine(n, 1.5).values);
        QCOMPARE(sm.max, 1.5);  // n = 1e6 is a multiple of 4: phase 1/4 is sampled
        QCOMPARE(sm.min, -1.5);
        QVERIFY(std::fabs(sm.mean) < 1e-6);
        QVERIFY(std::fabs(sm.std - 1.5 / std::sqrt(2.0)) < 1e-6);

        // Mixture: 1% outliers at 20x the spread. |x| > 5 std happens for 0.80 of the
        // outliers (|z| > 0.25) and practically never for inliers: 0.0080 of all samples.
        const auto mx = mixture(n, 11, 1, 0.01, 20).values;
        int64_t wide = 0;
        for (float x : mx) wide += std::fabs(x) > 5;
        QVERIFY2(std::fabs(wide / 1e6 - 0.01 * 0.80259) < 0.0005, qPrintable(QString::number(wide)));
        // Variance 0.99 + 0.01 * 400 = 4.99.
        const double sd = moments(mx).std;
        QVERIFY2(std::fabs(sd * sd - 4.99) < 0.15, qPrintable(QString::number(sd * sd)));
        // No outliers is exactly normal(0, std); all outliers exactly normal(0, std * scale).
        QVERIFY(sameBits(mixture(10000, 3, 2, 0, 20).values, normal(10000, 3, 0, 2).values));
        QVERIFY(sameBits(mixture(10000, 3, 2, 1, 20).values, normal(10000, 3, 0, 40).values));
    }

    void generationSpeed() {
        QElapsedTimer t;
        t.start();
        const auto d = normal(10'000'000, 1);
        const qint64 one = t.elapsed();
        t.restart();
        const auto d2 = normal(10'000'000, 1, 0, 1, Exec::allCores());
        qInfo("10M normal samples: %lld ms on 1 thread, %lld ms on %d threads", one, t.elapsed(),
              Exec::allCores().threads);
        QVERIFY(sameBits(d.values, d2.values));
    }

    // ---- generator specs -----------------------------------------------------------

    void specParsing() {
        auto r = parseGeneratorSpec("normal:n=1000,std=2,seed=7");
        QVERIFY2(r.ok(), qPrintable(specError("normal:n=1000,std=2,seed=7")));
        QCOMPARE(r->kind, std::string("normal"));
        QCOMPARE(r->params.at("n"), 1000.0);
        QCOMPARE(r->params.at("std"), 2.0);
        QCOMPARE(r->params.at("seed"), 7.0);
        QCOMPARE(r->params.at("mean"), 0.0);  // default filled in
        QCOMPARE(toString(*r), std::string("normal:n=1000,mean=0,std=2,seed=7"));

        auto bare = parseGeneratorSpec("normal");
        QVERIFY(bare.ok());
        QCOMPARE(toString(*bare), std::string("normal:n=100000,mean=0,std=1,seed=1"));
        QCOMPARE(parseGeneratorSpec("normal:")->params, bare->params);
        QCOMPARE(parseGeneratorSpec("  normal : n = 100000 , std=+1 ")->params, bare->params);
        QCOMPARE(parseGeneratorSpec("uniform:n=1e6")->params.at("n"), 1e6);
        QCOMPARE(toString(*parseGeneratorSpec("uniform")), std::string("uniform:n=100000,low=-1,high=1,seed=1"));
        QCOMPARE(toString(*parseGeneratorSpec("laplace")), std::string("laplace:n=100000,loc=0,scale=1,seed=1"));
        QCOMPARE(toString(*parseGeneratorSpec("sine")), std::string("sine:n=100000,amplitude=1"));
        QCOMPARE(toString(*parseGeneratorSpec("mixture")),
                 std::string("mixture:n=100000,std=1,outlier_fraction=0.01,outlier_scale=20,seed=1"));
        QCOMPARE(toString(*parseGeneratorSpec("normal:mean=0.1,std=1e-3")),
                 std::string("normal:n=100000,mean=0.1,std=0.001,seed=1"));

        // Round trips, with awkward numbers.
        for (const char* text : {"normal:mean=0.1,std=3.3333333333333335", "uniform:low=-1e300,high=1e-300",
                                 "mixture:outlier_fraction=0.123456789,seed=9007199254740992", "sine:n=1",
                                 "laplace:n=10000000,loc=-2.5,scale=1e-20"}) {
            auto a = parseGeneratorSpec(text);
            QVERIFY2(a.ok(), qPrintable(specError(text)));
            auto b = parseGeneratorSpec(toString(*a));
            QVERIFY2(b.ok(), qPrintable(specError(toString(*a))));
            QVERIFY2(*b == *a, qPrintable(QString::fromStdString(toString(*b))));
        }

        for (const auto& kind : generatorKinds()) QVERIFY(generate(*parseGeneratorSpec(kind + ":n=1000")).ok());
        auto d = generate(*parseGeneratorSpec("laplace:n=1234,scale=0.5,seed=3"));
        QVERIFY(d.ok());
        QCOMPARE(d->shape, Shape{1234});
        QCOMPARE(d->label, std::string("laplace(n=1234, loc=0, scale=0.5, seed=3)"));
        QVERIFY(sameBits(d->values, laplace(1234, 3, 0, 0.5).values));
        // N-d shapes: n is the product (given or left out), the samples are the 1-D ones laid
        // out row-major, and the canonical text puts the shape after n.
        auto shaped = parseGeneratorSpec("normal:shape=64x1024,seed=3");
        QVERIFY2(shaped.ok(), qPrintable(specError("normal:shape=64x1024,seed=3")));
        QCOMPARE(shaped->shape, (std::vector<int64_t>{64, 1024}));
        QCOMPARE(shaped->params.at("n"), 65536.0);
        QCOMPARE(toString(*shaped), std::string("normal:n=65536,shape=64x1024,mean=0,std=1,seed=3"));
        QVERIFY(*parseGeneratorSpec(toString(*shaped)) == *shaped);
        QVERIFY(*parseGeneratorSpec(" normal : n = 65536 , shape = 64 X 1024 , seed=3") == *shaped);
        QCOMPARE(parseGeneratorSpec("sine:shape=7")->shape, std::vector<int64_t>{7});
        QCOMPARE(parseGeneratorSpec("uniform:shape=2x3x4,n=24")->params.at("n"), 24.0);
        auto grid = generate(*shaped);
        QVERIFY(grid.ok());
        QCOMPARE(grid->shape, (Shape{64, 1024}));
        QCOMPARE(grid->label, std::string("normal(n=65536, shape=64x1024, mean=0, std=1, seed=3)"));
        QVERIFY(sameBits(grid->values, normal(65536, 3).values));
        for (const auto& kind : generatorKinds()) {
            auto g = generate(*parseGeneratorSpec(kind + ":shape=8x125"));
            QVERIFY(g.ok());
            QCOMPARE(g->shape, (Shape{8, 125}));
            QVERIFY(sameBits(g->values, generate(*parseGeneratorSpec(kind + ":n=1000"))->values));
        }
        // A hand-built spec with a shape: n filled in, or checked.
        auto handShaped = normalizeGeneratorSpec(GeneratorSpec{"laplace", {}, {4, 5}});
        QVERIFY(handShaped.ok());
        QCOMPARE(handShaped->params.at("n"), 20.0);
        auto wrongN = normalizeGeneratorSpec(GeneratorSpec{"laplace", {{"n", 21}}, {4, 5}});
        QVERIFY(!wrongN.ok());
        QCOMPARE(wrongN.error().message,
                 std::string("generator \"laplace:n=21,shape=4x5\": n = 21 does not match shape = 4x5 (20 values): "
                             "give n = 20 or leave n out"));
        // A hand-built spec gets defaults too.
        auto hand = generate(GeneratorSpec{"uniform", {{"n", 10}}, {}});
        QVERIFY(hand.ok());
        QCOMPARE(hand->label, std::string("uniform(n=10, low=-1, high=1, seed=1)"));
    }

    void specErrors_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* spec, const char* message) { QTest::newRow(spec) << spec << message; };
        row("gauss:n=5",
            "DataError: generator \"gauss:n=5\": unknown kind \"gauss\" (valid: uniform, normal, laplace, sine, "
            "mixture)");
        row("", "DataError: generator \"\": empty; expected KIND or KIND:key=value,... with KIND one of uniform, "
                "normal, laplace, sine, mixture");
        row("normal:sd=2", "DataError: generator \"normal:sd=2\": unknown key \"sd\" for normal (valid keys: n, "
                           "shape, mean, std, seed)");
        row("sine:seed=2", "DataError: generator \"sine:seed=2\": unknown key \"seed\" for sine (valid keys: n, "
                           "shape, amplitude)");
        row("normal:std=abc", "DataError: generator \"normal:std=abc\": std: \"abc\" is not a number");
        row("normal:std=", "DataError: generator \"normal:std=\": std: \"\" is not a number");
        row("normal:std=1.5x", "DataError: generator \"normal:std=1.5x\": std: \"1.5x\" is not a number");
        row("normal:n=0", "DataError: generator \"normal:n=0\": n = 0 is out of range 1..10000000 (larger data "
                          "sets are refused to bound memory)");
        row("normal:n=10000001", "DataError: generator \"normal:n=10000001\": n = 10000001 is out of range "
                                 "1..10000000 (larger data sets are refused to bound memory)");
        row("normal:n=2.5", "DataError: generator \"normal:n=2.5\": n = 2.5 is not an integer");
        row("normal:seed=-1", "DataError: generator \"normal:seed=-1\": seed = -1 must be an integer in "
                              "0..9007199254740992 (2^53)");
        row("normal:std=0", "DataError: generator \"normal:std=0\": std = 0 must be > 0");
        row("normal:mean=inf", "DataError: generator \"normal:mean=inf\": mean = inf is not finite");
        row("laplace:scale=-1", "DataError: generator \"laplace:scale=-1\": scale = -1 must be > 0");
        row("uniform:low=1,high=1", "DataError: generator \"uniform:low=1,high=1\": low = 1 must be < high = 1");
        row("uniform:low=2", "DataError: generator \"uniform:low=2\": low = 2 must be < high = 1");
        row("uniform:low=-1e308,high=1e308",
            "DataError: generator \"uniform:low=-1e308,high=1e308\": high - low overflows a double");
        row("sine:amplitude=0", "DataError: generator \"sine:amplitude=0\": amplitude = 0 must be > 0");
        row("mixture:outlier_fraction=1.5",
            "DataError: generator \"mixture:outlier_fraction=1.5\": outlier_fraction = 1.5 must lie in [0, 1]");
        row("mixture:outlier_scale=0",
            "DataError: generator \"mixture:outlier_scale=0\": outlier_scale = 0 must be > 0");
        row("normal:n=5,n=6", "DataError: generator \"normal:n=5,n=6\": key \"n\" is given twice");
        row("normal:n", "DataError: generator \"normal:n\": \"n\" has no value (expected key=value)");
        row("normal:n=5,,std=1",
            "DataError: generator \"normal:n=5,,std=1\": empty item (expected key=value between commas)");
        // N-d shapes: the field is named, with what to do.
        row("normal:n=1000,shape=64x1024",
            "DataError: generator \"normal:n=1000,shape=64x1024\": n = 1000 does not match shape = 64x1024 "
            "(65536 values): give n = 65536 or leave n out");
        row("normal:shape=64x0", "DataError: generator \"normal:shape=64x0\": shape = 64x0: dimension 2 is 0 "
                                 "(every dimension must be >= 1)");
        row("normal:shape=-4x8", "DataError: generator \"normal:shape=-4x8\": shape = -4x8: dimension 1 is -4 "
                                 "(every dimension must be >= 1)");
        row("normal:shape=64xabc", "DataError: generator \"normal:shape=64xabc\": shape: \"64xabc\" is not a list "
                                   "of integers joined by 'x' (e.g. 64x1024)");
        row("normal:shape=64x", "DataError: generator \"normal:shape=64x\": shape: \"64x\" is not a list of "
                                "integers joined by 'x' (e.g. 64x1024)");
        row("normal:shape=", "DataError: generator \"normal:shape=\": shape: \"\" is not a list of integers "
                             "joined by 'x' (e.g. 64x1024)");
        row("normal:shape=2.5x4", "DataError: generator \"normal:shape=2.5x4\": shape: \"2.5x4\" is not a list "
                                  "of integers joined by 'x' (e.g. 64x1024)");
        row("normal:shape=10000x10000",
            "DataError: generator \"normal:shape=10000x10000\": shape = 10000x10000 has more than 10000000 values "
            "(larger data sets are refused to bound memory)");
        row("normal:shape=4294967296x4294967296x4294967296",
            "DataError: generator \"normal:shape=4294967296x4294967296x4294967296\": shape = "
            "4294967296x4294967296x4294967296 has more than 10000000 values (larger data sets are refused to "
            "bound memory)");
        row("normal:shape=99999999999999999999",
            "DataError: generator \"normal:shape=99999999999999999999\": shape: \"99999999999999999999\" is not a "
            "list of integers joined by 'x' (e.g. 64x1024)");
        row("normal:shape=2x2,shape=4", "DataError: generator \"normal:shape=2x2,shape=4\": key \"shape\" is given "
                                        "twice");
        row("normal:shape=1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1",
            "DataError: generator \"normal:shape=1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1\": "
            "shape = 1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1 has 33 dimensions; at most 32 "
            "are allowed");
    }

    void specErrors() {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        QCOMPARE(specError(spec.toStdString()), message);
    }

    void specErrorsOfHandBuiltSpecs() {
        auto r = generate(GeneratorSpec{"normal", {{"sd", 2}}, {}});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message,
                 std::string("generator \"normal:sd=2\": unknown key \"sd\" for normal (valid keys: n, shape, mean, std, seed)"));
        auto big = generate(GeneratorSpec{"uniform", {{"n", 2e7}}, {}});
        QVERIFY(!big.ok());
        QVERIFY(big.error().message.find("out of range 1..10000000") != std::string::npos);
        QCOMPARE(generate(GeneratorSpec{"poisson", {}, {}}).error().kind, std::string("DataError"));
    }

    // ---- .npy ----------------------------------------------------------------------

    void npyRoundTrips() {
        QTemporaryDir dir;
        const std::vector<float> f4{1.5f, -2.0f, 3.25f, std::numeric_limits<float>::infinity()};
        auto a = readNpy(writeFile(dir, "a.npy", npy(dict("<f4", false, "(4,)"), rawBytes(f4))));
        QVERIFY2(a.ok(), qPrintable(errorOf(a)));
        QCOMPARE(a->shape, Shape{4});
        QCOMPARE(a->values, f4);
        QCOMPARE(a->label, std::string("a.npy"));

        // float64, 3-d, rounded to nearest float32.
        std::vector<double> f8(24);
        for (size_t i = 0; i < f8.size(); ++i) f8[i] = 0.1 * static_cast<double>(i) - 1.0 / 3;
        auto b = readNpy(writeFile(dir, "b.npy", npy(dict("<f8", false, "(2, 3, 4)"), rawBytes(f8))));
        QVERIFY2(b.ok(), qPrintable(errorOf(b)));
        QCOMPARE(b->shape, (Shape{2, 3, 4}));
        for (size_t i = 0; i < f8.size(); ++i) QCOMPARE(b->values[i], static_cast<float>(f8[i]));

        // 0-d: shape (), one value.
        auto c = readNpy(writeFile(dir, "c.npy", npy(dict("<f8", false, "()"), rawBytes(std::vector<double>{2.5}))));
        QVERIFY2(c.ok(), qPrintable(errorOf(c)));
        QCOMPARE(c->shape, Shape{});
        QCOMPARE(c->values, std::vector<float>{2.5f});

        // Versions 2.0 and 3.0 (4-byte header length), double-quoted keys, no trailing comma.
        for (int major : {2, 3}) {
            auto v = readNpy(writeFile(dir, QString("v%1.npy").arg(major),
                                       npy("{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2, 2)}",
                                           rawBytes(std::vector<float>{1, 2, 3, 4}), major)));
            QVERIFY2(v.ok(), qPrintable(errorOf(v)));
            QCOMPARE(v->shape, (Shape{2, 2}));
            QCOMPARE(v->values, (std::vector<float>{1, 2, 3, 4}));
        }

        // Big-endian data is byte-swapped.
        auto be4 = readNpy(writeFile(dir, "be4.npy", npy(dict(">f4", false, "(4,)"), rawBytes(f4, true))));
        QVERIFY2(be4.ok(), qPrintable(errorOf(be4)));
        QCOMPARE(be4->values, f4);
        auto be8 = readNpy(writeFile(dir, "be8.npy", npy(dict(">f8", false, "(24,)"), rawBytes(f8, true))));
        QVERIFY2(be8.ok(), qPrintable(errorOf(be8)));
        QCOMPARE(be8->values, b->values);

        // Empty array.
        auto e = readNpy(writeFile(dir, "e.npy", npy(dict("<f4", false, "(0, 3)"), "")));
        QVERIFY2(e.ok(), qPrintable(errorOf(e)));
        QCOMPARE(e->shape, (Shape{0, 3}));
        QVERIFY(e->values.empty());
    }

    void npyFortranOrder() {
        QTemporaryDir dir;
        // [[1, 2, 3], [4, 5, 6]] stored column by column.
        auto m = readNpy(writeFile(dir, "f.npy", npy(dict("<f4", true, "(2, 3)"),
                                                      rawBytes(std::vector<float>{1, 4, 2, 5, 3, 6}))));
        QVERIFY2(m.ok(), qPrintable(errorOf(m)));
        QCOMPARE(m->shape, (Shape{2, 3}));
        QCOMPARE(m->values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
        // 3-d: element (i, j, k) = 100 i + 10 j + k; Fortran order has i fastest.
        std::vector<double> fortran;
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 2; ++i) fortran.push_back(100 * i + 10 * j + k);
        auto t = readNpy(writeFile(dir, "f3.npy", npy(dict("<f8", true, "(2, 3, 4)"), rawBytes(fortran))));
        QVERIFY2(t.ok(), qPrintable(errorOf(t)));
        size_t at = 0;
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 4; ++k) QCOMPARE(t->values[at++], static_cast<float>(100 * i + 10 * j + k));
    }

    void npyErrors() {
        QTemporaryDir dir;
        const auto err = [&](const char* name, const std::string& bytes) {
            return errorOf(readNpy(writeFile(dir, name, bytes)));
        };
        const std::string twelve = rawBytes(std::vector<float>{1, 2, 3});
        QCOMPARE(err("t.npy", npy(dict("<f4", false, "(4,)"), twelve)),
                 "DataError: " + dir.filePath("t.npy") +
                     ": truncated data: shape [4] of float32 needs 16 bytes, the file has 12");
        QCOMPARE(err("i.npy", npy(dict("<i4", false, "(3,)"), twelve)),
                 "DataError: " + dir.filePath("i.npy") +
                     ": dtype '<i4' is not supported (float32 '<f4' and float64 '<f8' are read, either byte order)");
        QVERIFY(err("h.npy", npy(dict("<f2", false, "(3,)"), twelve)).contains("dtype '<f2' is not supported"));
        QVERIFY(err("m.npy", "PK\x03\x04 not numpy at all").contains("not a NumPy .npy file"));
        QVERIFY(err("v.npy", std::string("\x93NUMPY\x09\x00\x10\x00", 10)).contains("unsupported .npy format version 9.0"));
        QCOMPARE(err("k.npy", npy("{'descr': '<f4', 'fortran_order': False}", twelve)),
                 "DataError: " + dir.filePath("k.npy") + ": the header has no 'shape'");
        QCOMPARE(err("s.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, x)}", twelve)),
                 "DataError: " + dir.filePath("s.npy") +
                     ": header, offset 54: expected a tuple of non-negative integers for 'shape'");
        QVERIFY(err("b.npy", npy("{'descr': '<f4', 'fortran_order': maybe, 'shape': (3,)}", twelve))
                    .contains("expected True or False for 'fortran_order'"));
        QVERIFY(err("x.npy", npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,)}", twelve))
                    .contains("structured dtypes"));
        std::string shortHeader = npy(dict("<f4", false, "(3,)"), twelve).substr(0, 40);
        QVERIFY(err("sh.npy", shortHeader).contains("truncated header: it announces 118 bytes, the file has 30"));
    }

    // ---- CSV -----------------------------------------------------------------------

    void csvReading() {
        QTemporaryDir dir;
        auto h = readCsv(writeFile(dir, "h.csv", "x,\"y value\"\n1,2\n3.5,-4e2\n"));
        QVERIFY2(h.ok(), qPrintable(errorOf(h)));
        QCOMPARE(h->shape, (Shape{2, 2}));
        QCOMPARE(h->values, (std::vector<float>{1, 2, 3.5f, -400}));
        QCOMPARE(h->column_names, (std::vector<std::string>{"x", "y value"}));
        QCOMPARE(h->label, std::string("h.csv"));

        // One column, no header, blank lines, CRLF, no final newline, nan/inf, quotes, '+'.
        auto one = readCsv(writeFile(dir, "one.csv", "1\r\n\r\n 0.5 \r\n\"2.25\"\r\n+3\r\nnan\r\n-Inf\r\n# note\r\n7"));
        QVERIFY2(one.ok(), qPrintable(errorOf(one)));
        QCOMPARE(one->shape, Shape{7});
        QVERIFY(one->column_names.empty());
        QCOMPARE(one->values[0], 1.0f);
        QCOMPARE(one->values[1], 0.5f);
        QCOMPARE(one->values[2], 2.25f);
        QCOMPARE(one->values[3], 3.0f);
        QVERIFY(std::isnan(one->values[4]));
        QCOMPARE(one->values[5], -std::numeric_limits<float>::infinity());
        QCOMPARE(one->values[6], 7.0f);

        auto semi = readCsv(writeFile(dir, "semi.csv", "a;b;c\n1;2;3\n4;5;6\n"));
        QVERIFY2(semi.ok(), qPrintable(errorOf(semi)));
        QCOMPARE(semi->shape, (Shape{2, 3}));
        QCOMPARE(semi->values, (std::vector<float>{1, 2, 3, 4, 5, 6}));

        auto tsv = readCsv(writeFile(dir, "t.tsv", "a,1\tb,2\n1\t2\n"));
        QVERIFY2(tsv.ok(), qPrintable(errorOf(tsv)));
        QCOMPARE(tsv->column_names, (std::vector<std::string>{"a,1", "b,2"}));
        QCOMPARE(tsv->values, (std::vector<float>{1, 2}));

        // numpy.savetxt's default: space-separated.
        auto txt = readCsv(writeFile(dir, "s.txt", "1.000000000000000000e+00 2.5e-01\n  3 4  \n"));
        QVERIFY2(txt.ok(), qPrintable(errorOf(txt)));
        QCOMPARE(txt->shape, (Shape{2, 2}));
        QCOMPARE(txt->values, (std::vector<float>{1, 0.25f, 3, 4}));

        // Out of float32 range: rounds like a float32 conversion; float64 text rounds to nearest.
        auto range = readCsv(writeFile(dir, "r.csv", "1e39\n-1e400\n1e-50\n0.1\n"));
        QVERIFY2(range.ok(), qPrintable(errorOf(range)));
        QCOMPARE(range->values[0], std::numeric_limits<float>::infinity());
        QCOMPARE(range->values[1], -std::numeric_limits<float>::infinity());
        QCOMPARE(range->values[2], 0.0f);
        QCOMPARE(range->values[3], 0.1f);
    }

    // The text readers' refusals: file, content, message after "DataError: <dir>/".
    void textReaderErrors_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        const struct { const char* file; const char* content; const char* expected; } cases[] = {
            {"rag.csv", "a,b\n1,2\n\n3\n", "rag.csv: line 4: 1 fields, expected 2 (as in line 1)"},
            {"rag2.csv", "1,2\n3,4,5\n", "rag2.csv: line 2: 3 fields, expected 2 (as in line 1)"},
            {"nan.csv", "a,b,c\n1,2,3\n4,5,abc\n", "nan.csv: line 3, column 3: \"abc\" is not a number"},
            {"empty.csv", "1,,3\n", "empty.csv: line 1, column 2: empty field"},
            {"mixed.csv", "1,2\n3;4\n", "mixed.csv: line 2: 1 fields, expected 2 (as in line 1)"},
            {"nothing.csv", "", "nothing.csv: no data (the file is empty)"},
            {"head.csv", "a,b\n\n", "head.csv: no data rows after the header"},
            {"short.vec", "2 3\na 1 2 3\nb 1 2\n", "short.vec: line 3: \"b\" has 2 values, expected 3 (from the header)"},
            {"long.vec", "a 1 2\nb 1 2 3\n", "long.vec: line 2: \"b\" has 3 values, expected 2 (as in line 1)"},
            {"bad.vec", "a 1 2\nb 1 x\n", "bad.vec: line 2, value 2 of \"b\": \"x\" is not a number"},
            {"count.vec", "3 2\na 1 2\nb 3 4\n", "count.vec: the header announces 3 rows, the file has 2"},
            {"word.vec", "lonely\n", "word.vec: line 1: \"lonely\" has no values"},
            {"none.vec", "\n\n", "none.vec: no vectors in the file"},
        };
        for (const auto& c : cases)
            QTest::newRow(c.file) << QString(c.file) << QByteArray(c.content) << QString::fromUtf8(c.expected);
    }
    void textReaderErrors() {
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = writeFile(dir, file, content.toStdString());
        const auto read = file.endsWith(QLatin1String(".vec")) ? readVec(path) : readCsv(path);
        QCOMPARE(errorOf(read), "DataError: " + dir.path() + "/" + expected);
    }

    void csvQuotesLongFieldsShortened() {
        QTemporaryDir dir;
        const auto read = readCsv(writeFile(dir, "long.csv", "1\n" + std::string(100, 'x') + "\n"));
        QVERIFY(errorOf(read).contains("\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\" is not a number"));
    }

    // ---- .vec ----------------------------------------------------------------------

    void vecReading() {
        QTemporaryDir dir;
        auto v = readVec(writeFile(dir, "w.vec", "3 2\nthe 0.5 -1 \nl'été 2 3\n,@# 4e-1 5\n"));
        QVERIFY2(v.ok(), qPrintable(errorOf(v)));
        QCOMPARE(v->shape, (Shape{3, 2}));
        QCOMPARE(v->values, (std::vector<float>{0.5f, -1, 2, 3, 0.4f, 5}));
        QCOMPARE(v->row_names, (std::vector<std::string>{"the", "l'été", ",@#"}));
        QCOMPARE(v->label, std::string("w.vec"));

        auto n = readVec(writeFile(dir, "n.vec", "a 1 2 3\r\nb\t4 5 6\n\n"));
        QVERIFY2(n.ok(), qPrintable(errorOf(n)));
        QCOMPARE(n->shape, (Shape{2, 3}));
        QCOMPARE(n->row_names, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(n->values, (std::vector<float>{1, 2, 3, 4, 5, 6}));
    }

    // ---- loadDataFile, progress and cancellation -------------------------------------

    void loadFileDispatchAndErrors() {
        QTemporaryDir dir;
        QVERIFY(loadDataFile(writeFile(dir, "a.CSV", "1,2\n")).ok());
        QVERIFY(loadDataFile(writeFile(dir, "a.txt", "1 2\n")).ok());
        QVERIFY(loadDataFile(writeFile(dir, "a.vec", "w 1 2\n")).ok());
        QVERIFY(loadDataFile(writeFile(dir, "a.Npy", npy(dict("<f4", false, "(1,)"), rawBytes(std::vector<float>{1})))).ok());
        const QString p = dir.path() + "/";
        QCOMPARE(errorOf(loadDataFile(writeFile(dir, "a.bin", "x"))),
                 "DataError: " + p + "a.bin: unknown file type \".bin\" (supported: .npy, .csv, .tsv, .txt, .vec)");
        QCOMPARE(errorOf(loadDataFile(writeFile(dir, "noext", "x"))),
                 "DataError: " + p + "noext: unknown file type (no extension) (supported: .npy, .csv, .tsv, .txt, .vec)");
        QCOMPARE(errorOf(loadDataFile((p + "missing.csv").toStdString())),
                 "DataError: cannot open " + p + "missing.csv: No such file or directory");
        QVERIFY(QDir(dir.path()).mkdir("folder.npy"));
        QCOMPARE(errorOf(loadDataFile((p + "folder.npy").toStdString())),
                 "DataError: cannot read " + p + "folder.npy: Is a directory");
    }

    void progressAndCancellation() {
        QTemporaryDir dir;
        // ~20 MB of text so progress is reported several times.
        std::string csv, vec;
        const auto values = normal(2'000'000, 3).values;
        char buf[32];
        for (size_t i = 0; i < values.size(); ++i) {
            const auto r = std::to_chars(buf, buf + sizeof buf, values[i]);
            csv.append(buf, r.ptr);
            csv += (i % 4 == 3) ? '\n' : ',';
            if (i % 4 == 0) {
                vec += 'w';
                vec += std::to_string(i);
            }
            vec += ' ';
            vec.append(buf, r.ptr);
            if (i % 4 == 3) vec += '\n';
        }
        const std::vector<std::string> paths = {
            writeFile(dir, "p.csv", csv), writeFile(dir, "p.vec", vec),
            writeFile(dir, "p.npy", npy(dict("<f4", false, "(500000, 4)"), rawBytes(values)))};
        for (const std::string& path : paths) {
            std::vector<double> seen;
            LoadOptions record{[&](double f) { seen.push_back(f); return true; }};
            auto r = loadDataFile(path, record);
            QVERIFY2(r.ok(), qPrintable(errorOf(r)));
            QCOMPARE(r->values, values);  // shortest float32 text reads back exactly
            QCOMPARE(r->shape, (Shape{500000, 4}));
            QVERIFY2(seen.size() >= 3, path.c_str());
            QVERIFY(std::is_sorted(seen.begin(), seen.end()));
            QCOMPARE(seen.front(), 0.0);
            QCOMPARE(seen.back(), 1.0);

            int calls = 0;
            LoadOptions cancelHalfway{[&](double f) { ++calls; return f < 0.5; }};
            auto c = loadDataFile(path, cancelHalfway);
            QVERIFY(!c.ok());
            QCOMPARE(c.error().kind, std::string("Cancelled"));
            QCOMPARE(c.error().message, path + ": loading cancelled");
            QVERIFY(calls < static_cast<int>(seen.size()));  // stopped early

            LoadOptions cancelAtOnce{[](double) { return false; }};
            QCOMPARE(loadDataFile(path, cancelAtOnce).error().kind, std::string("Cancelled"));
        }
    }

    void largeFileTiming() {
        // Not asserted (shared machines vary); printed for the record.
        QTemporaryDir dir;
        const auto values = normal(10'000'000, 4).values;
        std::string csv;
        csv.reserve(120'000'000);
        char buf[32];
        for (size_t i = 0; i < values.size(); ++i) {
            const auto r = std::to_chars(buf, buf + sizeof buf, values[i], std::chars_format::scientific, 8);
            csv.append(buf, r.ptr);
            csv += (i % 10 == 9) ? '\n' : ',';
        }
        const std::string csvPath = writeFile(dir, "big.csv", csv);
        std::vector<float> npyValues(25'000'000);
        for (size_t i = 0; i < npyValues.size(); ++i) npyValues[i] = values[i % values.size()];
        const std::string npyPath =
            writeFile(dir, "big.npy", npy(dict("<f4", false, "(25000000,)"), rawBytes(npyValues)));
        npyValues = {};
        QElapsedTimer t;
        t.start();
        auto c = loadDataFile(csvPath);
        const qint64 csvMs = t.elapsed();
        QVERIFY2(c.ok(), qPrintable(errorOf(c)));
        QCOMPARE(c->shape, (Shape{1'000'000, 10}));
        t.restart();
        auto n = loadDataFile(npyPath);
        const qint64 npyMs = t.elapsed();
        QVERIFY2(n.ok(), qPrintable(errorOf(n)));
        qInfo("load %.0f MB CSV (10M values): %lld ms; 100 MB .npy (25M float32): %lld ms", csv.size() / 1e6,
              csvMs, npyMs);
    }
};

QTEST_APPLESS_MAIN(TstData)
#include "tst_data.moc"
