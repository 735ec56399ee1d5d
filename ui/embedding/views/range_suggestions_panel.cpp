#include "ui/embedding/views/range_suggestions_panel.h"

#include <charconv>
#include <cmath>
#include <utility>

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>

#include "core/tpu/simulated_quantization.h"
#include "ui/views/view_text.h"

namespace qs::ui {

using namespace qs::ui::text;

RangeSuggestionsPanel::RangeSuggestionsPanel(QWidget* parent)
    : TablePanel(QStringLiteral("rangeSuggestionsPanel"), parent) {
    QTableWidget* t = table();
    t->setColumnCount(7);
    t->setHorizontalHeaderLabels({tr("Method"), tr("lower"), tr("upper"), tr("MSE"), tr("SQNR"), tr("Clipped"), QString()});
    t->horizontalHeaderItem(MseColumn)->setToolTip(tr("Mean squared error of the simulated quantization over the table"));
    t->horizontalHeaderItem(SqnrColumn)->setToolTip(tr("10·log10(Σx² / Σ(x − Q(x))²) over the table"));
    t->horizontalHeaderItem(ClippedColumn)->setToolTip(tr("Share of the table's values outside [lower, upper]"));
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(false);
    t->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);  // its size hint: its rows
    setSuggestions({});
}

QString RangeSuggestionsPanel::boundText(double value) {
    // A bound that is a float32 (the table's values are) in the fewest digits that read back
    // as that float32, Python-style ("2.0"): its double's 17 digits ("-0.49993807077407837")
    // pushed the error columns out of a 1280-pixel window. The tooltip has the exact text,
    // which Apply writes.
    if (!std::isfinite(value)) return qs(qs::tpu::pyFloatRepr(value));
    const auto single = static_cast<float>(value);
    // Any other double (an interpolated percentile) in nine digits, a float32's worth.
    if (static_cast<double>(single) != value) return QString::number(value, 'g', 9);
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, single);
    if (ec != std::errc()) return qs(qs::tpu::pyFloatRepr(value));
    QString text = QString::fromLatin1(buffer, end - buffer);
    if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e'))) text += QStringLiteral(".0");
    return text;
}

QPushButton* RangeSuggestionsPanel::applyButton(int row) const {
    if (row < 0 || row >= table()->rowCount()) return nullptr;
    return qobject_cast<QPushButton*>(table()->cellWidget(row, ApplyColumn));
}

void RangeSuggestionsPanel::setSuggestions(const std::vector<qs::embedding::RangeSuggestion>& suggestions,
                                           int64_t num_buckets) {
    suggestions_ = suggestions;
    QTableWidget* t = table();
    t->clearContents();
    t->setRowCount(static_cast<int>(suggestions_.size()));
    best_ = -1;
    for (size_t i = 0; i < suggestions_.size(); ++i)
        if (std::isfinite(suggestions_[i].mse) &&
            (best_ < 0 || suggestions_[i].mse < suggestions_[static_cast<size_t>(best_)].mse))
            best_ = static_cast<int>(i);
    for (int r = 0; r < t->rowCount(); ++r) {
        const auto& s = suggestions_[static_cast<size_t>(r)];
        // Bounds as Python prints them: what "Copy as TensorFlow code" would write.
        const QString lower = qs(qs::tpu::pyFloatRepr(s.lower)), upper = qs(qs::tpu::pyFloatRepr(s.upper));
        setCell(r, MethodColumn, qs(s.method));
        setCell(r, LowerColumn, boundText(s.lower));
        setCell(r, UpperColumn, boundText(s.upper));
        setCell(r, MseColumn, statText(s.mse, 4));
        setCell(r, SqnrColumn, std::isfinite(s.sqnr_db) ? tr("%1 dB").arg(s.sqnr_db, 0, 'f', 2) : statText(s.sqnr_db));
        setCell(r, ClippedColumn, tr("%1 %").arg(statText(100.0 * s.clipped_fraction, 3)));
        for (int c = MethodColumn; c < ApplyColumn; ++c) {
            QTableWidgetItem* item = t->item(r, c);
            if (c != MethodColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            QFont f = item->font();
            f.setBold(r == best_);
            item->setFont(f);
            item->setToolTip(r == best_ ? tr("%1: the lowest MSE of these").arg(qs(s.method)) : QString());
        }
        for (auto [column, exact] : {std::pair{int(LowerColumn), lower}, std::pair{int(UpperColumn), upper}})
            if (t->item(r, column)->text() != exact)
                t->item(r, column)->setToolTip(tr("exactly %1 (what Apply writes)").arg(exact));
        auto* apply = new QPushButton(tr("Apply"));
        apply->setObjectName(QStringLiteral("applySuggestion%1").arg(r));
        apply->setToolTip(tr("Use lower = %1, upper = %2 in the table's QuantizationConfig").arg(lower, upper));
        const double lo = s.lower, hi = s.upper;
        connect(apply, &QPushButton::clicked, this, [this, lo, hi] { emit applyRequested(lo, hi); });
        t->setCellWidget(r, ApplyColumn, apply);
    }
    t->resizeColumnsToContents();
    t->resizeRowsToContents();
    titleLabel()->setText(suggestions_.empty()
                              ? tr("Suggested ranges (none yet)")
                              : num_buckets > 0 ? tr("Suggested lower / upper  ·  errors at num_buckets = %1").arg(num_buckets)
                                                : tr("Suggested lower / upper"));
    setStale(false);
}

data::TextTable RangeSuggestionsPanel::csvTable() const {
    using data::csvNumber;
    data::TextTable t{{"method", "lower", "upper", "mse", "sqnr_db", "clipped_fraction"}, {}};
    for (const auto& s : suggestions_)
        t.rows.push_back({s.method, csvNumber(s.lower), csvNumber(s.upper), csvNumber(s.mse), csvNumber(s.sqnr_db),
                          csvNumber(s.clipped_fraction)});
    return t;
}

}  // namespace qs::ui
