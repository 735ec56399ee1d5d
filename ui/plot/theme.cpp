#include "ui/plot/theme.h"

#include <algorithm>

#include <qcustomplot.h>

namespace qs::ui {

QString themeName(Theme theme) {
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

namespace {

// The plot palettes as data: one row per role, light and dark side by side.
struct RoleColours {
    QColor PlotPalette::*role;
    QColor light, dark;
};

constexpr RoleColours kPlotRoles[] = {
    {&PlotPalette::background, {255, 255, 255}, {32, 33, 36}},
    {&PlotPalette::axisRectBackground, {255, 255, 255}, {40, 41, 45}},
    {&PlotPalette::text, {30, 30, 30}, {225, 225, 225}},
    {&PlotPalette::axis, {90, 90, 90}, {165, 165, 170}},
    {&PlotPalette::grid, {222, 222, 222}, {66, 67, 74}},
    {&PlotPalette::subGrid, {240, 240, 240}, {52, 53, 58}},
    {&PlotPalette::zeroLine, {170, 170, 170}, {110, 110, 118}},
    {&PlotPalette::legendBackground, {255, 255, 255, 225}, {40, 41, 45, 225}},
    {&PlotPalette::legendBorder, {200, 200, 200}, {90, 90, 98}},
    {&PlotPalette::legendHiddenText, {170, 170, 170}, {110, 110, 118}},
    {&PlotPalette::overlayBackground, {255, 255, 255, 225}, {28, 29, 32, 225}},
    {&PlotPalette::overlayText, {60, 60, 60}, {220, 220, 220}},
    {&PlotPalette::curve, {31, 119, 180}, {90, 170, 255}},
    {&PlotPalette::identity, {150, 150, 150}, {140, 140, 148}},
    {&PlotPalette::code, {90, 90, 90}, {165, 165, 170}},
    {&PlotPalette::error, {148, 103, 189}, {196, 160, 255}},
    {&PlotPalette::range, {214, 39, 40}, {255, 105, 97}},
    {&PlotPalette::handle, {230, 120, 0}, {255, 170, 60}},
    {&PlotPalette::clipped, {214, 39, 40}, {255, 105, 97}},
    {&PlotPalette::theory, {44, 160, 44}, {120, 220, 120}},
    {&PlotPalette::marker, {20, 20, 20}, {240, 240, 240}},
    {&PlotPalette::secondary, {23, 160, 175}, {80, 210, 220}},
    {&PlotPalette::highlight, {255, 200, 0, 70}, {255, 215, 0, 55}},
    {&PlotPalette::tracer, {20, 20, 20}, {240, 240, 240}},
};

PlotPalette makePlotPalette(Theme theme) {
    PlotPalette p;
    for (const RoleColours& r : kPlotRoles) p.*r.role = theme == Theme::Dark ? r.dark : r.light;
    return p;
}

struct WidgetRole {
    QPalette::ColorRole role;
    QColor colour;
};

// The light theme starts from Qt's palette for a (239, 239, 239) window.
constexpr WidgetRole kLightWidgetRoles[] = {
    {QPalette::Base, {255, 255, 255}},          {QPalette::AlternateBase, {247, 247, 247}},
    {QPalette::Highlight, {48, 140, 198}},      {QPalette::HighlightedText, {255, 255, 255}},
    {QPalette::ToolTipBase, {255, 255, 220}},   {QPalette::ToolTipText, {0, 0, 0}},
    {QPalette::Link, {31, 100, 180}},
};

constexpr QColor kDarkWindow(45, 46, 50), kDarkText(225, 225, 225), kDarkDisabled(120, 120, 126);
constexpr WidgetRole kDarkWidgetRoles[] = {
    {QPalette::Window, kDarkWindow},           {QPalette::WindowText, kDarkText},
    {QPalette::Base, {32, 33, 36}},            {QPalette::AlternateBase, {40, 41, 45}},
    {QPalette::ToolTipBase, {55, 56, 60}},     {QPalette::ToolTipText, kDarkText},
    {QPalette::PlaceholderText, kDarkDisabled}, {QPalette::Text, kDarkText},
    {QPalette::Button, kDarkWindow},           {QPalette::ButtonText, kDarkText},
    {QPalette::BrightText, {255, 105, 97}},    {QPalette::Light, {70, 71, 76}},
    {QPalette::Midlight, {58, 59, 64}},        {QPalette::Mid, {38, 39, 42}},
    {QPalette::Dark, {25, 25, 28}},            {QPalette::Shadow, {10, 10, 10}},
    {QPalette::Highlight, {58, 130, 200}},     {QPalette::HighlightedText, {255, 255, 255}},
    {QPalette::Link, {110, 175, 255}},         {QPalette::LinkVisited, {170, 140, 255}},
};
constexpr WidgetRole kDarkDisabledRoles[] = {
    {QPalette::WindowText, kDarkDisabled}, {QPalette::Text, kDarkDisabled},
    {QPalette::ButtonText, kDarkDisabled}, {QPalette::HighlightedText, kDarkDisabled},
    {QPalette::Base, kDarkWindow},         {QPalette::Button, {40, 41, 45}},
};

}  // namespace

const PlotPalette& plotPalette(Theme theme) {
    static const PlotPalette light = makePlotPalette(Theme::Light);
    static const PlotPalette dark = makePlotPalette(Theme::Dark);
    return theme == Theme::Dark ? dark : light;
}

PlotPalette stalePalette(const PlotPalette& p) {
    PlotPalette s = p;
    const bool dark = p.background.lightness() < 128;
    const QColor grey = dark ? QColor(120, 120, 126) : QColor(175, 175, 175);
    const QColor lightGrey = dark ? QColor(92, 92, 98) : QColor(205, 205, 205);
    for (QColor* c : {&s.curve, &s.code, &s.error, &s.range, &s.handle, &s.clipped, &s.theory,
                      &s.marker, &s.secondary})
        *c = grey;
    s.identity = lightGrey;
    s.highlight = QColor(grey.red(), grey.green(), grey.blue(), 40);
    return s;
}

QColor opaqueTint(const QColor& colour, int alpha, const QColor& background) {
    const double a = std::clamp(alpha, 0, 255) / 255.0;
    auto mix = [a](double over, double under) { return over * a + under * (1.0 - a); };
    return QColor::fromRgbF(static_cast<float>(mix(colour.redF(), background.redF())),
                            static_cast<float>(mix(colour.greenF(), background.greenF())),
                            static_cast<float>(mix(colour.blueF(), background.blueF())));
}

QPalette widgetPalette(Theme theme) {
    if (theme == Theme::Light) {
        QPalette p(QColor(239, 239, 239));
        for (const WidgetRole& r : kLightWidgetRoles) p.setColor(r.role, r.colour);
        return p;
    }
    QPalette p;
    for (const WidgetRole& r : kDarkWidgetRoles) p.setColor(r.role, r.colour);
    for (const WidgetRole& r : kDarkDisabledRoles) p.setColor(QPalette::Disabled, r.role, r.colour);
    return p;
}

void applyPlotPalette(QCustomPlot* plot, const PlotPalette& p) {
    plot->setBackground(p.background);
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(p.axisRectBackground);
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(p.axis, 1));
            axis->setTickPen(QPen(p.axis, 1));
            axis->setSubTickPen(QPen(p.axis, 1));
            axis->setTickLabelColor(p.text);
            axis->setLabelColor(p.text);
            axis->grid()->setPen(QPen(p.grid, 1, Qt::SolidLine));
            axis->grid()->setSubGridPen(QPen(p.subGrid, 1, Qt::DotLine));
            axis->grid()->setZeroLinePen(QPen(p.zeroLine, 1));
        }
    }
    // Legends live in axis-rect insets or in the plot layout; find them all.
    for (QCPLegend* legend : plot->findChildren<QCPLegend*>()) {
        // A legend inside an axis rect gets a box; one in the layout (a strip) does not.
        const bool inset = qobject_cast<QCPLayoutInset*>(legend->layout()) != nullptr;
        legend->setBrush(inset ? QBrush(p.legendBackground) : QBrush(Qt::NoBrush));
        legend->setBorderPen(inset ? QPen(p.legendBorder) : QPen(Qt::NoPen));
        legend->setTextColor(p.text);
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem* item = legend->item(i);
            if (!item) continue;  // an empty cell of a wrapped legend
            auto* pli = qobject_cast<QCPPlottableLegendItem*>(item);
            const bool hidden = pli && pli->plottable() && !pli->plottable()->visible();
            item->setTextColor(hidden ? p.legendHiddenText : p.text);
        }
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
            title->setTextColor(p.text);
}

void applyTheme(QCustomPlot* plot, Theme theme) { applyPlotPalette(plot, plotPalette(theme)); }

QColor categoryColor(int index, Theme theme) {
    static const QColor light[] = {QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115),
                                   QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233)};
    static const QColor dark[] = {QColor(86, 180, 233), QColor(255, 140, 60), QColor(60, 220, 160),
                                  QColor(230, 150, 200), QColor(240, 228, 66), QColor(150, 200, 255)};
    const int n = static_cast<int>(std::size(light));
    const int i = ((index % n) + n) % n;
    return theme == Theme::Dark ? dark[i] : light[i];
}

}  // namespace qs::ui
