// The generator syntax shared by the CLI and the GUI: `KIND:key=value,key=value`, e.g.
// `normal:n=1000000,std=2,seed=7`, or a bare `normal`. Every key is optional.
//   uniform  n, seed, low (-1), high (1)
//   normal   n, seed, mean (0), std (1)
//   laplace  n, seed, loc (0), scale (1)
//   sine     n, amplitude (1)
//   mixture  n, seed, std (1), outlier_fraction (0.01), outlier_scale (20)
// n defaults to 100000 and must lie in 1..10000000 (bigger data sets are refused: a 10M
// float32 set is already 40 MB before the explorer's derived buffers); seed defaults to 1
// and must be an integer in 0..2^53.
// Every kind also takes `shape`, dimensions joined by 'x' (`normal:shape=64x1024`): the same
// samples (a pure function of the index) laid out row-major in that shape, so the explorer's
// `axis` has channels to take, as with a .npy file. With a shape, n may be left out (it is the
// product of the dimensions) or must equal that product; every dimension is an integer >= 1,
// at most 32 of them, and the product obeys n's bound. Without a shape the data is 1-D [n].
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/dataset.h"
#include "core/status.h"
#include "core/tensor.h"

namespace qs::data {

struct GeneratorSpec {
    std::string kind;
    // After parseGeneratorSpec every key of the kind is present (defaults filled in).
    std::map<std::string, double> params;
    std::vector<int64_t> shape;  // empty: 1-D [n]; else params["n"] is its product
    bool operator==(const GeneratorSpec&) const = default;
};

inline constexpr int64_t kMaxGeneratedValues = 10'000'000;
inline constexpr size_t kMaxGeneratedRank = 32;  // NumPy's limit

// "64x1024" as dimensions; a DataError naming the shape when it is not integers joined by 'x'
// (the dimensions' values are checked with the rest of the spec).
Result<std::vector<int64_t>> parseGeneratorShape(std::string_view text);
std::string generatorShapeText(const std::vector<int64_t>& shape);  // "64x1024"

const std::vector<std::string>& generatorKinds();  // uniform, normal, laplace, sine, mixture
// The keys of `kind` in canonical order (n first, seed last), empty for an unknown kind.
std::vector<std::string> generatorKeys(std::string_view kind);

// Parses and validates; errors are DataError with messages such as
//   generator "normal:sd=2": unknown key "sd" for normal (valid keys: n, mean, std, seed)
// Spaces around kinds, keys and values are ignored.
Result<GeneratorSpec> parseGeneratorSpec(std::string_view text);

// Fills in defaults and validates a spec built by hand (unknown kind/keys, ranges).
Result<GeneratorSpec> normalizeGeneratorSpec(const GeneratorSpec& spec);

// Canonical text: every key in canonical order with shortest round-trip numbers, e.g.
// "normal:n=100000,mean=0,std=1,seed=1" or "normal:n=65536,shape=64x1024,mean=0,std=1,seed=1";
// parseGeneratorSpec(toString(s)) == s.
std::string toString(const GeneratorSpec& spec);

// Validates, then runs the generator (generators.h) and lays the samples out in the spec's
// shape. The label is the generator's, with the shape after n when there is one.
Result<Dataset> generate(const GeneratorSpec& spec, const Exec& exec = {});

}  // namespace qs::data
