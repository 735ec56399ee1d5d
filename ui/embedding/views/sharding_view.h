// How a table is spread over the TPU hosts, one bar group per host in three panels sharing
// the host axis: rows held (after TF's padding of small tables), bytes held as float32 next
// to k-bit manually quantized storage, and the lookups each host serves for the current
// batch (all ids and distinct ids). The hot host (most lookups) is highlighted across the
// panels; the title names the strategy and the padded vocabulary, a caption the traffic
// imbalance max/mean.
#pragma once

#include <optional>

#include "core/embedding/sharding_report.h"
#include "ui/plot/plot_frame.h"
#include "ui/plot/qcp_fwd.h"

namespace qs::ui {

class ShardingView : public PlotFrame {
    Q_OBJECT
public:
    explicit ShardingView(QWidget* parent = nullptr);
    ~ShardingView() override;

    void setReport(const qs::embedding::ShardingReport& report);
    void clear();
    const std::optional<qs::embedding::ShardingReport>& report() const { return report_; }

    // The host with the most lookups (-1 without lookups); ties: the first.
    int hotHost() const { return hot_; }
    // The caption under the title: traffic imbalance, hot host, ids out of range.
    static QString captionFor(const qs::embedding::ShardingReport& report);

    // host,first_id,rows,bytes_float32,bytes_quantized,lookups,unique_lookups.
    data::NumberColumns csvTable() const override;

    QCPAxisRect* bytesRect() const { return bytesRect_; }
    QCPAxisRect* trafficRect() const { return trafficRect_; }
    QCPBars* rowsBars() const { return rows_; }
    QCPBars* float32Bars() const { return f32_; }
    QCPBars* quantizedBars() const { return quant_; }
    QCPBars* lookupBars() const { return lookups_; }
    QCPBars* uniqueLookupBars() const { return unique_; }
    QCPTextElement* titleElement() const { return title_; }
    QCPTextElement* captionElement() const { return caption_; }
    double byteUnit() const { return byteUnit_; }  // bytes per unit of the bytes axis

protected:
    void applySeriesStyle(const PlotPalette& palette) override;
    Readout readoutAt(const QPointF& pixel) const override;

private:
    std::optional<qs::embedding::ShardingReport> report_;
    int hot_ = -1;
    double byteUnit_ = 1;
    QCPTextElement* title_ = nullptr;
    QCPTextElement* caption_ = nullptr;
    QCPAxisRect* bytesRect_ = nullptr;
    QCPAxisRect* trafficRect_ = nullptr;
    QCPBars* rows_ = nullptr;
    QCPBars* f32_ = nullptr;
    QCPBars* quant_ = nullptr;
    QCPBars* lookups_ = nullptr;
    QCPBars* unique_ = nullptr;
    QCPBarsGroup* bytesGroup_ = nullptr;
    QCPBarsGroup* trafficGroup_ = nullptr;
    QList<QCPItemRect*> bands_;  // hot host, one per panel
};

}  // namespace qs::ui
