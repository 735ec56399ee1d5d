// Bucket occupancy of a table under TPU simulated quantization: one bar per bucket at the
// value it reconstructs to (bucket center), the clipped mass (values below lower land in
// bucket 0, above upper in the last bucket) stacked on the first/last bars in the clip
// colour, and a caption with the clipped counts, the empty buckets and the entropy of the
// distribution against its maximum log2(num_buckets). Optionally the suggested ranges as
// dashed vertical lines. Log-y toggle (a few buckets usually dwarf the rest).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QList>

#include "core/embedding/occupancy.h"
#include "core/embedding/range_suggest.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/qcp_fwd.h"

namespace qs::ui {

class OccupancyView : public PlotFrame {
    Q_OBJECT
public:
    explicit OccupancyView(QWidget* parent = nullptr);
    ~OccupancyView() override;

    void setOccupancy(const qs::embedding::BucketOccupancy& occupancy);
    // No bars: `reason` in their place (default: the table has no QuantizationConfig).
    void clear(const QString& reason = QString());
    const std::optional<qs::embedding::BucketOccupancy>& occupancy() const { return occupancy_; }
    // Dashed lines at each suggestion's lower and upper (empty: none).
    void setSuggestions(const std::vector<qs::embedding::RangeSuggestion>& suggestions);

    // bucket,center,count,in_range,clipped — one row per bucket.
    data::NumberColumns csvTable() const override;

    QCPBars* inRangeBars() const;
    QCPBars* clippedBars() const;
    QCPItemText* captionText() const;
    QCPTextElement* titleElement() const;
    QList<QCPItemStraightLine*> suggestionLines() const { return suggestionLines_; }

    // The caption for an occupancy (also used by reports): clipped below/above with their
    // share, NaN, empty buckets, entropy.
    static QString captionFor(const qs::embedding::BucketOccupancy& occupancy);

protected:
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    void setHomeX();
    std::optional<qs::embedding::BucketOccupancy> occupancy_;
    std::vector<qs::embedding::RangeSuggestion> suggestions_;
    struct Items;  // the plot items, defined in the .cpp
    std::unique_ptr<Items> items_;
    QList<QCPItemStraightLine*> suggestionLines_;  // lower, upper per suggestion
    QList<QCPGraph*> suggestionLegend_;
};

}  // namespace qs::ui
