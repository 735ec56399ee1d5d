// Errors as TensorFlow reports them: a kind (TF's status code or Python exception class)
// and TF's own message text, plus the argument the error is about, set by the check that
// raised it (so a form can mark that field without reading the message). No exception ever
// crosses the core's API; callers get a Result<T> and decide how to show the error (CLI
// JSON, GUI status bar, inline label).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace qs {

struct Error {
    std::string kind;     // "InvalidArgument", "Unimplemented", "ValueError", "TypeError", ...
    std::string message;  // TF's message text
    // The argument of the checking call the error is about, as that call names it ("dim",
    // "clipvalue", "num_buckets", "partition_strategy"); empty when it is about the call as a
    // whole (a missing argument, an unknown class). Never part of the message.
    std::string field = {};
    // True only for work stopped on request (a cancel token, a progress callback returning
    // false), made by cancellation(): callers test this, never the kind's text.
    bool cancelled = false;
    bool operator==(const Error&) const = default;
};

// Work stopped on request: kind "Cancelled" (what a status line shows), flagged `cancelled`.
inline Error cancellation(std::string message) {
    Error e{"Cancelled", std::move(message)};
    e.cancelled = true;
    return e;
}

inline Error invalidArgument(std::string m) { return {"InvalidArgument", std::move(m)}; }
inline Error unimplemented(std::string m) { return {"Unimplemented", std::move(m)}; }
inline Error valueError(std::string m, std::string field = {}) {
    return {"ValueError", std::move(m), std::move(field)};
}
inline Error typeError(std::string m, std::string field = {}) {
    return {"TypeError", std::move(m), std::move(field)};
}
// `e` as the error of argument `field` (e.g. a failed comparison inside the check of one).
inline Error aboutField(Error e, std::string field) {
    e.field = std::move(field);
    return e;
}

// A value or an Error. Deliberately tiny (std::expected is C++23).
template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
    Result(Error error) : v_(std::move(error)) {}  // NOLINT
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { assert(ok()); return std::get<0>(v_); }
    T& value() & { assert(ok()); return std::get<0>(v_); }
    T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
    const T* operator->() const { return &value(); }
    const T& operator*() const { return value(); }
    const Error& error() const { assert(!ok()); return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;
inline Status okStatus() { return Ok{}; }

}  // namespace qs
