// FrameworkService: the Frameworks tab's comparison off the UI thread, as the view receives it.
#include <QSignalSpy>
#include <QTest>
#include <memory>

#include "core/data/generators.h"
#include "session/explorer/framework_service.h"

using qs::ui::FrameworkComparisonPtr;
using qs::ui::FrameworkService;

class TstFrameworkService : public QObject {
    Q_OBJECT
private slots:
    void deliversWhatTheCoreComputes() {
        FrameworkService service;
        QSignalSpy compared(&service, &FrameworkService::compared);
        QSignalSpy failed(&service, &FrameworkService::failed);
        auto data = std::make_shared<const qs::data::Dataset>(qs::data::uniform(5000, 9, -1.0, 0.7));
        qs::QuantSpec spec;
        spec.min_range = -1.0f;
        spec.max_range = 0.7f;
        const auto setup = qs::analysis::frameworkSetupFor(spec, -1.0f, 0.7f, true);
        service.request(setup, data);
        QVERIFY(service.busy());
        QTRY_COMPARE(compared.count(), 1);
        QVERIFY(!service.busy());
        QCOMPARE(failed.count(), 0);
        const auto result = compared.first().at(0).value<FrameworkComparisonPtr>();
        QVERIFY(result);
        auto direct = qs::analysis::compareFrameworks(data->values, setup);
        QVERIFY(bool(direct));
        QCOMPARE(result->setup.schemes.size(), size_t{6});
        QCOMPARE(result->comparison.diffs.size(), direct->comparison.diffs.size());
        for (size_t i = 0; i < direct->comparison.diffs.size(); ++i)
            QCOMPARE(result->comparison.diffs[i].differing, direct->comparison.diffs[i].differing);
        QCOMPARE(result->examples.size(), direct->examples.size());
    }

    void aBadRangeIsAMessage() {
        FrameworkService service;
        QSignalSpy compared(&service, &FrameworkService::compared);
        QSignalSpy failed(&service, &FrameworkService::failed);
        auto data = std::make_shared<const qs::data::Dataset>(qs::data::uniform(100, 1));
        auto setup = qs::analysis::frameworkSetupFor(qs::QuantSpec{}, -1.0f, 1.0f, false);
        setup.min = 1.0f;
        setup.max = -1.0f;
        service.request(setup, data);
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY(!failed.first().at(0).toString().isEmpty());
        QCOMPARE(compared.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TstFrameworkService)
#include "tst_framework_service.moc"
