// Helpers the model-reader tests share: a file's bytes, an error as text, and the check of
// a hostile file's outcome.
#pragma once

#include <QtTest>
#include <fstream>
#include <sstream>
#include <string>

#include "core/modelfile/model_file.h"

namespace qs::modelfile::testing {

inline std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline QString errorOf(const qs::Error& e) { return QString::fromStdString(e.message); }

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
