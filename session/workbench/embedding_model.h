// The workbench's configuration state: the EmbeddingDocument, its validation (redone on
// every change) and the undo history. Widgets, tests and file loading all go through this
// object; every edit is a QUndoCommand, and typing into one field merges into one undo step
// until endTyping() (the field lost focus) or another field is edited. Holds no maths.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "session/workbench/embedding_document.h"
#include "session/workbench/embedding_validation.h"

namespace qs::ui {

class EmbeddingModel : public QObject {
    Q_OBJECT
public:
    explicit EmbeddingModel(QObject* parent = nullptr);

    const EmbeddingDocument& document() const { return doc_; }
    const EmbeddingValidation& validation() const { return validation_; }
    QUndoStack* undoStack() { return &undo_; }

    // The general edit: pushes an undoable command named `what` when `next` differs.
    // Consecutive edits with the same non-empty `mergeKey` ("tables[0].dim") merge.
    void edit(const EmbeddingDocument& next, const QString& what, const QString& mergeKey = {});
    void endTyping();  // the next edit starts a new undo step

    // Tables. addTable returns the new index (named "table_<n>", unique); removing a table
    // leaves its features without a table (-1) and renumbers the others.
    int addTable();
    void removeTable(int index);
    void renameTable(int index, const QString& name);
    void setTable(int index, const EmbeddingTable& table, const QString& what, const QString& mergeKey = {});

    // Features. addFeature puts the new feature on the selected table (or table 0).
    int addFeature();
    void removeFeature(int index);
    void renameFeature(int index, const QString& name);
    void setFeature(int index, const EmbeddingFeature& feature, const QString& what,
                    const QString& mergeKey = {});

    void setEstimator(const EstimatorOptions& options, const QString& what, const QString& mergeKey = {});
    void setNumHosts(int hosts);

    // The view state (selection, heat-map window) is not undoable.
    void setView(const EmbeddingViewState& view);

    // Replaces everything (opening a file): clears the undo history.
    void reset(const EmbeddingDocument& doc);
    bool load(const QString& path, QString* error);
    bool save(const QString& path, QString* error) const;

    // Used by the undo commands.
    void apply(const EmbeddingDocument& doc);

signals:
    void documentChanged();
    void tableChanged(int index);    // a table's values changed (not on add/remove)
    void featureChanged(int index);
    void validationChanged();
    void viewChanged();

private:
    EmbeddingDocument doc_ = EmbeddingDocument::example();
    EmbeddingValidation validation_;
    QUndoStack undo_;
    int typingGeneration_ = 0;
};

}  // namespace qs::ui
