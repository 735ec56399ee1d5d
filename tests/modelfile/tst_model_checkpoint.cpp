// The TensorFlow checkpoint reader against facts known without it:
//  - a SavedModel TensorFlow Serving ships for its tests (tests/data/models/checkpoint, origin
//    in SOURCES.md): variables a = 0.5, b = 2 (and c = 3), an index whose data block is
//    Snappy-compressed; opened as the SavedModel folder, as the .index file and from bytes;
//  - indexes built here from the table format's and the protos' specifications (a writer
//    independent of the reader: literal-only Snappy, its own CRC masking) with several
//    blocks, shards, dtypes and prefix-compressed keys;
//  - the hostile variants: corrupt footer, bad block handles, bad checksums, bad or bloated
//    Snappy, offsets past the shard, missing shards, malformed protos, truncation.
#include <QElapsedTimer>
#include <QtTest>
#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/modelfile/crc32c.h"
#include "core/modelfile/model_file.h"
#include "core/modelfile/readers.h"
#include "core/modelfile/tensor_values.h"
#include "tests/modelfile/model_test_util.h"

using namespace qs::modelfile;
using namespace qs::modelfile::testing;

namespace {

const std::string kSavedModel = std::string(QS_MODELS_DIR) + "/checkpoint/half_plus_two";
const std::string kVariables = kSavedModel + "/variables";

// ---- a checkpoint writer, from the format's specification -----------------------------

std::string varint(uint64_t v) {
    std::string out;
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7F) | 0x80);
        v >>= 7;
    }
    return out + static_cast<char>(v);
}
std::string fixed32(uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
std::string varintField(uint32_t number, uint64_t v) { return varint(uint64_t{number} << 3) + varint(v); }
std::string bytesField(uint32_t number, const std::string& b) { return varint(uint64_t{number} << 3 | 2) + varint(b.size()) + b; }
std::string fixed32Field(uint32_t number, uint32_t v) { return varint(uint64_t{number} << 3 | 5) + fixed32(v); }

// TF's crc32c::Mask, written out here.
uint32_t mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

struct Variable {
    std::string name;
    uint64_t dtype = 1;  // DT_FLOAT
    std::vector<int64_t> shape;
    std::string data;  // its bytes in its shard (placed by buildShards)
    uint32_t shard = 0;
    std::optional<uint64_t> offset = {};  // overrides
    std::optional<uint64_t> size = {};
    bool crc = true;
    int slices = 0;
};

std::string headerProto(uint64_t shards, uint64_t endianness = 0) {
    std::string out = varintField(1, shards);
    if (endianness) out += varintField(2, endianness);
    return out + bytesField(3, varintField(1, 1));  // version { producer: 1 }
}

// Places each variable's data in its shard; returns the shards and fills offsets/sizes.
std::vector<std::string> buildShards(std::vector<Variable>& vars, uint32_t shards) {
    std::vector<std::string> out(shards);
    for (auto& v : vars) {
        if (v.shard >= shards) continue;
        if (!v.offset) v.offset = out[v.shard].size();
        if (!v.size) v.size = v.data.size();
        out[v.shard] += v.data;
    }
    return out;
}

std::string entryProto(const Variable& v) {
    std::string shape;
    for (const int64_t d : v.shape) shape += bytesField(2, varintField(1, static_cast<uint64_t>(d)));
    std::string out = varintField(1, v.dtype) + bytesField(2, shape);
    if (v.shard) out += varintField(3, v.shard);
    if (v.offset.value_or(0)) out += varintField(4, *v.offset);
    out += varintField(5, v.size.value_or(v.data.size()));
    if (v.crc) out += fixed32Field(6, mask(crc32c(v.data)));
    for (int i = 0; i < v.slices; ++i) out += bytesField(7, "");
    return out;
}

// Snappy with literals only (its format: varint length, then tagged literal runs).
std::string snappyLiterals(const std::string& raw) {
    std::string out = varint(raw.size());
    for (size_t pos = 0; pos < raw.size(); pos += 60) {
        const size_t n = std::min<size_t>(60, raw.size() - pos);
        out += static_cast<char>((n - 1) << 2);
        out += raw.substr(pos, n);
    }
    return out;
}

using Entries = std::vector<std::pair<std::string, std::string>>;

// A block: prefix-compressed entries, one restart point at 0.
std::string blockContents(const Entries& entries) {
    std::string out, previous;
    for (const auto& [key, value] : entries) {
        size_t shared = 0;
        while (shared < key.size() && shared < previous.size() && key[shared] == previous[shared]) ++shared;
        out += varint(shared) + varint(key.size() - shared) + varint(value.size()) + key.substr(shared) + value;
        previous = key;
    }
    return out + fixed32(0) + fixed32(1);
}

// Damage to the first data block, made before its checksum is computed (so only the
// damage itself is wrong): its stored bytes changed, its compression type replaced.
struct BlockDamage {
    std::function<void(std::string&)> change = {};
    std::optional<char> type = {};
};

struct TableWriter {
    std::string bytes;
    bool snappy = false;
    BlockDamage damage = {};  // applied to the first block added
    // Appends a block with its trailer; returns its handle (offset, size) as varints.
    std::string addBlock(const std::string& contents) {
        std::string stored = snappy ? snappyLiterals(contents) : contents;
        char type = snappy ? 1 : 0;
        if (bytes.empty() && damage.change) damage.change(stored);
        if (bytes.empty() && damage.type) type = *damage.type;
        const std::string handle = varint(bytes.size()) + varint(stored.size());
        bytes += stored + type + fixed32(mask(crc32cExtend(crc32c(stored), {&type, 1})));
        return handle;
    }
    // The metaindex (empty), the index block over `index` and the footer.
    std::string finish(const Entries& index) {
        const std::string metaindex = addBlock(blockContents({}));
        std::string footer = metaindex + addBlock(blockContents(index));
        footer.resize(40, '\0');
        const uint64_t magic = 0xdb4775248b80fb57ull;
        footer.append(reinterpret_cast<const char*>(&magic), 8);
        return bytes + footer;
    }
};

// The index of `entries` (sorted by key), `perBlock` entries to a data block.
std::string buildIndex(const Entries& entries, bool snappy = false, size_t perBlock = 2, BlockDamage damage = {}) {
    TableWriter w{{}, snappy, std::move(damage)};
    Entries index;
    for (size_t i = 0; i < entries.size(); i += perBlock) {
        const Entries chunk(entries.begin() + static_cast<long>(i),
                            entries.begin() + static_cast<long>(std::min(entries.size(), i + perBlock)));
        index.emplace_back(chunk.back().first, w.addBlock(blockContents(chunk)));
    }
    return w.finish(index);
}

Entries checkpointEntries(const std::vector<Variable>& vars, uint64_t shards, bool header = true) {
    Entries out;
    if (header) out.emplace_back("", headerProto(shards));
    for (const auto& v : vars) out.emplace_back(v.name, entryProto(v));
    std::sort(out.begin(), out.end());
    return out;
}

Sidecars shardsOf(const std::vector<std::string>& shards, const std::string& prefix = "ckpt") {
    return [shards, prefix](const std::string& name) -> qs::Result<SharedBytes> {
        for (size_t i = 0; i < shards.size(); ++i) {
            char want[64];
            std::snprintf(want, sizeof want, ".data-%05zu-of-%05zu", i, shards.size());
            if (name == prefix + want) return copyBytes(shards[i]);
        }
        return qs::Error{"DataError", "cannot open " + name + ": no such file"};
    };
}

template <typename T>
std::string raw(const std::vector<T>& v) {
    std::string out(v.size() * sizeof(T), '\0');
    std::memcpy(out.data(), v.data(), out.size());
    return out;
}

qs::Result<ModelPtr> openIndex(const std::string& index, const std::vector<std::string>& shards) {
    return openCheckpoint("ckpt.index", copyBytes(index), shardsOf(shards), "ckpt");
}

void checkHalfPlusTwo(const ModelFile& model) {
    QCOMPARE(model.format(), std::string_view("tf-checkpoint"));
    std::vector<std::string> names;
    for (const auto& t : model.tensors()) names.push_back(t.name);
    const std::vector<std::string> expected = {"_CHECKPOINTABLE_OBJECT_GRAPH", "a/.ATTRIBUTES/VARIABLE_VALUE",
                                               "b/.ATTRIBUTES/VARIABLE_VALUE", "c/.ATTRIBUTES/VARIABLE_VALUE"};
    QCOMPARE(names, expected);
    QCOMPARE(model.tensors()[0].dtype, DType::Other);
    QCOMPARE(model.tensors()[0].dtype_name, std::string("string"));
    auto graph = model.load(0);
    QVERIFY(!graph.ok());
    QVERIFY(errorOf(graph.error()).contains("tensor '_CHECKPOINTABLE_OBJECT_GRAPH': its dtype string cannot be loaded"));
    const std::vector<float> values = {0.5f, 2.0f, 3.0f};
    for (size_t i = 1; i < 4; ++i) {
        const TensorInfo& info = model.tensors()[i];
        QCOMPARE(info.dtype, DType::Float32);
        QCOMPARE(info.shape, qs::Shape{});
        QCOMPARE(info.origin, std::string("shard 0"));
        QVERIFY(!info.quantization.has_value());
        auto tensor = model.load(i);
        QVERIFY2(tensor.ok(), tensor.ok() ? "" : qPrintable(errorOf(tensor.error())));
        QCOMPARE(*toFloat32(*tensor), std::vector<float>{values[i - 1]});
    }
}

}  // namespace

class TstModelCheckpoint : public QObject {
    Q_OBJECT

private slots:
    void crc32cKnownValues() {
        QCOMPARE(crc32c("123456789"), 0xE3069283u);  // the check value of CRC-32C
        QCOMPARE(crc32c(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720 B.4
        QCOMPARE(unmaskCrc(mask(0x12345678u)), 0x12345678u);
        std::string long_(1000, '\0');
        for (size_t i = 0; i < long_.size(); ++i) long_[i] = static_cast<char>(i * 7 + 3);
        QCOMPARE(crc32cExtend(crc32c(long_.substr(0, 333)), long_.substr(333)), crc32c(long_));
        // The table-driven fallback agrees with the CPU's instruction (when there is one).
        QCOMPARE(crc32cPortable("123456789"), 0xE3069283u);
        for (const size_t n : {0, 1, 7, 8, 9, 333, 1000})
            QCOMPARE(crc32cPortable(long_.substr(0, n), 0x1234u), crc32c(long_.substr(0, n), 0x1234u));
    }

    // ---- the real SavedModel --------------------------------------------------------------

    void savedModelFolderAndIndex() {
        for (const std::string& path : {kSavedModel, kVariables + "/variables.index", kVariables}) {
            QElapsedTimer timer;
            timer.start();
            auto opened = openModel(path);
            const double ms = timer.nsecsElapsed() / 1e6;
            QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(errorOf(opened.error())));
            qInfo("%s listed in %.3f ms", path.substr(path.find("checkpoint/")).c_str(), ms);
            checkHalfPlusTwo(**opened);
        }
    }

    void fromBytesZeroCopy() {
        const SharedBytes shard = copyBytes(fileBytes(kVariables + "/variables.data-00000-of-00001"));
        std::vector<std::string> asked;
        Sidecars sidecars = [&](const std::string& name) -> qs::Result<SharedBytes> {
            asked.push_back(name);
            return shard;
        };
        auto opened = openCheckpoint("variables.index", copyBytes(fileBytes(kVariables + "/variables.index")), sidecars,
                                     "variables");
        QVERIFY(opened.ok());
        QVERIFY(asked.empty());  // listing reads the index only
        checkHalfPlusTwo(**opened);
        QCOMPARE(asked, std::vector<std::string>{"variables.data-00000-of-00001"});  // mapped once
        auto b = (*opened)->load(2);
        QCOMPARE(b->bytes.data(), shard->view().data() + 4);
        QCOMPARE(b->owner.get(), static_cast<const void*>(shard.get()));
    }

    // ---- indexes built here -------------------------------------------------------------

    void builtIndexesOfEveryKind_data() {
        QTest::addColumn<bool>("snappy");
        QTest::addColumn<int>("perBlock");
        QTest::newRow("plain, one block") << false << 100;
        QTest::newRow("plain, two entries a block") << false << 2;
        QTest::newRow("snappy, one block") << true << 100;
        QTest::newRow("snappy, one entry a block") << true << 1;
    }
    void builtIndexesOfEveryKind() {
        QFETCH(bool, snappy);
        QFETCH(int, perBlock);
        std::vector<Variable> vars = {
            {"dense/kernel/.ATTRIBUTES/VARIABLE_VALUE", 1, {2, 3}, raw(std::vector<float>{1, 2, 3, 4, 5, -6})},
            {"dense/bias/.ATTRIBUTES/VARIABLE_VALUE", 1, {3}, raw(std::vector<float>{0.25f, 0, -1}), 1},
            {"half", 19, {2}, raw(std::vector<uint16_t>{0x3C00, 0xC000})},
            {"brain", 14, {1}, raw(std::vector<uint16_t>{0x3FC0})},
            {"codes", 6, {4}, raw(std::vector<int8_t>{-128, -1, 0, 127})},
            {"step", 9, {}, raw(std::vector<int64_t>{123456789012})},
            {"wide", 2, {1, 1}, raw(std::vector<double>{0.1})},
            {"flag", 10, {2}, std::string("\x01\x00", 2)},
            {"words", 7, {2}, std::string("\x02\x03", 2) + "hiyou"},
            {"future", 77, {1}, "????"},
        };
        const auto shards = buildShards(vars, 2);
        auto opened = openIndex(buildIndex(checkpointEntries(vars, 2), snappy, static_cast<size_t>(perBlock)), shards);
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(errorOf(opened.error())));
        const ModelFile& model = **opened;
        QCOMPARE(model.tensors().size(), vars.size());
        const auto values = [&](const char* name) {
            const int64_t i = model.find(name);
            if (i < 0) return std::vector<float>{-999};
            auto t = model.load(static_cast<size_t>(i));
            return t.ok() ? *toFloat32(*t) : std::vector<float>{-888};
        };
        QCOMPARE(values("dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"), (std::vector<float>{1, 2, 3, 4, 5, -6}));
        QCOMPARE(values("dense/bias/.ATTRIBUTES/VARIABLE_VALUE"), (std::vector<float>{0.25f, 0, -1}));
        QCOMPARE(values("half"), (std::vector<float>{1, -2}));
        QCOMPARE(values("brain"), (std::vector<float>{1.5f}));
        QCOMPARE(values("codes"), (std::vector<float>{-128, -1, 0, 127}));
        QCOMPARE(values("step"), (std::vector<float>{123456789012.0f}));
        QCOMPARE(values("wide"), (std::vector<float>{0.1f}));
        QCOMPARE(values("flag"), (std::vector<float>{1, 0}));
        const auto info = [&](const char* name) { return model.tensors()[static_cast<size_t>(model.find(name))]; };
        QCOMPARE(info("dense/kernel/.ATTRIBUTES/VARIABLE_VALUE").shape, (qs::Shape{2, 3}));
        QCOMPARE(info("dense/bias/.ATTRIBUTES/VARIABLE_VALUE").origin, std::string("shard 1"));
        QCOMPARE(info("half").dtype_name, std::string("float16"));
        QCOMPARE(info("brain").dtype_name, std::string("bfloat16"));
        QCOMPARE(info("step").shape, qs::Shape{});
        QCOMPARE(info("words").dtype_name, std::string("string"));
        QCOMPARE(info("future").dtype_name, std::string("TF DataType 77"));
        QCOMPARE(info("future").dtype, DType::Other);
    }

    void slicesAreListedAndRefused() {
        std::vector<Variable> vars = {{"part", 1, {4}, "", 0, {}, {}, false, 2},
                                      {std::string("\0part/slice", 11), 1, {2}, raw(std::vector<float>{1, 2})}};
        const auto shards = buildShards(vars, 1);
        auto opened = openIndex(buildIndex(checkpointEntries(vars, 1)), shards);
        QVERIFY(opened.ok());
        QCOMPARE((*opened)->tensors().size(), size_t{1});  // the slice's own entry (key starting with \0) is not listed
        auto part = (*opened)->load(0);
        QVERIFY(!part.ok());
        QCOMPARE(errorOf(part.error()),
                 QString("ckpt.index: tensor 'part': stored in 2 slices (a partitioned variable); only whole tensors are read"));
    }

    // ---- hostile indexes and shards -----------------------------------------------------

    void hostileCheckpoints_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<bool>("opens");
        QTest::addColumn<QString>("error");
        QTest::newRow("short") << "short" << false << "ckpt.index: too short for a table (10 bytes; its footer alone has 48)";
        QTest::newRow("magic") << "magic" << false << "ckpt.index: not a LevelDB-format table";
        QTest::newRow("footer handles") << "handles" << false << "ckpt.index: the table's footer holds no valid block handles";
        QTest::newRow("index handle past the end") << "indexhandle" << false << "ckpt.index: the index block (offset 1000000, size 5) lies past the end";
        QTest::newRow("block checksum") << "checksum" << false << "ckpt.index: data block 0 (offset 0, size";
        QTest::newRow("bad snappy") << "badsnappy" << false << "ckpt.index: data block 0 is not valid Snappy data";
        QTest::newRow("snappy bomb") << "bomb" << false << "ckpt.index: data block 0 claims 4294967295 bytes uncompressed, more than";
        QTest::newRow("unknown compression") << "zstd" << false << "ckpt.index: data block 0 uses compression type 7";
        QTest::newRow("restart count") << "restarts" << false << "ckpt.index: data block 0 claims 1000000 restart points";
        QTest::newRow("malformed entry") << "entry" << false << "ckpt.index: data block 0: the entry at byte 0 is malformed";
        QTest::newRow("malformed proto") << "proto" << false << "ckpt.index: tensor 'w': its BundleEntryProto is malformed";
        QTest::newRow("unsorted keys") << "unsorted" << false << "ckpt.index: tensor 'v': comes after 'w' in the index, whose keys must be sorted and unique";
        QTest::newRow("no header") << "noheader" << false << "ckpt.index: no BundleHeaderProto";
        QTest::newRow("big-endian") << "bigendian" << false << "ckpt.index: written big-endian";
        QTest::newRow("shard out of range") << "shardid" << false << "ckpt.index: tensor 'w': in shard 3, but the header says 1 shards";
        QTest::newRow("negative dim") << "negative" << false << "ckpt.index: tensor 'w': its shape has an unknown dimension (-1)";
        QTest::newRow("offset past the shard") << "offset" << true << "ckpt.index: tensor 'w': its 8 bytes at offset 1000 lie past the end of ckpt.data-00000-of-00001 (8 bytes)";
        QTest::newRow("size overflow") << "overflow" << true << "ckpt.index: tensor 'w': its 18446744073709551615 bytes at offset 4 lie past the end";
        QTest::newRow("missing shard") << "missing" << true << "ckpt.index: tensor 'w': cannot read its shard ckpt.data-00000-of-00001: cannot open";
        QTest::newRow("corrupt shard") << "crc" << true << "ckpt.index: tensor 'w': its bytes in ckpt.data-00000-of-00001 fail their CRC-32C";
        QTest::newRow("size != shape x dtype") << "size" << true << "ckpt.index: tensor 'w': the file holds 8 bytes, shape [3] of float32 needs 12";
    }
    void hostileCheckpoints() {
        QFETCH(QString, what);
        QFETCH(bool, opens);
        QFETCH(QString, error);
        std::vector<Variable> vars = {{"w", 1, {2}, raw(std::vector<float>{1.5f, -2})}};
        if (what == "shardid") vars[0].shard = 3;
        if (what == "negative") vars[0].shape = {-1, 2};
        if (what == "offset") vars[0].offset = 1000;
        if (what == "overflow") vars[0] = {"w", 1, {2}, vars[0].data, 0, 4, std::numeric_limits<uint64_t>::max(), false};
        if (what == "size") vars[0].shape = {3};
        auto shards = buildShards(vars, 1);
        if (what == "missing") shards.clear();
        if (what == "crc") shards[0][0] ^= 1;
        Entries entries = checkpointEntries(vars, 1, what != "noheader");
        if (what == "bigendian") entries[0].second = headerProto(1, 1);
        if (what == "proto") entries[1].second = "\x0a\x7f";  // a length past the end
        if (what == "unsorted") entries.emplace_back("v", entries[1].second);
        BlockDamage damage;
        if (what == "badsnappy") damage.change = [](std::string& s) { s[s.size() / 2] = static_cast<char>(0xFF); s.resize(s.size() - 3); };
        if (what == "bomb") damage.change = [](std::string& s) { s = varint(0xFFFFFFFFu) + s.substr(varint(0).size() + 1); };
        if (what == "zstd") damage.type = 7;
        if (what == "restarts") damage.change = [](std::string& s) { s.replace(s.size() - 4, 4, fixed32(1'000'000)); };
        if (what == "entry") damage.change = [](std::string& s) { s[0] = 5; };  // shares 5 bytes with no key before
        std::string index = buildIndex(entries, what == "badsnappy" || what == "bomb", 2, damage);
        if (what == "short") index.resize(10);
        if (what == "magic") index.back() ^= 0x40;
        if (what == "handles") std::memset(index.data() + index.size() - 48, 0xFF, 40);
        if (what == "indexhandle") {  // the footer's second handle
            const std::string handles = varint(1'000'000) + varint(5);
            std::string footer = index.substr(index.size() - 48, 40);
            size_t pos = 0;  // the metaindex handle: skip its two varints
            for (int v = 0; v < 2; ++v) {
                while (static_cast<uint8_t>(footer[pos]) & 0x80) ++pos;
                ++pos;
            }
            footer.replace(pos, std::string::npos, handles);
            footer.resize(40, '\0');
            index.replace(index.size() - 48, 40, footer);
        }
        if (what == "checksum") index[3] ^= 0x10;
        auto opened = openIndex(index, shards);
        expectRefused(opened, opens, error);
    }

    void damagedRealIndexFailsCleanly() {
        const std::string index = fileBytes(kVariables + "/variables.index");
        const std::string shard = fileBytes(kVariables + "/variables.data-00000-of-00001");
        const auto sidecars = [&](const std::string&) -> qs::Result<SharedBytes> { return copyBytes(shard); };
        for (size_t cut = 0; cut < index.size(); ++cut) {
            auto opened = openCheckpoint("v.index", copyBytes(index.substr(0, cut)), sidecars, "variables");
            QVERIFY(!opened.ok());
            QVERIFY(errorOf(opened.error()).startsWith("v.index: "));
        }
        for (size_t i = 0; i < index.size(); ++i) {
            for (const unsigned char flip : {0x01, 0x80}) {
                std::string bad = index;
                bad[i] = static_cast<char>(bad[i] ^ flip);
                auto opened = openCheckpoint("v.index", copyBytes(bad), sidecars, "variables");
                if (!opened) {
                    QVERIFY(errorOf(opened.error()).startsWith("v.index: "));
                    continue;
                }
                // What still opens reads the same: the checksums cover every block that is read,
                // so only the unread metaindex block, the footer's padding or a varint spelled
                // another way (0x0f as 0x8f 0x00) can change.
                checkHalfPlusTwo(**opened);
                if (QTest::currentTestFailed()) QFAIL(qPrintable(QString("byte %1 flipped: opens and reads differently").arg(i)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstModelCheckpoint)
#include "tst_model_checkpoint.moc"
