#include "ui/view_navigator.h"

#include <algorithm>

#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QBoxLayout>
#include <QResizeEvent>

namespace qs::ui {

namespace {

QTabBar* navigationBar(const QString& name) {
    auto* bar = new QTabBar;
    bar->setObjectName(name);
    bar->setDocumentMode(true);
    bar->setExpanding(false);
    bar->setDrawBase(false);
    // Without scroll buttons a bar that does not fit would squeeze and elide its tabs: the
    // groups exist so that it always fits (tst_main_window checks it at 1280×800).
    bar->setUsesScrollButtons(false);
    bar->setElideMode(Qt::ElideNone);
    return bar;
}

}  // namespace

ViewNavigator::ViewNavigator(QTabWidget* stack, const QVector<Group>& groups, QWidget* parent)
    : QWidget(parent), stack_(stack), groups_(groups) {
    setObjectName(QStringLiteral("viewNavigator"));
    groupBar_ = navigationBar(QStringLiteral("viewGroupBar"));
    viewBarStack_ = new QStackedWidget;
    for (int g = 0; g < groups_.size(); ++g) {
        groupBar_->addTab(groups_[g].title);
        QTabBar* bar = navigationBar(QStringLiteral("viewBar%1").arg(g));
        for (const View& v : groups_[g].views) {
            const int index = stack_->indexOf(v.page);
            bar->addTab(stack_->tabText(index));
            bar->setTabToolTip(bar->count() - 1, stack_->tabToolTip(index));
        }
        viewBars_ << bar;
        viewBarStack_->addWidget(bar);
        connect(bar, &QTabBar::currentChanged, this, [this, g](int position) {
            if (!syncing_ && position >= 0) showViewOfGroup(g, position);
        });
    }
    connect(groupBar_, &QTabBar::currentChanged, this, [this](int g) {
        if (!syncing_ && g >= 0) showGroup(g);
    });
    // The stack's bar is replaced by these two; Ctrl+Tab and setCurrentIndex still work.
    stack_->tabBar()->hide();
    connect(stack_, &QTabWidget::currentChanged, this, &ViewNavigator::followStack);

    layout_ = new QBoxLayout(QBoxLayout::TopToBottom, this);
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->setSpacing(0);
    layout_->setSizeConstraint(QLayout::SetNoConstraint);  // minimumSizeHint() says how narrow
    layout_->addWidget(groupBar_);
    layout_->addWidget(viewBarStack_, 1);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    followStack(stack_->currentIndex());
}

QSize ViewNavigator::minimumSizeHint() const {
    int width = groupBar_->minimumSizeHint().width();
    for (QTabBar* bar : viewBars_) width = std::max(width, bar->minimumSizeHint().width());
    return {width, QWidget::minimumSizeHint().height()};
}

void ViewNavigator::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrange(width());
}

void ViewNavigator::arrange(int width) {
    int widestViews = 0;
    for (QTabBar* bar : viewBars_) widestViews = std::max(widestViews, bar->sizeHint().width());
    const int gap = 24;  // between the groups and the views, in one row
    const auto direction = groupBar_->sizeHint().width() + gap + widestViews <= width ? QBoxLayout::LeftToRight
                                                                                       : QBoxLayout::TopToBottom;
    if (layout_->direction() == direction) return;
    layout_->setDirection(direction);
    layout_->setSpacing(direction == QBoxLayout::LeftToRight ? gap : 0);
}

bool ViewNavigator::select(const QString& id) {
    const int index = indexOf(id);
    if (index < 0) return false;
    stack_->setCurrentIndex(index);
    return true;
}

QString ViewNavigator::currentId() const {
    for (const Group& g : groups_)
        for (const View& v : g.views)
            if (v.page == stack_->currentWidget()) return v.id;
    return QString();
}

QStringList ViewNavigator::ids() const {
    QStringList out;
    for (const Group& g : groups_)
        for (const View& v : g.views) out << v.id;
    return out;
}

int ViewNavigator::indexOf(const QString& id) const {
    for (const Group& g : groups_)
        for (const View& v : g.views)
            if (v.id == id) return stack_->indexOf(v.page);
    return -1;
}

int ViewNavigator::groupOf(int index) const {
    QWidget* page = stack_->widget(index);
    for (int g = 0; g < groups_.size(); ++g)
        for (const View& v : groups_[g].views)
            if (v.page == page) return g;
    return -1;
}

void ViewNavigator::followStack(int index) {
    const int g = groupOf(index);
    if (g < 0) return;
    int position = 0;
    while (groups_[g].views[position].page != stack_->widget(index)) ++position;
    syncing_ = true;
    groupBar_->setCurrentIndex(g);
    viewBarStack_->setCurrentIndex(g);
    viewBars_[g]->setCurrentIndex(position);
    syncing_ = false;
}

void ViewNavigator::showGroup(int group) {
    // The group opens on the view it showed last (its bar remembers it).
    showViewOfGroup(group, std::max(0, viewBars_[group]->currentIndex()));
}

void ViewNavigator::showViewOfGroup(int group, int position) {
    stack_->setCurrentWidget(groups_[group].views[position].page);
}

}  // namespace qs::ui
