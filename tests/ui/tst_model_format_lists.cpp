// Every place that lists the model formats names every row of the table
// (core/modelfile/model_formats.h): the open dialog's filter and the GUI's model-file test,
// the Model dock and the welcome page, both programs' --help, the files made for packaging at
// build time (bash completion, AppStream metadata, quantscope(1)) and docs/model-files.md.
// A format added to the table but missing from one of them fails here, naming the place.
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QtTest>

#include <set>

#include "core/modelfile/model_formats.h"
#include "session/explorer/explorer_controller.h"
#include "session/explorer/explorer_model.h"
#include "session/modelfile/model_file_controller.h"
#include "session/modelfile/tensor_text.h"
#include "ui/help/welcome_page.h"
#include "ui/modelfile/model_dock.h"

using qs::modelfile::ModelFormat;
using qs::modelfile::modelFormats;

namespace {

QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QString fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// A program's standard output, its lines joined by single spaces (help texts wrap).
QString helpOf(const QString& program, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(30000)) return {};
    return QString::fromUtf8(p.readAllStandardOutput()).simplified();
}

// Checks that `place` names every suffix of every row (as `pattern` with %1 the suffix).
void expectEverySuffix(const QString& place, const QString& where, const QString& pattern = QStringLiteral("%1")) {
    QVERIFY2(!place.isEmpty(), qPrintable(where + QStringLiteral(": nothing read")));
    for (const ModelFormat& format : modelFormats())
        for (std::string_view suffix : format.suffixes)
            QVERIFY2(place.contains(pattern.arg(text(suffix))),
                     qPrintable(where + QStringLiteral(" lacks ") + pattern.arg(text(suffix))));
}

void expectEveryName(const QString& place, const QString& where) {
    QVERIFY2(!place.isEmpty(), qPrintable(where + QStringLiteral(": nothing read")));
    for (const ModelFormat& format : modelFormats())
        QVERIFY2(place.contains(text(format.name)), qPrintable(where + QStringLiteral(" lacks ") + text(format.name)));
}

}  // namespace

class TstModelFormatLists : public QObject {
    Q_OBJECT
private slots:
    void openDialogAndDrops() {
        expectEverySuffix(qs::ui::modelFileFilter(), QStringLiteral("the open dialog's filter"),
                          QStringLiteral("*%1"));
        for (const ModelFormat& format : modelFormats())
            for (std::string_view suffix : format.suffixes) {
                QVERIFY(qs::ui::isModelFilePath(QStringLiteral("/tmp/m") + text(suffix)));
                QVERIFY(qs::ui::isModelFilePath(QStringLiteral("/tmp/M") + text(suffix).toUpper()));
            }
        QVERIFY(!qs::ui::isModelFilePath(QStringLiteral("/tmp/m.txt")));
    }

    void modelDockAndWelcomePage() {
        qs::ui::ExplorerModel model;
        qs::ui::ExplorerController explorer(&model);
        qs::ui::ModelFileController files(&explorer);
        qs::ui::ModelDock dock(&files);
        auto* header = dock.findChild<QLabel*>(QStringLiteral("modelHeader"));
        QVERIFY(header);
        expectEveryName(header->text(), QStringLiteral("the Model dock without a model"));
        QWidget host;
        qs::ui::WelcomePage welcome(&host);
        expectEveryName(welcome.modelButton()->text(), QStringLiteral("the welcome page's model button"));
    }

    void helpTexts() {
        const QString cli = helpOf(QStringLiteral(QS_CLI_PATH), {QStringLiteral("model"), QStringLiteral("--help")});
        expectEverySuffix(cli, QStringLiteral("quantscope-cli model --help"));
        for (const ModelFormat& format : modelFormats()) {
            QVERIFY2(cli.contains(text(format.helpText)), qPrintable(text(format.helpText)));
            QVERIFY2(cli.contains(text(format.key)), qPrintable(text(format.key)));
        }
        expectEverySuffix(helpOf(QStringLiteral(QS_GUI_PATH), {QStringLiteral("--help")}),
                          QStringLiteral("quantscope --help"));
    }

    // The files made at build time from the table (packaging/model_formats.cmake).
    void packagingFiles() {
        const QString completion = fileText(QStringLiteral(QS_PACKAGING_DIR "/quantscope-cli.bash-completion"));
        const auto match = QRegularExpression(QStringLiteral("\n *model\\) _filedir '@\\(([^)]*)\\)'")).match(completion);
        QVERIFY2(match.hasMatch(), "the bash completion has no model file pattern");
        const QStringList completed = match.captured(1).split(QLatin1Char('|'));
        std::set<QString> expected;
        for (const ModelFormat& format : modelFormats())
            for (std::string_view suffix : format.suffixes) expected.insert(text(suffix.substr(1)));
        QCOMPARE(std::set<QString>(completed.begin(), completed.end()), expected);

        expectEveryName(fileText(QStringLiteral(QS_PACKAGING_DIR "/" QS_APP_ID ".metainfo.xml")),
                        QStringLiteral("the AppStream metadata"));
        const QString manPage = fileText(QStringLiteral(QS_PACKAGING_DIR "/quantscope.1"));
        expectEverySuffix(manPage, QStringLiteral("quantscope.1"), QStringLiteral(" %1 ,\n"));
    }

    // The documentation is written by hand: its table must have a row for every suffix.
    void documentation() {
        expectEverySuffix(fileText(QStringLiteral(QS_SOURCE_DIR "/docs/model-files.md")),
                          QStringLiteral("docs/model-files.md"), QStringLiteral("`%1`"));
    }
};

QTEST_MAIN(TstModelFormatLists)
#include "tst_model_format_lists.moc"
