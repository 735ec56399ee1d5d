// A splitter of two panes that puts them side by side when it is wide enough for the first
// at the width it asks for (its size hint) beside the second at its narrowest, and one above
// the other when not. On a 1280-pixel screen the workbench's range suggestions beside the
// storage figures hid half of the suggestions' columns behind a scroll bar, while the tab
// had height to spare.
#pragma once

#include <QSplitter>

namespace qs::ui {

class WidthAdaptiveSplitter : public QSplitter {
    Q_OBJECT
public:
    explicit WidthAdaptiveSplitter(QWidget* parent = nullptr);

    // Lays the panes out again: after their contents changed what they ask for.
    void reconsider();

protected:
    void resizeEvent(QResizeEvent* event) override;
};

}  // namespace qs::ui
