// The first-start welcome: a card over the central views with the three ways in (try the
// first lesson, open a model file, open a data file) and "Explore the generated data", which
// only closes it. It says what was chosen and hides; the window decides what happens and
// whether it shows again (MainWindow::showWelcomeIfFirstStart, remembered in the settings).
#pragma once

#include <QFrame>

class QPushButton;

namespace qs::ui {

class WelcomePage : public QFrame {
    Q_OBJECT
public:
    // Covers `over` (the central widget) and follows its size.
    explicit WelcomePage(QWidget* over);

    QPushButton* lessonButton() const { return lesson_; }
    QPushButton* modelButton() const { return model_; }
    QPushButton* dataButton() const { return data_; }
    QPushButton* exploreButton() const { return explore_; }

signals:
    void lessonRequested();
    void openModelRequested();
    void openDataRequested();
    void dismissed();  // after any of the four (the page is hidden)

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitCard();

    QFrame* card_ = nullptr;
    QPushButton *lesson_, *model_, *data_, *explore_;
};

}  // namespace qs::ui
