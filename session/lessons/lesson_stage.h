// What a lesson needs on screen, read from its file's optional "stage" object (widget-free, so
// the CLI-side loader, the fuzz target and the tests check it without a window):
//   "stage": {"view": "transfer",                       the central view the text talks about
//             "docks": ["parameters", "statistics"],    exactly these docks beside it (the
//                                                       lesson dock is always shown)
//             "layout": "standard" | "compact",         compact: the view keeps most of the
//                                                       window (bottom docks tabbed, a third
//                                                       of the height at most)
//             "parameters": ["num_bits", "narrow_range"]}  what the text asks the audience to
//                                                       change: shown beside the lesson in
//                                                       presentation mode, where the
//                                                       Parameters dock is hidden
// Every key is optional: a lesson without "stage" (or without one of its keys) leaves that part
// of the window as the user has it, so lesson files written before the stage existed stay valid.
// The names are the ones below; docs/lessons.md describes them.
#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <optional>

namespace qs::ui {

struct LessonStage {
    QString view;              // empty: the view on show stays
    std::optional<QStringList> docks;  // unset: the docks stay as they are
    QString layout;            // empty: "standard"
    QStringList parameters;    // the presentation strip's fields; empty: no strip
    bool operator==(const LessonStage&) const = default;
};

// The names a lesson file may use, in the order the docs list them.
const QStringList& lessonViewNames();       // "transfer", "histogram", "error-histogram", …
const QStringList& lessonDockNames();       // "parameters", "data", "statistics", "model", …
const QStringList& lessonLayoutNames();     // "standard", "compact"
// The op attributes' names (core/analysis/op_attributes.h) plus "op", "min_range", "max_range".
QStringList lessonParameterNames();

// `json` is the value of the "stage" key (undefined: no stage). Errors name the key:
// "stage.view: 'bits' is not one of transfer, histogram, …".
std::optional<LessonStage> lessonStageFromJson(const QJsonValue& json, QString* error);

}  // namespace qs::ui
