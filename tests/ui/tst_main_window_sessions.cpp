// The explorer window's sessions (fixture: explorer_window_test.h): save and reopen every
// parameter, broken and newer files change nothing, recent files, the last-session autosave,
// closing the window with a floating dock and text not yet committed, and a generator's N-d
// shape from the Data panel to the per-channel view and through a session.
#include "tests/ui/explorer_window_test.h"
#include "tests/ui/line_edit_typing.h"
#include "tests/ui/show_exposed.h"

class TstMainWindowSessions : public ExplorerWindowTest {
    Q_OBJECT

private slots:
    void sessionSaveAndReopen();
    void brokenAndNewerSessionsChangeNothing();
    void sessionWithAnUnknownTabShowsTheFirst();
    void recentFilesAndLastSession();
    void closingWithAFloatingDockAndPendingText();
    void generatorShapeGivesChannels();
};

void TstMainWindowSessions::sessionSaveAndReopen() {
    // Every parameter away from its default, and a different data source.
    CHECK(selectData("opCombo", int(qs::QuantOp::QuantizeAndDequantizeV2)));
    CHECK(selectData("roundModeCombo", int(qs::RoundMode::HalfUp)));
    CHECK(clickCheck("narrowRangeCheck"));
    CHECK(clickCheck("signedInputCheck"));
    CHECK(typeInto("numBitsSpin", QStringLiteral("6")));
    CHECK(typeInto("minRangeSpin", QStringLiteral("-0.5")));
    CHECK(typeInto("maxRangeSpin", QStringLiteral("2.5")));
    qs::QuantSpec extra = model_->spec();  // fields this op does not show: set through the model
    extra.T = qs::QType::QUInt16;
    extra.mode = qs::QuantizeMode::MinFirst;
    extra.ensure_minimum_range = 0.25f;
    extra.num_buckets = 77;
    model_->editSpec(extra, QStringLiteral("hidden fields"));
    DataSource data;
    data.generator = QStringLiteral("laplace:n=15000,seed=3,loc=0,scale=1");
    model_->setDataSource(data);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    const qs::QuantSpec saved = model_->spec();
    QCOMPARE(saved.num_bits, 6);
    QVERIFY(!saved.signed_input && saved.narrow_range);

    const QString path = dir_->filePath(QStringLiteral("first.qscope"));
    QVERIFY(w_->saveSessionAs(path));
    QVERIFY(QFileInfo(path).size() > 100);
    QCOMPARE(w_->sessionPath(), path);
    QCOMPARE(w_->windowHandle()->title(), QStringLiteral("QuantScope — first"));
    QVERIFY(!w_->isWindowModified());
    QCOMPARE(child<QLabel>("explorerStatusLabel")->text(), QStringLiteral("Saved first.qscope"));

    // Change everything again.
    CHECK(selectData("opCombo", int(qs::QuantOp::TpuSimulatedQuantization)));
    CHECK(typeInto("numBucketsSpin", QStringLiteral("9")));
    model_->setDataSource(DataSource{QStringLiteral("uniform:n=3000,seed=2,low=-1,high=1"), QString()});
    QVERIFY(settle());
    QVERIFY(w_->isWindowModified());
    QCOMPARE(w_->windowHandle()->title(), QStringLiteral("QuantScope — first*"));

    QString error;
    QVERIFY(w_->openSession(path, &error));
    QVERIFY(error.isEmpty());
    QVERIFY(model_->spec() == saved);
    QCOMPARE(model_->dataSource(), data);
    QCOMPARE(model_->undoStack()->count(), 0);
    QVERIFY(!w_->isWindowModified());
    // The widgets show the session.
    QCOMPARE(child<QComboBox>("opCombo")->currentData().toInt(), int(qs::QuantOp::QuantizeAndDequantizeV2));
    QCOMPARE(child<QComboBox>("roundModeCombo")->currentText(), QStringLiteral("HALF_UP"));
    QVERIFY(child<QCheckBox>("narrowRangeCheck")->isChecked());
    QVERIFY(!child<QCheckBox>("signedInputCheck")->isChecked());
    QCOMPARE(child<QSpinBox>("numBitsSpin")->value(), 6);
    QCOMPARE(child<QDoubleSpinBox>("minRangeSpin")->value(), -0.5);
    QCOMPARE(child<QDoubleSpinBox>("maxRangeSpin")->value(), 2.5);
    QCOMPARE(child<QComboBox>("generatorCombo")->currentText(), QStringLiteral("laplace"));
    QCOMPARE(child<QSpinBox>("countSpin")->value(), 15000);
    QCOMPARE(child<QSpinBox>("seedSpin")->value(), 3);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->lastResult()->stats.count, 15000);
    QCOMPARE(w_->lastResult()->curve.code_lowest, 0);
    QCOMPARE(w_->lastResult()->curve.code_highest, 63);
}

void TstMainWindowSessions::brokenAndNewerSessionsChangeNothing() {
    CHECK(typeInto("maxRangeSpin", QStringLiteral("2")));
    QVERIFY(settle());
    const QString good = dir_->filePath(QStringLiteral("good.qscope"));
    QVERIFY(w_->saveSessionAs(good));
    CHECK(typeInto("minRangeSpin", QStringLiteral("-1")));
    QVERIFY(settle());
    const qs::QuantSpec spec = model_->spec();
    const DataSource data = model_->dataSource();
    const ExplorerResultPtr result = w_->lastResult();
    const int steps = model_->undoStack()->count();
    const QString title = w_->windowHandle()->title();

    QJsonObject newer = sessionToJson(Session{spec, data, ViewState{}});
    newer["version"] = kSessionFormatVersion + 1;
    QJsonObject badMode = sessionToJson(Session{spec, data, ViewState{}});
    QJsonObject params = badMode["parameters"].toObject();
    params["mode"] = QStringLiteral("FOO");
    badMode["parameters"] = params;
    struct Case {
        const char* file;
        QByteArray content;
        const char* expect;
    };
    const Case cases[] = {
        {"broken.qscope", "{\n  \"format\": \"quantscope-session\",\n  \"version\": 1,\n  \"parameters\": {\n",
         "broken.qscope: line "},
        {"newer.qscope", QJsonDocument(newer).toJson(), "newer.qscope: written by a newer QuantScope"},
        {"badmode.qscope", QJsonDocument(badMode).toJson(),
         "badmode.qscope: parameters.mode: 'FOO' is not one of MIN_COMBINED, MIN_FIRST, SCALED"},
        {"missing.qscope", QByteArray(), "missing.qscope: cannot open"},
    };
    for (const Case& c : cases) {
        const QString path = dir_->filePath(QLatin1String(c.file));
        if (!c.content.isEmpty()) QVERIFY(writeText(path, c.content));
        QString error;
        answerNextDialog();  // the window is shown: the error also comes in a message box
        QVERIFY2(!w_->openSession(path, &error), c.file);
        QVERIFY2(error.startsWith(QLatin1String(c.expect)), qPrintable(error));
        QCOMPARE(lastMessage_, error);
        QCOMPARE(child<QLabel>("explorerStatusLabel")->text(), QStringLiteral("Could not open the session: %1").arg(error));
        QVERIFY(model_->spec() == spec);
        QCOMPARE(model_->dataSource(), data);
        QCOMPARE(model_->undoStack()->count(), steps);
        QCOMPARE(w_->sessionPath(), good);
        QCOMPARE(w_->windowHandle()->title(), title);
        QVERIFY(!w_->computeService()->busy() && !w_->dataService()->loading());
        QCOMPARE(w_->lastResult(), result);
    }
    // Saving where no file can be written: refused with a message, nothing changes.
    answerNextDialog();
    QVERIFY(!w_->saveSessionAs(dir_->filePath(QStringLiteral("no/such/dir/x.qscope"))));
    QVERIFY2(lastMessage_.startsWith(QLatin1String("x.qscope: cannot write")), qPrintable(lastMessage_));
    QCOMPARE(child<QLabel>("explorerStatusLabel")->text(), QStringLiteral("Could not save: %1").arg(lastMessage_));
    QCOMPARE(w_->sessionPath(), good);
    QVERIFY(w_->isWindowModified());
    // None of them made it into the recent files.
    const QList<QAction*> recent = recentMenu()->actions();
    QCOMPARE(recent.size(), 1);
    QCOMPARE(recent.first()->text(), QStringLiteral("good.qscope"));
}

// A tab index this window does not have (found by tst_monkey): the model used to keep it
// while the tab widget ignored it, so the window showed one tab and saved another.
void TstMainWindowSessions::sessionWithAnUnknownTabShowsTheFirst() {
    w_->tabs()->setCurrentIndex(2);
    QJsonObject json = sessionToJson(w_->currentSession());
    QJsonObject view = json["view"].toObject();
    view["tab"] = 99;
    json["view"] = view;
    const QString path = dir_->filePath(QStringLiteral("tab99.qscope"));
    QVERIFY(writeText(path, QJsonDocument(json).toJson()));
    QVERIFY(w_->openSession(path));
    QCOMPARE(w_->tabs()->currentIndex(), 0);
    QCOMPARE(model_->viewState().tab, 0);
    QCOMPARE(w_->currentSession().view.tab, 0);
    QVERIFY(settle());
}

void TstMainWindowSessions::recentFilesAndLastSession() {
    QMenu* recent = recentMenu();
    QVERIFY(recent);
    QVERIFY(!recent->isEnabled());  // nothing yet (isolated settings)
    const QString a = dir_->filePath(QStringLiteral("a.qscope"));
    const QString b = dir_->filePath(QStringLiteral("b.qscope"));
    CHECK(typeInto("maxRangeSpin", QStringLiteral("2")));
    QVERIFY(w_->saveSessionAs(a));
    const qs::QuantSpec specA = model_->spec();
    CHECK(typeInto("maxRangeSpin", QStringLiteral("1.5")));
    QVERIFY(w_->saveSessionAs(b));
    QVERIFY(recent->isEnabled());
    QStringList names;
    for (QAction* action : recent->actions()) names << action->text();
    QCOMPARE(names, (QStringList{QStringLiteral("b.qscope"), QStringLiteral("a.qscope")}));
    QCOMPARE(recent->actions().at(1)->toolTip(), QFileInfo(a).absoluteFilePath());
    // Choosing a recent file in the open menu (a mouse click on it) opens it.
    QPointer<QAction> chosen = recent->actions().at(1);
    recent->popup(w_->mapToGlobal(QPoint(200, 100)));
    QVERIFY(QTest::qWaitForWindowExposed(recent));
    QTest::mouseClick(recent, Qt::LeftButton, {}, recent->actionGeometry(chosen).center());
    QCOMPARE(w_->sessionPath(), QFileInfo(a).absoluteFilePath());
    QVERIFY(model_->spec() == specA);
    QCOMPARE(recent->actions().first()->text(), QStringLiteral("a.qscope"));
    QVERIFY(settle());

    // Closing writes the autosave; a new window restores it.
    CHECK(selectData("opCombo", int(qs::QuantOp::QuantizeAndDequantizeV3)));
    CHECK(typeInto("numBitsSpin", QStringLiteral("5")));
    model_->setDataSource(DataSource{QStringLiteral("uniform:n=4000,seed=9,low=-2,high=2"), QString()});
    QVERIFY(settle());
    const qs::QuantSpec last = model_->spec();
    const DataSource lastData = model_->dataSource();
    QFile::remove(MainWindow::lastSessionPath());
    QVERIFY(w_->close());
    QVERIFY(QFileInfo::exists(MainWindow::lastSessionPath()));
    w_.reset();
    CHECK(makeWindow());
    QVERIFY(settle());
    QVERIFY(!(model_->spec() == last));
    QVERIFY(w_->restoreLastSession());
    QVERIFY(model_->spec() == last);
    QCOMPARE(model_->dataSource(), lastData);
    QCOMPARE(child<QComboBox>("opCombo")->currentData().toInt(), int(qs::QuantOp::QuantizeAndDequantizeV3));
    QCOMPARE(child<QSpinBox>("numBitsSpin")->value(), 5);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->lastResult()->stats.count, 4000);
    QCOMPARE(w_->sessionPath(), QString());  // the autosave is not the user's file
    // The recent list survived in the (isolated) settings.
    QCOMPARE(recentMenu()->actions().size(), 2);
    // No autosave: nothing to restore.
    QVERIFY(QFile::remove(MainWindow::lastSessionPath()));
    QVERIFY(!w_->restoreLastSession());
}

// Found by tst_monkey (AddressSanitizer: heap-use-after-free): the Data dock floating, a
// sample count typed but not committed, the window deleted. The floating dock hides when
// deleted, the spin box commits, and the model's change reached the window's DataService,
// deleted before the docks. The edit must arrive while the window is whole.
void TstMainWindowSessions::closingWithAFloatingDockAndPendingText() {
    auto* dock = w_->findChild<QDockWidget*>(QStringLiteral("dataDock"));
    dock->setFloating(true);
    QVERIFY(showExposed(dock));
    auto* count = child<QSpinBox>("countSpin");
    count->setFocus();
    count->selectAll();
    QTest::keyClicks(count, QStringLiteral("1234"));  // no Enter: pending
    QCOMPARE(model_->dataSource().generator, kSmallData);
    QPointer<DataService> service = w_->dataService();
    bool reachedDeletedService = false, committed = false;
    const auto watch = connect(model_.get(), &ExplorerModel::dataSourceChanged, this, [&] {
        committed = true;
        reachedDeletedService = reachedDeletedService || service.isNull();
    });
    firstShown_.reset();
    w_.reset();
    disconnect(watch);
    QVERIFY(committed);
    QVERIFY(model_->dataSource().generator.startsWith(QLatin1String("normal:n=1234,")));
    QVERIFY(!reachedDeletedService);
}


// A generator shape typed into the Data panel gives the per-channel view its channels without
// a file; a bad shape is refused with the core's message naming the field; the shape goes
// through a session.
void TstMainWindowSessions::generatorShapeGivesChannels() {
    auto* shape = child<QLineEdit>("generatorShape");
    QVERIFY(shape);
    QVERIFY(shape->text().isEmpty());  // 1-D by default
    const int steps = model_->undoStack()->count();
    retype(shape, QStringLiteral("64x1024"));
    QTest::keyClick(shape, Qt::Key_Enter);
    QCOMPARE(model_->undoStack()->count(), steps + 1);  // one undoable edit
    QVERIFY2(model_->dataSource().generator.contains(QLatin1String("shape=64x1024")),
             qPrintable(model_->dataSource().generator));
    QVERIFY(!model_->dataSource().generator.contains(QLatin1String(":n=")) &&
            !model_->dataSource().generator.contains(QLatin1String(",n=")));  // n follows the shape
    QVERIFY(!child<QSpinBox>("countSpin")->isEnabled());
    QCOMPARE(child<QSpinBox>("countSpin")->value(), 65536);
    CHECK(typeInto("axisSpin", QStringLiteral("0")));
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{64, 1024}));
    auto verifyChannels = [this](int count) {
        const ExplorerResultPtr r = w_->lastResult();
        QVERIFY(r);
        QCOMPARE(r->spec.axis, 0);
        QCOMPARE(static_cast<int>(r->channels.size()), count);
        ChannelView* view = w_->channelView();
        QCOMPARE(view->scaleBars()->data()->size(), count);
        QCOMPARE(view->rmseBars()->data()->size(), count);
        QCOMPARE(view->dataMinGraph()->data()->size(), count);
        // Each channel's data range is the generated values of its row.
        const auto& values = w_->dataService()->dataset()->values;
        const auto row = std::minmax_element(values.begin() + 1024 * 5, values.begin() + 1024 * 6);
        QCOMPARE(r->channels[5].data_min, *row.first);
        QCOMPARE(r->channels[5].data_max, *row.second);
        QCOMPARE((view->dataMinGraph()->data()->begin() + 5)->value, double(*row.first));
        QCOMPARE(view->csvTable().columns.at(0).size(), static_cast<size_t>(count));  // a CSV row each
        bool titled = false;
        for (QCPTextElement* t : view->plot()->findChildren<QCPTextElement*>())
            titled = titled || t->text().contains(QStringLiteral("%1 channels").arg(count));
        QVERIFY(titled);
    };
    CHECK(verifyChannels(64));

    // A bad shape changes nothing and says what is wrong with which field.
    const QString good = model_->dataSource().generator;
    for (const auto& [text, words] : {std::pair{QStringLiteral("64x0"), QStringLiteral("shape = 64x0: dimension 2 is 0")},
                                      std::pair{QStringLiteral("64xa"), QStringLiteral("shape: \"64xa\" is not a list")},
                                      std::pair{QStringLiteral("10000x10000"),
                                                QStringLiteral("shape = 10000x10000 has more than 10000000 values")}}) {
        retype(shape, text);
        QTest::keyClick(shape, Qt::Key_Enter);
        QLabel* error = w_->dataPanel()->generatorErrorLabel();
        QVERIFY2(error->isVisible() && error->text().startsWith(words), qPrintable(error->text()));
        QCOMPARE(model_->dataSource().generator, good);
        QCOMPARE(model_->undoStack()->count(), steps + 2);
    }

    // Saved and reopened: the generator with its shape, the panel's field, the channels.
    const QString path = dir_->filePath(QStringLiteral("shaped.qscope"));
    QVERIFY(w_->saveSessionAs(path));
    retype(shape, QString());
    QTest::keyClick(shape, Qt::Key_Enter);
    QVERIFY(!model_->dataSource().generator.contains(QLatin1String("shape")));
    QVERIFY(child<QSpinBox>("countSpin")->isEnabled());
    QVERIFY(settle());
    QCOMPARE(w_->dataService()->dataset()->shape, (qs::Shape{65536}));
    QVERIFY(w_->openSession(path));
    QCOMPARE(model_->dataSource().generator, good);
    QCOMPARE(shape->text(), QStringLiteral("64x1024"));
    QVERIFY(!w_->dataPanel()->generatorErrorLabel()->isVisible());
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    CHECK(verifyChannels(64));
}

QTEST_MAIN(TstMainWindowSessions)
#include "tst_main_window_sessions.moc"
