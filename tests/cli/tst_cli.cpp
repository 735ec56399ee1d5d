// quantscope-cli: the built executable through QProcess (help, version, eval, conformance,
// malformed input), plus direct calls into qs_cli: the case runner with a test evaluator
// (output formatting independent of the real ops) and the conformance check on synthetic
// results.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <limits>

#include "app/cli/case_runner.h"
#include "app/cli/conformance_check.h"

using namespace qs::cli;

#include "tests/cli/cli_process.h"

namespace {

using namespace qs::testing;

QString dataFile(const char* name) { return QStringLiteral(QS_TEST_DATA_DIR "/") + name; }

QJsonObject parseObject(const char* json) { return QJsonDocument::fromJson(json).object(); }

// Test evaluators: "Echo" returns its input as float32, "Doubles" as float64, "Codes" as
// integers; "NeedsGain" reads attrs.gain as an integer.
JsonOut echoEval(const CaseReader& c) {
    JsonOut r;
    r.set("output", JsonOut::list(c.floatTensor("input").values));
    return r;
}
JsonOut doublesEval(const CaseReader& c) {
    JsonOut r;
    r.set("output", JsonOut::list(c.doubles("input")));
    return r;
}
JsonOut codesEval(const CaseReader& c) {
    JsonOut r;
    r.set("output", JsonOut::list(c.ints("input")));
    r.set("output_min", 0.5f);
    return r;
}
JsonOut needsGainEval(const CaseReader& c) {
    JsonOut r;
    r.set("output", c.attrInt("gain", 1));
    return r;
}
JsonOut failingEval(const CaseReader&) { return errorResult(qs::invalidArgument("no good")); }
Evaluator testLookup(std::string_view op) {
    if (op == "Echo") return &echoEval;
    if (op == "Doubles") return &doublesEval;
    if (op == "Codes") return &codesEval;
    if (op == "NeedsGain") return &needsGainEval;
    if (op == "Failing") return &failingEval;
    return nullptr;
}

// checkCase on a case written as JSON text and a result built in the test.
std::optional<std::string> check(const char* caseJson, const JsonOut& result) {
    return checkCase(parseObject(caseJson), result);
}
JsonOut outputs(JsonOut::Object fields) { return JsonOut(std::move(fields)); }

}  // namespace

class TstCli : public QObject {
    Q_OBJECT

private slots:
    // --- the executable: help and version ---------------------------------------------
    void versionAndHelp() {
        Run r = runCli({"--version"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("quantscope-cli "));

        r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("eval"));
        QVERIFY(r.out.contains("conformance"));

        for (const char* cmd : {"eval", "conformance"}) {
            for (const char* flag : {"--help", "-h"}) {
                r = runCli({cmd, flag});
                QCOMPARE(r.exitCode, 0);
                QVERIFY2(r.out.startsWith(QStringLiteral("Usage: quantscope-cli ") + cmd),
                         qPrintable(r.out));
            }
            r = runCli({"help", cmd});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.startsWith(QStringLiteral("Usage: quantscope-cli ") + cmd));
        }
    }

    void usageErrors() {
        for (const QStringList& args : {QStringList{}, QStringList{"frobnicate"},
                                        QStringList{"--frobnicate"}, QStringList{"eval"},
                                        QStringList{"eval", "--bogus", dataFile("quantize_v2.json")},
                                        QStringList{"eval", dataFile("quantize_v2.json"), "-o"},
                                        QStringList{"conformance"}}) {
            const Run r = runCli(args);
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(' ')));
            QVERIFY(!r.err.isEmpty());
        }
    }

    // --- eval -------------------------------------------------------------------------
    void evalWritesResultsInOrder() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString input = writeFile(dir, "good.json", R"({"cases": [
          {"name": "scaled_qint8_small_range", "op": "QuantizeV2",
           "attrs": {"T": "qint8", "mode": "SCALED"}, "shape": [3],
           "input": [-0.064, 0.0, 0.127], "input_min": -0.064, "input_max": 0.127,
           "expected_output": [999], "tolerance": {"mode": "nonsense"}},
          {"name": "range_reversed", "op": "QuantizeV2", "attrs": {"T": "quint8"},
           "shape": [1], "input": [0.0], "input_min": 1.0, "input_max": 0.0},
          {"name": "scalar_qdq", "op": "QuantizeAndDequantizeV2",
           "attrs": {"signed_input": true, "num_bits": 8, "range_given": false},
           "shape": [1], "input": [-3.5], "input_min": 0.0, "input_max": 0.0}
        ]})");
        const Run r = runCli({"eval", input});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));

        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        const QJsonArray results = doc.object().value("results").toArray();
        QCOMPARE(results.size(), 3);
        QCOMPARE(results[0].toObject().value("name").toString(), "scaled_qint8_small_range");
        QCOMPARE(results[1].toObject().value("name").toString(), "range_reversed");
        QCOMPARE(results[2].toObject().value("name").toString(), "scalar_qdq");
        // Integers as integers, float32 as its shortest decimal (-0.128, not
        // -0.12800000607967377), the name first, expected_*/tolerance ignored.
        QVERIFY2(r.out.contains(R"("output": [-64, 0, 127])"), qPrintable(r.out));
        QVERIFY(r.out.contains(R"("output_min": -0.128,)"));
        QVERIFY(r.out.contains(R"("output_max": 0.127)"));
        QVERIFY(r.out.contains(R"("output": [-3.5])"));
        const QJsonObject err = results[1].toObject().value("error").toObject();
        QCOMPARE(err.value("kind").toString(), "InvalidArgument");
        QVERIFY(err.value("message").toString().contains("input_max_range must be larger"));
        QVERIFY(r.out.contains("\"name\": \"scaled_qint8_small_range\",\n      \"output\": [-64"));

        // -o writes the same document to the file and nothing to stdout; several files
        // concatenate in order.
        const QString out = dir.filePath("out.json");
        const Run r2 = runCli({"eval", input, input, "-o", out});
        QCOMPARE(r2.exitCode, 0);
        QVERIFY(r2.out.isEmpty());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray both =
            QJsonDocument::fromJson(f.readAll()).object().value("results").toArray();
        QCOMPARE(both.size(), 6);
        QCOMPARE(both[3].toObject().value("name").toString(), "scaled_qint8_small_range");
    }

    // --- conformance ------------------------------------------------------------------
    void conformanceOverAllVectors_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<int>("minFiles");
        QTest::newRow("TensorFlow's test vectors") << QString() << 4;
        // Random cases from scripts/spec_reference.py, an independent model of the spec.
        QTest::newRow("independent spec model") << QStringLiteral("generated") << 1;
    }
    void conformanceOverAllVectors() {
        QFETCH(QString, folder);
        QFETCH(int, minFiles);
        const QDir dir(QStringLiteral(QS_TEST_DATA_DIR) + "/" + folder);
        const QStringList files = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= minFiles);
        QStringList args{"conformance"};
        qsizetype cases = 0;
        for (const QString& f : files) {
            args << dir.filePath(f);
            QFile file(dir.filePath(f));
            QVERIFY(file.open(QIODevice::ReadOnly));
            cases += QJsonDocument::fromJson(file.readAll()).object().value("cases").toArray().size();
        }
        const Run r = runCli(args);
        const QString report = r.out + r.err;
        QVERIFY2(!r.outLines().isEmpty(), qPrintable(report));
        QCOMPARE(r.outLines().last(), QStringLiteral("%1 passed, 0 failed").arg(cases));
        QVERIFY2(r.exitCode == 0, qPrintable(report));
    }

    void conformanceReportsAWrongValue() {
        QTemporaryDir dir;
        const QString input = writeFile(dir, "wrong.json", R"({"cases": [
          {"name": "right_one", "op": "QuantizeV2", "attrs": {"T": "quint8", "mode": "MIN_FIRST"},
           "shape": [3], "input": [0.0, 127.0, 255.0], "input_min": 0.0, "input_max": 255.0,
           "expected_output": [0, 127, 255]},
          {"name": "deliberately_wrong", "op": "QuantizeV2", "attrs": {"T": "quint8", "mode": "MIN_FIRST"},
           "shape": [3], "input": [0.0, 127.0, 255.0], "input_min": 0.0, "input_max": 255.0,
           "expected_output": [0, 128, 255]}
        ]})");
        const Run r = runCli({"conformance", input});
        QCOMPARE(r.exitCode, 1);
        const QStringList lines = r.outLines();
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], "FAIL " + input + ":deliberately_wrong: output[1]: got 127, expected 128 (exact)");
        QCOMPARE(lines[1], QStringLiteral("1 passed, 1 failed"));
    }

    // --- malformed input: exit 2 and one line naming file, case and field --------------
    void brokenInputs_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("mustName");
        const auto add = [](const char* tag, const char* file, QStringList names) {
            QTest::newRow(tag) << dataFile(file) << names;
        };
        add("not JSON", "broken/not_json.json", {"not_json.json", "not valid JSON", "line 3"});
        add("no cases", "broken/no_cases.json", {"no_cases.json", "\"cases\" is missing"});
        add("unknown op", "broken/unknown_op.json",
            {"unknown_op.json", "\"no_such_op_case\"", "\"op\"", "QuantizeV9"});
        add("missing input", "broken/missing_input.json",
            {"missing_input.json", "\"input_forgotten\"", "\"input\" is missing"});
        add("mistyped shape", "broken/mistyped_shape.json",
            {"mistyped_shape.json", "\"shape_as_text\"", "\"shape\" must be a list"});
        add("no such file", "broken/does_not_exist.json", {"does_not_exist.json", "cannot open"});
    }
    void brokenInputs() {
        QFETCH(QString, file);
        QFETCH(QStringList, mustName);
        for (const char* cmd : {"eval", "conformance"}) {
            const Run r = runCli({cmd, file});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
            QCOMPARE(r.errLines().size(), 1);
            for (const QString& s : mustName)
                QVERIFY2(r.err.contains(s), qPrintable(r.err + " lacks " + s));
        }
    }

    void malformedExpectationsOnlyStopConformance() {
        const QString file = dataFile("broken/bad_tolerance.json");
        QCOMPARE(runCli({"eval", file}).exitCode, 0);  // eval ignores tolerance
        const Run r = runCli({"conformance", file});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY(r.err.contains("\"tolerance_mode_typo\""));
        QVERIFY(r.err.contains("\"tolerance.mode\""));
    }

    // A shape whose element count overflows int64 (2^32 * 2^32 * 2) is a format error
    // naming the field; its product used to be signed overflow (undefined behaviour).
    void shapeBeyond64BitsIsAFormatError() {
        for (const char* op : {"QuantizeV2", "Dequantize", "QuantizeAndDequantizeV2"}) {
            QJsonObject c{{"name", "huge"}, {"op", op}, {"input", QJsonArray{1, 2}},
                          {"shape", QJsonArray{4294967296.0, 4294967296.0, 2}},
                          {"input_min", -1}, {"input_max", 1}, {"attrs", QJsonObject{{"T", "qint8"}}}};
            const QByteArray json = QJsonDocument(QJsonObject{{"cases", QJsonArray{c}}}).toJson();
            const auto run = runJson(json, "huge.json");
            QVERIFY2(!run.ok(), op);
            QVERIFY2(run.error().message.find("\"shape\"") != std::string::npos &&
                         run.error().message.find("64 bits") != std::string::npos,
                     run.error().message.c_str());
        }
        QCOMPARE(qs::checkedNumElements({4294967296, 4294967296, 2}), std::nullopt);
        QCOMPARE(qs::checkedNumElements({3, -1}), std::nullopt);
        QCOMPARE(qs::numElements({3, -1}), int64_t(-1));
        QCOMPARE(qs::checkedNumElements({}), std::optional<int64_t>(1));
        // Checked dimension by dimension, as TF's TensorShape does: a later 0 does not help.
        QCOMPARE(qs::checkedNumElements({4294967296, 4294967296, 0}), std::nullopt);
        QCOMPARE(qs::checkedNumElements({0, 4294967296, 4294967296}), std::optional<int64_t>(0));
    }

    // --- the runner in-process, with test evaluators ----------------------------------
    void runnerFormatsResults() {
        const auto run = runJson(R"({"cases": [
            {"name": "a", "op": "Echo", "input": [0.1, "nan", "inf", "-inf", 1e-45, 3, 16777217]},
            {"name": "b", "op": "Doubles", "input": [0.1, 0.30000000000000004]},
            {"name": "c", "op": "Codes", "input": [-128, 0, 255]},
            {"name": "d", "op": "Failing"}
        ]})", "mem.json", &testLookup);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
        QCOMPARE(run->cases.size(), size_t{4});
        const FileRun files[] = {run.value()};
        const std::string text = resultsDocument(files).dump(2);
        const char* const expected = R"({
  "results": [
    {
      "name": "a",
      "output": [0.1, "nan", "inf", "-inf", 1e-45, 3, 16777216]
    },
    {
      "name": "b",
      "output": [0.1, 0.30000000000000004]
    },
    {
      "name": "c",
      "output": [-128, 0, 255],
      "output_min": 0.5
    },
    {
      "name": "d",
      "error": {
        "kind": "InvalidArgument",
        "message": "no good"
      }
    }
  ]
})";
        QCOMPARE(QString::fromStdString(text), QString::fromUtf8(expected));
    }

    void runnerReportsMalformedCases_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown op") << QByteArray(R"({"cases": [{"name": "x", "op": "Nope"}]})")
                                    << R"(mem.json: case "x": field "op" names an unknown op "Nope")";
        QTest::newRow("no name") << QByteArray(R"({"cases": [{"op": "Echo", "input": 1}]})")
                                 << R"(mem.json: case #0: field "name" is missing)";
        QTest::newRow("no op") << QByteArray(R"({"cases": [{"name": "x"}]})")
                               << R"(mem.json: case "x": field "op" is missing)";
        QTest::newRow("missing input") << QByteArray(R"({"cases": [{"name": "x", "op": "Echo"}]})")
                                       << R"(mem.json: case "x": field "input" is missing)";
        QTest::newRow("bad element")
            << QByteArray(R"({"cases": [{"name": "x", "op": "Echo", "input": [1, true]}]})")
            << R"(mem.json: case "x": field "input[1]" must be a number or a list of numbers)";
        QTest::newRow("bad shape")
            << QByteArray(R"({"cases": [{"name": "x", "op": "Echo", "shape": [2, -1], "input": [1]}]})")
            << R"(mem.json: case "x": field "shape[1]" must not be negative)";
        QTest::newRow("bad attr")
            << QByteArray(R"({"cases": [{"name": "x", "op": "NeedsGain", "attrs": {"gain": 1.5}}]})")
            << R"(mem.json: case "x": field "attrs.gain" must be an integer)";
        QTest::newRow("attrs not object")
            << QByteArray(R"({"cases": [{"name": "x", "op": "NeedsGain", "attrs": [1]}]})")
            << R"(mem.json: case "x": field "attrs" must be an object)";
        QTest::newRow("case not object") << QByteArray(R"({"cases": [3]})")
                                         << R"(mem.json: cases[0] must be an object)";
        QTest::newRow("cases not list") << QByteArray(R"({"cases": {}})")
                                        << R"(mem.json: field "cases" must be a list)";
        QTest::newRow("top level list") << QByteArray(R"([1, 2])")
                                        << R"(mem.json: must be a JSON object {"cases": [...]})";
        QTest::newRow("empty") << QByteArray("") << "mem.json: not valid JSON (line 1, column 1: illegal value)";
    }
    void runnerReportsMalformedCases() {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const auto run = runJson(json, "mem.json", &testLookup);
        QVERIFY(!run.ok());
        QCOMPARE(QString::fromStdString(run.error().message), message);
    }

    // --- conformance_check on synthetic results ---------------------------------------
    void exactFloat32RoundsTheExpectedDecimal() {
        // 0.1 is not a float32: the float32 result 0.1f must equal it exactly...
        QVERIFY(!check(R"({"expected_output": [0.1, 0.49803922]})",
                       outputs({{"output", JsonOut::Array{0.1f, 0.49803922f}}})));
        // ...and one ulp off must not.
        const float off = std::nextafter(0.49803922f, 1.0f);
        const auto d = check(R"({"expected_output": [0.1, 0.49803922]})",
                             outputs({{"output", JsonOut::Array{0.1f, off}}}));
        QVERIFY(d);
        QCOMPARE(QString::fromStdString(*d),
                 "output[1]: got " + QString::fromStdString(formatFloat(off)) +
                     ", expected 0.49803922 (exact)");
        // float64 results (TPUSimulatedQuantization precision "exact") compare as doubles.
        QVERIFY(!check(R"({"expected_output": [0.11111111111111116]})",
                       outputs({{"output", JsonOut::Array{0.11111111111111116}}})));
        QVERIFY(check(R"({"expected_output": [0.1]})",
                      outputs({{"output", JsonOut::Array{double(0.1f)}}})));
    }

    void integersAndTolerances() {
        QVERIFY(!check(R"({"expected_output": [0, 127, 255]})",
                       outputs({{"output", JsonOut::Array{0, 127, 255}}})));
        QCOMPARE(*check(R"({"expected_output": [0, 128, 255]})",
                        outputs({{"output", JsonOut::Array{0, 127, 255}}})),
                 std::string("output[1]: got 127, expected 128 (exact)"));
        // atol + rtol * |expected|, inclusive.
        const char* tol = R"({"expected_output": [100.0], "tolerance": {"mode": "atol", "atol": 0.5, "rtol": 0.01}})";
        QVERIFY(!check(tol, outputs({{"output", JsonOut::Array{101.5f}}})));
        QCOMPARE(*check(tol, outputs({{"output", JsonOut::Array{101.5625f}}})),
                 std::string("output[0]: got 101.5625, expected 100 (atol 0.5, rtol 0.01)"));
        QVERIFY(!check(R"({"expected_output": [1, 2], "tolerance": {"mode": "atol", "atol": 0.1}})",
                       outputs({{"output", JsonOut::Array{1, 2}}})));
        // tolerance_<key> overrides tolerance for that key only.
        const char* over = R"({"expected_output": [1.0], "expected_output_min": 0.0,
                               "tolerance_output_min": {"mode": "atol", "atol": 1e-5}})";
        QVERIFY(!check(over, outputs({{"output", JsonOut::Array{1.0f}}, {"output_min", 1e-6f}})));
        QVERIFY(check(over, outputs({{"output", JsonOut::Array{1.00001f}}, {"output_min", 0.0f}})));
        QVERIFY(check(over, outputs({{"output", JsonOut::Array{1.0f}}, {"output_min", 1e-4f}})));
        // "mode": "exact" is the default.
        QVERIFY(check(R"({"expected_output": [1.0], "tolerance": {"mode": "exact"}})",
                      outputs({{"output", JsonOut::Array{1.00001f}}})));
    }

    void constraintsNullsAndSpecials() {
        const char* gt = R"({"expected_output_max": {"gt": 0.0}})";
        QVERIFY(!check(gt, outputs({{"output_max", 0.01f}})));
        QCOMPARE(*check(gt, outputs({{"output_max", 0.0f}})), std::string("output_max: got 0, expected > 0"));
        QVERIFY(!check(R"({"expected_x": {"ge": 1, "le": 2}})", outputs({{"x", 1}})));
        QVERIFY(check(R"({"expected_x": {"lt": 1}})", outputs({{"x", 1}})));
        QVERIFY(check(R"({"expected_x": {"gt": 0}})",
                      outputs({{"x", std::numeric_limits<float>::quiet_NaN()}})));

        const char* none = R"({"expected_output": [null, 1]})";
        QVERIFY(!check(none, outputs({{"output", JsonOut::Array{nullptr, 1.0f}}})));
        QCOMPARE(*check(none, outputs({{"output", JsonOut::Array{-1.0f, 1.0f}}})),
                 std::string("output[0]: got -1, expected null (exact)"));
        QVERIFY(check(R"({"expected_output": [0.0]})", outputs({{"output", JsonOut::Array{nullptr}}})));

        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float inf = std::numeric_limits<float>::infinity();
        const char* specials = R"({"expected_output": ["nan", "inf", "-inf"]})";
        QVERIFY(!check(specials, outputs({{"output", JsonOut::Array{nan, inf, -inf}}})));
        QVERIFY(check(specials, outputs({{"output", JsonOut::Array{0.0f, inf, -inf}}})));
        QVERIFY(check(R"({"expected_output": [1.0]})", outputs({{"output", JsonOut::Array{nan}}})));
        QVERIFY(check(R"({"expected_output": ["inf"], "tolerance": {"mode": "atol", "atol": 1e30}})",
                      outputs({{"output", JsonOut::Array{3.0e38f}}})));
    }

    void rowsAndShapes() {
        const char* rows = R"({"expected_output": [[0, 5, 10], [3, 8]]})";
        QVERIFY(!check(rows, outputs({{"output", JsonOut::Array{JsonOut::Array{0, 5, 10},
                                                                JsonOut::Array{3, 8}}}})));
        QCOMPARE(*check(rows, outputs({{"output", JsonOut::Array{JsonOut::Array{0, 5, 10},
                                                                 JsonOut::Array{3, 8, 13}}}})),
                 std::string("output[1]: got 3 elements, expected 2"));
        QCOMPARE(*check(rows, outputs({{"output", JsonOut::Array{JsonOut::Array{0, 5, 10}}}})),
                 std::string("output: got 1 elements, expected 2"));
        QCOMPARE(*check(rows, outputs({{"output", JsonOut::Array{0, 5}}})),
                 std::string("output[0]: got 0, expected a list of 3 (exact)"));
        QCOMPARE(*check(R"({"expected_output": 1.0})", outputs({{"output", JsonOut::Array{1.0f}}})),
                 std::string("output: got a list of 1, expected 1 (exact)"));
        // A scalar range matches the 1-element list the vectors write for it.
        QVERIFY(!check(R"({"expected_output_max": [127.0]})", outputs({{"output_max", 127.0f}})));
        QVERIFY(check(R"({"expected_output_max": [127.0, 254.0]})", outputs({{"output_max", 127.0f}})));
    }

    void reprErrorsAndMissingKeys() {
        QVERIFY(!check(R"j({"expected_repr": "QuantizationConfig(num_buckets=10, lower=-1.0, upper=1.0)"})j",
                       outputs({{"repr", "QuantizationConfig(num_buckets=10, lower=-1.0, upper=1.0)"}})));
        QVERIFY(check(R"j({"expected_repr": "Q(lower=-1.0)"})j", outputs({{"repr", "Q(lower=-1)"}})));

        const char* expectErr =
            R"({"expected_error": {"kind": "InvalidArgument", "message_contains": "Invalid range"}})";
        QVERIFY(!check(expectErr, errorResult(qs::invalidArgument("Invalid range: 3 > 2"))));
        QCOMPARE(*check(expectErr, errorResult(qs::unimplemented("Invalid range"))),
                 std::string(R"(error: got Unimplemented "Invalid range", expected InvalidArgument error containing "Invalid range")"));
        QCOMPARE(*check(expectErr, errorResult(qs::invalidArgument("other"))),
                 std::string(R"(error.message: got "other", expected it to contain "Invalid range")"));
        QCOMPARE(*check(expectErr, outputs({{"output", JsonOut::Array{1.0f}}})),
                 std::string(R"(error: got outputs, expected InvalidArgument error containing "Invalid range")"));
        QCOMPARE(*check(R"({"expected_output": [1.0], "expected_output_min": 0})",
                        errorResult(qs::valueError("bad"))),
                 std::string(R"j(error: got ValueError "bad", expected outputs (output, output_min))j"));
        QVERIFY(!check(R"({"expected_error": {"kind": "ValueError"}})", errorResult(qs::valueError("x"))));

        QCOMPARE(*check(R"({"expected_output": [1.0], "expected_input_min_backprop": [0.0]})",
                        outputs({{"output", JsonOut::Array{1.0f}}})),
                 std::string("input_min_backprop: missing from the result"));
        QVERIFY(check(R"({"name": "x", "tolerance": null})", outputs({{"output", 1}})));
    }

    void malformedExpectationsThrow() {
        const auto throwsField = [](const char* json, const std::string& field) {
            try {
                (void)check(json, outputs({{"output", JsonOut::Array{1.0f}}}));
            } catch (const CaseFormatError& e) {
                return e.field == field;
            }
            return false;
        };
        QVERIFY(throwsField(R"({"expected_output": [1], "tolerance": {"mode": "rel"}})", "tolerance.mode"));
        QVERIFY(throwsField(R"({"expected_output": [1], "tolerance": {"mode": "atol"}})", "tolerance.atol"));
        QVERIFY(throwsField(R"({"expected_output": [1], "tolerance_output": 3})", "tolerance_output"));
        QVERIFY(throwsField(R"({"expected_error": {"message_contains": "x"}})", "expected_error.kind"));
        QVERIFY(throwsField(R"({"expected_output": {"near": 1}})", "expected_output.near"));
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
