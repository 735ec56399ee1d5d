#include "core/tpu/sharding.h"

#include <string>

namespace qs::tpu {

Result<PartitionStrategy> partitionStrategyFromName(std::string_view name) {
    if (name == "mod") return PartitionStrategy::Mod;
    if (name == "div") return PartitionStrategy::Div;
    return valueError("Unrecognized partition strategy: " + std::string(name) +
                          ".Must be one of either `mod` or `div`.",
                      "partition_strategy");
}

Result<ShardMapping> ShardMapping::make(PartitionStrategy strategy, int64_t total_rows,
                                        int64_t num_shards) {
    if (num_shards < 0)
        return invalidArgument("num_shards must be >= 1, got " + std::to_string(num_shards));
    if (total_rows < 0)
        return invalidArgument("the number of rows must be >= 0, got " +
                               std::to_string(total_rows));
    if (num_shards == 0) return invalidArgument("Integer division by zero");
    ShardMapping m;
    m.strategy_ = strategy;
    m.shards_ = num_shards;
    if (strategy == PartitionStrategy::Div) {
        m.ipp_ = total_rows / num_shards;
        m.extras_ = total_rows % num_shards;
        // TF evaluates (ids - extras) // ipp for every id: with fewer rows than shards
        // that is an integer division by zero, whatever the ids.
        if (m.ipp_ == 0) return invalidArgument("Integer division by zero");
    }
    return m;
}

Result<std::vector<std::vector<int64_t>>> shardIds(int64_t vocab_size, int64_t num_shards,
                                                   std::string_view strategy) {
    auto s = partitionStrategyFromName(strategy);
    if (!s) return s.error();
    if (vocab_size < 0)
        return invalidArgument("vocab_size must be >= 0, got " + std::to_string(vocab_size));
    auto m = ShardMapping::make(*s, vocab_size, num_shards);
    if (!m) return m.error();
    std::vector<std::vector<int64_t>> shards(static_cast<size_t>(num_shards));
    for (int64_t id = 0; id < vocab_size; ++id)
        shards[static_cast<size_t>(m->map(id).shard)].push_back(id);
    return shards;
}

}  // namespace qs::tpu
