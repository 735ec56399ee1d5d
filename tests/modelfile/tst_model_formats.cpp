// The table of model formats (core/modelfile/model_formats.h): its rows are whole and do not
// collide, each row's suffixes reach its own reader through openModel (checked on the real
// sample files), and the lists made from it name every row.
#include <QDirIterator>
#include <QtTest>

#include <map>
#include <set>

#include "core/modelfile/model_file.h"
#include "core/modelfile/model_formats.h"
#include "core/modelfile/tensor_values.h"

using namespace qs::modelfile;

namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace

class TstModelFormats : public QObject {
    Q_OBJECT
private slots:
    // Every row has what the rest of the program reads from it; keys and suffixes are unique,
    // so a file name picks one reader.
    void rowsAreWholeAndDistinct() {
        std::set<std::string_view> keys;
        std::set<std::string_view> suffixes;
        QVERIFY(!modelFormats().empty());
        for (const ModelFormat& format : modelFormats()) {
            const QByteArray key(format.key.data(), static_cast<qsizetype>(format.key.size()));
            QVERIFY2(keys.insert(format.key).second, key);
            QVERIFY2(!format.name.empty() && !format.helpText.empty() && format.open, key);
            QVERIFY2(!format.suffixes.empty(), key);
            for (std::string_view suffix : format.suffixes) {
                QVERIFY2(suffix.size() > 1 && suffix[0] == '.', key);
                QVERIFY2(std::none_of(suffix.begin(), suffix.end(), [](char c) { return std::isupper(uint8_t(c)); }), key);
                QVERIFY2(suffixes.insert(suffix).second, key);
                // The help names every suffix of its row.
                QVERIFY2(contains(format.helpText, suffix), key);
            }
            QCOMPARE(format.folder.empty(), format.openFolder == nullptr);
            QCOMPARE(modelFormatByKey(format.key), &format);
        }
        QCOMPARE(modelFormatByKey("no-such-format"), nullptr);
        QCOMPARE(std::set<std::string>(modelSuffixes().begin(), modelSuffixes().end()).size(), suffixes.size());
    }

    // Each row's suffixes, in any case, pick that row.
    void aSuffixPicksItsRow() {
        for (const ModelFormat& format : modelFormats())
            for (std::string_view suffix : format.suffixes) {
                QCOMPARE(modelFormatForPath("dir.npz/model" + std::string(suffix)), &format);
                std::string upper = "MODEL" + std::string(suffix);
                std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
                QCOMPARE(modelFormatForPath(upper), &format);
            }
        QCOMPARE(modelFormatForPath("notes.txt"), nullptr);
        QCOMPARE(modelFormatForPath("onnx"), nullptr);
    }

    // openModel reaches each row's reader: every sample file of the project opens as the
    // format its suffix names (broken samples fail, as they should), and every row and every
    // suffix has a sample that opens.
    void everySampleOpensAsItsRow() {
        std::set<std::string_view> openedKeys;
        std::set<std::string> openedSuffixes;
        for (const char* root : {QS_MODELS_DIR, QS_SOURCE_DIR "/resources/data"}) {
            QDirIterator files(QString::fromUtf8(root), QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                const std::string path = files.next().toStdString();
                const ModelFormat* format = modelFormatForPath(path);
                if (!format) continue;
                auto model = openModel(path);
                if (!model) continue;
                QCOMPARE((*model)->format(), format->key);
                openedKeys.insert(format->key);
                const std::string lowerPath = QString::fromStdString(path).toLower().toStdString();
                for (std::string_view suffix : format->suffixes)
                    if (lowerPath.ends_with(suffix)) openedSuffixes.insert(std::string(suffix));
            }
        }
        for (const ModelFormat& format : modelFormats()) {
            QVERIFY2(openedKeys.count(format.key), format.key.data());
            for (std::string_view suffix : format.suffixes)
                QVERIFY2(openedSuffixes.count(std::string(suffix)), suffix.data());
        }
        // A folder opens with the row that opens folders.
        const ModelFormat* folders = folderModelFormat();
        QVERIFY(folders);
        auto savedModel = openModel(QS_MODELS_DIR "/checkpoint/half_plus_two");
        QVERIFY(savedModel);
        QCOMPARE((*savedModel)->format(), folders->key);
    }

    // The lists made from the table name every suffix, folder and name; the refusal of an
    // unknown file lists them all.
    void listsNameEveryRow() {
        const std::string suffixList = modelSuffixList();
        const std::string names = modelFormatNames();
        for (const ModelFormat& format : modelFormats()) {
            for (std::string_view suffix : format.suffixes) QVERIFY(contains(suffixList, suffix));
            if (!format.folder.empty()) QVERIFY(contains(suffixList, format.folder));
            QVERIFY(contains(names, format.name));
        }
        auto unknown = openModel(QS_MODELS_DIR "/SOURCES.md");
        QVERIFY(!unknown);
        QVERIFY(contains(unknown.error().message, suffixList));
        QCOMPARE(names, std::string("ONNX, TFLite, safetensors, TF checkpoints, Keras, NumPy"));
    }

    // A format's channel convention comes from its row (a key the table lacks: last).
    void channelLayoutComesFromTheRow() {
        TensorInfo info;
        info.shape = {16, 8};
        for (const ModelFormat& format : modelFormats()) {
            const int expected = format.channels == ChannelLayout::Last ? 1 : 0;
            QCOMPARE(channelAxis(format.key, info), expected);
        }
        QCOMPARE(channelAxis("no-such-format", info), 1);
    }
};

QTEST_GUILESS_MAIN(TstModelFormats)
#include "tst_model_formats.moc"
