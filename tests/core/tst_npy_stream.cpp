// Files larger than memory: a .npy read through NpyFileStream chunk by chunk gives exactly the
// values the in-memory reader gives (float32, float64, big-endian), a loader with a budget
// streams what exceeds it, headers that lie are refused with the file and the offset named,
// the uniform sample takes the values it says, and the memory budget follows RLIMIT_AS (a
// forked child with a small address space streams a file it could not read into memory).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/data/load_file.h"
#include "core/data/memory_budget.h"
#include "core/data/npy_reader.h"
#include "core/data/npy_stream.h"
#include "core/data/stream_sample.h"
#include "tests/core/sample_helpers.h"

using namespace qs::data;
using namespace qs::testing;

namespace {

std::vector<float> someValues(size_t n, unsigned seed = 7) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.5f, 2.0f);
    std::vector<float> v(n);
    for (float& x : v) x = normal(rng);
    return v;
}

// Every value of the stream, gathered chunk by chunk (chunks checked to be consecutive).
std::vector<float> readAll(const FloatStream& s, int64_t chunk) {
    std::vector<float> out;
    ChunkOptions options;
    options.chunk_elements = chunk;
    const qs::Status st = forEachChunk(
        s,
        [&out](int64_t begin, std::span<const float> v) {
            if (begin != static_cast<int64_t>(out.size())) return qs::Status(dataError("chunk out of order"));
            out.insert(out.end(), v.begin(), v.end());
            return qs::okStatus();
        },
        options);
    if (!st) qFatal("%s", st.error().message.c_str());
    return out;
}

QString errorText(const qs::Error& e) { return QString::fromStdString(e.kind + ": " + e.message); }

}  // namespace

class TstNpyStream : public QObject {
    Q_OBJECT

private slots:
    void chunksEqualTheFilesValues() {
        QTemporaryDir dir;
        const std::vector<float> v = someValues(3'000'017);  // 12 MB, odd: a short last chunk
        const std::string path = writeFile(dir, "big.npy", npy(dict("<f4", false, "(3000017,)"), rawBytes(v)));
        auto stream = NpyFileStream::open(path);
        QVERIFY2(stream.ok(), stream.ok() ? "" : stream.error().message.c_str());
        QCOMPARE((*stream)->size(), int64_t{3'000'017});
        QCOMPARE((*stream)->shape(), (qs::Shape{3'000'017}));
        QVERIFY(sameBits(readAll(**stream, (int64_t{1} << 20) + 7), v));
        QVERIFY(sameBits(readAll(**stream, 1000), v));
        // Random access: any range, as read() promises.
        std::vector<float> part(1234);
        QVERIFY((*stream)->read(2'999'000, std::span<float>(part.data(), 1017)).ok());
        QVERIFY(std::equal(part.begin(), part.begin() + 1017, v.begin() + 2'999'000));
        QCOMPARE((*stream)->read(2'999'000, part).error().kind, std::string("OutOfRange"));
    }

    void otherTypesConvertAsTheInMemoryReader() {
        QTemporaryDir dir;
        const std::vector<float> f = someValues(300'001);
        std::vector<double> d(f.size());
        for (size_t i = 0; i < f.size(); ++i) d[i] = static_cast<double>(f[i]) * 1.000000123;  // not exact in f32
        const std::vector<std::pair<QString, std::string>> files = {
            {"f8.npy", npy(dict("<f8", false, "(300001,)"), rawBytes(d))},
            {"bf8.npy", npy(dict(">f8", false, "(300001,)"), rawBytes(d, true))},
            {"bf4.npy", npy(dict(">f4", false, "(300001,)"), rawBytes(f, true))},
            {"v2.npy", npy(dict("<f4", false, "(3, 100000)"), rawBytes(std::vector<float>(f.begin(), f.end() - 1)), 2)},
            {"fortran1d.npy", npy(dict("<f4", true, "(1, 300001)"), rawBytes(f))},  // same order either way
        };
        for (const auto& [name, bytes] : files) {
            const std::string path = writeFile(dir, name, bytes);
            auto memory = readNpy(path);
            auto stream = NpyFileStream::open(path);
            QVERIFY2(memory.ok() && stream.ok(), qPrintable(name));
            QCOMPARE((*stream)->shape(), memory->shape);
            QVERIFY2(sameBits(readAll(**stream, 65'537), memory->values), qPrintable(name));
        }
    }

    void theBudgetDecidesBetweenMemoryAndStream() {
        QTemporaryDir dir;
        const std::vector<float> v = someValues(1'000'000);  // 4 MB of values
        const std::string path = writeFile(dir, "m.npy", npy(dict("<f4", false, "(1000, 1000)"), rawBytes(v)));
        LoadOptions options;
        options.stream_above_bytes = 4'000'000;  // exactly fits: read
        auto inMemory = loadDataFile(path, options);
        QVERIFY(inMemory.ok() && !inMemory->streamed());
        QVERIFY(sameBits(inMemory->values, v));
        options.stream_above_bytes = 3'999'999;  // one byte short: streamed
        int progressCalls = 0;
        options.progress = [&](double) { return ++progressCalls, true; };
        auto streamed = loadDataFile(path, options);
        QVERIFY(streamed.ok() && streamed->streamed());
        QVERIFY(streamed->values.empty());
        QVERIFY(progressCalls > 0);
        QCOMPARE(streamed->size(), int64_t{1'000'000});
        QCOMPARE(streamed->shape, (qs::Shape{1000, 1000}));
        QCOMPARE(streamed->label, std::string("m.npy"));
        QVERIFY(sameBits(readAll(*streamed->asStream(), 1 << 16), v));
        // Without a budget every file is read, as before (the CLI's contract).
        QVERIFY(!loadDataFile(path).value().streamed());
        // A Fortran-order matrix within the budget is read (and transposed) as before; over
        // it, it is refused by name rather than read.
        const std::string fortran = writeFile(dir, "f.npy", npy(dict("<f4", true, "(2, 3)"), rawBytes(someValues(6))));
        options.stream_above_bytes = 1024;
        QVERIFY(loadDataFile(fortran, options).ok());
        options.stream_above_bytes = 8;
        const auto refused = loadDataFile(fortran, options);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.find("f.npy: a Fortran-order array of shape [2,3] cannot be streamed") !=
                     std::string::npos,
                 refused.error().message.c_str());
    }

    void headersThatLieAreRefused() {
        QTemporaryDir dir;
        const std::string values = rawBytes(someValues(100));
        auto error = [&](const QString& name, const std::string& bytes) {
            const std::string path = writeFile(dir, name, bytes);
            auto s = NpyFileStream::open(path);
            return s.ok() ? QString("(no error)") : errorText(s.error()).replace(QString::fromStdString(dir.path().toStdString() + "/"), "");
        };
        // More elements than bytes: the shape never decides a read past the file.
        QCOMPARE(error("short.npy", npy(dict("<f4", false, "(101,)"), values)),
                 QString("DataError: short.npy: truncated data: shape [101] of float32 needs 404 bytes, the file has 400"));
        // A shape whose byte count overflows.
        QCOMPARE(error("huge.npy", npy(dict("<f4", false, "(4294967296, 4294967296)"), values)),
                 QString("DataError: huge.npy: shape [4294967296,4294967296] is too large"));
        // A version-2 header length of 4 GB: refused before anything of that size is read.
        std::string lying = npy(dict("<f4", false, "(100,)"), values, 2);
        lying[8] = lying[9] = lying[10] = lying[11] = '\xff';
        QCOMPARE(error("len.npy", lying),
                 QString("DataError: len.npy: the header claims 4294967307 bytes; more than 1 MiB is not a numeric "
                         "array's header"));
        // A header length past the end of a small file.
        std::string cut = npy(dict("<f4", false, "(100,)"), "");
        cut[8] = '\x00';
        cut[9] = '\x40';  // 16 KB
        QVERIFY(error("cut.npy", cut).startsWith("DataError: cut.npy: "));
        QVERIFY(error("empty.npy", "").startsWith("DataError: empty.npy: "));
        QCOMPARE(error("i4.npy", npy(dict("<i4", false, "(100,)"), values)),
                 QString("DataError: i4.npy: dtype '<i4' is not supported (float32 '<f4' and float64 '<f8' are "
                         "read, either byte order)"));
        QVERIFY(error("missing.npy", "x").startsWith("DataError: "));
        QCOMPARE(errorText(NpyFileStream::open(dir.path().toStdString()).error()),
                 QString("DataError: cannot read %1: Is a directory").arg(dir.path()));
    }

    void aFileThatShrinksNamesTheFileAndOffset() {
        QTemporaryDir dir;
        const std::string path =
            writeFile(dir, "shrinks.npy", npy(dict("<f4", false, "(100000,)"), rawBytes(someValues(100'000))));
        auto stream = NpyFileStream::open(path);
        QVERIFY(stream.ok());
        QVERIFY(::truncate(path.c_str(), 128 + 4000) == 0);  // the header and 1,000 values stay
        std::vector<float> out(2000);
        const qs::Status s = (*stream)->read(0, out);
        QVERIFY(!s.ok());
        QCOMPARE(errorText(s.error()),
                 QString::fromStdString("DataError: " + path +
                                        ": cannot read 8000 bytes at offset 128: the file ends at offset 4128"));
        // A walk stops at the first error and returns it.
        const qs::Status walked = forEachChunk(**stream, [](int64_t, std::span<const float>) { return qs::okStatus(); });
        QVERIFY(!walked.ok());
        QVERIFY(walked.error().message.find(path + ": cannot read") == 0);
    }

    void theSampleTakesEvenlySpacedRuns() {
        std::vector<float> v(10'000'000);
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);  // exact below 2^24
        const FloatStreamPtr s = memoryStream(v);
        QCOMPARE(sampleCount(10'000'000), kSampleValues);
        QCOMPARE(sampleCount(1000), int64_t{1000});
        QCOMPARE(sampleCount(10'000'000, 5000), int64_t{4096});  // whole runs of 1024
        auto sample = sampleStream(*s, 5000);
        QVERIFY(sample.ok());
        QCOMPARE(sample->size(), size_t{4096});
        for (int64_t run = 0; run < 4; ++run)
            for (int64_t k = 0; k < 1024; ++k)
                QCOMPARE((*sample)[static_cast<size_t>(run * 1024 + k)], static_cast<float>(run * 10'000'000 / 4 + k));
        auto all = sampleStream(*memoryStream(std::span<const float>(v.data(), 3000)), 5000);
        QVERIFY(all.ok() && sameBits(*all, std::vector<float>(v.begin(), v.begin() + 3000)));
        ChunkOptions cancel;
        cancel.progress = [](double) { return false; };
        QCOMPARE(sampleStream(*s, kSampleValues, cancel).error().kind, std::string("Cancelled"));
    }

    void byteSizes() {
        QCOMPARE(parseByteSize("1048576"), std::optional<int64_t>(1 << 20));
        QCOMPARE(parseByteSize("64k"), std::optional<int64_t>(64 << 10));
        QCOMPARE(parseByteSize("512M"), std::optional<int64_t>(512 << 20));
        QCOMPARE(parseByteSize("2GB"), std::optional<int64_t>(int64_t{2} << 30));
        QCOMPARE(parseByteSize("1t"), std::optional<int64_t>(int64_t{1} << 40));
        for (const char* bad : {"", "-1", "M", "12 M", "1.5G", "1Q", "99999999999999999999", "9000000000000000T"})
            QVERIFY2(!parseByteSize(bad), bad);
        QVERIFY(physicalMemoryBytes() > 0);
        qputenv("QS_MEMORY_BUDGET", "3M");
        QCOMPARE(defaultMemoryBudget(), int64_t{3} << 20);
        qputenv("QS_MEMORY_BUDGET", "nonsense");  // ignored: the machine's default
        const int64_t fallback = defaultMemoryBudget();
        qunsetenv("QS_MEMORY_BUDGET");
        QCOMPARE(fallback, defaultMemoryBudget());
        QVERIFY(defaultMemoryBudget() <= physicalMemoryBytes() / 2 + 1);
    }

    // The real thing: a child process whose address space cannot hold the file. The default
    // budget (from what RLIMIT_AS leaves) streams it, and the statistics read through the
    // stream equal the parent's, computed with the file's values in memory.
    void aFileLargerThanTheAddressSpaceLeftIsStreamed() {
        QTemporaryDir dir;
        constexpr size_t n = 12'000'000;  // 48 MB
        double sum = 0, lo = 1e30, hi = -1e30;
        std::string path;
        {
            const std::vector<float> v = someValues(n, 11);
            for (float x : v) sum += x, lo = std::min<double>(lo, x), hi = std::max<double>(hi, x);
            path = writeFile(dir, "larger.npy", npy(dict("<f4", false, "(12000000,)"), rawBytes(v)));
        }
        qunsetenv("QS_MEMORY_BUDGET");
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // 24 MB of address space left: the file (48 MB) can be neither mapped nor read
            // into a vector; two 4 MB chunk buffers and a read-ahead thread fit.
            std::FILE* f = std::fopen("/proc/self/statm", "r");
            long long pages = 0;
            if (!f || std::fscanf(f, "%lld", &pages) != 1) ::_exit(10);
            std::fclose(f);
            rlimit limit{};
            limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(pages * ::sysconf(_SC_PAGESIZE) + (24 << 20));
            if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(11);
            if (readNpy(path).ok()) ::_exit(12);  // it must not fit, or the test proves nothing
            LoadOptions options;
            options.stream_above_bytes = defaultMemoryBudget();
            auto d = loadDataFile(path, options);
            if (!d.ok() || !d->streamed()) ::_exit(13);
            double s = 0, mn = 1e30, mx = -1e30;
            ChunkOptions chunks;
            chunks.chunk_elements = 1 << 20;
            const qs::Status st = forEachChunk(
                *d->stream,
                [&](int64_t, std::span<const float> v) {
                    for (float x : v) s += x, mn = std::min<double>(mn, x), mx = std::max<double>(mx, x);
                    return qs::okStatus();
                },
                chunks);
            if (!st.ok()) ::_exit(14);
            ::_exit(s == sum && mn == lo && mx == hi ? 0 : 15);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }
};

QTEST_GUILESS_MAIN(TstNpyStream)
#include "tst_npy_stream.moc"
