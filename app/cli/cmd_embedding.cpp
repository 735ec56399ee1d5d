// quantscope-cli embedding: the TPU embedding workbench's numbers without a window. Reads a
// workbench configuration (the JSON the GUI saves), checks it with TF's own rules, builds
// or loads every table, runs every feature's lookup batch through the float and the
// simulated-quantization paths, and reports bucket occupancy, suggested ranges, storage
// quantization, per-feature error statistics and the per-host rows/bytes/traffic. It uses
// the same document reader, typed inputs and core functions as the workbench window.
#include <QString>
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

#include "app/cli/analysis_report.h"
#include "app/cli/cmd_common.h"
#include "app/cli/json_out.h"
#include "core/embedding/workbench.h"
#include "session/files/native_file.h"
#include "session/workbench/embedding_document.h"
#include "session/workbench/embedding_validation.h"
#include "session/workbench/workbench_inputs.h"

namespace qs::cli {

namespace {

constexpr const char* kCommand = "embedding";

constexpr std::array kOptions{
    valueOption("--table"), valueOption("--ids"), valueOption("--generate-ids"),
    valueOption("--report"), valueOption("--csv")};

JsonOut quantizationJson(const std::optional<tpu::QuantizationConfig>& q) {
    if (!q) return nullptr;
    JsonOut o = JsonOut::Object{};
    o.set("num_buckets", q->num_buckets);
    o.set("lower", q->lower);
    o.set("upper", q->upper);
    return o;
}

JsonOut occupancyJson(const embedding::BucketOccupancy& occ) {
    JsonOut o = JsonOut::Object{};
    o.set("counts", JsonOut::list(occ.counts));
    o.set("centers", JsonOut::list(occ.centers));
    o.set("below", occ.below);
    o.set("above", occ.above);
    o.set("nan", occ.nan);
    o.set("total", occ.total);
    o.set("empty_buckets", occ.empty_buckets);
    o.set("entropy_bits", occ.entropy_bits);
    return o;
}

JsonOut suggestionsJson(const std::vector<embedding::RangeSuggestion>& all) {
    JsonOut::Array a;
    for (const auto& s : all) {
        JsonOut o = JsonOut::Object{};
        o.set("method", s.method);
        o.set("lower", s.lower);
        o.set("upper", s.upper);
        o.set("mse", s.mse);
        o.set("sqnr_db", s.sqnr_db);
        o.set("clipped_fraction", s.clipped_fraction);
        a.push_back(std::move(o));
    }
    return a;
}

JsonOut storageJson(const embedding::StorageQuantization& s) {
    JsonOut o = JsonOut::Object{};
    o.set("code_bits", s.code_bits);
    o.set("information_bits", s.information_bits);
    o.set("bytes_float32", s.bytes_float32);
    o.set("bytes_codes", s.bytes_codes);
    o.set("bytes_packed", s.bytes_packed);
    o.set("saved_fraction", s.saved_fraction);
    o.set("reconstruction", statsJson(s.reconstruction));
    return o;
}

JsonOut shardingJson(const embedding::ShardingReport& r) {
    JsonOut o = JsonOut::Object{};
    o.set("strategy", r.strategy == tpu::PartitionStrategy::Mod ? "mod" : "div");
    o.set("num_hosts", static_cast<int64_t>(r.hosts.size()));
    o.set("vocabulary_size", r.vocabulary_size);
    o.set("padded_vocabulary", r.padded_vocabulary);
    o.set("quantized_bits", r.quantized_bits);
    o.set("traffic_imbalance", r.traffic_imbalance);
    o.set("ids_out_of_range", r.ids_out_of_range);
    JsonOut::Array hosts;
    for (const auto& h : r.hosts) {
        JsonOut x = JsonOut::Object{};
        x.set("rows", h.rows);
        x.set("first_id", h.first_id);
        x.set("bytes_float32", h.bytes_float32);
        x.set("bytes_quantized", h.bytes_quantized);
        x.set("lookups", h.lookups);
        x.set("unique_lookups", h.unique_lookups);
        hosts.push_back(std::move(x));
    }
    o.set("hosts", std::move(hosts));
    return o;
}

JsonOut validationJson(const ui::EmbeddingDocument& doc, const ui::EmbeddingValidation& v) {
    JsonOut::Array errors;
    auto add = [&](const std::string& object, const ui::ObjectCheck& check) {
        for (const auto& e : check.errors) {
            JsonOut o = JsonOut::Object{};
            o.set("object", object);
            o.set("field", e.field.toStdString());
            o.set("kind", e.kind.toStdString());
            o.set("message", e.message.toStdString());
            errors.push_back(std::move(o));
        }
    };
    for (size_t i = 0; i < v.tables.size(); ++i)
        add("table " + ui::tableDisplayName(doc, static_cast<int>(i)).toStdString(), v.tables[i]);
    for (size_t i = 0; i < v.features.size(); ++i)
        add("feature " + ui::featureDisplayName(doc, static_cast<int>(i)).toStdString(), v.features[i]);
    add("EmbeddingConfigSpec", v.estimator);
    return errors;
}

// "--table FILE" replaces the first table's data; "--table NAME=FILE" a named one.
Result<std::map<int, std::string>> tableOverrides(const ui::EmbeddingDocument& doc,
                                                  const ParsedArgs& args) {
    std::map<int, std::string> out;
    if (!args.has("--table")) return out;
    const std::string v = args.values.at("--table");
    const auto eq = v.find('=');
    if (eq != std::string::npos) {
        const std::string name = v.substr(0, eq);
        for (int i = 0; i < static_cast<int>(doc.tables.size()); ++i)
            if (ui::tableDisplayName(doc, i).toStdString() == name) {
                out[i] = v.substr(eq + 1);
                return out;
            }
        return invalidArgument("--table: no table named '" + name + "' in the configuration");
    }
    if (doc.tables.empty()) return invalidArgument("--table: the configuration has no table");
    out[0] = v;
    return out;
}

int run(const std::vector<std::string>& argv, const PictureOutputs*) {
    auto parsed = parseArgs(argv, kOptions);
    if (!parsed) return reportInputError(kCommand, parsed.error().message);
    const ParsedArgs& args = *parsed;
    if (args.positional.size() != 1)
        return reportInputError(kCommand, "give exactly one configuration file (see --help)");
    if (!args.has("--report")) return reportInputError(kCommand, "--report OUT.json is required");
    if (args.has("--ids") && args.has("--generate-ids"))
        return reportInputError(kCommand, "give --ids or --generate-ids, not both");
    const std::string configPath = args.positional.front();

    QString error;
    auto doc = ui::loadEmbeddingDocument(configPath, &error);
    if (!doc) return reportInputError(kCommand, error.toStdString());
    auto overrides = tableOverrides(*doc, args);
    if (!overrides) return reportInputError(kCommand, overrides.error().message);
    // File names from the command line stay bytes (native_file.h): the document gets the
    // table file for its checks and the report, the table is loaded from the bytes (below).
    for (const auto& [i, file] : *overrides) doc->tables[static_cast<size_t>(i)].data_file = ui::displayPath(file);
    const std::string idsFile = args.value("--ids");
    const QString idsSpec = QString::fromStdString(args.value("--generate-ids"));
    if (!idsSpec.isEmpty())
        if (auto s = embedding::parseIdBatchSpec(idsSpec.toStdString()); !s)
            return reportInputError(kCommand, "--generate-ids: " + s.error().message);

    const ui::EmbeddingValidation validation = ui::validateEmbeddingDocument(*doc);
    JsonOut report = JsonOut::Object{};
    report.set("config", configPath);
    report.set("valid", validation.ok());
    report.set("errors", validationJson(*doc, validation));
    const Exec exec = Exec::allCores();
    bool failed = !validation.ok();

    JsonOut::Array tables, features;
    data::TextTable hostsCsv{{"feature", "table", "host", "rows", "bytes_float32", "bytes_quantized",
                        "lookups", "unique_lookups"}, {}};
    for (int t = 0; t < static_cast<int>(doc->tables.size()); ++t) {
        JsonOut tj = JsonOut::Object{};
        tj.set("name", ui::tableDisplayName(*doc, t).toStdString());
        auto in = ui::workbenchTableInputs(*doc, t);
        if (in && overrides->count(t)) in.value().source.path = overrides->at(t);  // the bytes
        if (!in) {
            tj.set("error", in.error().message);
            tables.push_back(std::move(tj));
            failed = true;
            continue;
        }
        tj.set("vocabulary_size", in->vocabulary_size);
        tj.set("dim", in->dim);
        tj.set("combiner", in->combiner);
        tj.set("source", in->source.path.empty()
                             ? embedding::initializerName(in->source.initializer.kind)
                             : in->source.path);
        tj.set("quantization", quantizationJson(in->quantization));
        // A .npy larger than the memory the workbench may hold is analysed streamed.
        auto table = embedding::openTable(in->source, in->vocabulary_size, in->dim, exec);
        if (!table) {
            // A table file that does not match is bad input, like any unreadable file.
            return reportInputError(kCommand, table.error().message);
        }
        auto analysis = embedding::analyzeTable(*table, in->quantization, {}, exec);
        if (!analysis) {
            tj.set("error", analysis.error().kind + ": " + analysis.error().message);
            failed = true;
        } else {
            tj.set("occupancy", analysis->occupancy ? occupancyJson(*analysis->occupancy) : JsonOut(nullptr));
            tj.set("suggestions", suggestionsJson(analysis->suggestions));
            tj.set("storage", analysis->storage ? storageJson(*analysis->storage) : JsonOut(nullptr));
            tj.set("table_error", statsJson(analysis->table_error));
        }
        tables.push_back(std::move(tj));

        for (int f = 0; f < static_cast<int>(doc->features.size()); ++f) {
            if (doc->features[static_cast<size_t>(f)].table != t) continue;
            const std::string fname = ui::featureDisplayName(*doc, f).toStdString();
            JsonOut fj = JsonOut::Object{};
            fj.set("name", fname);
            fj.set("table", ui::tableDisplayName(*doc, t).toStdString());
            auto batch = ui::workbenchFeatureBatch(*doc, f, in->vocabulary_size, in->dim, idsFile, idsSpec);
            if (!batch) return reportInputError(kCommand, fname + ": " + batch.error().message);
            auto fa = embedding::analyzeFeature(*table, *batch, in->combiner, in->quantization,
                                                std::max(1, doc->num_hosts), ui::workbenchStrategy(*doc), exec);
            if (!fa) {
                fj.set("error", fa.error().kind + ": " + fa.error().message);
                failed = true;
                features.push_back(std::move(fj));
                continue;
            }
            const auto& sim = fa->simulation;
            fj.set("examples", sim.examples);
            fj.set("ids", sim.ids);
            fj.set("unique_ids", sim.unique_ids);
            fj.set("empty_examples", sim.empty_examples);
            fj.set("stats", statsJson(sim.stats));
            fj.set("stats_quantize_after_combine", statsJson(sim.stats_after_combine));
            fj.set("gathered_rows", statsJson(sim.gathered_rows));
            fj.set("sharding", shardingJson(fa->sharding));
            features.push_back(std::move(fj));
            for (size_t h = 0; h < fa->sharding.hosts.size(); ++h) {
                const auto& x = fa->sharding.hosts[h];
                hostsCsv.rows.push_back({fname, ui::tableDisplayName(*doc, t).toStdString(),
                                         std::to_string(h), std::to_string(x.rows),
                                         std::to_string(x.bytes_float32), std::to_string(x.bytes_quantized),
                                         std::to_string(x.lookups), std::to_string(x.unique_lookups)});
            }
        }
    }
    report.set("tables", std::move(tables));
    report.set("features", std::move(features));
    if (Status s = writeOutput(args.values.at("--report"), report.dump(2) + "\n"); !s)
        return reportInputError(kCommand, s.error().message);
    if (args.has("--csv"))
        if (Status s = writeOutput(args.values.at("--csv"), data::csvText(hostsCsv)); !s)
            return reportInputError(kCommand, s.error().message);
    return failed ? kExitFailed : kExitOk;
}

}  // namespace

extern const Command embeddingCommand{
    "embedding",
    "the TPU embedding workbench's numbers for a configuration, without a window",
    "Usage: quantscope-cli embedding CONFIG.json [--table [NAME=]FILE]\n"
    "                                [--ids FILE | --generate-ids KIND:key=value,...]\n"
    "                                --report OUT.json [--csv OUT.csv]\n"
    "\n"
    "CONFIG.json is a workbench configuration (File > Save configuration in the workbench).\n"
    "Every table is built from its initializer or loaded from its data file, every feature's\n"
    "ids are looked up through the float path and the simulated-quantization path, and the\n"
    "report holds, per table: bucket occupancy, suggested lower/upper, storage quantization\n"
    "and the table's error; per feature: the error statistics of the combined activations\n"
    "(TPU order and quantize-after-combine), of the gathered rows, and the sharding (rows,\n"
    "bytes as float32 and k-bit, lookups per host). TF's validation errors are listed under\n"
    "\"errors\" with the object and field they belong to.\n"
    "\n"
    "  --table [NAME=]FILE   table data (.npy, CSV, .vec) for the first (or the named) table\n"
    "  --ids FILE            lookups for every feature: CSV 'example,id[,weight]'\n"
    "  --generate-ids SPEC   e.g. zipf:batch=8192,ids=8,s=1.1,seed=1 (uniform|zipf; keys batch,\n"
    "                        ids, s, weights, seed)\n"
    "  --report OUT.json     the report ('-' for stdout)\n"
    "  --csv OUT.csv         per feature and host: feature,table,host,rows,bytes_float32,\n"
    "                        bytes_quantized,lookups,unique_lookups\n"
    "\n"
    "Exit: 0 done, 1 TF rejects part of the configuration (the report says where),\n"
    "2 unreadable or malformed input.\n",
    run,
};

}  // namespace qs::cli
