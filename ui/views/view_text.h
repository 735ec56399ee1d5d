// Shared wording of the views: numbers as TF returned them, op and range names per op (from
// the op's descriptor row; the words that differ by family switch on it).
#pragma once

#include <charconv>
#include <cmath>
#include <string_view>

#include <QCoreApplication>
#include <QLocale>
#include <QString>
#include <QStringList>

#include "core/analysis/quant_spec.h"

namespace qs::ui::text {

inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// The shortest text that reads back as the same float32 (the value TF returned).
inline QString floatText(float value) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    if (ec != std::errc()) return QString::number(value);
    return QString::fromLatin1(buffer, end - buffer);
}

inline QString num(double value, int precision = 6) {
    return QString::number(value, 'g', precision);
}

// A statistic for a table cell: "—" for NaN (no data), ±∞ spelled out.
inline QString statText(double v, int precision = 6) {
    if (std::isnan(v)) return QStringLiteral("—");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("+∞") : QStringLiteral("−∞");
    return QString::number(v, 'g', precision);
}

// A count with the locale's digit grouping ("1,048,576").
inline QString countText(double v) { return QLocale().toString(static_cast<qlonglong>(v)); }

inline QString tr(const char* s) { return QCoreApplication::translate("qs::ui::views", s); }

// What the curve is, in TF's names.
inline QString curveName(const qs::QuantSpec& spec) { return qs(qs::opDescriptor(spec.op).formula); }

// Names of the range inputs (the handles) and of the range the op used (the markers).
inline QString requestedMinName(const qs::QuantSpec& s) { return qs(qs::opDescriptor(s.op).range.tf_min); }
inline QString requestedMaxName(const qs::QuantSpec& s) { return qs(qs::opDescriptor(s.op).range.tf_max); }
inline QString usedMinName(const qs::QuantSpec& s) { return qs(qs::opDescriptor(s.op).range.used_min); }
inline QString usedMaxName(const qs::QuantSpec& s) { return qs(qs::opDescriptor(s.op).range.used_max); }
inline QString codeName(const qs::QuantSpec& s) {
    switch (qs::opDescriptor(s.op).family) {
        case qs::OpFamily::TpuSimulated: return tr("bucket q");
        case qs::OpFamily::Qdq: return tr("level (%1 bit)").arg(s.num_bits);
        case qs::OpFamily::QuantizeV2: break;
    }
    return tr("quantized code (%1)").arg(qs(qs::qtypeInfo(s.T).name));
}

// Whether the range the handles show is an input the user sets (so dragging means
// something): not when QDQ computes it from the data or per-channel ranges come from data.
inline bool rangeIsGiven(const qs::QuantSpec& s) {
    if (s.axis >= 0 && s.range_source == qs::RangeSource::FromData) return false;
    if (qs::isQdq(s.op)) return s.range_given;
    return true;
}

inline QString specTitle(const qs::QuantSpec& s) {
    QStringList parts{qs(qs::quantOpName(s.op))};
    switch (qs::opDescriptor(s.op).family) {
        case qs::OpFamily::TpuSimulated: parts << tr("%1 buckets").arg(s.num_buckets); break;
        case qs::OpFamily::Qdq:
            parts << tr("%1 bit %2").arg(s.num_bits).arg(s.signed_input ? tr("signed") : tr("unsigned"));
            break;
        case qs::OpFamily::QuantizeV2: parts << qs(qs::qtypeInfo(s.T).name) << qs(qs::modeName(s.mode)); break;
    }
    if (!qs::roundModesFor(s.op).empty()) parts << qs(qs::roundModeName(s.round_mode));
    if (s.narrow_range && qs::usesNarrowRange(s.op)) parts << QStringLiteral("narrow_range");
    if (s.axis >= 0) parts << tr("axis %1").arg(s.axis);
    return parts.join(QStringLiteral("  ·  "));
}

}  // namespace qs::ui::text
