// The zip layer under .npz and .keras (core/modelfile/zip_archive.h) on the archives that
// tests/data/models/make_npz_samples.py wrote with Python's zipfile: listing, stored and
// deflated reads, zero-copy views of stored members, limits, a member that inflates past
// its declared size, and archives damaged on purpose.
#include <QtTest>

#include <cstring>
#include <fstream>
#include <sstream>

#include "core/modelfile/zip_archive.h"

using namespace qs::modelfile;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::string kMixed = QS_MODELS_DIR "/npz/mixed.npz";
const std::string kBomb = QS_MODELS_DIR "/npz/bomb.npz";

ZipPtr openOrFail(const std::string& bytes, const std::string& label = "a.zip") {
    auto zip = ZipArchive::open(label, copyBytes(bytes));
    if (!zip) qWarning("%s", zip.error().message.c_str());
    return zip ? *zip : nullptr;
}

// The offset of the first occurrence of `what` in `s` after `from` (asserting it exists).
size_t offsetOf(const std::string& s, const std::string& what, size_t from = 0) {
    const size_t at = s.find(what, from);
    Q_ASSERT(at != std::string::npos);
    return at;
}

}  // namespace

class TstModelZip : public QObject {
    Q_OBJECT

private slots:
    void listsMembersAsZipfileWroteThem() {
        const auto zip = openOrFail(readFile(kMixed), "mixed.npz");
        QVERIFY(zip);
        QCOMPARE(zip->members().size(), size_t{12});
        const ZipMember& weights = zip->members()[0];
        QCOMPARE(weights.name, std::string("weights.npy"));
        QVERIFY(weights.stored());
        QCOMPARE(weights.size, uint64_t{152});
        QCOMPARE(weights.compressed_size, uint64_t{152});
        const ZipMember& bias = zip->members()[1];
        QCOMPARE(bias.name, std::string("bias.npy"));
        QVERIFY(bias.deflated());
        QCOMPARE(bias.size, uint64_t{152});
        QCOMPARE(bias.compressed_size, uint64_t{85});
        QCOMPARE(zip->find("layer/kernel.npy"), int64_t{8});
        QCOMPARE(zip->find("missing.npy"), int64_t{-1});
    }

    void readsStoredAndDeflatedMembers() {
        const auto zip = openOrFail(readFile(kMixed));
        QVERIFY(zip);
        auto text = zip->read(static_cast<size_t>(zip->find("README.txt")), 1000);
        QVERIFY(text.ok());
        QCOMPARE(std::string((*text)->view()), std::string("not an array\n"));
        auto codes = zip->read(static_cast<size_t>(zip->find("codes.npy")), 1000);  // deflated
        QVERIFY(codes.ok());
        const std::string_view c = (*codes)->view();
        QCOMPARE(c.size(), size_t{132});
        QCOMPARE(c.substr(0, 6), std::string_view("\x93NUMPY"));
        QCOMPARE(c.substr(128), std::string_view("\x80\xff\x00\x7f", 4));  // -128, -1, 0, 127
    }

    void storedViewPointsIntoTheArchive() {
        const auto zip = openOrFail(readFile(kMixed));
        QVERIFY(zip);
        const size_t weights = static_cast<size_t>(zip->find("weights.npy"));
        auto view = zip->storedView(weights);
        QVERIFY(view.ok());
        const std::string_view whole = zip->bytes()->view();
        QVERIFY(view->data() >= whole.data() && view->data() + view->size() <= whole.data() + whole.size());
        auto copy = zip->read(weights, 1000);
        QVERIFY(copy.ok());
        QCOMPARE(*view, (*copy)->view());
        float first;
        std::memcpy(&first, view->data() + 128, 4);
        QCOMPARE(first, 1.0f);
        // A deflated member has no view.
        auto none = zip->storedView(static_cast<size_t>(zip->find("bias.npy")));
        QVERIFY(!none.ok());
        QVERIFY(QString::fromStdString(none.error().message).contains("member 'bias.npy'"));
    }

    void readPrefixInflatesOnlyTheHead() {
        const auto zip = openOrFail(readFile(kBomb));
        QVERIFY(zip);
        const size_t honest = static_cast<size_t>(zip->find("honest.npy"));
        QCOMPARE(zip->members()[honest].size, uint64_t{(4u << 20) + 128});
        auto head = zip->readPrefix(honest, 128);
        QVERIFY(head.ok());
        QCOMPARE(head->size(), size_t{128});
        QCOMPARE(std::string_view(head->data(), 6), std::string_view("\x93NUMPY"));
        // A prefix longer than the member is the whole member.
        auto text = openOrFail(readFile(kMixed))->readPrefix(9, 4096);
        QVERIFY(text.ok());
        QCOMPARE(text->size(), size_t{13});
    }

    void limitIsCheckedBeforeReading() {
        const auto zip = openOrFail(readFile(kBomb), "bomb.npz");
        QVERIFY(zip);
        const size_t honest = static_cast<size_t>(zip->find("honest.npy"));
        auto refused = zip->read(honest, 1 << 20);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().message,
                 std::string("bomb.npz: member 'honest.npy': declares 4194432 bytes, more than the 1048576 allowed here"));
        auto whole = zip->read(honest, 8 << 20);  // the legitimate 1000:1 member reads fine
        QVERIFY(whole.ok());
        QCOMPARE((*whole)->size(), size_t{4194432});
    }

    void memberInflatingPastItsDeclaredSizeIsRefused() {
        // 'liar' declares 152 bytes and inflates to 4 MiB: the read stops one byte past.
        const auto zip = openOrFail(readFile(kBomb), "bomb.npz");
        QVERIFY(zip);
        const size_t liar = static_cast<size_t>(zip->find("liar.npy"));
        QCOMPARE(zip->members()[liar].size, uint64_t{152});
        auto r = zip->read(liar, uint64_t{1} << 40);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message, std::string("bomb.npz: member 'liar.npy': inflates to more than the 152 bytes it declares"));
    }

    void declaredSizeBeyondDeflateIsRefused() {
        // Claim 1 GB for bias.npy (85 compressed bytes): refused before any allocation.
        std::string bytes = readFile(kMixed);
        size_t at = offsetOf(bytes, "PK\x01\x02");
        while (bytes.compare(at + 46, 8, "bias.npy") != 0) at = offsetOf(bytes, "PK\x01\x02", at + 1);
        const uint32_t huge = 1000000000;
        std::memcpy(&bytes[at + 24], &huge, 4);
        const auto zip = openOrFail(bytes, "x.npz");
        QVERIFY(zip);
        auto r = zip->read(static_cast<size_t>(zip->find("bias.npy")), uint64_t{1} << 40);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message,
                 std::string("x.npz: member 'bias.npy': declares 1000000000 bytes from 85 compressed, more than deflate can produce"));
    }

    void unsupportedMethodIsNamed() {
        // Mark the stored README.txt as bzip2 (12) in both headers.
        std::string bytes = readFile(kMixed);
        for (const char* sig : {"PK\x03\x04", "PK\x01\x02"}) {
            const size_t nameAt = sig[2] == 3 ? 30 : 46;
            for (size_t at = offsetOf(bytes, sig); at != std::string::npos; at = bytes.find(sig, at + 1))
                if (bytes.compare(at + nameAt, 10, "README.txt") == 0) bytes[at + (sig[2] == 3 ? 8 : 10)] = 12;
        }
        const auto zip = openOrFail(bytes, "x.npz");
        QVERIFY(zip);
        const size_t readme = static_cast<size_t>(zip->find("README.txt"));
        QCOMPARE(zip->members()[readme].method, uint16_t{12});
        auto r = zip->read(readme, 1000);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message,
                 std::string("x.npz: member 'README.txt': compression method 12 is not read (stored and deflate are)"));
        QVERIFY(!zip->storedView(readme).ok());
    }

    void storedViewChecksTheLocalHeader() {
        // Move weights.npy's local header offset in the central directory to the next member.
        std::string bytes = readFile(kMixed);
        const size_t central = offsetOf(bytes, "PK\x01\x02");
        QCOMPARE(bytes.substr(central + 46, 11), std::string("weights.npy"));
        const uint32_t elsewhere = static_cast<uint32_t>(offsetOf(bytes, "PK\x03\x04", 1));
        std::memcpy(&bytes[central + 42], &elsewhere, 4);
        const auto zip = openOrFail(bytes, "x.npz");
        if (!zip) return;  // libzip itself may refuse the archive: also fine
        auto view = zip->storedView(0);
        QVERIFY(!view.ok());
        QCOMPARE(view.error().message, std::string("x.npz: member 'weights.npy': its local header names another member"));
    }

    void storedViewChecksTheDataBounds() {
        // Grow README.txt's declared sizes in both headers so its data would run past the end.
        std::string bytes = readFile(kMixed);
        for (const char* sig : {"PK\x03\x04", "PK\x01\x02"}) {
            const size_t nameAt = sig[2] == 3 ? 30 : 46, sizes = sig[2] == 3 ? 18 : 20;
            for (size_t at = offsetOf(bytes, sig); at != std::string::npos; at = bytes.find(sig, at + 1))
                if (bytes.compare(at + nameAt, 10, "README.txt") == 0) {
                    const uint32_t big = 100000;
                    std::memcpy(&bytes[at + sizes], &big, 4);
                    std::memcpy(&bytes[at + sizes + 4], &big, 4);
                }
        }
        const auto zip = openOrFail(bytes, "x.npz");
        if (!zip) return;
        auto view = zip->storedView(static_cast<size_t>(zip->find("README.txt")));
        QVERIFY(!view.ok());
        QVERIFY(QString::fromStdString(view.error().message).startsWith("x.npz: member 'README.txt': its 100000 bytes at offset"));
        QVERIFY(!zip->read(static_cast<size_t>(zip->find("README.txt")), 1 << 20).ok());
    }

    void notAZip() {
        for (const std::string& bytes : {std::string(), std::string("hello"), std::string(100, 'x'),
                                         readFile(kMixed).substr(0, 1000)}) {
            auto zip = ZipArchive::open("junk.npz", copyBytes(bytes));
            QVERIFY(!zip.ok());
            QVERIFY(QString::fromStdString(zip.error().message).startsWith("junk.npz: not a zip archive"));
        }
    }
};

QTEST_GUILESS_MAIN(TstModelZip)
#include "tst_model_zip.moc"
