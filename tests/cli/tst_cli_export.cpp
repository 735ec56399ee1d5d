// Over 500 lines on purpose: one program per CLI command; its cases share the process helper and
// the recomputation.
// quantscope-cli export: the built executable through QProcess, its CSVs checked row by row
// against the core recomputed here (quantizeV2Value/dequantizeValue for QuantizeV2,
// SliceQuantizer for QuantizeAndDequantize and TPU, computeExplorer for the histograms),
// its images by size and signature, sessions saved with qs::ui::saveSession, and every
// error path's exit code and one-line message.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QSet>
#include <QtTest>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/analysis/explorer.h"
#include "core/analysis/quant_spec.h"
#include "core/data/csv_writer.h"  // csvNumber: the text each value must have
#include "core/data/generator_spec.h"
#include "core/ops/dequantize.h"
#include "core/ops/quantize_v2.h"
#include "session/explorer/session.h"

#include "tests/cli/cli_process.h"

namespace {

using namespace qs::testing;

struct Csv {
    QStringList header;
    QList<QStringList> rows;
};

std::optional<Csv> readCsv(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty()) return std::nullopt;
    Csv csv;
    csv.header = lines.front().split(',');
    for (qsizetype i = 1; i < lines.size(); ++i) csv.rows << lines[i].split(',');
    return csv;
}

float parseFloat(const QString& text) {
    const QByteArray b = text.toLatin1();
    float v = std::nanf("");
    std::from_chars(b.constData(), b.constData() + b.size(), v);
    return v;
}

QString num(double v) { return QString::fromStdString(qs::data::csvNumber(v)); }

// The window the transfer CSV must cover: the requested and used ranges, ±25 % of their width.
void checkWindow(const Csv& csv, double lo, double hi) {
    const double w = hi - lo;
    QVERIFY(csv.rows.size() >= 4096);
    const double first = parseFloat(csv.rows.front()[0]), last = parseFloat(csv.rows.back()[0]);
    QVERIFY2(first <= lo - 0.25 * w + 1e-6 * w, qPrintable(QStringLiteral("first x %1").arg(first)));
    QVERIFY2(last >= hi + 0.25 * w - 1e-6 * w, qPrintable(QStringLiteral("last x %1").arg(last)));
    QVERIFY(first >= lo - 0.25 * w - 1e-3 * w);  // spans the window, not far beyond it
    QVERIFY(last <= hi + 0.25 * w + 1e-3 * w);
    double prev = -INFINITY;
    for (const QStringList& row : csv.rows) {
        QCOMPARE(row.size(), 4);
        const double x = parseFloat(row[0]);
        QVERIFY(x > prev);
        prev = x;
    }
}

// Every row against one slice's quantizer: (code, output) as computed here.
template <typename F>
void checkRows(const Csv& csv, F expected) {
    for (const QStringList& row : csv.rows) {
        const float x = parseFloat(row[0]);
        const auto [code, output] = expected(x);
        if (row[1] != num(code) || row[2] != num(output) ||
            row[3] != num(static_cast<double>(x) - output))
            QFAIL(qPrintable(QStringLiteral("row %1: expected %2,%3,%4")
                                 .arg(row.join(','), num(code), num(output),
                                      num(static_cast<double>(x) - output))));
    }
}

const QStringList kTransferHeader{"input", "code", "output", "error"};

}  // namespace

class TestCliExport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void transferQuantizeV2_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("narrow");
        QTest::addColumn<float>("mn");
        QTest::addColumn<float>("mx");
        QTest::newRow("qint8 MIN_COMBINED") << "qint8" << "MIN_COMBINED" << false << -1.0f << 1.0f;
        QTest::newRow("quint8 MIN_FIRST") << "quint8" << "MIN_FIRST" << false << 0.1f << 6.0f;
        QTest::newRow("qint16 SCALED narrow") << "qint16" << "SCALED" << true << -2.0f << 3.0f;
        QTest::newRow("quint16 MIN_COMBINED") << "quint16" << "MIN_COMBINED" << false << -0.5f << 0.25f;
    }
    void transferQuantizeV2() {
        QFETCH(QString, type);
        QFETCH(QString, mode);
        QFETCH(bool, narrow);
        QFETCH(float, mn);
        QFETCH(float, mx);
        const QByteArray json = QStringLiteral(
            R"({"name": "t", "op": "QuantizeV2", "attrs": {"T": "%1", "mode": "%2",
                "narrow_range": %3}, "input_min": %4, "input_max": %5})")
            .arg(type, mode, narrow ? "true" : "false", num(mn), num(mx)).toUtf8();
        const QString casePath = writeFile(dir_, "v2.json", json);
        const QString csvPath = dir_.filePath("v2.csv");
        const Run r = runCli({"export", "--case", casePath, "--view", "transfer", "--csv", csvPath,
                              "--generate", "uniform:n=1000,seed=2"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());  // nothing on stderr when all is well (no Qt chatter)
        const auto csv = readCsv(csvPath);
        QVERIFY(csv);
        QCOMPARE(csv->header, kTransferHeader);

        qs::QuantizeV2Attrs attrs;
        attrs.T = *qs::parseQType(type.toStdString());
        attrs.mode = *qs::parseQuantizeMode(mode.toStdString());
        attrs.narrow_range = narrow;
        const qs::QuantizeV2SliceParams p = qs::quantizeV2SliceParams(mn, mx, attrs);
        qs::DequantizeAttrs d;
        d.T = attrs.T;
        d.mode = attrs.mode;
        d.narrow_range = narrow;
        checkWindow(*csv, std::min(mn, p.output_min), std::max(mx, p.output_max));
        checkRows(*csv, [&](float x) {
            const int64_t code = qs::quantizeV2Value(x, p, attrs);
            const float out = qs::dequantizeValue(code, p.output_min, p.output_max, d);
            return std::pair<double, double>(static_cast<double>(code), out);
        });
    }

    // QDQ (range given, from the data, V3's num_bits) and TPU: via SliceQuantizer.
    void transferQdqAndTpu_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("op");  // qs::QuantOp
        QTest::addColumn<int>("bits");
        QTest::addColumn<bool>("rangeGiven");
        QTest::addColumn<bool>("narrow");
        QTest::addColumn<int>("round");  // qs::RoundMode
        QTest::addColumn<float>("mn");
        QTest::addColumn<float>("mx");
        QTest::newRow("V2 given HALF_UP narrow")
            << QByteArray(R"({"op": "QuantizeAndDequantizeV2", "attrs": {"signed_input": true,
               "num_bits": 8, "range_given": true, "round_mode": "HALF_UP", "narrow_range": true},
               "input_min": -1, "input_max": 2})")
            << int(qs::QuantOp::QuantizeAndDequantizeV2) << 8 << true << true
            << int(qs::RoundMode::HalfUp) << -1.0f << 2.0f;
        QTest::newRow("V4 range from data (TF default)")
            << QByteArray(R"({"cases": [{"op": "QuantizeAndDequantizeV4", "attrs": {"num_bits": 4},
               "input_min": 0, "input_max": 0}]})")
            << int(qs::QuantOp::QuantizeAndDequantizeV4) << 4 << false << false
            << int(qs::RoundMode::HalfToEven) << NAN << NAN;
        QTest::newRow("V3 num_bits top-level")
            << QByteArray(R"({"op": "QuantizeAndDequantizeV3", "num_bits": 5,
               "input_min": -0.75, "input_max": 0.5})")
            << int(qs::QuantOp::QuantizeAndDequantizeV3) << 5 << true << false
            << int(qs::RoundMode::HalfToEven) << -0.75f << 0.5f;
        QTest::newRow("TPU")
            << QByteArray(R"({"op": "TPUSimulatedQuantization", "attrs": {"num_buckets": 16,
               "lower": -2, "upper": 2}})")
            << int(qs::QuantOp::TpuSimulatedQuantization) << 0 << true << false
            << int(qs::RoundMode::HalfToEven) << -2.0f << 2.0f;
    }
    void transferQdqAndTpu() {
        QFETCH(QByteArray, json);
        QFETCH(int, op);
        QFETCH(int, bits);
        QFETCH(bool, rangeGiven);
        QFETCH(bool, narrow);
        QFETCH(int, round);
        QFETCH(float, mn);
        QFETCH(float, mx);
        const QString generator = QStringLiteral("laplace:n=3000,seed=4,scale=0.5");
        const QString csvPath = dir_.filePath("qdq.csv");
        const Run r = runCli({"export", "--case", writeFile(dir_, "qdq.json", json), "--view",
                              "transfer", "--csv", csvPath, "--generate", generator});
        QCOMPARE(r.exitCode, 0);
        const auto csv = readCsv(csvPath);
        QVERIFY(csv);
        QCOMPARE(csv->header, kTransferHeader);

        qs::QuantSpec spec;
        spec.op = static_cast<qs::QuantOp>(op);
        spec.num_bits = bits;
        spec.range_given = rangeGiven;
        spec.narrow_range = narrow;
        spec.round_mode = static_cast<qs::RoundMode>(round);
        spec.num_buckets = 16;
        if (!rangeGiven) {  // the op takes the data's min/max
            auto g = qs::data::parseGeneratorSpec(generator.toStdString());
            QVERIFY(g);
            auto data = qs::data::generate(*g);
            QVERIFY(data);
            const auto [lo, hi] = std::minmax_element(data->values.begin(), data->values.end());
            mn = *lo;
            mx = *hi;
        }
        spec.min_range = mn;
        spec.max_range = mx;
        auto q = qs::SliceQuantizer::make(spec, mn, mx);
        QVERIFY(q);
        checkWindow(*csv, std::min(mn, q->info().output_min), std::max(mx, q->info().output_max));
        checkRows(*csv, [&](float x) {
            const qs::ValuePoint v = (*q)(x);
            return std::pair<double, double>(v.code, v.output);
        });
    }

    void histograms() {
        const QString casePath = writeFile(
            dir_, "h.json",
            R"({"op": "QuantizeV2", "attrs": {"T": "qint8"}, "input_min": -1, "input_max": 1})");
        const QString generator = QStringLiteral("mixture:n=20000,seed=9");
        const QString dataCsv = dir_.filePath("data_hist.csv"), errCsv = dir_.filePath("err_hist.csv");
        QCOMPARE(runCli({"export", "--case", casePath, "--generate", generator, "--view",
                         "histogram", "--csv", dataCsv}).exitCode, 0);
        QCOMPARE(runCli({"export", "--case", casePath, "--generate", generator, "--view",
                         "error-histogram", "--csv", errCsv}).exitCode, 0);

        qs::QuantSpec spec;  // QuantizeV2 qint8 MIN_COMBINED on [-1, 1]
        auto data = qs::data::generate(*qs::data::parseGeneratorSpec(generator.toStdString()));
        QVERIFY(data);
        auto result = qs::analysis::computeExplorer(spec, data->ref());
        QVERIFY(result);

        const auto h = readCsv(dataCsv);
        QVERIFY(h);
        QCOMPARE(h->header, (QStringList{"bin_lo", "bin_hi", "count", "clipped"}));
        const auto& dh = result->data_hist;
        QCOMPARE(h->rows.size(), qsizetype(dh.bins()));
        int64_t sum = 0;
        for (qsizetype i = 0; i < h->rows.size(); ++i) {
            const int64_t c = h->rows[i][2].toLongLong();
            QCOMPARE(c, dh.counts[size_t(i)]);
            sum += c;
        }
        QCOMPARE(sum, int64_t(20000) - dh.underflow - dh.overflow - dh.nan_count);

        const auto e = readCsv(errCsv);
        QVERIFY(e);
        QCOMPARE(e->header, (QStringList{"bin_lo", "bin_hi", "count", "uniform_count"}));
        const auto& eh = result->error_hist;
        QCOMPARE(e->rows.size(), qsizetype(eh.bins()));
        sum = 0;
        for (const QStringList& row : e->rows) sum += row[2].toLongLong();
        QCOMPARE(sum, int64_t(20000) - eh.underflow - eh.overflow - eh.nan_count);
        QVERIFY(eh.underflow + eh.overflow > 0);  // the mixture's outliers clip
    }

    void images() {
        const QString casePath = writeFile(
            dir_, "img.json",
            R"({"op": "QuantizeV2", "attrs": {"T": "quint8", "mode": "MIN_FIRST"},
                "input_min": -1, "input_max": 3})");
        QTemporaryDir out;
        for (const char* view : {"transfer", "histogram", "error-histogram", "per-channel"}) {
            const QString base = out.filePath(QString::fromLatin1(view));
            const Run r = runCli({"export", "--case", casePath, "--view", view, "--png",
                                  base + ".png", "--svg", base + ".svg", "--pdf", base + ".pdf",
                                  "--width", "900", "--height", "500", "--dpi", "144"});
            QCOMPARE(r.exitCode, 0);
            const QImage image(base + ".png");
            QCOMPARE(image.size(), QSize(900, 500));
            QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 144);
            // Not blank: more than a handful of distinct colours.
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
            QVERIFY(colours.size() > 4);
            QFile svg(base + ".svg"), pdf(base + ".pdf");
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QByteArray svgText = svg.readAll();
            QVERIFY(svgText.size() > 2000);
            QVERIFY(svgText.contains("<svg"));
            QVERIFY(pdf.open(QIODevice::ReadOnly));
            const QByteArray pdfBytes = pdf.readAll();
            QVERIFY(pdfBytes.size() > 2000);
            QVERIFY(pdfBytes.startsWith("%PDF"));
        }
        // Atomic writes leave no temporary files behind.
        QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden).size(), 12);

        // Defaults: 1200 x 800.
        const QString png = out.filePath("default.png");
        QCOMPARE(runCli({"export", "--case", casePath, "--view", "transfer", "--png", png}).exitCode, 0);
        QCOMPARE(QImage(png).size(), QSize(1200, 800));
    }

    void perChannel() {
        // A 3-column CSV file: axis 1 gives three channels.
        QByteArray text = "a,b,c\n";
        for (int i = 0; i < 50; ++i)
            text += QByteArray::number(i * 0.01) + "," + QByteArray::number(i * 0.1 - 2) + "," +
                    QByteArray::number(i * 1.5) + "\n";
        const QString data = writeFile(dir_, "three.csv", text);
        const QString withAxis = writeFile(
            dir_, "axis.json",
            R"({"op": "QuantizeAndDequantizeV2", "attrs": {"num_bits": 8, "axis": 1},
                "input_min": 0, "input_max": 0})");
        const QString csvPath = dir_.filePath("channels.csv");
        QCOMPARE(runCli({"export", "--case", withAxis, "--data", data, "--view", "per-channel",
                         "--csv", csvPath}).exitCode, 0);
        auto csv = readCsv(csvPath);
        QVERIFY(csv);
        QCOMPARE(csv->header.first(), QStringLiteral("channel"));
        QCOMPARE(csv->rows.size(), 3);
        QCOMPARE(csv->rows[2][2], num(73.5f));  // channel 2's data_max

        // Without an axis: a header, no rows, and still a picture (with the view's note).
        const QString noAxis = writeFile(
            dir_, "noaxis.json", R"({"op": "QuantizeV2", "attrs": {"T": "qint8"},
                                     "input_min": -1, "input_max": 1})");
        const QString png = dir_.filePath("noaxis.png");
        QCOMPARE(runCli({"export", "--case", noAxis, "--view", "per-channel", "--csv", csvPath,
                         "--png", png}).exitCode, 0);
        csv = readCsv(csvPath);
        QVERIFY(csv);
        QCOMPARE(csv->header.size(), 12);
        QVERIFY(csv->rows.isEmpty());
        QVERIFY(!QImage(png).isNull());
    }

    void session() {
        qs::ui::Session s;
        s.spec.op = qs::QuantOp::QuantizeAndDequantizeV2;
        s.spec.num_bits = 6;
        s.spec.range_given = true;
        s.spec.round_mode = qs::RoundMode::HalfUp;
        s.spec.min_range = -0.5f;
        s.spec.max_range = 1.5f;
        s.data.generator = QStringLiteral("sine:n=777,amplitude=2");
        s.view.dark = true;
        const QString path = dir_.filePath("s.qscope");
        QString error;
        QVERIFY2(qs::ui::saveSession(path, s, &error), qPrintable(error));

        const QString csvPath = dir_.filePath("session.csv");
        Run r = runCli({"export", "--session", path, "--view", "transfer", "--csv", csvPath});
        QCOMPARE(r.exitCode, 0);
        auto csv = readCsv(csvPath);
        QVERIFY(csv);
        QCOMPARE(csv->header, kTransferHeader);
        auto q = qs::SliceQuantizer::make(s.spec, s.spec.min_range, s.spec.max_range);
        QVERIFY(q);
        // QDQ widens the range it uses (the effective range): the window covers both.
        QVERIFY(q->info().output_min < -0.5f);
        checkWindow(*csv, q->info().output_min, std::max(1.5f, q->info().output_max));
        checkRows(*csv, [&](float x) {
            const qs::ValuePoint v = (*q)(x);
            return std::pair<double, double>(v.code, v.output);
        });

        // The session's data source is the default data.
        r = runCli({"export", "--session", path, "--view", "histogram", "--csv", csvPath});
        QCOMPARE(r.exitCode, 0);
        csv = readCsv(csvPath);
        QVERIFY(csv);
        int64_t sum = 0;
        for (const QStringList& row : csv->rows) sum += row[2].toLongLong();
        QCOMPARE(sum, int64_t(777));

        // CSV to standard output.
        r = runCli({"export", "--session", path, "--view", "histogram", "--csv", "-"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("bin_lo,bin_hi,count,clipped\n"));

        // A broken session: exit 2, one line naming the file.
        const QString broken = writeFile(dir_, "broken.qscope", "{\"format\": ");
        r = runCli({"export", "--session", broken, "--view", "transfer", "--csv", csvPath});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY2(r.err.contains("broken.qscope"), qPrintable(r.err));
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("caseJson");  // written to CASE when not empty
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");  // the one line on stderr contains this
        const QByteArray good =
            R"({"op": "QuantizeV2", "attrs": {"T": "qint8"}, "input_min": -1, "input_max": 1})";
        const QStringList base{"export", "--case", "CASE", "--csv", "OUT"};
        QTest::newRow("missing --view") << base << good << 2 << "quantscope-cli export: no view";
        QTest::newRow("unknown view") << base + QStringList{"--view", "scatter"} << good << 2
                                      << "unknown view 'scatter'";
        QTest::newRow("no output") << QStringList{"export", "--case", "CASE", "--view", "transfer"}
                                   << good << 2 << "nothing to write";
        QTest::newRow("no parameters") << QStringList{"export", "--view", "transfer", "--csv", "OUT"}
                                       << QByteArray() << 2 << "--case CASE.json or --session";
        QTest::newRow("unknown option") << base + QStringList{"--view", "transfer", "--colour", "red"}
                                        << good << 2 << "unknown option '--colour'";
        QTest::newRow("bad width") << base + QStringList{"--view", "transfer", "--width", "0"}
                                   << good << 2 << "--width must be";
        QTest::newRow("bad generator key")
            << base + QStringList{"--view", "transfer", "--generate", "normal:sd=2"} << good << 2
            << "unknown key \"sd\"";
        QTest::newRow("bad generator kind")
            << base + QStringList{"--view", "transfer", "--generate", "cauchy:n=5"} << good << 2
            << "cauchy";
        QTest::newRow("missing data file")
            << base + QStringList{"--view", "transfer", "--data", "/nonexistent/x.npy"} << good
            << 2 << "/nonexistent/x.npy";
        QTest::newRow("case not JSON") << base + QStringList{"--view", "transfer"}
                                       << QByteArray("{\"op\": ") << 2 << "not valid JSON";
        QTest::newRow("case bad mode")
            << base + QStringList{"--view", "transfer"}
            << QByteArray(R"({"op": "QuantizeV2", "attrs": {"T": "qint8", "mode": "FOO"},
                             "input_min": -1, "input_max": 1})")
            << 2 << "field \"attrs.mode\" Mode string must be";
        QTest::newRow("case missing input_max")
            << base + QStringList{"--view", "transfer"}
            << QByteArray(R"({"op": "QuantizeV2", "attrs": {"T": "qint8"}, "input_min": -1})")
            << 2 << "field \"input_max\" is missing";
        QTest::newRow("case mistyped attr")
            << base + QStringList{"--view", "transfer"}
            << QByteArray(R"({"op": "QuantizeAndDequantizeV2", "attrs": {"num_bits": "8"},
                             "input_min": -1, "input_max": 1})")
            << 2 << "field \"attrs.num_bits\" must be an integer";
        QTest::newRow("two cases")
            << base + QStringList{"--view", "transfer"}
            << QByteArray("{\"cases\": [" + good + ", " + good + "]}") << 2 << "holds 2 cases";
        QTest::newRow("unknown op")
            << base + QStringList{"--view", "transfer"}
            << QByteArray(R"({"op": "FakeQuant", "input_min": -1, "input_max": 1})") << 2
            << "unknown op \"FakeQuant\" (supported: QuantizeV2, QuantizeAndDequantizeV2, "
               "QuantizeAndDequantizeV3, QuantizeAndDequantizeV4, TPUSimulatedQuantization)";
        QTest::newRow("TF error: max < min")
            << base + QStringList{"--view", "transfer"}
            << QByteArray(R"({"op": "QuantizeV2", "attrs": {"T": "qint8"}, "input_min": 1,
                             "input_max": -1})")
            << 1 << "quantscope-cli export: InvalidArgument: ";
        QTest::newRow("TF error: HALF_TO_EVEN needs SCALED")
            << base + QStringList{"--view", "histogram"}
            << QByteArray(R"({"op": "QuantizeV2", "attrs": {"T": "qint8",
                             "round_mode": "HALF_TO_EVEN"}, "input_min": -1, "input_max": 1})")
            << 1 << "quantscope-cli export: InvalidArgument: ";
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, caseJson);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString out = tmp.filePath("out.csv");
        for (QString& a : args) {
            if (a == "CASE") a = writeFile(tmp, "case.json", caseJson);
            if (a == "OUT") a = out;
        }
        const Run r = runCli(args);
        QCOMPARE(r.exitCode, exitCode);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY2(r.err.startsWith("quantscope-cli export: "), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // The other commands never start Qt's GUI: they run with no display and no platform.
    void evalNeedsNoDisplay() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
        env.remove("QT_QPA_PLATFORM");
        const Run r = runCli({"eval", QStringLiteral(QS_TEST_DATA_DIR "/quantize_v2.json")}, env);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("\"results\""));
        // export picks the offscreen platform by itself.
        const QString casePath = writeFile(
            dir_, "env.json",
            R"({"op": "QuantizeV2", "attrs": {"T": "qint8"}, "input_min": -1, "input_max": 1})");
        const Run e = runCli({"export", "--case", casePath, "--view", "transfer", "--png",
                              dir_.filePath("env.png")}, env);
        QCOMPARE(e.exitCode, 0);
        QCOMPARE(QImage(dir_.filePath("env.png")).size(), QSize(1200, 800));
    }

    void help() {
        const Run r = runCli({"export", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--view transfer|histogram|error-histogram|per-channel"));
        QVERIFY(runCli({"--help"}).out.contains("export"));
    }

private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cli_export.moc"
