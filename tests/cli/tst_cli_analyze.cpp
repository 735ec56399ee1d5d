// quantscope-cli analyze: the built executable through QProcess. Its JSON is checked against
// the core analyses called here on the same generated data (numbers equal exactly: the
// writer prints the shortest text that reads back), against closed forms (SQNR of uniform
// data for signed QDQ is 20·log10(2^b − 2)) and against the data itself (min-max range);
// its CSVs by their documented headers; every error path by exit code 2 and its one line.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSet>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "core/analysis/bit_sweep.h"
#include "core/analysis/calibration.h"
#include "core/analysis/clip_sweep.h"
#include "core/analysis/explorer.h"
#include "core/analysis/quant_spec.h"
#include "core/data/generator_spec.h"
#include "core/data/npy_writer.h"
#include "session/explorer/analysis_service.h"
#include "session/explorer/data_service.h"
#include "session/explorer/session.h"

#include "tests/cli/cli_process.h"

namespace {

using namespace qs::testing;

QStringList lines(const QString& path) {
    return QString::fromUtf8(readAll(path)).split('\n', Qt::SkipEmptyParts);
}

std::vector<float> generated(const char* spec) {
    auto g = qs::data::parseGeneratorSpec(spec);
    if (!g) return {};
    auto d = qs::data::generate(*g);
    return d ? d->values : std::vector<float>{};
}

// The specs the case files below describe, built by hand.
qs::QuantSpec qdqSpec(int bits) {
    qs::QuantSpec s;
    s.op = qs::QuantOp::QuantizeAndDequantizeV2;
    s.signed_input = true;
    s.num_bits = bits;
    s.range_given = true;
    s.round_mode = qs::RoundMode::HalfToEven;
    s.min_range = -1.0f;
    s.max_range = 1.0f;
    return s;
}
QByteArray qdqCase(int bits) {
    return QStringLiteral(R"({"op": "QuantizeAndDequantizeV2", "attrs": {"signed_input": true,
        "num_bits": %1, "range_given": true}, "input_min": -1, "input_max": 1})")
        .arg(bits)
        .toUtf8();
}
const QByteArray kQuantizeV2Case =
    R"({"op": "QuantizeV2", "attrs": {"T": "qint8", "mode": "MIN_COMBINED"},
        "input_min": -1, "input_max": 1})";

const char* const kUniform = "uniform:n=200000,seed=3";
const char* const kLaplace = "laplace:n=50000,seed=5";
const char* const kNormal = "normal:n=20000,seed=7";
const char* const kUniformSmall = "uniform:n=20000,seed=8";

const QString kBitsHeader =
    "bits,mse,sqnr_db,theory_sqnr_db,levels,levels_in_range,levels_used,step";
const QString kClipHeader = "alpha,mse,gaussian_mse,laplace_mse";
const QString kStatsColumns =
    "mse,rmse,max_abs_error,mean_error,sqnr_db,cosine,fraction_clipped,distinct_levels,count,"
    "nan_pairs";

}  // namespace

class TestCliAnalyze : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qdq8_ = writeFile(dir_, "qdq8.json", qdqCase(8));
        qdq4_ = writeFile(dir_, "qdq4.json", qdqCase(4));
        v2_ = writeFile(dir_, "v2.json", kQuantizeV2Case);
        QVERIFY(!qdq8_.isEmpty() && !qdq4_.isEmpty() && !v2_.isEmpty());
    }

    // --png draws the analysis with the window's own view: a 1600 x 1000 picture that is not
    // blank (more than a handful of colours), and no JSON on stdout when only --png is given.
    void pngOfEveryAnalysis() {
        const QList<QStringList> runs{
            {"sweep-bits", "--case", qdq8_},
            {"sweep-clip", "--case", qdq8_},
            {"calibrate", "--case", qdq8_},
            {"compare", "--case", qdq8_, "--case", qdq4_}};
        for (const QStringList& args : runs) {
            const QString png = dir_.filePath(args.front() + ".png");
            const Run r = runCli(QStringList{"analyze"} + args + QStringList{"--generate", kLaplace, "--png", png});
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(r.out, QString());
            const QImage image(png);
            QCOMPARE(image.size(), QSize(1600, 1000));
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
            QVERIFY2(colours.size() > 8, qPrintable(args.front()));
        }
        const Run bad = runCli({"analyze", "sweep-bits", "--case", qdq8_, "--png", dir_.filePath("no/such/dir/x.png")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("x.png"));
    }

    // Uniform data on the range of a signed QDQ: SQNR = 20·log10(2^b − 2) (the op's step
    // is 1/(2^(b−1) − 1)), and every number is the core's.
    void sweepBitsUniformQdq() {
        const QString json = dir_.filePath("bits.json"), csv = dir_.filePath("bits.csv");
        const Run r = runCli({"analyze", "sweep-bits", "--case", qdq8_, "--generate", kUniform,
                              "--min-bits", "4", "--max-bits", "12", "--json", json, "--csv", csv});
        QCOMPARE(r.err, QString());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QString());  // both outputs went to files
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc["analysis"].toString(), QString("sweep-bits"));
        QCOMPARE(doc["case"].toString(), qdq8_);
        QCOMPARE(doc["spec"]["op"].toString(), QString("QuantizeAndDequantizeV2"));
        QCOMPARE(doc["data"]["values"].toInt(), 200000);
        const QJsonArray rows = doc["rows"].toArray();
        QCOMPARE(rows.size(), 9);

        const std::vector<float> data = generated(kUniform);
        QCOMPARE(data.size(), size_t{200000});
        const auto core = qs::analysis::sweepBits(data, qdqSpec(8), 4, 12);
        QVERIFY(core);
        QCOMPARE(core->rows.size(), size_t{9});
        QCOMPARE(doc["signal_power"].toDouble(), core->signal_power);
        for (int i = 0; i < 9; ++i) {
            const QJsonObject row = rows[i].toObject();
            const qs::analysis::BitSweepRow& c = core->rows[size_t(i)];
            const int b = 4 + i;
            QCOMPARE(row["bits"].toInt(), b);
            const double closedForm = 20.0 * std::log10(std::ldexp(1.0, b) - 2.0);
            const double sqnr = row["sqnr_db"].toDouble();
            QVERIFY2(std::fabs(sqnr - closedForm) < 0.2,
                     qPrintable(QStringLiteral("%1 bits: %2 dB, closed form %3 dB")
                                    .arg(b).arg(sqnr).arg(closedForm)));
            QCOMPARE(sqnr, c.sqnr_db);
            QCOMPARE(row["mse"].toDouble(), c.mse);
            QCOMPARE(row["theory_sqnr_db"].toDouble(), c.theory_sqnr_db);
            QCOMPARE(row["step"].toDouble(), c.step);
            const double step = 1.0 / (std::ldexp(1.0, b - 1) - 1.0);  // float32 scale: ~1e-7
            QVERIFY(std::fabs(row["step"].toDouble() - step) < 1e-6 * step);
            QCOMPARE(row["levels"].toInteger(), c.levels);
            QCOMPARE(row["levels_in_range"].toInteger(), (int64_t{1} << b) - 1);
            QCOMPARE(row["levels_used"].toInteger(), c.levels_used);
        }

        const QStringList table = lines(csv);
        QCOMPARE(table.size(), 10);
        QCOMPARE(table.front(), kBitsHeader);
        for (int i = 0; i < 9; ++i) {
            const QStringList cells = table[i + 1].split(',');
            QCOMPARE(cells.size(), 8);
            QCOMPARE(cells[0], QString::number(4 + i));
            QCOMPARE(cells[4], QString::number(core->rows[size_t(i)].levels));
            // The text reads back as the core's value (as a float32 when it is one).
            const double mse = cells[1].toDouble(), expected = core->rows[size_t(i)].mse;
            QVERIFY(mse == expected || float(mse) == float(expected));
        }
    }

    // The explicit uniform theory puts P = 1/3: the theory column is 20·log10(2^b − 2).
    void sweepBitsUniformTheoryToStdout() {
        const Run r = runCli({"analyze", "sweep-bits", "--case", qdq8_, "--generate",
                              "uniform:n=1000", "--theory", "uniform", "--min-bits", "6",
                              "--max-bits", "6"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["theory_kind"].toString(), QString("uniform"));
        const QJsonArray rows = doc["rows"].toArray();
        QCOMPARE(rows.size(), 1);
        // Δ is the op's float32 step, so the theory agrees to float32 precision.
        QVERIFY(std::fabs(rows[0]["theory_sqnr_db"].toDouble() - 20.0 * std::log10(62.0)) < 1e-5);
    }

    // QuantizeV2 has only 8/16/32-bit types: by default every one the op has (the window's
    // Bit sweep); with --min-bits/--max-bits the other widths are skipped with a note.
    void sweepBitsQuantizeV2Widths() {
        Run r = runCli({"analyze", "sweep-bits", "--case", v2_, "--generate", kNormal, "--csv", "-"});
        QCOMPARE(r.exitCode, 0);
        QStringList table = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(table.size(), 4);  // header, 8, 16, 32 (qint8 -> qint16 -> qint32)
        QCOMPARE(table[0], kBitsHeader);
        QVERIFY(table[1].startsWith("8,"));
        QVERIFY(table[2].startsWith("16,"));
        QVERIFY(table[3].startsWith("32,"));
        r = runCli({"analyze", "sweep-bits", "--case", v2_, "--generate", kNormal, "--max-bits", "16",
                    "--csv", "-"});
        QCOMPARE(r.exitCode, 0);
        table = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(table.size(), 3);  // header, 8, 16
        QVERIFY(table[2].startsWith("16,"));
    }

    void sweepClipOptimumIsTheCores() {
        const QString json = dir_.filePath("clip.json"), csv = dir_.filePath("clip.csv");
        const Run r = runCli({"analyze", "sweep-clip", "--case", qdq4_, "--generate", kLaplace,
                              "--json", json, "--csv", csv});
        QCOMPARE(r.err, QString());
        QCOMPARE(r.exitCode, 0);
        const std::vector<float> data = generated(kLaplace);
        const auto core = qs::analysis::sweepClip(data, qdqSpec(4));
        QVERIFY(core);
        const QJsonObject doc = readJson(json);
        const QJsonObject optimum = doc["optimum"].toObject();
        QCOMPARE(optimum["alpha"].toDouble(), core->best_alpha);
        QCOMPARE(optimum["mse"].toDouble(), core->best_mse);
        QCOMPARE(optimum["gaussian_alpha"].toDouble(), core->gaussian_alpha);
        QCOMPARE(optimum["laplace_alpha"].toDouble(), core->laplace_alpha);
        QCOMPARE(doc["sigma"].toDouble(), core->sigma);
        QCOMPARE(doc["laplace_b"].toDouble(), core->laplace_b);
        const QJsonArray points = doc["points"].toArray();
        QCOMPARE(points.size(), 200);
        for (int i = 0; i < 200; i += 37) {
            QCOMPARE(points[i]["alpha"].toDouble(), core->points[size_t(i)].alpha);
            QCOMPARE(points[i]["mse"].toDouble(), core->points[size_t(i)].mse);
        }
        // The optimum is the least MSE of the grid or better.
        double gridBest = INFINITY;
        for (const auto& p : core->points) gridBest = std::min(gridBest, p.mse);
        QVERIFY(optimum["mse"].toDouble() <= gridBest);

        // The closed-form table for 2..8 bits: signed QDQ at 4 bits gives α*/b = 4.618.
        const auto table = qs::analysis::optimalClipTable(qdqSpec(4), 2, 8);
        QVERIFY(table);
        const QJsonArray optimal = doc["optimal_alpha"].toArray();
        QCOMPARE(optimal.size(), 7);
        for (int i = 0; i < 7; ++i) {
            QCOMPARE(optimal[i]["bits"].toInt(), 2 + i);
            QCOMPARE(optimal[i]["op_laplace"].toDouble(), (*table)[size_t(i)].op_laplace);
            QCOMPARE(optimal[i]["textbook_gaussian"].toDouble(),
                     (*table)[size_t(i)].textbook_gaussian);
        }
        QVERIFY(std::fabs(optimal[2]["op_laplace"].toDouble() - 4.618) < 0.001);

        const QStringList csvLines = lines(csv);
        QCOMPARE(csvLines.size(), 201);
        QCOMPARE(csvLines.front(), kClipHeader);
    }

    void calibrateMinMaxIsTheDataExtremes() {
        const QString json = dir_.filePath("cal.json"), csv = dir_.filePath("cal.csv");
        const Run r = runCli({"analyze", "calibrate", "--case", v2_, "--generate", kNormal,
                              "--percentile", "99.9", "--json", json, "--csv", csv});
        QCOMPARE(r.err, QString());
        QCOMPARE(r.exitCode, 0);
        const std::vector<float> data = generated(kNormal);
        const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc["percentile"].toDouble(), 99.9);
        const QJsonArray methods = doc["methods"].toArray();
        QCOMPARE(methods.size(), 4);
        const QStringList names{"min-max", "percentile", "mse-optimal", "kl-divergence"};
        for (int i = 0; i < 4; ++i) QCOMPARE(methods[i]["method"].toString(), names[i]);
        QCOMPARE(float(methods[0]["min"].toDouble()), *lo);
        QCOMPARE(float(methods[0]["max"].toDouble()), *hi);
        QCOMPARE(methods[0]["stats"]["fraction_clipped"].toDouble(), 0.0);
        QCOMPARE(methods[0]["stats"]["count"].toInt(), 20000);
        // The percentile range is the 99.9th percentile of |x|, symmetric.
        const auto p = qs::analysis::percentileOf(
            [&] {
                std::vector<float> a(data.size());
                std::transform(data.begin(), data.end(), a.begin(),
                               [](float v) { return std::fabs(v); });
                return a;
            }(),
            99.9);
        QVERIFY(p);
        // Ranges are float32, printed as the shortest float32 text: read back as float32.
        QCOMPARE(float(methods[1]["max"].toDouble()), float(*p));
        QCOMPARE(float(methods[1]["min"].toDouble()), -float(*p));

        const auto core = qs::analysis::calibrate(data, [] {
            qs::QuantSpec s;  // QuantizeV2 qint8 MIN_COMBINED [-1, 1]: the defaults
            return s;
        }(), {99.9, 2048, true});
        QVERIFY(core);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(methods[i]["stats"]["mse"].toDouble(), (*core)[size_t(i)].stats.mse);
            QCOMPARE(float(methods[i]["max"].toDouble()), (*core)[size_t(i)].max);
        }

        const QStringList table = lines(csv);
        QCOMPARE(table.size(), 5);
        QCOMPARE(table.front(), "method,min,max," + kStatsColumns);
        QVERIFY(table[1].startsWith("min-max,"));
        QVERIFY(table[4].startsWith("kl-divergence,"));
    }

    void compareTwoCases() {
        const QString json = dir_.filePath("cmp.json"), csv = dir_.filePath("cmp.csv");
        const Run r = runCli({"analyze", "compare", "--case", qdq8_, "--case=" + qdq4_,
                              "--generate", kUniformSmall, "--json", json, "--csv", csv});
        QCOMPARE(r.err, QString());
        QCOMPARE(r.exitCode, 0);
        const QJsonArray configs = readJson(json)["configurations"].toArray();
        QCOMPARE(configs.size(), 2);
        QCOMPARE(configs[0]["case"].toString(), qdq8_);
        QCOMPARE(configs[1]["case"].toString(), qdq4_);
        QCOMPARE(configs[0]["spec"]["num_bits"].toInt(), 8);
        QCOMPARE(configs[1]["spec"]["num_bits"].toInt(), 4);
        const std::vector<float> data = generated(kUniformSmall);
        const qs::TensorRef<float> ref{std::span<const float>(data), qs::Shape{int64_t(data.size())}};
        for (int i = 0; i < 2; ++i) {
            const auto core = qs::analysis::computeExplorer(qdqSpec(i == 0 ? 8 : 4), ref);
            QVERIFY(core);
            QCOMPARE(configs[i]["stats"]["mse"].toDouble(), core->stats.mse);
            QCOMPARE(configs[i]["stats"]["sqnr_db"].toDouble(), core->stats.sqnr_db);
            QCOMPARE(configs[i]["step"].toDouble(), core->step);
        }
        // Nothing clipped: the 4-bit step is 127/7 times the 8-bit one, the MSE ~330 times.
        QVERIFY(configs[1]["stats"]["mse"].toDouble() > 300 * configs[0]["stats"]["mse"].toDouble());

        const QStringList table = lines(csv);
        QCOMPARE(table.size(), 3);
        QCOMPARE(table.front(), "case,op,output_min,output_max,step," + kStatsColumns);
        QVERIFY(table[1].startsWith(qdq8_ + ",QuantizeAndDequantizeV2,"));
    }

    // Every file of resources/cases is one case the CLI takes, and together they cover every
    // op a case may name.
    void readyCasesAreAccepted() {
        const QDir folder(QStringLiteral(QS_SOURCE_DIR "/resources/cases"));
        const QStringList files = folder.entryList({QStringLiteral("*.json")}, QDir::Files);
        QVERIFY2(files.size() >= 8, qPrintable(folder.path()));
        QSet<QString> ops;
        for (const QString& name : files) {
            const QString file = folder.filePath(name);
            const Run r = runCli({"analyze", "compare", "--case", file, "--generate", kNormal, "--json", "-"});
            QVERIFY2(r.exitCode == 0, qPrintable(name + ": " + r.err));
            const QJsonObject config = QJsonDocument::fromJson(r.out.toUtf8())["configurations"][0].toObject();
            const QString op = config["spec"]["op"].toString();
            QCOMPARE(op, readJson(file)["op"].toString());
            QVERIFY2(config["stats"]["count"].toInt() == 20000, qPrintable(name));
            ops.insert(op);
            const Run exported = runCli({"export", "--case", file, "--generate", kNormal, "--view", "histogram", "--csv", "-"});
            QVERIFY2(exported.exitCode == 0, qPrintable(name + ": " + exported.err));
        }
        QCOMPARE(ops, (QSet<QString>{"QuantizeV2", "QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3",
                                     "QuantizeAndDequantizeV4", "TPUSimulatedQuantization"}));
    }

    // --session: the window's session is the parameters (QuantizeV2 per channel, each
    // channel's range from its own data, which no case can say) and the data; the numbers
    // are the ones the window's analyses give for it (its AnalysisService on its data).
    void sessionGivesTheWindowsNumbers() {
        const qs::Shape shape{2000, 8};
        std::vector<float> values(2000 * 8);
        const std::vector<float> normal = generated("normal:n=16000,seed=11");
        for (size_t i = 0; i < values.size(); ++i) values[i] = normal[i] * float(1 + i % 8);  // channel c: (c+1)·σ
        const QString npy = dir_.filePath("channels.npy");
        QVERIFY(qs::data::writeNpy(npy.toStdString(), std::span<const float>(values), shape));
        qs::ui::Session session;
        session.spec.op = qs::QuantOp::QuantizeV2;
        session.spec.T = qs::QType::QInt8;
        session.spec.mode = qs::QuantizeMode::Scaled;
        session.spec.axis = 1;
        session.spec.range_source = qs::RangeSource::FromData;
        session.data.path = npy;
        qs::QuantSpec qdq = qdqSpec(4);
        qdq.min_range = -3;
        qdq.max_range = 3;
        session.analysis.compared = {session.spec, qdq};
        session.analysis.calibration.percentile = 99.9;
        session.analysis.calibration.symmetric = false;
        const QString path = dir_.filePath("perchannel.qscope");
        QString error;
        QVERIFY2(qs::ui::saveSession(path, session, &error), qPrintable(error));

        auto data = qs::ui::DataService::loadNow(session.data);
        QVERIFY(data);
        qs::ui::AnalysisService service;
        const auto compareStats = [](const QJsonObject& json, const qs::analysis::ErrorStats& s) {
            for (const auto& [key, value] : {std::pair{"mse", s.mse}, {"sqnr_db", s.sqnr_db}, {"max_abs_error", s.max_abs_error},
                                             {"fraction_clipped", s.fraction_clipped}})
                if (json[key].toDouble() != value) return QStringLiteral("%1: %2 against %3").arg(key).arg(json[key].toDouble()).arg(value);
            return QString();
        };

        // compare: the configurations of the session's Compare tab.
        QSignalSpy compared(&service, &qs::ui::AnalysisService::comparisonReady);
        service.requestComparison(session.analysis.compared, *data);
        QVERIFY(compared.wait(60000));
        const auto window = compared.first().first().value<qs::ui::ComparisonPtr>();
        Run r = runCli({"analyze", "compare", "--session", path, "--json", "-"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray configs = QJsonDocument::fromJson(r.out.toUtf8())["configurations"].toArray();
        QCOMPARE(configs.size(), 2);
        QCOMPARE(configs[0]["slices"].toInt(), 8);  // per channel
        for (int i = 0; i < 2; ++i) {
            const QString diff = compareStats(configs[i]["stats"].toObject(), window->entries[size_t(i)].stats);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }

        // calibrate: the session's calibration settings, on its parameters.
        QSignalSpy calibrated(&service, &qs::ui::AnalysisService::calibrationReady);
        service.requestCalibration(session.spec, *data, session.analysis.calibration);
        QVERIFY(calibrated.wait(60000));
        const auto methods = calibrated.first().first().value<qs::ui::CalibrationPtr>();
        r = runCli({"analyze", "calibrate", "--session", path, "--json", "-"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["case"].toString(), path);
        QCOMPARE(doc["percentile"].toDouble(), 99.9);
        QCOMPARE(doc["symmetric"].toBool(), false);
        QCOMPARE(doc["data"]["values"].toInt(), 16000);
        const QJsonArray rows = doc["methods"].toArray();
        QCOMPARE(size_t(rows.size()), methods->methods.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            QCOMPARE(float(rows[i]["min"].toDouble()), methods->methods[size_t(i)].min);
            QCOMPARE(float(rows[i]["max"].toDouble()), methods->methods[size_t(i)].max);
            const QString diff = compareStats(rows[i]["stats"].toObject(), methods->methods[size_t(i)].stats);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
        // An option given wins over the session's.
        r = runCli({"analyze", "calibrate", "--session", path, "--percentile", "99", "--json", "-"});
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8())["percentile"].toDouble(), 99.0);

        // sweep-bits on the session's parameters.
        QSignalSpy swept(&service, &qs::ui::AnalysisService::bitSweepReady);
        service.requestBitSweep(session.spec, *data, qs::analysis::DataKind::Other);
        QVERIFY(swept.wait(60000));
        const auto sweep = swept.first().first().value<qs::ui::BitSweepPtr>();
        r = runCli({"analyze", "sweep-bits", "--session", path, "--json", "-"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray bitRows = QJsonDocument::fromJson(r.out.toUtf8())["rows"].toArray();
        QCOMPARE(size_t(bitRows.size()), sweep->rows.size());
        for (qsizetype i = 0; i < bitRows.size(); ++i)
            QCOMPARE(bitRows[i]["sqnr_db"].toDouble(), sweep->rows[size_t(i)].sqnr_db);
    }

    void helpListsTheColumns() {
        const Run r = runCli({"analyze", "--help"});
        QCOMPARE(r.exitCode, 0);
        for (const QString& columns :
             {kBitsHeader, kClipHeader, QString("method,min,max,mse,rmse,max_abs_error")})
            QVERIFY2(r.out.contains(columns), qPrintable(columns));
        QVERIFY(runCli({"--help"}).out.contains("analyze"));
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");  // a part of the one line on stderr
        const QString badCase = writeFile(dir_, "bad.json",
                                          R"({"op": "QuantizeV2", "attrs": {"T": "qint8",
                                              "mode": "FOO"}, "input_min": -1, "input_max": 1})");
        const QString rejected = writeFile(dir_, "rejected.json",
                                           R"({"op": "QuantizeAndDequantizeV2", "attrs":
                                               {"range_given": true}, "input_min": 2,
                                               "input_max": 1})");
        const QString zeros = writeFile(dir_, "zeros.csv", "0\n0\n0\n");
        const QString missing = dir_.filePath("missing.npy");
        QTest::newRow("no analysis") << QStringList{"analyze"} << "no analysis: give sweep-bits";
        QTest::newRow("unknown analysis")
            << QStringList{"analyze", "sweep-foo", "--case", qdq8_}
            << "unknown analysis 'sweep-foo' (analyses: sweep-bits, sweep-clip, calibrate, compare)";
        QTest::newRow("missing --case") << QStringList{"analyze", "sweep-bits"}
                                        << "sweep-bits: no parameters: give --case CASE.json or --session FILE.qscope";
        const QString brokenSession = writeFile(dir_, "broken.qscope", "{\"format\": ");
        QTest::newRow("--case and --session")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--session", brokenSession}
            << "give --case or --session, not both";
        QTest::newRow("broken session") << QStringList{"analyze", "calibrate", "--session", brokenSession}
                                        << "broken.qscope";
        QTest::newRow("the test vectors' file of many cases")
            << QStringList{"analyze", "calibrate", "--case", QStringLiteral(QS_TEST_DATA_DIR "/quantize_v2.json")}
            << "holds 26 cases; give exactly one (ready one-case files for the common ops are in share/quantscope/cases)";
        QTest::newRow("--case without value") << QStringList{"analyze", "calibrate", "--case"}
                                              << "option '--case' needs a value";
        QTest::newRow("two cases for a sweep")
            << QStringList{"analyze", "sweep-clip", "--case", qdq8_, "--case", qdq4_}
            << "sweep-clip takes one --case, got 2";
        QTest::newRow("five cases to compare")
            << QStringList{"analyze", "compare", "--case", qdq8_, "--case", qdq8_, "--case",
                           qdq8_, "--case", qdq8_, "--case", qdq8_}
            << "compare takes at most 4 --case options, got 5";
        QTest::newRow("malformed case") << QStringList{"analyze", "calibrate", "--case", badCase}
                                        << badCase + ": field \"attrs.mode\"";
        QTest::newRow("unreadable case")
            << QStringList{"analyze", "calibrate", "--case", dir_.filePath("none.json")}
            << dir_.filePath("none.json") + ": cannot open";
        QTest::newRow("the op rejects the case")
            << QStringList{"analyze", "sweep-bits", "--case", rejected, "--generate", "normal:n=10"}
            << rejected + ": InvalidArgument: Invalid range: input_min 2 > input_max 1";
        QTest::newRow("compare names the case the op rejects")
            << QStringList{"analyze", "compare", "--case", qdq8_, "--case", rejected}
            << rejected + ": InvalidArgument: Invalid range";
        QTest::newRow("the analysis rejects the data")
            << QStringList{"analyze", "sweep-clip", "--case", qdq8_, "--data", zeros}
            << qdq8_ + ": InvalidArgument: clip sweep: every finite value is 0";
        QTest::newRow("missing data file")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--data", missing}
            << missing;
        QTest::newRow("bad generator")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--generate", "normal:sd=2"}
            << "unknown key \"sd\"";
        QTest::newRow("--data and --generate")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--data", missing,
                           "--generate", "normal"}
            << "give --data or --generate, not both";
        QTest::newRow("option of another analysis")
            << QStringList{"analyze", "sweep-bits", "--case", qdq8_, "--points", "10"}
            << "--points applies to sweep-clip only";
        QTest::newRow("bad --min-bits")
            << QStringList{"analyze", "sweep-bits", "--case", qdq8_, "--min-bits", "x"}
            << "--min-bits must be an integer in 1..32, is 'x'";
        QTest::newRow("min above max")
            << QStringList{"analyze", "sweep-bits", "--case", qdq8_, "--min-bits", "9",
                           "--max-bits", "8"}
            << "--min-bits 9 exceeds --max-bits 8";
        QTest::newRow("bad --theory")
            << QStringList{"analyze", "sweep-bits", "--case", qdq8_, "--theory", "gauss"}
            << "unknown theory 'gauss'";
        QTest::newRow("bad --percentile")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--percentile", "0"}
            << "--percentile must be a number in (0, 100], is '0'";
        QTest::newRow("unknown option")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--foo"}
            << "unknown option '--foo'";
        QTest::newRow("both on stdout")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--json", "-", "--csv", "-"}
            << "--json - and --csv - would both write to standard output";
        QTest::newRow("unwritable output")
            << QStringList{"analyze", "calibrate", "--case", qdq8_, "--generate", "normal:n=10",
                           "--json", dir_.filePath("no/such/dir/out.json")}
            << "cannot write " + dir_.filePath("no/such/dir/out.json");
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        const QStringList errLines = r.errLines();
        QCOMPARE(errLines.size(), 1);
        QVERIFY2(errLines[0].startsWith("quantscope-cli analyze: "), qPrintable(errLines[0]));
        QVERIFY2(errLines[0].contains(message), qPrintable(errLines[0]));
    }

private:
    QTemporaryDir dir_;
    QString qdq8_, qdq4_, v2_;
};

QTEST_GUILESS_MAIN(TestCliAnalyze)
#include "tst_cli_analyze.moc"
