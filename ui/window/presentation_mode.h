// Presentation mode for lecture halls: the window goes full screen, its text grows, every
// plot draws thick lines and large labels (PlotFrame::setPresentationScale), and the
// keyboard steps through a lesson (Right / Page Down / Space: next; Left / Page Up:
// previous; Esc: leave). The docks are hidden so the plot fills the screen, except docks
// whose property "qsShowInPresentation" is true (the lesson panel); leaving restores the
// window's layout. Owned by a main window; holds no state worth saving.
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>
#include <utility>

class QAction;
class QMainWindow;

namespace qs::ui {

class PresentationMode : public QObject {
    Q_OBJECT
public:
    static constexpr double kFontScale = 1.4;      // widgets' text
    static constexpr double kPlotScale = 2.0;      // plot lines and markers
    static constexpr double kPlotFontScale = 1.35; // plot text

    explicit PresentationMode(QMainWindow* window);
    // The keys eventFilter reads while on (they are not actions' shortcuts): the help's
    // shortcut list shows them. {"Right, PgDown, Space", "Next lesson"}, …
    static QList<std::pair<QString, QString>> keys();
    QAction* action() const { return action_; }  // checkable, F5
    bool isOn() const { return on_; }
    // While on: the window's docks as leaving will restore them (a lesson that ends during
    // the presentation replaces them with the window from before the lesson).
    QByteArray layoutToRestore() const { return savedLayout_; }
    void setLayoutToRestore(const QByteArray& state) { savedLayout_ = state; }

public slots:
    void setOn(bool on);

signals:
    void toggled(bool on);
    void stepRequested(int delta);  // +1 next, -1 previous

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void scaleWidgets(double fontScale, double plotScale, double plotFontScale);

    QMainWindow* window_;
    QAction* action_;
    bool on_ = false;
    bool wasMaximized_ = false;
    QByteArray savedLayout_;
    double baseFontSize_ = 0;
};

}  // namespace qs::ui
