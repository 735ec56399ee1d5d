// Small widget pieces the configuration editor's parts share (config_editor*.cpp): the
// class lists of its combo boxes, the red error labels, and list syncing. Not a public API.
#pragma once

#include <QJsonValue>
#include <QStringList>
#include <vector>

class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QWidget;

namespace qs::ui {

struct ObjectCheck;

namespace editor {

inline constexpr const char* kErrorColor = "#d32f2f";
extern const QStringList kOptimizers;        // the TF2 optimizer classes
extern const QStringList kParameterClasses;  // the TF1 optimization parameter classes
extern const QStringList kInitializers;
// A keyword that is not set (TF's default).
inline const QJsonValue kUnset{QJsonValue::Undefined};

inline bool valid(int index, size_t size) { return index >= 0 && static_cast<size_t>(index) < size; }

QDoubleSpinBox* doubleSpin(const QString& name);
void setTextIfChanged(QLineEdit* edit, const QString& text);
// A red, word-wrapped label named `name`, hidden until it has an error to show.
QLabel* errorLabel(const QString& name);
// Sets a list's rows to `names`, keeping the items when only the texts change.
void syncList(QListWidget* list, const QStringList& names, int current);
// Entries of objects TF rejects are red.
void markBroken(QListWidget* list, const std::vector<ObjectCheck>& checks);

// The tables' / the features' group: the list of objects with Add and Remove buttons under
// it, and beside it the selected object's form, starting with its error label and its
// name. Named `<prefix>List`, `add<Object>`, `remove<Object>`, `<prefix>Error`,
// `<prefix>Name`.
struct ObjectSection {
    QWidget* group = nullptr;
    QListWidget* list = nullptr;
    QPushButton* add = nullptr;
    QPushButton* remove = nullptr;
    QWidget* formWidget = nullptr;
    QFormLayout* form = nullptr;
    QLabel* error = nullptr;
    QLineEdit* name = nullptr;
};
ObjectSection objectSection(const QString& title, const QString& prefix, const QString& object);

// A file name field `name` with a "…" button ("browse<Name>") beside it, as one form row.
struct FileRow {
    QLineEdit* edit = nullptr;
    QPushButton* browse = nullptr;
};
FileRow addFileRow(QFormLayout* form, const QString& label, const QString& name, const QString& placeholder);

}  // namespace editor
}  // namespace qs::ui
