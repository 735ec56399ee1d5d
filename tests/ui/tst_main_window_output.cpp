// What the explorer window puts out (fixture: explorer_window_test.h): every view exported as
// PNG, SVG, PDF and CSV (the CSV against the plotted data and the core), the statistics CSV,
// presentation mode, the dark theme, the workbench window it opens (and its look), and the
// Frameworks tab's labels at the op's bit width.
#include "session/workbench/embedding_model.h"
#include "session/workbench/workbench_controller.h"
#include "tests/ui/explorer_window_test.h"
#include "tests/ui/table_text.h"
#include "ui/embedding/views/occupancy_view.h"
#include "ui/embedding/views/range_suggestions_panel.h"
#include "ui/embedding/workbench_window.h"
#include "ui/views/framework_view.h"

#include <QListWidget>
#include <QTableWidget>

class TstMainWindowOutput : public ExplorerWindowTest {
    Q_OBJECT

private slots:
    void exportEachView();
    void transferCsvMatchesTheCore();
    void statisticsCsv();
    void presentationMode();
    void darkTheme();
    void workbenchOpensOnTheAppsModel();
    void workbenchFollowsThemeAndPresentation();
    void frameworksLabelTheBitWidth();
};

// The app creates the workbench's document and hands it over: the workbench window and its
// controller work on that model, and edits through the window's model reach it.
void TstMainWindowOutput::workbenchOpensOnTheAppsModel() {
    qs::ui::EmbeddingModel document;
    w_->setWorkbenchModel(&document);
    qs::ui::WorkbenchWindow* bench = w_->showWorkbench();
    QVERIFY(bench);
    QCOMPARE(bench->model(), &document);
    QCOMPARE(bench->controller()->model(), &document);
    QCOMPARE(w_->showWorkbench(), bench);  // created once, then shown again
    delete bench;                          // before `document` goes
}

// The workbench's plots look like the explorer's: a workbench opened while the explorer is
// dark starts dark, and toggling the theme or presentation mode in the explorer restyles the
// open workbench (backgrounds, axes, series pens, fonts) and its table panels.
void TstMainWindowOutput::workbenchFollowsThemeAndPresentation() {
    qs::ui::EmbeddingModel document;
    w_->setWorkbenchModel(&document);
    auto* dark = w_->findChild<QAction*>(QStringLiteral("darkThemeAction"));
    dark->trigger();  // before the workbench exists
    qs::ui::WorkbenchWindow* bench = w_->showWorkbench();
    const QList<PlotFrame*> plots = bench->findChildren<PlotFrame*>();
    QCOMPARE(plots.size(), 4);  // occupancy, heat map, sharding, pipelining
    auto verifyTheme = [&](Theme theme) {
        const PlotPalette& want = plotPalette(theme);
        const PlotPalette& other = plotPalette(theme == Theme::Dark ? Theme::Light : Theme::Dark);
        QCOMPARE(bench->theme(), theme);
        for (PlotFrame* p : plots) {
            QCOMPARE(p->theme(), theme);
            const QImage image = p->exporter().renderImage(600, 400);
            QVERIFY2(shareOf(image, want.background) > 0.05, qPrintable(p->objectName()));
            QCOMPARE(shareOf(image, other.background), 0.0);
            QCOMPARE(p->plot()->axisRect()->backgroundBrush().color(), want.axisRectBackground);
            QCOMPARE(p->plot()->xAxis->basePen().color(), want.axis);
            QCOMPARE(p->plot()->yAxis->tickLabelColor(), want.text);
        }
        QCOMPARE(bench->occupancyView()->inRangeBars()->pen().color(), want.curve);
        QCOMPARE(bench->suggestions()->theme(), theme);
        bench->suggestions()->setStale(true, QStringLiteral("x"));
        QVERIFY(bench->suggestions()->staleLabel()->styleSheet().contains(want.range.name()));
        bench->suggestions()->setStale(false);
    };
    CHECK(verifyTheme(Theme::Dark));
    // The theme toggle is in the workbench's View menu too, and restyles both windows.
    QVERIFY(bench->viewMenu()->actions().contains(dark));
    dark->trigger();
    QVERIFY(!model_->viewState().dark);
    CHECK(verifyTheme(Theme::Light));
    QCOMPARE(w_->transferView()->theme(), Theme::Light);
    dark->trigger();
    CHECK(verifyTheme(Theme::Dark));

    // Presentation mode in the explorer: thick pens and large text in the workbench too.
    QCPBars* bars = bench->occupancyView()->inRangeBars();
    const double basePen = bars->pen().widthF();
    const double baseTick = plots[0]->plot()->xAxis->tickLabelFont().pointSizeF();
    const double baseFont = bench->font().pointSizeF();
    w_->presentationMode()->setOn(true);
    QVERIFY(bench->presentation());
    for (PlotFrame* p : plots) QCOMPARE(p->presentationScale(), PresentationMode::kPlotScale);
    QCOMPARE(bars->pen().widthF(), basePen * PresentationMode::kPlotScale);
    QCOMPARE(plots[0]->plot()->xAxis->tickLabelFont().pointSizeF(), baseTick * PresentationMode::kPlotFontScale);
    QCOMPARE(bench->font().pointSizeF(), baseFont * PresentationMode::kFontScale);
    QVERIFY(!(bench->windowState() & Qt::WindowFullScreen));  // only the explorer goes full screen
    auto* configDock = bench->findChild<QDockWidget*>(QStringLiteral("configurationDock"));
    QVERIFY(configDock && !configDock->isVisible());  // the plots get the room
    // A theme switch keeps the scale (never compounding).
    dark->trigger();
    QCOMPARE(bars->pen().widthF(), basePen * PresentationMode::kPlotScale);
    dark->trigger();

    // A new workbench window starts in the current look: dark and scaled.
    delete bench;
    bench = w_->showWorkbench();
    QCOMPARE(bench->theme(), Theme::Dark);
    QVERIFY(bench->presentation());
    for (PlotFrame* p : bench->findChildren<PlotFrame*>()) {
        QCOMPARE(p->theme(), Theme::Dark);
        QCOMPARE(p->presentationScale(), PresentationMode::kPlotScale);
    }
    QCOMPARE(bench->occupancyView()->inRangeBars()->pen().widthF(), basePen * PresentationMode::kPlotScale);
    QCOMPARE(bench->font().pointSizeF(), baseFont * PresentationMode::kFontScale);

    // Leaving presentation mode restores the workbench exactly.
    w_->presentationMode()->setOn(false);
    QVERIFY(!bench->presentation());
    QCOMPARE(bench->occupancyView()->inRangeBars()->pen().widthF(), basePen);
    QCOMPARE(bench->occupancyView()->plot()->xAxis->tickLabelFont().pointSizeF(), baseTick);
    QCOMPARE(bench->font().pointSizeF(), baseFont);
    QVERIFY(bench->findChild<QDockWidget*>(QStringLiteral("configurationDock"))->isVisible());
    delete bench;  // before `document` goes
}

// The Frameworks tab names the codes by the op's bit width, everywhere it names a scheme: the
// curves' legend, the table's cells and tooltips, the examples, the note above and the CSV
// export's header.
void TstMainWindowOutput::frameworksLabelTheBitWidth() {
    FrameworkView* view = w_->frameworkView();
    w_->tabs()->setCurrentWidget(view);
    CHECK(selectData("opCombo", int(qs::QuantOp::QuantizeAndDequantizeV4)));
    QVERIFY(model_->spec().signed_input);
    auto verifyLabels = [&](int bits, bool isSigned) {
        QTRY_VERIFY_WITH_TIMEOUT(view->comparison() && !view->busy() && view->input().bits == bits &&
                                     view->input().is_signed == isSigned,
                                 60000);
        const QString codes = QStringLiteral("%1int%2").arg(isSigned ? "" : "u").arg(bits);
        const QStringList expected{
            QStringLiteral("TF QuantizeAndDequantizeV4 (%1)").arg(codes),
            QStringLiteral("PyTorch fake_quantize_per_tensor_affine (%1)").arg(codes),
            QStringLiteral("ONNX QuantizeLinear/DequantizeLinear (%1)").arg(codes),
            QStringLiteral("TFLite asymmetric (%1)").arg(codes),
            QStringLiteral("TFLite symmetric weights (int%1, zp 0)").arg(bits),  // symmetric: always signed
        };
        QStringList legend;
        for (QCPGraph* g : view->graphs()) legend << g->name();
        QCOMPARE(legend, expected);
        QTableWidget* table = view->table();
        QCOMPARE(table->rowCount(), 10);
        for (int row = 0; row < table->rowCount(); ++row)
            for (int column : {0, 1}) {
                // The full label is the tooltip; the cell shows a short name, on one line and
                // whole ("TF QuantizeAndDe…" and four wrapped lines before).
                QVERIFY(expected.contains(table->item(row, column)->toolTip()));
                const QString shown = table->item(row, column)->text();
                QVERIFY2(table->item(row, column)->toolTip().startsWith(shown.section(QLatin1Char(' '), 0, 0)), qPrintable(shown));
                const QFontMetrics metrics(table->font());
                QVERIFY2(metrics.horizontalAdvance(shown) + 8 <= table->columnWidth(column),
                         qPrintable(QStringLiteral("'%1' in a %2-px column").arg(shown).arg(table->columnWidth(column))));
            }
        QVERIFY2(child<QLabel>("frameworkNote")->text().contains(QStringLiteral("%1 bits (%2 codes)").arg(bits).arg(codes)),
                 qPrintable(child<QLabel>("frameworkNote")->text()));
        QVERIFY(view->examples()->count() > 0);
        for (int i = 0; i < view->examples()->count(); ++i) {
            const QString text = view->examples()->item(i)->text();
            QVERIFY2(bits == 8 || !text.contains(QLatin1String("int8")), qPrintable(text));
            // Only what applies to the op compared (QDQ V4 here): no SCALED or MIN_COMBINED.
            QVERIFY2(!text.contains(QLatin1String("SCALED")) && !text.contains(QLatin1String("MIN_COMBINED")),
                     qPrintable(text));
        }
        // Below the curves, each scheme's difference from TF: TF's own is empty, the affine
        // schemes (other step and grid) differ somewhere in view, and each equals its curve
        // minus TF's at every plotted x.
        QCOMPARE(view->differenceGraphs().size(), view->graphs().size());
        QVERIFY(view->differenceGraphs().front()->data()->isEmpty());
        double largest = 0;
        for (int g = 1; g < view->graphs().size(); ++g) {
            const auto diff = view->differenceGraphs()[g]->data();
            const auto curve = view->graphs()[g]->data();
            const auto tf = view->graphs().front()->data();
            QCOMPARE(diff->size(), curve->size());
            for (int i = 0; i < diff->size(); ++i) {
                QCOMPARE(diff->at(i)->key, curve->at(i)->key);
                QCOMPARE(diff->at(i)->value, curve->at(i)->value - tf->at(i)->value);
                largest = std::max(largest, std::fabs(diff->at(i)->value));
            }
        }
        QVERIFY(largest > 0);
        const QString csv = dir_->filePath(QStringLiteral("frameworks%1.csv").arg(bits));
        QString error;
        QVERIFY2(view->exporter().exportCsv(csv, &error), qPrintable(error));
        QStringList header = readCsv(csv).at(0);
        QCOMPARE(header.takeFirst(), QStringLiteral("input x"));
        QStringList csvNames = expected;
        csvNames.replaceInStrings(QStringLiteral(","), QStringLiteral(";"));
        QCOMPARE(header, csvNames);
    };
    for (int bits : {4, 16, 8}) {
        CHECK(typeInto("numBitsSpin", QString::number(bits)));
        CHECK(verifyLabels(bits, true));
    }
    CHECK(typeInto("numBitsSpin", QStringLiteral("4")));
    CHECK(clickCheck("signedInputCheck"));
    QVERIFY(!model_->spec().signed_input);
    CHECK(verifyLabels(4, false));
}

void TstMainWindowOutput::exportEachView() {
    CHECK(useChannelData());
    model_->setAxis(1);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    const ExplorerResultPtr r = w_->lastResult();
    for (int i = 0; i < kExplorerTabs; ++i) {
        w_->tabs()->setCurrentIndex(i);
        auto* view = qobject_cast<PlotFrame*>(w_->tabs()->widget(i));
        QCOMPARE(w_->currentPlot(), view);
        const QString base = dir_->filePath(QStringLiteral("view%1").arg(i));
        // Images at the asked pixel size, with the asked DPI in the file.
        for (const auto& [width, height, dpi] : {std::tuple{640, 400, 96.0}, std::tuple{1500, 900, 192.0}}) {
            const QString png = base + QStringLiteral("_%1.png").arg(width);
            QString error;
            QVERIFY2(view->exporter().exportImage(png, width, height, dpi, &error), qPrintable(error));
            const QImage image(png);
            QCOMPARE(image.size(), QSize(width, height));
            QVERIFY(std::abs(image.dotsPerMeterX() - dpi / 0.0254) < 2);
            // Not blank: the plot drew something besides its background.
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
            QVERIFY(colours.size() > 5);
        }
        QString error;
        QVERIFY2(view->exporter().exportSvg(base + QStringLiteral(".svg"), 800, 500, &error), qPrintable(error));
        QFile svg(base + QStringLiteral(".svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.size() > 5000);
        QVERIFY(svgText.contains("<svg") && svgText.contains("</svg>"));
        QVERIFY2(view->exporter().exportPdf(base + QStringLiteral(".pdf"), 800, 500, &error), qPrintable(error));
        QFile pdf(base + QStringLiteral(".pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray pdfBytes = pdf.readAll();
        QVERIFY(pdfBytes.startsWith("%PDF") && pdfBytes.size() > 2000);

        // CSV: the view's table, which is the plotted data.
        const QString csvPath = base + QStringLiteral(".csv");
        QVERIFY2(view->exporter().exportCsv(csvPath, &error), qPrintable(error));
        const QList<QStringList> rows = readCsv(csvPath);
        const auto table = view->csvTable();
        QVERIFY(!rows.isEmpty());
        QCOMPARE(rows.first(), qStrings(table.header));
        QCOMPARE(size_t(rows.size() - 1), table.rowCount());
        QVERIFY(table.rowCount() > 0);
        for (qsizetype row = 0; row < qsizetype(table.rowCount()); ++row)
            for (int c = 0; c < int(table.header.size()); ++c)
                if (!csvEquals(rows[row + 1][c], table.columns[size_t(c)][size_t(row)]))
                    QFAIL(qPrintable(QStringLiteral("view %1 row %2 column %3: %4").arg(i).arg(row).arg(c).arg(rows[row + 1][c])));
        auto column = [&](const QString& name) {
            std::vector<double> v;
            const int c = static_cast<int>(rows.first().indexOf(name));
            for (qsizetype k = 1; k < rows.size(); ++k) v.push_back(csvValue(rows[k][c]));
            return v;
        };
        if (view == w_->transferView()) {
            // Every point of the curve the view holds (it draws those its width shows).
            const PlotDecimation::Series* curve = w_->transferView()->fullSeries(w_->transferView()->curveGraph());
            const auto input = column(QStringLiteral("input")), output = column(QStringLiteral("output"));
            QCOMPARE(input.size(), curve->keys.size());
            for (size_t k = 0; k < curve->keys.size(); ++k) {
                QCOMPARE(double(float(input[k])), curve->keys[k]);  // drawn at the exact float32
                QCOMPARE(double(float(output[k])), curve->values[k]);
            }
        } else if (view == w_->histogramView()) {
            const auto inside = points(w_->histogramView()->insideBars()->data());
            const auto clipped = points(w_->histogramView()->clippedBars()->data());
            const auto count = column(QStringLiteral("count"));
            QCOMPARE(count.size(), inside.size());
            double total = 0;
            for (size_t k = 0; k < count.size(); ++k) {
                QCOMPARE(count[k], inside[k].second + clipped[k].second);
                total += count[k];
            }
            const auto& h = r->data_hist;
            QCOMPARE(total, double(h.inRange()));
            QCOMPARE(h.inRange() + h.underflow + h.overflow + h.nan_count, 20000);
            QVERIFY(h.inRange() >= 19999);  // it spans the data
        } else if (view == w_->errorHistogramView()) {
            const auto bars = points(w_->errorHistogramView()->errorBars()->data());
            const auto count = column(QStringLiteral("count"));
            QCOMPARE(count.size(), bars.size());
            for (size_t k = 0; k < count.size(); ++k) QCOMPARE(count[k], bars[k].second);
        } else if (view == w_->channelView()) {  // later tabs: their own tests
            const auto rmse = points(w_->channelView()->rmseBars()->data());
            const auto col = column(QStringLiteral("rmse")), dataMax = column(QStringLiteral("data_max"));
            QCOMPARE(col.size(), size_t(8));
            for (size_t k = 0; k < 8; ++k) {
                QCOMPARE(col[k], rmse[k].second);
                QCOMPARE(col[k], r->channels[k].stats.rmse);
                QCOMPARE(float(dataMax[k]), r->channels[k].data_max);
            }
        }
    }
    // The File menu's CSV export (Ctrl+Shift+E) writes the current view through its dialog.
    w_->tabs()->setCurrentIndex(1);
    const QString viaMenu = dir_->filePath(QStringLiteral("menu.csv"));
    answerNextDialog(viaMenu);
    menuAction(QStringLiteral("&File"), QStringLiteral("Export plotted data as &CSV"))->trigger();
    QCOMPARE(readCsv(viaMenu), readCsv(dir_->filePath(QStringLiteral("view1.csv"))));
}

void TstMainWindowOutput::transferCsvMatchesTheCore() {
    // A few specs through the widgets; for each the CSV's code/output columns are what the
    // core's SliceQuantizer gives for each input.
    auto check = [this]() {
        const QString path = dir_->filePath(QStringLiteral("transfer.csv"));
        QString error;
        QVERIFY2(w_->transferView()->exporter().exportCsv(path, &error), qPrintable(error));
        const QList<QStringList> rows = readCsv(path);
        QCOMPARE(rows.first(), (QStringList{QStringLiteral("input"), QStringLiteral("code"),
                                             QStringLiteral("output"), QStringLiteral("error")}));
        QVERIFY(rows.size() > 100);
        const ExplorerResultPtr r = w_->lastResult();
        const qs::SliceQuant& slice = r->run.slices.front();
        auto q = qs::SliceQuantizer::make(r->spec, slice.requested_min, slice.requested_max);
        QVERIFY(q);
        for (qsizetype k = 1; k < rows.size(); ++k) {
            const float x = static_cast<float>(csvValue(rows[k][0]));  // inputs are float32 values
            const qs::ValuePoint v = (*q)(x);
            const float y = static_cast<float>(v.output);
            if (csvValue(rows[k][1]) != v.code || static_cast<float>(csvValue(rows[k][2])) != y ||
                !csvEquals(rows[k][3], double(x) - double(y)))
                QFAIL(qPrintable(QStringLiteral("row %1: x = %2: %3, %4, %5 vs core %6, %7")
                                     .arg(k).arg(rows[k][0], rows[k][1], rows[k][2], rows[k][3])
                                     .arg(v.code).arg(double(y))));
        }
    };
    // After the edits: the window shows the model's result, and the CSV matches the core.
    auto settledAndChecked = [&] {
        QVERIFY(settle());
        CHECK(verifyShowsModel());
        CHECK(check());
    };
    CHECK(check());
    CHECK(selectData("modeCombo", int(qs::QuantizeMode::MinCombined)));
    CHECK(selectData("typeCombo", int(qs::QType::QUInt8)));
    CHECK(typeInto("minRangeSpin", QStringLiteral("-0.7")));
    CHECK(settledAndChecked());
    CHECK(selectData("opCombo", int(qs::QuantOp::QuantizeAndDequantizeV2)));
    CHECK(selectData("roundModeCombo", int(qs::RoundMode::HalfUp)));
    CHECK(typeInto("numBitsSpin", QStringLiteral("3")));
    CHECK(settledAndChecked());
    CHECK(selectData("opCombo", int(qs::QuantOp::TpuSimulatedQuantization)));
    CHECK(typeInto("numBucketsSpin", QStringLiteral("11")));
    QVERIFY(settle());
    CHECK(check());
}

void TstMainWindowOutput::statisticsCsv() {
    const ExplorerResultPtr r = w_->lastResult();
    const auto table = w_->statsPanel()->csvTable();
    const auto rows = qs::analysis::statisticsRows(*r);
    QCOMPARE(table.header.size(), rows.size() + 2);  // scope,channel first
    QCOMPARE(table.rows.size(), size_t(1));
    // Through the File menu and its dialog.
    const QString path = dir_->filePath(QStringLiteral("statistics.csv"));
    answerNextDialog(path);
    menuAction(QStringLiteral("&File"), QStringLiteral("Export s&tatistics as CSV"))->trigger();
    const QList<QStringList> csv = readCsv(path);
    QCOMPARE(csv.size(), 2);
    QCOMPARE(csv[0], qStrings(table.header));
    QCOMPARE(csv[1][0], QStringLiteral("tensor"));
    for (size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(csv[0][qsizetype(i) + 2], QString::fromStdString(rows[i].key));
        QVERIFY2(csvEquals(csv[1][qsizetype(i) + 2], rows[i].value), rows[i].key.c_str());
    }
    auto field = [&](const char* key) { return csv[1][csv[0].indexOf(QLatin1String(key))]; };
    QVERIFY(csvEquals(field("sqnr_db"), r->stats.sqnr_db));
    QVERIFY(csvEquals(field("rmse"), r->stats.rmse));
    QVERIFY(csvEquals(field("mse"), r->stats.mse));
    QVERIFY(csvEquals(field("max_abs_error"), r->stats.max_abs_error));
    QCOMPARE(field("count"), QStringLiteral("20000"));
    QCOMPARE(field("levels_used"), QString::number(r->stats.distinct_levels));
    QCOMPARE(float(csvValue(field("output_max"))), r->curve.output_max);
    // The panel shows the same numbers.
    QCOMPARE(w_->statsPanel()->valueText(QStringLiteral("rmse")), QString::number(r->stats.rmse, 'g', 6));
    QCOMPARE(w_->statsPanel()->valueText(QStringLiteral("levels_used")),
             QStringLiteral("%1 of 256").arg(r->stats.distinct_levels));
}

void TstMainWindowOutput::presentationMode() {
    auto* action = w_->findChild<QAction*>(QStringLiteral("presentationModeAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::Key_F5));
    auto* transfer = w_->transferView();
    QCPGraph* curve = transfer->plot()->graph(0);
    const double basePen = curve->pen().widthF() > 0 ? curve->pen().widthF() : 1.0;
    const double baseTick = transfer->plot()->xAxis->tickLabelFont().pointSizeF();
    const double baseFont = w_->font().pointSizeF();
    QSignalSpy steps(w_->presentationMode(), &PresentationMode::stepRequested);

    action->trigger();
    QVERIFY(w_->presentationMode()->isOn());
    QVERIFY(w_->windowState() & Qt::WindowFullScreen);
    QVERIFY(!w_->parameterPanel()->isVisible());  // the plot gets the screen
    QCOMPARE(w_->font().pointSizeF(), baseFont * PresentationMode::kFontScale);
    for (PlotFrame* p : w_->findChildren<PlotFrame*>())
        QCOMPARE(p->presentationScale(), PresentationMode::kPlotScale);
    QCOMPARE(curve->pen().widthF(), basePen * PresentationMode::kPlotScale);
    QCOMPARE(transfer->plot()->xAxis->tickLabelFont().pointSizeF(), baseTick * PresentationMode::kPlotFontScale);
    // A theme switch restyles every series: the thick lines stay thick and never compound.
    w_->findChild<QAction*>(QStringLiteral("darkThemeAction"))->trigger();
    QCOMPARE(curve->pen().widthF(), basePen * PresentationMode::kPlotScale);
    w_->findChild<QAction*>(QStringLiteral("darkThemeAction"))->trigger();

    // Arrow keys step the lesson, even with the focus in a field.
    QTest::keyClick(w_.get(), Qt::Key_Right);
    QTest::keyClick(w_.get(), Qt::Key_PageUp);
    QCOMPARE(steps.count(), 2);
    QCOMPARE(steps.at(0).at(0).toInt(), +1);
    QCOMPARE(steps.at(1).at(0).toInt(), -1);

    QTest::keyClick(w_.get(), Qt::Key_Escape);
    QVERIFY(!w_->presentationMode()->isOn());
    QVERIFY(!action->isChecked());
    QVERIFY(!(w_->windowState() & Qt::WindowFullScreen));
    QVERIFY(w_->parameterPanel()->isVisible());
    QCOMPARE(w_->font().pointSizeF(), baseFont);
    QCOMPARE(curve->pen().widthF(), basePen);
    QCOMPARE(transfer->plot()->xAxis->tickLabelFont().pointSizeF(), baseTick);
    // Off: the arrows are the widgets' again.
    QTest::keyClick(w_.get(), Qt::Key_Right);
    QCOMPARE(steps.count(), 2);
}

void TstMainWindowOutput::darkTheme() {
    auto* dark = w_->findChild<QAction*>(QStringLiteral("darkThemeAction"));
    QVERIFY(dark);
    QVERIFY(!dark->isChecked());
    for (int i = 0; i < kExplorerTabs; ++i) {
        auto* view = qobject_cast<PlotFrame*>(w_->tabs()->widget(i));
        const QImage image = view->exporter().renderImage(600, 400);
        QVERIFY(shareOf(image, plotPalette(Theme::Light).background) > 0.05);
        QCOMPARE(shareOf(image, plotPalette(Theme::Dark).background), 0.0);
    }
    dark->trigger();
    QVERIFY(dark->isChecked());
    QVERIFY(model_->viewState().dark);
    for (int i = 0; i < kExplorerTabs; ++i) {
        auto* view = qobject_cast<PlotFrame*>(w_->tabs()->widget(i));
        QCOMPARE(view->theme(), Theme::Dark);
        const QImage image = view->exporter().renderImage(600, 400);
        QVERIFY2(shareOf(image, plotPalette(Theme::Dark).background) > 0.05, qPrintable(QString::number(i)));
        QCOMPARE(shareOf(image, plotPalette(Theme::Light).background), 0.0);
        QCOMPARE(view->plot()->axisRect()->backgroundBrush().color(), plotPalette(Theme::Dark).axisRectBackground);
    }
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
    // The statistics panel follows the theme too (its stale line uses the theme's colour).
    QVERIFY(w_->statsPanel()->staleLabel()->styleSheet().contains(plotPalette(Theme::Dark).range.name()));

    // Saved in the session, and restored from it.
    QVERIFY(w_->currentSession().view.dark);
    const QString path = dir_->filePath(QStringLiteral("dark.qscope"));
    QVERIFY(w_->saveSessionAs(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(f.readAll()).object()["view"].toObject()["theme"].toString(),
             QStringLiteral("dark"));
    dark->trigger();
    QVERIFY(!dark->isChecked());
    QCOMPARE(w_->transferView()->theme(), Theme::Light);
    QVERIFY(!w_->currentSession().view.dark);
    QVERIFY(w_->openSession(path));
    QVERIFY(dark->isChecked());
    QCOMPARE(w_->transferView()->theme(), Theme::Dark);
    QVERIFY(shareOf(w_->histogramView()->exporter().renderImage(600, 400), plotPalette(Theme::Dark).background) > 0.05);
}

QTEST_MAIN(TstMainWindowOutput)
#include "tst_main_window_output.moc"
