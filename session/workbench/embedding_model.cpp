#include "session/workbench/embedding_model.h"

#include <QUndoCommand>

namespace qs::ui {

namespace {

// One edit: the whole document before and after (it is small). Typing into one field
// merges: same merge key and no endTyping() in between.
class EditCommand : public QUndoCommand {
public:
    EditCommand(EmbeddingModel* model, EmbeddingDocument before, EmbeddingDocument after,
                const QString& what, QString mergeKey, int generation)
        : QUndoCommand(what), model_(model), before_(std::move(before)), after_(std::move(after)),
          mergeKey_(std::move(mergeKey)), generation_(generation) {}

    void undo() override { model_->apply(before_); }
    void redo() override { model_->apply(after_); }
    int id() const override { return mergeKey_.isEmpty() ? -1 : 1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const EditCommand*>(other);
        if (o->mergeKey_ != mergeKey_ || o->generation_ != generation_) return false;
        after_ = o->after_;
        return true;
    }

private:
    EmbeddingModel* model_;
    EmbeddingDocument before_, after_;
    QString mergeKey_;
    int generation_;
};

bool valid(int index, size_t size) { return index >= 0 && static_cast<size_t>(index) < size; }

QString uniqueName(const QString& stem, const QStringList& taken) {
    for (int n = 0;; ++n)
        if (const QString name = stem + QString::number(n); !taken.contains(name)) return name;
}

// Element `index` of the document's tables or features replaced by `value`, as one edit.
template <typename T>
void replaceAt(EmbeddingModel& model, std::vector<T> EmbeddingDocument::*list, int index, const T& value,
               const QString& what, const QString& mergeKey) {
    if (!valid(index, (model.document().*list).size())) return;
    EmbeddingDocument next = model.document();
    (next.*list)[static_cast<size_t>(index)] = value;
    model.edit(next, what, mergeKey);
}

// Renaming one table / feature: typing merges into one undo step per object ("tables[0].name").
template <typename T>
void renameAt(EmbeddingModel& model, std::vector<T> EmbeddingDocument::*list, const char* listName, int index,
              const QString& name, const QString& what) {
    if (!valid(index, (model.document().*list).size())) return;
    T item = (model.document().*list)[static_cast<size_t>(index)];
    item.name = name;
    replaceAt(model, list, index, item, what, QStringLiteral("%1[%2].name").arg(QLatin1String(listName)).arg(index));
}

}  // namespace

EmbeddingModel::EmbeddingModel(QObject* parent) : QObject(parent) {
    validation_ = validateEmbeddingDocument(doc_);
}

void EmbeddingModel::edit(const EmbeddingDocument& next, const QString& what, const QString& mergeKey) {
    if (next == doc_) return;
    undo_.push(new EditCommand(this, doc_, next, what, mergeKey, typingGeneration_));
}

void EmbeddingModel::endTyping() { ++typingGeneration_; }

void EmbeddingModel::apply(const EmbeddingDocument& doc) {
    const EmbeddingDocument before = doc_;
    doc_ = doc;
    // Validated before anyone hears of the change, so listeners read the new errors.
    EmbeddingValidation v = validateEmbeddingDocument(doc_);
    const bool validationChanges = !(v == validation_);
    validation_ = std::move(v);
    const bool sameShape =
        before.tables.size() == doc.tables.size() && before.features.size() == doc.features.size();
    emit documentChanged();
    if (sameShape) {
        for (size_t i = 0; i < doc.tables.size(); ++i)
            if (!(before.tables[i] == doc.tables[i])) emit tableChanged(static_cast<int>(i));
        for (size_t i = 0; i < doc.features.size(); ++i)
            if (!(before.features[i] == doc.features[i])) emit featureChanged(static_cast<int>(i));
    }
    if (!(before.view == doc.view)) emit viewChanged();
    if (validationChanges) emit validationChanged();
}

int EmbeddingModel::addTable() {
    EmbeddingDocument next = doc_;
    QStringList names;
    for (const EmbeddingTable& t : next.tables) names << t.name;
    EmbeddingTable t;
    t.name = uniqueName(QStringLiteral("table_"), names);
    next.tables.push_back(t);
    next.view.table = static_cast<int>(next.tables.size()) - 1;
    edit(next, tr("Add table"));
    return next.view.table;
}

void EmbeddingModel::removeTable(int index) {
    if (!valid(index, doc_.tables.size())) return;
    EmbeddingDocument next = doc_;
    next.tables.erase(next.tables.begin() + index);
    for (EmbeddingFeature& f : next.features) {
        if (f.table == index) f.table = -1;
        else if (f.table > index) --f.table;
    }
    next.view.table = std::min(next.view.table, static_cast<int>(next.tables.size()) - 1);
    edit(next, tr("Remove table"));
}

void EmbeddingModel::renameTable(int index, const QString& name) {
    renameAt(*this, &EmbeddingDocument::tables, "tables", index, name, tr("Rename table"));
}

void EmbeddingModel::setTable(int index, const EmbeddingTable& table, const QString& what,
                              const QString& mergeKey) {
    replaceAt(*this, &EmbeddingDocument::tables, index, table, what, mergeKey);
}

int EmbeddingModel::addFeature() {
    EmbeddingDocument next = doc_;
    QStringList names;
    for (const EmbeddingFeature& f : next.features) names << f.name;
    EmbeddingFeature f;
    f.name = uniqueName(QStringLiteral("feature_"), names);
    f.table = valid(next.view.table, next.tables.size()) ? next.view.table : (next.tables.empty() ? -1 : 0);
    next.features.push_back(f);
    next.view.feature = static_cast<int>(next.features.size()) - 1;
    edit(next, tr("Add feature"));
    return next.view.feature;
}

void EmbeddingModel::removeFeature(int index) {
    if (!valid(index, doc_.features.size())) return;
    EmbeddingDocument next = doc_;
    next.features.erase(next.features.begin() + index);
    next.view.feature = std::min(next.view.feature, static_cast<int>(next.features.size()) - 1);
    edit(next, tr("Remove feature"));
}

void EmbeddingModel::renameFeature(int index, const QString& name) {
    renameAt(*this, &EmbeddingDocument::features, "features", index, name, tr("Rename feature"));
}

void EmbeddingModel::setFeature(int index, const EmbeddingFeature& feature, const QString& what,
                                const QString& mergeKey) {
    replaceAt(*this, &EmbeddingDocument::features, index, feature, what, mergeKey);
}

void EmbeddingModel::setEstimator(const EstimatorOptions& options, const QString& what,
                                  const QString& mergeKey) {
    EmbeddingDocument next = doc_;
    next.estimator = options;
    edit(next, what, mergeKey);
}

void EmbeddingModel::setNumHosts(int hosts) {
    EmbeddingDocument next = doc_;
    next.num_hosts = hosts;
    edit(next, tr("Change number of hosts"), QStringLiteral("num_hosts"));
}

void EmbeddingModel::setView(const EmbeddingViewState& view) {
    if (view == doc_.view) return;
    doc_.view = view;
    emit viewChanged();
}

void EmbeddingModel::reset(const EmbeddingDocument& doc) {
    undo_.clear();
    apply(doc);
}

bool EmbeddingModel::load(const QString& path, QString* error) {
    auto doc = loadEmbeddingDocument(path, error);
    if (!doc) return false;
    reset(*doc);
    return true;
}

bool EmbeddingModel::save(const QString& path, QString* error) const {
    return saveEmbeddingDocument(path, doc_, error);
}

}  // namespace qs::ui
