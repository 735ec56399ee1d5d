// Short names of a configuration for the analysis views' legends and captions.
#pragma once


#include <QString>

#include "ui/views/view_text.h"

namespace qs::ui::text {

// "signed QDQ", "unsigned QDQ narrow_range", "TPU", "QuantizeV2 MIN_COMBINED qint8".
inline QString opShortName(const qs::QuantSpec& s) {
    const qs::OpDescriptor& op = qs::opDescriptor(s.op);
    QString name;
    switch (op.family) {
        case qs::OpFamily::TpuSimulated: name = qs(op.short_name); break;
        case qs::OpFamily::Qdq: name = s.signed_input ? tr("signed QDQ") : tr("unsigned QDQ"); break;
        case qs::OpFamily::QuantizeV2:
            name = QStringLiteral("%1 %2 %3").arg(qs(op.short_name), qs(qs::modeName(s.mode)), qs(qs::qtypeInfo(s.T).name));
            break;
    }
    if (s.narrow_range && qs::usesNarrowRange(s.op)) name += QStringLiteral(" narrow_range");
    return name;
}

// The bit width the spec quantizes to: num_bits, log2(num_buckets), the width of T.
inline double specBits(const qs::QuantSpec& s) { return qs::specBitWidth(s); }

// A configuration in one line: op · type/bits · mode · range (the comparison's legend).
inline QString configName(const qs::QuantSpec& s) {
    const qs::OpDescriptor& op = qs::opDescriptor(s.op);
    QStringList parts{qs(op.short_name)};
    switch (op.family) {
        case qs::OpFamily::QuantizeV2: parts << qs(qs::qtypeInfo(s.T).name) << qs(qs::modeName(s.mode)); break;
        case qs::OpFamily::TpuSimulated: parts << tr("%1 buckets").arg(s.num_buckets); break;
        case qs::OpFamily::Qdq:
            parts << tr("%1 bit %2").arg(s.num_bits).arg(s.signed_input ? tr("signed") : tr("unsigned"));
            break;
    }
    if (!qs::roundModesFor(s.op).empty() && s.round_mode != qs::defaultRoundMode(s.op))
        parts << qs(qs::roundModeName(s.round_mode));
    if (s.narrow_range && qs::usesNarrowRange(s.op)) parts << QStringLiteral("narrow");
    if (rangeIsGiven(s)) parts << QStringLiteral("[%1, %2]").arg(floatText(s.min_range), floatText(s.max_range));
    else parts << tr("range from data");
    return parts.join(QStringLiteral(" · "));
}

}  // namespace qs::ui::text
