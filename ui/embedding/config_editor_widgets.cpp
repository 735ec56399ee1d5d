#include "ui/embedding/config_editor_widgets.h"

#include <QBoxLayout>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>

#include "session/workbench/embedding_validation.h"

namespace qs::ui::editor {

const QStringList kOptimizers = {QStringLiteral("SGD"), QStringLiteral("Adagrad"),
                                 QStringLiteral("AdagradMomentum"), QStringLiteral("Adam"),
                                 QStringLiteral("FTRL")};
const QStringList kParameterClasses = {
    QStringLiteral("AdagradParameters"), QStringLiteral("ProximalAdagradParameters"),
    QStringLiteral("AdamParameters"), QStringLiteral("FtrlParameters"),
    QStringLiteral("StochasticGradientDescentParameters"), QStringLiteral("MomentumParameters"),
    QStringLiteral("RMSPropParameters")};
const QStringList kInitializers = {QStringLiteral("truncated_normal"), QStringLiteral("uniform"),
                                   QStringLiteral("zeros"), QStringLiteral("constant")};

QDoubleSpinBox* doubleSpin(const QString& name) {
    auto* s = new QDoubleSpinBox;
    s->setObjectName(name);
    s->setDecimals(6);
    s->setRange(-1e9, 1e9);
    s->setSingleStep(0.01);
    return s;
}

void setTextIfChanged(QLineEdit* edit, const QString& text) {
    if (edit->text() != text) edit->setText(text);
}

QLabel* errorLabel(const QString& name) {
    auto* label = new QLabel;
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: %1;").arg(QLatin1String(kErrorColor)));
    label->hide();
    return label;
}

void syncList(QListWidget* list, const QStringList& names, int current) {
    while (list->count() > names.size()) delete list->takeItem(list->count() - 1);
    while (list->count() < names.size()) list->addItem(QString());
    for (int i = 0; i < names.size(); ++i) list->item(i)->setText(names[i]);
    list->setCurrentRow(current);
}

void markBroken(QListWidget* list, const std::vector<ObjectCheck>& checks) {
    for (int i = 0; i < list->count() && valid(i, checks.size()); ++i)
        list->item(i)->setForeground(checks[static_cast<size_t>(i)].ok() ? list->palette().color(QPalette::Text)
                                                                         : QColor(QLatin1String(kErrorColor)));
}

ObjectSection objectSection(const QString& title, const QString& prefix, const QString& object) {
    ObjectSection o;
    o.group = new QGroupBox(title);
    auto* row = new QHBoxLayout(o.group);
    auto* left = new QVBoxLayout;
    o.list = new QListWidget;
    o.list->setObjectName(prefix + QStringLiteral("List"));
    o.add = new QPushButton(QObject::tr("Add"));
    o.add->setObjectName(QStringLiteral("add") + object);
    o.remove = new QPushButton(QObject::tr("Remove"));
    o.remove->setObjectName(QStringLiteral("remove") + object);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(o.add);
    buttons->addWidget(o.remove);
    left->addWidget(o.list);
    left->addLayout(buttons);
    row->addLayout(left, 1);
    o.formWidget = new QWidget;
    o.form = new QFormLayout(o.formWidget);
    o.error = errorLabel(prefix + QStringLiteral("Error"));
    o.form->addRow(o.error);
    o.name = new QLineEdit;
    o.name->setObjectName(prefix + QStringLiteral("Name"));
    o.form->addRow(QObject::tr("name"), o.name);
    row->addWidget(o.formWidget, 3);
    return o;
}

FileRow addFileRow(QFormLayout* form, const QString& label, const QString& name, const QString& placeholder) {
    FileRow f;
    auto* row = new QHBoxLayout;
    f.edit = new QLineEdit;
    f.edit->setObjectName(name);
    f.edit->setPlaceholderText(placeholder);
    f.browse = new QPushButton(QObject::tr("…"));
    f.browse->setObjectName(QStringLiteral("browse") + name.left(1).toUpper() + name.mid(1));
    row->addWidget(f.edit);
    row->addWidget(f.browse);
    form->addRow(label, row);
    return f;
}

}  // namespace qs::ui::editor
