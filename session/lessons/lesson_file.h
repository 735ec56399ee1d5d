// Guided lessons as data: resources/lessons/*.json, one lesson per file, so new lessons need
// no code. A lesson is a preset (the explorer's QuantSpec, with the session file's keys,
// and a data source) plus a short explanation and a check (core/model_analysis/lesson_check.h):
//   {"format": "quantscope-lesson", "version": 1, "id": "tie-bias", "title": "…", "order": 9,
//    "explanation": "<p>simple HTML</p>",
//    "spec": { …the keys of a session's "parameters"… },
//    "data": "uniform:n=1000000,seed=1"  or  {"generator": "…", "file": "../data/x.npy"}
//            or  {"model": "../models/m.tflite", "tensor": "NAME"} (a model file's tensor),
//    "check": {"kind": "tie_bias", "tolerance": 0.01, "relative": false,
//              "comparison": "near" | "at_least" | "at_most", …numeric parameters of the kind…,
//              "stored_model": "../models/m-int8.safetensors", "stored_tensor": "NAME"
//              (stored_codes_match only: the file must exist; the check reads the tensor)},
//    "stage": {"view": "transfer", "docks": […], "layout": "compact", "parameters": […]}
//             (optional: what the window shows while the lesson is open, lesson_stage.h)}
// A relative data or model file is relative to the lesson file.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

#include "core/model_analysis/lesson_check.h"
#include "session/explorer/state.h"
#include "session/lessons/lesson_stage.h"

namespace qs::ui {

struct Lesson {
    QString id, title, explanation;
    int order = 0;
    qs::QuantSpec spec;
    DataSource data;
    qs::analysis::LessonCheck check;
    LessonStage stage;
    QString path;  // the file it came from
};

constexpr int kLessonFormatVersion = 1;

// `error` gets "check.kind: must be a string" etc. `dir` resolves a relative data file.
std::optional<Lesson> lessonFromJson(const QJsonObject& json, const QString& dir, QString* error);
// "tie-bias.json: line 3: not valid JSON (…)", "tie-bias.json: spec.mode: 'FOO' is not one of …"
std::optional<Lesson> loadLesson(const QString& path, QString* error);
// Every *.json of `dir`, sorted by order then id. Files that fail are skipped and their
// messages appended to `errors`.
QList<Lesson> loadLessons(const QString& dir, QStringList* errors);

}  // namespace qs::ui
