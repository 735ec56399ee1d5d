// Every lesson file in resources/lessons loads, and each lesson's check passes on its own
// preset (its data generated or loaded as the GUI would). Plus the file reader's errors.
#include <cmath>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "core/data/generator_spec.h"
#include "core/data/load_file.h"
#include "session/explorer/data_service.h"
#include "session/lessons/lesson_file.h"

using namespace qs::ui;

namespace {

const QString kLessonDir = QStringLiteral(QS_SOURCE_DIR "/resources/lessons");

qs::Result<qs::data::Dataset> lessonData(const Lesson& l) {
    if (l.data.isFile()) {  // a data file or a model's tensor, loaded as the window loads it
        auto d = DataService::loadNow(l.data);
        if (!d) return d.error();
        return **d;
    }
    auto g = qs::data::parseGeneratorSpec(l.data.generator.toStdString());
    if (!g) return g.error();
    return qs::data::generate(*g);
}

QJsonObject minimalLesson() {
    return QJsonDocument::fromJson(R"({"format": "quantscope-lesson", "version": 1, "id": "x",
        "title": "X", "order": 1, "explanation": "e", "spec": {"op": "QuantizeV2"},
        "data": "uniform:n=10", "check": {"kind": "step", "tolerance": 0.1}})")
        .object();
}

QString errorOf(const QJsonObject& o) {
    QString e;
    if (lessonFromJson(o, QString(), &e)) return QStringLiteral("(loaded)");
    return e;
}

}  // namespace

class TstLessons : public QObject {
    Q_OBJECT

private slots:
    void allLessonsLoad() {
        QStringList errors;
        const QList<Lesson> lessons = loadLessons(kLessonDir, &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY(lessons.size() >= 10);
        QStringList ids;
        for (const Lesson& l : lessons) {
            QVERIFY(!ids.contains(l.id));
            ids << l.id;
            QVERIFY(!l.title.isEmpty() && !l.explanation.isEmpty());
        }
        for (int i = 1; i < lessons.size(); ++i) QVERIFY(lessons[i - 1].order <= lessons[i].order);
        // The lesson keys are the session keys: a few spot checks.
        const auto byId = [&](const char* id) {
            for (const Lesson& l : lessons)
                if (l.id == QLatin1String(id)) return l;
            return Lesson{};
        };
        QCOMPARE(byId("scaled-bound").spec.mode, qs::QuantizeMode::Scaled);
        QCOMPARE(byId("scaled-bound").spec.min_range, -10.0f);
        QCOMPARE(byId("per-channel").spec.axis, qint64{1});
        QVERIFY(byId("per-channel").data.path.endsWith(QLatin1String("resources/lessons/../data/weights_8ch.npy")));
        QCOMPARE(byId("tpu-combiner").spec.op, qs::QuantOp::TpuSimulatedQuantization);
        QCOMPARE(byId("tie-bias").check.kind, std::string("tie_bias"));
        QCOMPARE(byId("tie-bias").check.tolerance, 0.01);
        QCOMPARE(byId("per-channel").check.comparison, qs::analysis::CheckComparison::AtLeast);
        QCOMPARE(byId("round-trip-min-first").check.params.at("steps_per_trip"), 1.0);
        // A model's tensor as the data: the file relative to the lesson, the tensor by name.
        const Lesson real = byId("per-channel-real-weights");
        QVERIFY(real.data.isModelTensor());
        QVERIFY(real.data.path.endsWith(QLatin1String("resources/lessons/../models/person_detect.tflite")));
        QCOMPARE(real.data.tensor, QStringLiteral("MobilenetV1/Conv2d_1_depthwise/depthwise_weights/read"));
        QCOMPARE(real.spec.axis, qint64{3});
    }

    void eachCheckPassesOnItsPreset_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : QDir(kLessonDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << QDir(kLessonDir).filePath(f);
    }
    void eachCheckPassesOnItsPreset() {
        QFETCH(QString, file);
        QString error;
        const auto lesson = loadLesson(file, &error);
        QVERIFY2(lesson, qPrintable(error));
        const auto data = lessonData(*lesson);
        QVERIFY2(data.ok(), data.ok() ? "" : data.error().message.c_str());
        const auto r = qs::analysis::runLessonCheck(lesson->check, data->values, data->shape,
                                                    lesson->spec, qs::Exec{2});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        qInfo("%s: %s", qPrintable(lesson->id), r->text.c_str());
        QVERIFY2(r->passed, r->text.c_str());
    }

    void checksCanFail() {
        // A check that cannot fail would prove nothing: the SCALED lesson with the r1.4
        // documentation's value (10) instead of the kernel's (9.921875) must fail.
        QStringList errors;
        const QList<Lesson> lessons = loadLessons(kLessonDir, &errors);
        for (const Lesson& l : lessons) {
            if (l.id != QLatin1String("scaled-bound")) continue;
            auto data = lessonData(l);
            QVERIFY(data.ok());
            qs::analysis::LessonCheck wrong = l.check;
            wrong.params["expected"] = 10.0;  // what the r1.4 documentation would give
            const auto r = qs::analysis::runLessonCheck(wrong, data->values, data->shape, l.spec);
            QVERIFY(r.ok());
            QVERIFY(!r->passed);
            QCOMPARE(r->measured, 9.921875);
        }
    }

    void perChannelLessonFailsOnTheWrongAxis() {
        // Axis 0 of the [1, 3, 3, 8] kernel is one slice: there is nothing per channel to
        // gain, and the check must say so.
        QString error;
        const auto lesson = loadLesson(QDir(kLessonDir).filePath(QStringLiteral("12-per-channel-real-weights.json")), &error);
        QVERIFY2(lesson, qPrintable(error));
        const auto data = lessonData(*lesson);
        QVERIFY(data.ok());
        QCOMPARE(data->shape, (qs::Shape{1, 3, 3, 8}));
        qs::QuantSpec wrong = lesson->spec;
        wrong.axis = 0;
        const auto r = qs::analysis::runLessonCheck(lesson->check, data->values, data->shape, wrong);
        QVERIFY(r.ok());
        QVERIFY(!r->passed);
        QVERIFY2(r->measured < 10.0, r->text.c_str());
    }

    void storedCodesLessonFailsWithoutNarrowRange() {
        // The int8 file holds round(x / max|x| × 127): SCALED with narrow_range gives every
        // code back; without it the op's codes differ and the check must fail.
        QString error;
        const auto lesson = loadLesson(QDir(kLessonDir).filePath(QStringLiteral("13-stored-int8-table.json")), &error);
        QVERIFY2(lesson, qPrintable(error));
        QVERIFY(lesson->data.isModelTensor());
        QVERIFY(lesson->data.path.endsWith(QLatin1String("resources/lessons/../models/test-model-float32.safetensors")));
        QVERIFY(QString::fromStdString(lesson->check.stored_model)
                    .endsWith(QLatin1String("resources/lessons/../models/test-model-int8.safetensors")));
        QCOMPARE(lesson->check.comparison, qs::analysis::CheckComparison::AtMost);
        const auto data = lessonData(*lesson);
        QVERIFY(data.ok());
        QCOMPARE(data->shape, (qs::Shape{29528, 2}));
        auto r = qs::analysis::runLessonCheck(lesson->check, data->values, data->shape, lesson->spec);
        QVERIFY2(r.ok() && r->passed && r->measured == 0, r.ok() ? r->text.c_str() : r.error().message.c_str());
        qs::QuantSpec wide = lesson->spec;
        wide.narrow_range = false;
        r = qs::analysis::runLessonCheck(lesson->check, data->values, data->shape, wide);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        qInfo("narrow_range off: %s", r->text.c_str());
        QVERIFY(!r->passed);
        QVERIFY(r->measured > 0);
        QVERIFY2(r->text.find("by at most 1;") != std::string::npos, r->text.c_str());
        // The data's range is lopsided ([−52.46, 41.70]): without narrow_range the −128 end
        // sets the scale (128/52.46). On the symmetric range ±52.46 the scale is 127/52.46
        // again (the +127 end decides) and the codes match once more.
        wide.max_range = -wide.min_range;
        r = qs::analysis::runLessonCheck(lesson->check, data->values, data->shape, wide);
        QVERIFY(r.ok());
        qInfo("narrow_range off, symmetric range: %s", r->text.c_str());
        QVERIFY2(r->passed, r->text.c_str());
        // Codes compared element by element: the same codes in another order do not match.
        std::vector<float> reversed(data->values.rbegin(), data->values.rend());
        r = qs::analysis::runLessonCheck(lesson->check, reversed, data->shape, lesson->spec);
        QVERIFY(r.ok());
        QVERIFY(!r->passed);
    }

    void storedCodesCheckErrors() {
        const QString models = QStringLiteral(QS_SOURCE_DIR "/resources/models/");
        const std::vector<float> x{0.1f, 0.2f, 0.3f, 0.4f};
        qs::analysis::LessonCheck c;
        c.kind = "stored_codes_match";
        auto message = [&](const qs::analysis::LessonCheck& check, const std::vector<float>& v) {
            auto r = qs::analysis::runLessonCheck(check, v, {static_cast<int64_t>(v.size())}, qs::QuantSpec{});
            return r.ok() ? std::string("(ran)") : r.error().message;
        };
        QVERIFY(message(c, x).find("needs \"stored_model\" and \"stored_tensor\"") != std::string::npos);
        c.stored_model = (models + "no-such.safetensors").toStdString();
        c.stored_tensor = "embeddings";
        std::string m = message(c, x);
        QVERIFY2(m.find("no-such.safetensors") != std::string::npos, m.c_str());
        c.stored_model = (models + "test-model-int8.safetensors").toStdString();
        c.stored_tensor = "nope";
        m = message(c, x);
        QVERIFY2(m.find("has no tensor 'nope'") != std::string::npos, m.c_str());
        c.stored_tensor = "embeddings";
        m = message(c, x);  // 59056 codes for 4 values
        QVERIFY2(m.find("holds 59056 codes, the lesson's data 4 values") != std::string::npos, m.c_str());
        c.stored_model = (models + "test-model-float32.safetensors").toStdString();
        m = message(c, x);  // floats are not codes
        QVERIFY2(m.find("holds float32, not integer codes") != std::string::npos, m.c_str());
        // A file that is not a model: the reader's message, not a crash.
        QTemporaryDir dir;
        QFile junk(dir.filePath("junk.safetensors"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("\xff\xff\xff\xff\xff\xff\xff\x7f{");
        junk.close();
        c.stored_model = junk.fileName().toStdString();
        m = message(c, x);
        QVERIFY2(m.rfind("lesson check \"stored_codes_match\": ", 0) == 0 && m.find("junk.safetensors") != std::string::npos,
                 m.c_str());

        // The reader: both keys, strings, an existing file, and only for this kind.
        QJsonObject o = minimalLesson();
        o["check"] = QJsonObject{{"kind", "stored_codes_match"}, {"stored_tensor", "embeddings"}};
        QVERIFY(errorOf(o).startsWith(QStringLiteral("check.stored_model, stored_tensor: the kind stored_codes_match needs both")));
        o["check"] = QJsonObject{{"kind", "stored_codes_match"}, {"stored_model", 3}, {"stored_tensor", "embeddings"}};
        QCOMPARE(errorOf(o), QStringLiteral("check.stored_model: must be a non-empty string"));
        o["check"] = QJsonObject{{"kind", "stored_codes_match"}, {"stored_model", "missing.safetensors"},
                                 {"stored_tensor", "embeddings"}};
        QCOMPARE(errorOf(o), QStringLiteral("check.stored_model: 'missing.safetensors' is not a file"));
        o["check"] = QJsonObject{{"kind", "step"}, {"stored_model", "x"}, {"stored_tensor", "y"}};
        QCOMPARE(errorOf(o), QStringLiteral("check.stored_model, stored_tensor: only the kind stored_codes_match takes them"));
        o["check"] = QJsonObject{{"kind", "step"}, {"comparison", "at_most"}};
        QCOMPARE(errorOf(o), QStringLiteral("(loaded)"));
        o["check"] = QJsonObject{{"kind", "stored_codes_match"}, {"stored_model", models + "test-model-int8.safetensors"},
                                 {"stored_tensor", "embeddings"}};
        QCOMPARE(errorOf(o), QStringLiteral("(loaded)"));
    }

    void lessonModelDataErrors() {
        QJsonObject o = minimalLesson();
        o["data"] = QJsonObject{{"model", "m.tflite"}};
        QVERIFY(errorOf(o).contains(QStringLiteral("\"model\" and \"tensor\" go together")));
        o["data"] = QJsonObject{{"model", "m.tflite"}, {"tensor", 3}};
        QCOMPARE(errorOf(o), QStringLiteral("data.tensor: must be a string"));
        o["data"] = QJsonObject{{"model", "m.tflite"}, {"tensor", "t"}, {"file", "x.npy"}};
        QVERIFY(errorOf(o).contains(QStringLiteral("either \"file\" or \"model\"")));
        o["data"] = QJsonObject{{"model", "m.tflite"}, {"tensor", "t"}};
        QCOMPARE(errorOf(o), QStringLiteral("(loaded)"));
    }

    void checkErrors() {
        const std::vector<float> x{0.1f, 0.2f, 0.3f, 0.4f};
        qs::analysis::LessonCheck c;
        c.kind = "nope";
        auto r = qs::analysis::runLessonCheck(c, x, {4}, qs::QuantSpec{});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.rfind("lesson check: unknown kind \"nope\" (valid: step, ", 0) == 0,
                 r.error().message.c_str());
        c.kind = "per_channel_gain";
        r = qs::analysis::runLessonCheck(c, x, {4}, qs::QuantSpec{});
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.find("needs data of rank >= 2") != std::string::npos);
        c.kind = "step";
        QVERIFY(!qs::analysis::runLessonCheck(c, x, {3}, qs::QuantSpec{}).ok());  // shape
        QVERIFY(!qs::analysis::runLessonCheck(c, {}, {0}, qs::QuantSpec{}).ok());
        c.kind = "scaled_max";  // "expected" is required
        QVERIFY(!qs::analysis::runLessonCheck(c, x, {4}, qs::QuantSpec{}).ok());
        // A lesson file's tie count beyond int64 (or negative) is refused, not converted
        // (undefined behaviour, caught by the sanitizer run).
        c.kind = "tie_bias";
        for (double ties : {1e300, -1e300, 1e6 + 2}) {
            c.params["ties"] = ties;
            r = qs::analysis::runLessonCheck(c, x, {4}, qs::QuantSpec{});
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.find("fewer than two steps above zero") != std::string::npos,
                     r.error().message.c_str());
        }
        c.params["ties"] = 1e6 + 1.5;  // truncates and evens to the largest count allowed
        QVERIFY(qs::analysis::runLessonCheck(c, x, {4}, qs::QuantSpec{}).ok());
    }

    // Every built-in lesson sets the stage its text talks about: a view, exactly its docks,
    // and the parameters it asks the audience to change; the names are the ones the window
    // knows.
    void everyLessonNamesItsStage() {
        QStringList errors;
        const QList<Lesson> lessons = loadLessons(kLessonDir, &errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        for (const Lesson& l : lessons) {
            QVERIFY2(lessonViewNames().contains(l.stage.view), qPrintable(l.id));
            QVERIFY2(l.stage.docks.has_value(), qPrintable(l.id));
            QVERIFY2(!l.stage.parameters.isEmpty(), qPrintable(l.id));
        }
        const auto byId = [&](const char* id) {
            for (const Lesson& l : lessons)
                if (l.id == QLatin1String(id)) return l.stage;
            return LessonStage{};
        };
        // "Drag a range handle": the transfer curve with the range on the strip.
        QCOMPARE(byId("staircase-step").view, QStringLiteral("transfer"));
        QCOMPARE(byId("staircase-step").parameters, (QStringList{"min_range", "max_range"}));
        QCOMPARE(byId("six-db-per-bit").view, QStringLiteral("bit-sweep"));
        QCOMPARE(byId("tpu-combiner").view, QStringLiteral("error-histogram"));
        // The real kernel: the Model dock only (not the report and the stored codes), compact;
        // the lesson's check shows both SQNRs, so the statistics give the text their room.
        QCOMPARE(*byId("per-channel-real-weights").docks, (QStringList{"parameters", "model"}));
        QCOMPARE(byId("per-channel-real-weights").layout, QStringLiteral("compact"));
        QVERIFY(!byId("stored-int8-table").docks->contains(QStringLiteral("model")));
    }

    void stageErrors() {
        // A lesson without a stage (every file before it existed) loads and changes nothing.
        QString e;
        auto plain = lessonFromJson(minimalLesson(), QString(), &e);
        QVERIFY2(plain, qPrintable(e));
        QCOMPARE(plain->stage, LessonStage{});
        QVERIFY(!plain->stage.docks.has_value());
        QJsonObject o = minimalLesson();
        o["stage"] = QJsonObject{{"view", "bit-sweep"}, {"docks", QJsonArray{}}, {"layout", "compact"},
                                 {"parameters", QJsonArray{"num_bits", "op", "min_range"}}};
        auto staged = lessonFromJson(o, QString(), &e);
        QVERIFY2(staged, qPrintable(e));
        QCOMPARE(staged->stage.view, QStringLiteral("bit-sweep"));
        QCOMPARE(*staged->stage.docks, QStringList{});  // no dock but the lesson's
        QCOMPARE(staged->stage.parameters, (QStringList{"num_bits", "op", "min_range"}));
        auto stageError = [](const QJsonValue& stage) {
            QJsonObject l = minimalLesson();
            l["stage"] = stage;
            return errorOf(l);
        };
        QCOMPARE(stageError(3), QStringLiteral("stage: must be an object"));
        QVERIFY(stageError(QJsonObject{{"view", "bits"}}).startsWith("stage.view: 'bits' is not one of transfer, histogram,"));
        QCOMPARE(stageError(QJsonObject{{"view", 1}}), QStringLiteral("stage.view: must be a string"));
        QCOMPARE(stageError(QJsonObject{{"docks", "model"}}), QStringLiteral("stage.docks: must be a list of names"));
        QVERIFY(stageError(QJsonObject{{"docks", QJsonArray{"model", "lesson"}}})
                    .startsWith("stage.docks[1]: 'lesson' is not one of parameters, data,"));
        QCOMPARE(stageError(QJsonObject{{"docks", QJsonArray{"model", "model"}}}),
                 QStringLiteral("stage.docks: 'model' is named twice"));
        QCOMPARE(stageError(QJsonObject{{"layout", "wide"}}),
                 QStringLiteral("stage.layout: 'wide' is not one of standard, compact"));
        QVERIFY(stageError(QJsonObject{{"parameters", QJsonArray{"bits"}}}).startsWith("stage.parameters[0]: 'bits' is not one of op, T,"));
        QCOMPARE(stageError(QJsonObject{{"dock", QJsonArray{}}}),
                 QStringLiteral("stage.dock: unknown key (stage takes view, docks, layout, parameters)"));
    }

    void readerErrors() {
        QCOMPARE(errorOf(minimalLesson()), QStringLiteral("(loaded)"));
        QJsonObject o = minimalLesson();
        o["format"] = "quantscope-session";
        QVERIFY(errorOf(o).contains("not a QuantScope lesson"));
        o = minimalLesson();
        o["version"] = 2;
        QVERIFY(errorOf(o).contains("newer QuantScope"));
        o = minimalLesson();
        o.remove("title");
        QCOMPARE(errorOf(o), QStringLiteral("title: missing or not a string"));
        o = minimalLesson();
        o["spec"] = QJsonObject{{"mode", "FOO"}};
        QCOMPARE(errorOf(o), QStringLiteral("spec.mode: 'FOO' is not one of MIN_COMBINED, MIN_FIRST, SCALED"));
        o = minimalLesson();
        o["check"] = QJsonObject{{"kind", "nope"}};
        QVERIFY(errorOf(o).startsWith("check.kind: 'nope' is not one of step, "));
        o = minimalLesson();
        o["check"] = QJsonObject{{"kind", "step"}, {"levels", "many"}};
        QCOMPARE(errorOf(o), QStringLiteral("check.levels: must be a number"));
        o = minimalLesson();
        o["check"] = QJsonObject{{"kind", "step"}, {"tolerance", -1}};
        QCOMPARE(errorOf(o), QStringLiteral("check.tolerance: must be >= 0"));
        o = minimalLesson();
        o["data"] = 3;
        QCOMPARE(errorOf(o), QStringLiteral("data: must be a generator string or an object"));
        // A broken file names the file and the line.
        QTemporaryDir dir;
        QFile f(dir.filePath("broken.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n\"format\": \"quantscope-lesson\",\n\"id\": \n}");
        f.close();
        QString e;
        QVERIFY(!loadLesson(f.fileName(), &e));
        QVERIFY2(e.startsWith("broken.json: line 4: not valid JSON"), qPrintable(e));
        QStringList errors;
        QVERIFY(loadLessons(dir.path(), &errors).isEmpty());
        QCOMPARE(errors.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TstLessons)
#include "tst_lessons.moc"
