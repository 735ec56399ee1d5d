#include "core/data/float_stream.h"

#include <algorithm>
#include <future>
#include <vector>

namespace qs::data {

namespace {

class MemoryStream final : public FloatStream {
public:
    MemoryStream(std::span<const float> values, std::shared_ptr<const void> owner, std::string name)
        : values_(values), owner_(std::move(owner)), name_(std::move(name)) {}
    int64_t size() const override { return static_cast<int64_t>(values_.size()); }
    Status read(int64_t begin, std::span<float> out) const override {
        if (begin < 0 || begin + static_cast<int64_t>(out.size()) > size())
            return Error{"OutOfRange", name_ + ": read past the end at element " + std::to_string(begin)};
        std::copy_n(values_.begin() + begin, out.size(), out.begin());
        return okStatus();
    }
    std::span<const float> inMemory() const override { return values_; }
    std::string name() const override { return name_; }

private:
    std::span<const float> values_;
    std::shared_ptr<const void> owner_;
    std::string name_;
};

Error cancelled(const FloatStream& s) {
    return cancellation("reading " + s.name() + " was cancelled");
}

}  // namespace

FloatStreamPtr memoryStream(std::span<const float> values, std::shared_ptr<const void> owner,
                            std::string name) {
    return std::make_shared<MemoryStream>(values, std::move(owner), std::move(name));
}

Status forEachChunk(const FloatStream& stream,
                    const std::function<Status(int64_t, std::span<const float>)>& fn,
                    const ChunkOptions& options) {
    const int64_t n = stream.size();
    const int64_t chunk = std::max<int64_t>(1, options.chunk_elements);
    auto report = [&](int64_t done) {
        return !options.progress ||
               options.progress(n > 0 ? static_cast<double>(done) / static_cast<double>(n) : 1.0);
    };
    const std::span<const float> memory = stream.inMemory();
    if (!memory.empty() || n == 0) {
        for (int64_t b = 0; b < n; b += chunk) {
            const int64_t e = std::min(n, b + chunk);
            if (auto s = fn(b, memory.subspan(static_cast<size_t>(b), static_cast<size_t>(e - b))); !s)
                return s;
            if (!report(e)) return cancelled(stream);
        }
        if (n == 0 && !report(0)) return cancelled(stream);
        return okStatus();
    }
    // Two buffers: the next chunk is read on another thread while fn uses the current one.
    std::vector<float> current(static_cast<size_t>(std::min(n, chunk)));
    std::vector<float> next(current.size());
    auto readInto = [&stream, n, chunk](std::vector<float>& buf, int64_t b) {
        const int64_t e = std::min(n, b + chunk);
        return stream.read(b, std::span<float>(buf.data(), static_cast<size_t>(e - b)));
    };
    if (auto s = readInto(current, 0); !s) return s;
    for (int64_t b = 0; b < n; b += chunk) {
        const int64_t e = std::min(n, b + chunk);
        std::future<Status> ahead;
        if (e < n) ahead = std::async(std::launch::async, [&, e] { return readInto(next, e); });
        Status s = fn(b, std::span<const float>(current.data(), static_cast<size_t>(e - b)));
        Status r = ahead.valid() ? ahead.get() : okStatus();
        if (!s) return s;
        if (!r) return r;
        if (!report(e)) return cancelled(stream);
        std::swap(current, next);
    }
    return okStatus();
}

}  // namespace qs::data
