// The real MainWindow driven as a user drives it, offscreen (fixture: explorer_window_test.h):
// the first launch, every parameter control of the ParameterPanel (combos, spin boxes typed
// into and committed with Enter, check boxes clicked with the mouse), "From data" and
// per-channel ranges. After each change the test waits for the compute service and checks the
// model, the plotted data and the statistics against the result (and the result against the
// core's own quantizer). Edits, undo and data: tst_main_window_edits; sessions:
// tst_main_window_sessions; exports, theme and presentation: tst_main_window_output. The
// controller's rules without a window: tst_explorer_controller.
#include "core/analysis/error_stats.h"
#include "tests/ui/explorer_window_test.h"

class TstMainWindow : public ExplorerWindowTest {
    Q_OBJECT

private slots:
    void firstLaunch();
    void opComboShowsEachOpsRows();
    void typeModeAndRoundModeCombos();
    void narrowRangeCheckBox();
    void qdqControls();
    void tpuNumBuckets();
    void rangeSpinsMoveClipLinesAndHandles();
    void rangeSpinShowsTheFloatInUse();
    void ensureMinimumRangeSpin();
    void fromDataButtonAndShortcut();
    void fromDataBeyondTypedRanges();
    void axisAndChannelRanges();
};

void TstMainWindow::firstLaunch() {
    QCOMPARE(w_->windowTitle(), QStringLiteral("QuantScope — Untitled[*]"));
    QCOMPARE(w_->windowHandle()->title(), QStringLiteral("QuantScope — Untitled"));
    QVERIFY(!w_->isWindowModified());
    // One result, shown by every view.
    QCOMPARE(firstShown_->count(), 1);
    QVERIFY(firstShown_->first().first().toULongLong() > 0);
    const ExplorerResultPtr r = w_->lastResult();
    QCOMPARE(r->spec.op, qs::QuantOp::QuantizeV2);
    QCOMPARE(r->spec.T, qs::QType::QInt8);
    QCOMPARE(r->spec.mode, qs::QuantizeMode::Scaled);
    QCOMPARE(r->spec.round_mode, qs::RoundMode::HalfAwayFromZero);
    QCOMPARE(r->spec.min_range, -3.0f);
    QCOMPARE(r->spec.max_range, 3.0f);
    CHECK(verifyShowsModel());
    // The widgets show the defaults; rows of other ops are hidden.
    QCOMPARE(child<QComboBox>("opCombo")->currentData().toInt(), int(qs::QuantOp::QuantizeV2));
    QCOMPARE(child<QComboBox>("typeCombo")->currentText(), QStringLiteral("qint8"));
    QCOMPARE(child<QComboBox>("modeCombo")->currentText(), QStringLiteral("SCALED"));
    QCOMPARE(child<QComboBox>("roundModeCombo")->currentText(), QStringLiteral("HALF_AWAY_FROM_ZERO"));
    QCOMPARE(child<QDoubleSpinBox>("minRangeSpin")->value(), -3.0);
    QCOMPARE(child<QDoubleSpinBox>("maxRangeSpin")->value(), 3.0);
    for (const char* shown : {"typeCombo", "modeCombo", "roundModeCombo", "narrowRangeCheck", "axisSpin",
                              "ensureMinimumRangeSpin", "minRangeSpin", "maxRangeSpin"})
        QVERIFY2(rowVisible(shown), shown);
    for (const char* hidden : {"signedInputCheck", "numBitsSpin", "rangeGivenCheck", "numBucketsSpin",
                               "rangeSourceCombo"})
        QVERIFY2(!rowVisible(hidden), hidden);

    // The data: 20,000 normal samples, and every output is what the core's quantizer gives.
    const DatasetPtr data = w_->dataService()->dataset();
    QCOMPARE(data->values.size(), size_t(20000));
    QCOMPARE(r->stats.count, qint64(data->values.size()));
    QVERIFY(child<QLabel>("dataInfoLabel")->text().startsWith(
        QStringLiteral("%1 values, shape [20000]").arg(QLocale().toString(20000))));
    auto q = qs::SliceQuantizer::make(r->spec, r->spec.min_range, r->spec.max_range);
    QVERIFY(q);
    double signal = 0, noise = 0;
    std::vector<float> outputs;
    for (size_t i = 0; i < data->values.size(); ++i) {
        const float x = data->values[i];
        const float y = static_cast<float>((*q)(x).output);
        outputs.push_back(y);
        signal += double(x) * x;
        noise += (double(x) - y) * (double(x) - y);
    }
    // SQNR recomputed here: qint8 SCALED on ±3 of N(0, 1) is about 40 dB.
    const double sqnr = 10 * std::log10(signal / noise);
    QVERIFY2(std::abs(sqnr - r->stats.sqnr_db) < 1e-6, qPrintable(QString::number(sqnr)));
    // The window's statistics are those of the core quantizer's outputs, to the last bit.
    const auto expected = qs::analysis::errorStats(data->values, outputs);
    QVERIFY(expected);
    QCOMPARE(r->stats.mse, expected->mse);
    QCOMPARE(r->stats.max_abs_error, expected->max_abs_error);
    QCOMPARE(r->stats.distinct_levels, expected->distinct_levels);
    // Uniform rounding noise (Δ²/12, Δ = 3/127) plus the clipped tails beyond ±3 (2·(10·Q(3) −
    // 3·φ(3)) ≈ 4.2e-4): about 33.3 dB.
    QVERIFY2(sqnr > 32.5 && sqnr < 34, qPrintable(QString::number(sqnr)));
    // All 256 codes of qint8 appear on the transfer curve (it spans the range ±25 %).
    QCOMPARE(distinctValues(w_->transferView()->curveGraph()), size_t(256));
    QCOMPARE(r->curve.code_lowest, -128);
    QCOMPARE(r->curve.code_highest, 127);
}

void TstMainWindow::opComboShowsEachOpsRows() {
    struct Expect {
        qs::QuantOp op;
        bool v2, qdq, tpu;
        int roundModes;
        const char* lo;
    };
    const Expect cases[] = {
        {qs::QuantOp::QuantizeAndDequantizeV2, false, true, false, 2, "input_min"},
        {qs::QuantOp::QuantizeAndDequantizeV3, false, true, false, 0, "input_min"},
        {qs::QuantOp::QuantizeAndDequantizeV4, false, true, false, 2, "input_min"},
        {qs::QuantOp::TpuSimulatedQuantization, false, false, true, 0, "lower"},
        {qs::QuantOp::QuantizeV2, true, false, false, 2, "min_range"},
    };
    auto* form = w_->parameterPanel()->findChild<QFormLayout*>();
    QVERIFY(form);
    for (const Expect& e : cases) {
        const QString what = QString::fromUtf8(qs::quantOpKey(e.op).data());
        QSignalSpy shown(w_.get(), &MainWindow::resultShown);
        CHECK(selectData("opCombo", int(e.op)));
        QCOMPARE(model_->op(), e.op);
        QCOMPARE(model_->roundMode(), qs::defaultRoundMode(e.op));
        QVERIFY(settle());
        QVERIFY2(shown.count() >= 1, qPrintable(what));
        CHECK(verifyShowsModel());
        QCOMPARE(w_->lastResult()->spec.op, e.op);
        QCOMPARE(rowVisible("typeCombo"), e.v2);
        QCOMPARE(rowVisible("modeCombo"), e.v2);
        QCOMPARE(rowVisible("ensureMinimumRangeSpin"), e.v2);
        QCOMPARE(rowVisible("signedInputCheck"), e.qdq);
        QCOMPARE(rowVisible("numBitsSpin"), e.qdq);
        QCOMPARE(rowVisible("rangeGivenCheck"), e.qdq);
        QCOMPARE(rowVisible("numBucketsSpin"), e.tpu);
        QCOMPARE(rowVisible("narrowRangeCheck"), !e.tpu);
        QCOMPARE(rowVisible("axisSpin"), !e.tpu);
        QCOMPARE(rowVisible("roundModeCombo"), e.roundModes > 0);
        QCOMPARE(child<QComboBox>("roundModeCombo")->count(), e.roundModes);
        auto* label = qobject_cast<QLabel*>(form->labelForField(child<QWidget>("minRangeSpin")));
        QCOMPARE(label->text(), QString::fromLatin1(e.lo));
    }
    QCOMPARE(model_->undoStack()->count(), 5);
}

void TstMainWindow::typeModeAndRoundModeCombos() {
    const int levels8 = static_cast<int>(w_->lastResult()->stats.distinct_levels);
    QVERIFY(levels8 > 100 && levels8 <= 256);
    CHECK(selectData("typeCombo", int(qs::QType::QInt16)));
    QCOMPARE(model_->type(), qs::QType::QInt16);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->lastResult()->curve.code_highest, 32767);
    QVERIFY2(w_->lastResult()->stats.distinct_levels > 5000,
             qPrintable(QString::number(w_->lastResult()->stats.distinct_levels)));
    QVERIFY(!w_->lastResult()->curve.steps_resolved);  // more codes than samples
    CHECK(selectData("typeCombo", int(qs::QType::QInt8)));
    QVERIFY(settle());
    QCOMPARE(w_->lastResult()->stats.distinct_levels, levels8);

    // The mode combo by keyboard: Up from SCALED is MIN_FIRST.
    const float scaledMin = w_->lastResult()->curve.output_min;
    auto* mode = child<QComboBox>("modeCombo");
    mode->setFocus();
    QTest::keyClick(mode, Qt::Key_Up);
    QCOMPARE(model_->mode(), qs::QuantizeMode::MinFirst);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QVERIFY(w_->lastResult()->curve.output_min != scaledMin);
    QCOMPARE(w_->lastResult()->curve.output_min, -3.0f);  // MIN_FIRST returns the range as given
    QTest::keyClick(mode, Qt::Key_Up);
    QCOMPARE(model_->mode(), qs::QuantizeMode::MinCombined);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QTest::keyClick(mode, Qt::Key_Down);
    QTest::keyClick(mode, Qt::Key_Down);
    QCOMPARE(model_->mode(), qs::QuantizeMode::Scaled);
    QVERIFY(settle());

    CHECK(selectData("roundModeCombo", int(qs::RoundMode::HalfToEven)));
    QCOMPARE(model_->roundMode(), qs::RoundMode::HalfToEven);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->lastResult()->spec.round_mode, qs::RoundMode::HalfToEven);
    QCOMPARE(model_->undoStack()->count(), 7);
}

void TstMainWindow::narrowRangeCheckBox() {
    QCOMPARE(w_->lastResult()->curve.code_lowest, -128);
    CHECK(clickCheck("narrowRangeCheck"));
    QVERIFY(model_->narrowRange());
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    const auto& codes = w_->lastResult()->curve.code;
    QCOMPARE(*std::min_element(codes.begin(), codes.end()), -127.0);  // the op's lowest code
    QCOMPARE(distinctValues(w_->transferView()->curveGraph()), size_t(255));
    QCOMPARE(w_->lastResult()->curve.code_lowest, -127);
    CHECK(clickCheck("narrowRangeCheck"));
    QVERIFY(!model_->narrowRange());
    QVERIFY(settle());
    QCOMPARE(w_->lastResult()->curve.code_lowest, -128);
}

void TstMainWindow::qdqControls() {
    CHECK(selectData("opCombo", int(qs::QuantOp::QuantizeAndDequantizeV2)));
    QVERIFY(settle());
    QCOMPARE(w_->lastResult()->curve.code_lowest, -128);

    CHECK(clickCheck("signedInputCheck"));
    QVERIFY(!model_->spec().signed_input);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->lastResult()->curve.code_lowest, 0);
    QCOMPARE(w_->lastResult()->curve.code_highest, 255);
    CHECK(clickCheck("signedInputCheck"));
    QVERIFY(model_->spec().signed_input);
    QVERIFY(settle());

    QVERIFY(w_->lastResult()->stats.distinct_levels > 100);
    CHECK(typeInto("numBitsSpin", QStringLiteral("4")));
    QCOMPARE(model_->spec().num_bits, 4);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->lastResult()->curve.code_lowest, -8);
    QCOMPARE(w_->lastResult()->curve.code_highest, 7);
    QCOMPARE(distinctValues(w_->transferView()->curveGraph()), size_t(16));
    QVERIFY(w_->lastResult()->stats.distinct_levels <= 16);

    // range_given off: the range comes from the data, the range spin boxes are disabled.
    CHECK(clickCheck("rangeGivenCheck"));
    QVERIFY(!model_->spec().range_given);
    QVERIFY(!child<QWidget>("minRangeSpin")->isEnabled());
    QVERIFY(!child<QWidget>("maxRangeSpin")->isEnabled());
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    const ExplorerResultPtr r = w_->lastResult();
    QCOMPARE(r->run.slices.front().requested_min, r->data_min);
    QCOMPARE(r->run.slices.front().requested_max, r->data_max);
    QCOMPARE(model_->undoStack()->count(), 5);
}

void TstMainWindow::tpuNumBuckets() {
    CHECK(selectData("opCombo", int(qs::QuantOp::TpuSimulatedQuantization)));
    QVERIFY(settle());
    QCOMPARE(distinctValues(w_->transferView()->curveGraph()), size_t(256));
    CHECK(typeInto("numBucketsSpin", QStringLiteral("16")));
    QCOMPARE(model_->spec().num_buckets, 16);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(distinctValues(w_->transferView()->curveGraph()), size_t(16));
    QVERIFY(w_->lastResult()->stats.distinct_levels <= 16);
}

void TstMainWindow::rangeSpinsMoveClipLinesAndHandles() {
    QCustomPlot* hp = w_->histogramView()->plot();
    const double oldHi = plotLine(hp, QStringLiteral("clipHiLine"))->point1->coords().x();
    QVERIFY(std::abs(oldHi - 3.0) < 1e-5);
    CHECK(typeInto("minRangeSpin", QStringLiteral("-1")));
    QCOMPARE(model_->minRange(), -1.0f);
    QVERIFY(settle());
    CHECK(typeInto("maxRangeSpin", QStringLiteral("1")));
    QCOMPARE(model_->maxRange(), 1.0f);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    // SCALED on [-1, 1]: scale = 127, so TF returns output_min = -128/127, output_max = 1.
    const ExplorerResultPtr r = w_->lastResult();
    QVERIFY(std::abs(r->clip_hi - 1.0) < 1e-6);
    QVERIFY(std::abs(r->clip_lo - (-128.0 / 127.0)) < 1e-6);
    QCOMPARE(plotLine(hp, QStringLiteral("clipHiLine"))->point1->coords().x(), double(r->clip_hi));
    QVERIFY(plotLine(hp, QStringLiteral("clipHiLine"))->point1->coords().x() < oldHi - 1.5);
    QCOMPARE(w_->transferView()->rangeHandles()->min(), -1.0);
    QCOMPARE(w_->transferView()->rangeHandles()->max(), 1.0);
    QCOMPARE(w_->histogramView()->rangeHandles()->max(), 1.0);
    QVERIFY(r->clipped_below + r->clipped_above > 5000);  // a third of N(0,1) lies outside ±1
    QCOMPARE(model_->undoStack()->count(), 2);
}

// The range is float32. Found by tst_monkey: stepping max_range down from 1e9 showed
// 999999999.9 while the op kept 1e9 (the nearest float, unchanged, so no refresh came).
void TstMainWindow::rangeSpinShowsTheFloatInUse() {
    CHECK(typeInto("maxRangeSpin", QStringLiteral("1000000000")));
    QCOMPARE(model_->maxRange(), 1e9f);
    auto* spin = child<QDoubleSpinBox>("maxRangeSpin");
    QTest::keyClick(spin, Qt::Key_Down);  // 999999999.9: the same float
    QCOMPARE(model_->maxRange(), 1e9f);
    QCOMPARE(spin->value(), 1e9);
    CHECK(typeInto("maxRangeSpin", QStringLiteral("16777217")));  // float32: 16777216
    QCOMPARE(model_->maxRange(), 16777216.0f);
    QCOMPARE(spin->value(), 16777216.0);
    QVERIFY(settle());
}

void TstMainWindow::ensureMinimumRangeSpin() {
    CHECK(typeInto("minRangeSpin", QStringLiteral("-0.001")));
    CHECK(typeInto("maxRangeSpin", QStringLiteral("0.001")));
    QVERIFY(settle());
    // ensure_minimum_range 0.01 widens the range to 0.01: max = -0.001 + 0.01.
    QVERIFY2(std::abs(w_->lastResult()->curve.output_max - 0.009) < 1e-4,
             qPrintable(QString::number(w_->lastResult()->curve.output_max)));
    CHECK(typeInto("ensureMinimumRangeSpin", QStringLiteral("0.5")));
    QCOMPARE(model_->spec().ensure_minimum_range, 0.5f);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QVERIFY2(std::abs(w_->lastResult()->curve.output_max - 0.499) < 1e-3,
             qPrintable(QString::number(w_->lastResult()->curve.output_max)));
}

void TstMainWindow::fromDataButtonAndShortcut() {
    const ExplorerResultPtr before = w_->lastResult();
    auto* button = child<QPushButton>("fromDataButton");
    QVERIFY(button->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(model_->minRange(), before->data_min);
    QCOMPARE(model_->maxRange(), before->data_max);
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    QCOMPARE(w_->lastResult()->run.slices.front().requested_min, before->data_min);
    QCOMPARE(w_->lastResult()->clipped_below + w_->lastResult()->clipped_above, 0);
    QCOMPARE(model_->undoStack()->count(), 1);
    // Ctrl+R does the same (no change: no new undo step).
    w_->tabs()->setFocus();
    QTest::keyClick(w_.get(), Qt::Key_R, Qt::ControlModifier);
    QCOMPARE(model_->undoStack()->count(), 1);
    model_->setRange(-1, 1);
    QVERIFY(settle());
    QTest::keyClick(w_.get(), Qt::Key_R, Qt::ControlModifier);
    QCOMPARE(model_->maxRange(), before->data_max);
    QCOMPARE(model_->undoStack()->count(), 3);
    QVERIFY(settle());
}

// Found by tst_monkey: data around -1e10 (a generator with mean -1e10), then "From data":
// the spin boxes (then limited to ±1e9) showed a clamped range and the session written
// could not be read back. The range fields take any finite float32.
void TstMainWindow::fromDataBeyondTypedRanges() {
    model_->setDataSource(DataSource{QStringLiteral("normal:n=1000,seed=2,mean=-1e10,std=1e8"), QString()});
    QVERIFY(settle());
    QTest::mouseClick(child<QPushButton>("fromDataButton"), Qt::LeftButton);
    QVERIFY(model_->minRange() < -1e10f);
    QCOMPARE(float(child<QDoubleSpinBox>("minRangeSpin")->value()), model_->minRange());
    QCOMPARE(float(child<QDoubleSpinBox>("maxRangeSpin")->value()), model_->maxRange());
    const QString path = dir_->filePath(QStringLiteral("far.qscope"));
    QVERIFY(w_->saveSessionAs(path));
    QString error;
    QVERIFY2(loadSession(path, &error), qPrintable(error));
    QVERIFY(settle());
}

void TstMainWindow::axisAndChannelRanges() {
    CHECK(useChannelData());
    QVERIFY(!rowVisible("rangeSourceCombo"));
    CHECK(typeInto("axisSpin", QStringLiteral("1")));
    QCOMPARE(model_->spec().axis, 1);
    QVERIFY(rowVisible("rangeSourceCombo"));
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    ExplorerResultPtr r = w_->lastResult();
    QCOMPARE(r->run.slices.size(), size_t(8));
    QCOMPARE(r->channels.size(), size_t(8));
    const auto rmse = points(w_->channelView()->rmseBars()->data());
    QCOMPARE(rmse.size(), size_t(8));
    for (size_t i = 0; i < 8; ++i) QCOMPARE(rmse[i].second, r->channels[i].stats.rmse);
    for (const auto& s : r->run.slices) QCOMPARE(s.requested_max, 3.0f);

    QVERIFY(child<QWidget>("maxRangeSpin")->isEnabled());
    CHECK(selectData("rangeSourceCombo", int(qs::RangeSource::FromData)));
    QCOMPARE(model_->spec().range_source, qs::RangeSource::FromData);
    // The range fields mean nothing now: disabled.
    QVERIFY(!child<QWidget>("minRangeSpin")->isEnabled());
    QVERIFY(!child<QWidget>("maxRangeSpin")->isEnabled());
    QVERIFY(settle());
    CHECK(verifyShowsModel());
    r = w_->lastResult();
    for (size_t i = 0; i < 8; ++i) {
        QCOMPARE(r->run.slices[i].requested_min, r->channels[i].data_min);
        QCOMPARE(r->run.slices[i].requested_max, r->channels[i].data_max);
    }
    // Channel 7 spreads 2.25x wider than channel 0: its own range is wider too.
    QVERIFY(r->channels[7].data_max > 2 * r->channels[0].data_max);
    // The curve follows the channel picked in the panel.
    QVERIFY(rowVisible("channelSpin"));
    QCOMPARE(r->curve_channel, 0);
    CHECK(typeInto("channelSpin", QStringLiteral("7")));
    QCOMPARE(model_->viewState().channel, 7);
    QVERIFY(settle());
    r = w_->lastResult();
    QCOMPARE(r->curve_channel, 7);
    QCOMPARE(r->curve.output_max, r->channels[7].quant.output_max);
    QCOMPARE(w_->statsPanel()->valueText(QStringLiteral("scale")), QStringLiteral("per channel (see the channel view)"));
    QCOMPARE(w_->statsPanel()->valueText(QStringLiteral("levels_used")),
             QStringLiteral("%1 distinct outputs (256 codes per channel)").arg(r->stats.distinct_levels));
    QVERIFY(r->stats.distinct_levels > 256);  // eight grids
}

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
