// data::csvText and data::csvNumber: the one writer behind every CSV of the GUI and the CLI.
// Numbers print as the shortest text that reads back as the same float32 (or double), fields
// are quoted only when they must be, ragged columns leave empty cells.
#include <QtTest>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "core/data/csv_writer.h"

using namespace qs::data;

class TstCsvWriter : public QObject {
    Q_OBJECT
private slots:
    void numbersAreShortestRoundTrip();
    void fieldsAreQuotedOnlyWhenNeeded();
    void numberColumnsMayDifferInLength();
    void textTablesQuoteEveryCell();
    void emptyTablesAreTheHeaderLine();
};

void TstCsvWriter::numbersAreShortestRoundTrip() {
    QCOMPARE(csvNumber(0.1f), std::string("0.1"));
    QCOMPARE(csvNumber(0.1), std::string("0.1"));  // a double that is not a float32
    QCOMPARE(csvNumber(1.0 / 3.0), std::string("0.3333333333333333"));
    QCOMPARE(csvNumber(4e-4f), std::string("4e-04"));
    QCOMPARE(csvNumber(255), std::string("255"));
    QCOMPARE(csvNumber(-0.0), std::string("-0"));
    const std::string text = csvNumber(double(-3.023622f));
    float back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    QCOMPARE(back, -3.023622f);
    QCOMPARE(csvNumber(std::nan("")), std::string("nan"));
    QCOMPARE(csvNumber(INFINITY), std::string("inf"));
    QCOMPARE(csvNumber(-INFINITY), std::string("-inf"));
    QCOMPARE(csvNumber(std::numeric_limits<double>::max()), std::string("1.7976931348623157e+308"));
}

void TstCsvWriter::fieldsAreQuotedOnlyWhenNeeded() {
    QCOMPARE(csvField("plain name"), std::string("plain name"));
    QCOMPARE(csvField("a,b"), std::string("\"a,b\""));
    QCOMPARE(csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
    QCOMPARE(csvField("two\nlines"), std::string("\"two\nlines\""));
    QCOMPARE(csvField("cr\r"), std::string("\"cr\r\""));
    QCOMPARE(csvField("€ ±"), std::string("€ ±"));  // UTF-8 passes through
}

void TstCsvWriter::numberColumnsMayDifferInLength() {
    NumberColumns t{{"a", "b,c"}, {{1, 2, 3}, {4}}};
    QCOMPARE(t.rowCount(), size_t(3));
    QCOMPARE(csvText(t), std::string("a,\"b,c\"\n1,4\n2,\n3,\n"));
    const TextTable text = toTextTable(t);
    QCOMPARE(text.rows.size(), size_t(3));
    QCOMPARE(text.rows[1], (std::vector<std::string>{"2", ""}));
}

void TstCsvWriter::textTablesQuoteEveryCell() {
    TextTable t{{"method", "value"}, {{"min-max", csvNumber(0.5f)}, {"a \"b\", c", "x"}}};
    QCOMPARE(csvText(t), std::string("method,value\nmin-max,0.5\n\"a \"\"b\"\", c\",x\n"));
}

void TstCsvWriter::emptyTablesAreTheHeaderLine() {
    QCOMPARE(csvText(NumberColumns{}), std::string("\n"));
    QCOMPARE(csvText(NumberColumns{{"x", "y"}, {}}), std::string("x,y\n"));
    QCOMPARE(csvText(NumberColumns{{"x", "y"}, {{}, {}}}), std::string("x,y\n"));
    QCOMPARE(csvText(TextTable{{"k"}, {}}), std::string("k\n"));
}

QTEST_APPLESS_MAIN(TstCsvWriter)
#include "tst_csv_writer.moc"
