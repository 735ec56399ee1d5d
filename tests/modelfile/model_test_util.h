// Helpers the model-reader tests share: a file's bytes, a model that must open, a tensor's
// float32 values, an error as text, and the check of a hostile file's outcome.
#pragma once

#include <QtTest>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/modelfile/model_file.h"
#include "core/modelfile/tensor_values.h"

namespace qs::modelfile::testing {

inline std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline QString errorOf(const qs::Error& e) { return QString::fromStdString(e.message); }

// A model the test needs: a file that does not open ends the test program with its error.
inline ModelPtr mustOpen(const qs::Result<ModelPtr>& opened) {
    if (!opened) qFatal("%s", opened.error().message.c_str());
    return *opened;
}
inline ModelPtr mustOpen(const std::string& path) { return mustOpen(openModel(path)); }

// Tensor `name`'s values as float32; empty (with the reason as a warning) when the model has
// no such tensor or it does not load or convert.
inline std::vector<float> floatsOf(const ModelFile& model, const std::string& name) {
    const int64_t index = model.find(name);
    if (index < 0) {
        qWarning("no tensor '%s'", name.c_str());
        return {};
    }
    auto tensor = model.load(static_cast<size_t>(index));
    if (!tensor) {
        qWarning("%s", tensor.error().message.c_str());
        return {};
    }
    auto values = toFloat32(*tensor);
    if (!values) qWarning("%s", values.error().message.c_str());
    return values ? *values : std::vector<float>{};
}

// A hostile file either fails to open, or opens and fails to load its first tensor; either
// way with a message starting with `error` (which names the file, and the tensor where
// there is one). QVERIFY-style: returns at the first failed check.
inline void expectRefused(const qs::Result<ModelPtr>& opened, bool opens, const QString& error) {
    QCOMPARE(opened.ok(), opens);
    if (!opens) {
        QVERIFY2(errorOf(opened.error()).startsWith(error), qPrintable(errorOf(opened.error())));
        return;
    }
    auto loaded = (*opened)->load(0);
    QVERIFY(!loaded.ok());
    QVERIFY2(errorOf(loaded.error()).startsWith(error), qPrintable(errorOf(loaded.error())));
}

}  // namespace qs::modelfile::testing
