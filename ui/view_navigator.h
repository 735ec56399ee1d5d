// The explorer's views in three groups, Explore / Analyse / Compare: a tab bar of the groups
// and, under it, a tab bar of the current group's views. Nine tabs in one row need about
// 1,000 pixels and got a scroll arrow beside the docks even at 1600 pixels; in groups of at
// most four every view is one click away at 1280×800.
//
// The views stay the pages of one QTabWidget (its own bar hidden): its flat index is what
// sessions store, Alt+1…9 and the View menu select, and code that holds it keeps working.
// Each view also has a stable name (viewIds()), for lessons and tests that select a view
// without counting tabs.
#pragma once

#include <QStringList>
#include <QVector>
#include <QWidget>

class QBoxLayout;
class QStackedWidget;
class QTabBar;
class QTabWidget;

namespace qs::ui {

class ViewNavigator : public QWidget {
    Q_OBJECT
public:
    // A view: a page of the stack and the stable name it is selected by.
    struct View {
        QString id;
        QWidget* page;
    };
    struct Group {
        QString title;
        QVector<View> views;
    };
    // Takes over the navigation of `stack` (its tab bar is hidden); every page of `stack`
    // must be in exactly one group.
    ViewNavigator(QTabWidget* stack, const QVector<Group>& groups, QWidget* parent = nullptr);

    // Shows the view named `id`; false (nothing changes) for an unknown name.
    bool select(const QString& id);
    QString currentId() const;
    QStringList ids() const;
    // The stack's page index of view `id`, -1 if there is none.
    int indexOf(const QString& id) const;
    // The group (its index) that holds the view at page `index`.
    int groupOf(int index) const;

    QTabBar* groupBar() const { return groupBar_; }
    // The tab bar of group `group`'s views (only the current group's is visible).
    QTabBar* viewBar(int group) const { return viewBars_.value(group); }
    int groupCount() const { return static_cast<int>(groups_.size()); }

    // As narrow as the groups over the views (the one-row layout is only taken when it fits).
    QSize minimumSizeHint() const override;

protected:
    // One row (groups, then views) when both fit the width, else the views under the groups.
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(int width);
    void followStack(int index);
    void showGroup(int group);
    void showViewOfGroup(int group, int position);

    QTabWidget* stack_;
    QVector<Group> groups_;
    QTabBar* groupBar_;
    QStackedWidget* viewBarStack_;
    QVector<QTabBar*> viewBars_;
    QBoxLayout* layout_;
    bool syncing_ = false;  // the bars follow the stack: their signals must not select again
};

}  // namespace qs::ui
