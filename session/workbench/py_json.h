// JSON <-> Python values of the TPU-embedding configuration (docs/tpu-config.md, "JSON
// conventions"), shared by `quantscope-cli eval` (the config ops' attrs) and the embedding
// workbench (the keyword values of its saved configuration):
//   null -> None, true/false -> bool, an integral number -> int, any other number -> float,
//   "text" -> str, [...] -> list, {"float": x} (also "nan"/"inf"/"-inf") -> float,
//   {"tuple": [...]}, {"dict": {...} | [[key, value], ...]}, {"callable": "code"},
//   {"object": "repr", "class": "module.Class", "is_callable": b},
//   {"type": "<Class>", keywords...} -> an instance of a modelled class (built with its
//   checks, so its TF error comes back as the Result's error).
// Where TF expects one class (PyJsonContext), a plain object is that class's keywords;
// anywhere else it is a dict.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <string>

#include "core/status.h"
#include "core/tpu/py_value.h"

namespace qs::ui {

// A malformed value (not a TF error): the field path and what is wrong with it. Thrown by
// the converters below; the CLI turns it into its CaseFormatError.
struct PyJsonFormatError {
    std::string field;    // "attrs.clipvalue.tuple[2]"
    std::string problem;  // "must be a list"
};

enum class PyJsonContext { Plain, Tf2Table, Tf2Quant, Tf1Feature, Tf1Table, Column,
                           DictOfTf1Feature, DictOfTf1Table, ListOfColumns };

// The Python value of `v`; `field` names it in format errors.
Result<tpu::PyValue> pyFromJson(const QJsonValue& v, const std::string& field,
                                PyJsonContext ctx = PyJsonContext::Plain);

// `cls(**keywords)` for a modelled class ("TableConfig", "Adagrad", "AdamParameters",
// "tpu_embedding.TableConfig", "EmbeddingConfigSpec", ...); `skip` is a key left out
// (e.g. "type"). Keywords reach the constructor in key order.
Result<tpu::PyValue> buildPyClass(const QJsonObject& keywords, const std::string& field,
                                  const std::string& cls, const char* skip = nullptr);

// The JSON of a plain Python value (the inverse of pyFromJson for None, bool, int, float,
// str, list, tuple): a float with an integral value becomes {"float": x} so it stays a float.
QJsonValue jsonFromPy(const tpu::PyValue& v);

// Python literal text as typed in the workbench's fields <-> the JSON value it stands for:
// "None", "True"/"False", "16" (int), "16.0" / "1e-3" / "nan" / "inf" (float),
// "'abc'" / "\"abc\"" (str), "(-1.0, 1.0)" / "[1, None]" (tuple / list of those);
// anything else is taken as the text itself (a str, the value a user typing "abc" into
// `dim` means), so every typed value is representable and reaches TF's checks.
QJsonValue jsonFromPyLiteral(const QString& text);
// The text that parses back to `v` (a str that would parse as something else is quoted).
QString pyLiteralFromJson(const QJsonValue& v);

}  // namespace qs::ui
