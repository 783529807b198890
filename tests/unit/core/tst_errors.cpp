// The one error shape (base/Result.h, core/Expected.h): a failure keeps its code across the Qt boundary, the codes
// a caller decides by are the ones it gets, and nothing can build a failure that reads as success.
#include "core/Expected.h"

#include <QTest>

using namespace cohort;

namespace {
Result<int> parsePositive(int v)
{
    if (v <= 0)
        return Result<int>::failure("not positive", ErrorCode::InvalidArgument);
    return Result<int>::success(v);
}

Status passOn(int v)
{
    const Result<int> parsed = parsePositive(v);
    if (!parsed)
        return fail(parsed);
    return {};
}
} // namespace

class TestErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void successHasNoCode()
    {
        const Status ok;
        QVERIFY(ok);
        QCOMPARE(ok.code(), ErrorCode::None);
        QVERIFY(!ok.retryable());
        const Expected<int> value(3);
        QCOMPARE(value.code(), ErrorCode::None);
        QCOMPARE(parsePositive(2).code, ErrorCode::None);
        QCOMPARE(Outcome::success().code, ErrorCode::None);
    }

    void aFailureWithoutAKindIsFailed()
    {
        const Status failed = fail(QStringLiteral("disk on fire"));
        QVERIFY(!failed);
        QCOMPARE(failed.code(), ErrorCode::Failed);
        QCOMPARE(failed.error(), QStringLiteral("disk on fire"));
        QCOMPARE(Outcome::failure("x").code, ErrorCode::Failed);
        QCOMPARE(Result<int>::failure("x").code, ErrorCode::Failed);
    }

    // A code of None on a failure would make ok() true with an error in hand: fail() refuses to build one.
    void aFailureNeverReadsAsSuccess()
    {
        const Status failed = fail(QStringLiteral("still a failure"), ErrorCode::None);
        QVERIFY(!failed);
        QCOMPARE(failed.code(), ErrorCode::Failed);
        const Expected<int> missing = fail(QStringLiteral("no value"), ErrorCode::None);
        QVERIFY(!missing);
        QCOMPARE(missing.code(), ErrorCode::Failed);
    }

    void theCodeCrossesTheQtBoundary()
    {
        const Status passed = passOn(-1);
        QVERIFY(!passed);
        QCOMPARE(passed.code(), ErrorCode::InvalidArgument);
        QCOMPARE(passed.error(), QStringLiteral("not positive"));
        const Status outcome = []() -> Status { return fail(Outcome::failure("gone", ErrorCode::Disconnected)); }();
        QCOMPARE(outcome.code(), ErrorCode::Disconnected);
        QVERIFY(passOn(1));
    }

    void onlyTheMomentsFailuresAreRetryable()
    {
        QVERIFY(fail(QStringLiteral("a peer left"), ErrorCode::Aborted).code == ErrorCode::Aborted);
        QVERIFY(Status(fail(QStringLiteral("a peer left"), ErrorCode::Aborted)).retryable());
        QVERIFY(Status(fail(QStringLiteral("too slow"), ErrorCode::Timeout)).retryable());
        for (ErrorCode code : {ErrorCode::Failed, ErrorCode::InvalidArgument, ErrorCode::Disconnected,
                               ErrorCode::Refused, ErrorCode::NotConnected})
            QVERIFY2(!Status(fail(QStringLiteral("no"), code)).retryable(), errorCodeName(code));
        QCOMPARE(QString::fromLatin1(errorCodeName(ErrorCode::Disconnected)), QStringLiteral("disconnected"));
    }
};

QTEST_GUILESS_MAIN(TestErrors)
#include "tst_errors.moc"
