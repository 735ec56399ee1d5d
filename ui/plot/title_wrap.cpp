#include "ui/plot/title_wrap.h"

#include <QStringList>

#include <qcustomplot.h>

#include "ui/plot/layout_width.h"

namespace qs::ui {

namespace {

const QString kSeparator = QStringLiteral("  ·  ");
const char* kUnwrapped = "qsUnwrappedTitle";  // the text a view set, before wrapping
const char* kWrapped = "qsWrappedTitle";      // what wrapping made of it

// Greedy: as many pieces per line as fit, joined by `glue`.
QStringList fill(const QStringList& pieces, const QString& glue, const QFontMetricsF& metrics, double width) {
    QStringList lines;
    QString line;
    for (const QString& piece : pieces) {
        const QString longer = line.isEmpty() ? piece : line + glue + piece;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line;
            line = piece;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

}  // namespace

QString wrapTitle(const QString& text, const QFontMetricsF& metrics, double width) {
    QStringList out;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        if (metrics.horizontalAdvance(paragraph) <= width) {
            out << paragraph;
            continue;
        }
        for (const QString& line : fill(paragraph.split(kSeparator), kSeparator, metrics, width)) {
            if (metrics.horizontalAdvance(line) <= width) out << line;
            else out << fill(line.split(QLatin1Char(' ')), QStringLiteral(" "), metrics, width);
        }
    }
    return out.join(QLatin1Char('\n'));
}

namespace {

// The text `owner` should show at `width`: what the view set last (remembered across wraps),
// wrapped. Stores what it returns, so a text set since is recognised as new.
QString rewrapped(QObject* owner, const QString& shown, const QFont& font, double width) {
    QString unwrapped = owner->property(kUnwrapped).toString();
    if (shown != owner->property(kWrapped).toString()) unwrapped = shown;
    const QString wrapped = wrapTitle(unwrapped, QFontMetricsF(font), width);
    owner->setProperty(kUnwrapped, unwrapped);
    owner->setProperty(kWrapped, wrapped);
    return wrapped;
}

}  // namespace

void keepTitlesWrapped(QCustomPlot* plot) {
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        QCPLayoutGrid* grid = plot->plotLayout();
        // Off screen a plot has no width of its own yet (a hidden tab's is 100 pixels):
        // wrapping waits until it is shown or exported, the text stays whole until then.
        const int layout = layoutWidth(plot);
        const double width = layout > 0 ? layout - 16 : 1e9;  // less the margins
        for (int i = 0; i < grid->elementCount(); ++i)
            if (auto* title = qobject_cast<QCPTextElement*>(grid->elementAt(i))) {
                const QString wrapped = rewrapped(title, title->text(), title->font(), width);
                if (title->text() != wrapped) title->setText(wrapped);
            }
    });
}

void keepBoxWrapped(QCustomPlot* plot, QCPItemText* box) {
    QObject::connect(plot, &QCustomPlot::beforeReplot, box, [plot, box] {
        QCPAxisRect* rect = box->clipAxisRect() ? box->clipAxisRect() : plot->axisRect();
        const double width = layoutWidth(plot) > 0
                                 ? rect->width() - box->padding().left() - box->padding().right() - 24
                                 : 1e9;
        const QString wrapped = rewrapped(box, box->text(), box->font(), width);
        if (box->text() != wrapped) box->setText(wrapped);
    });
}

}  // namespace qs::ui
