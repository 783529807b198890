// The dashboard's update notice: "Cohort x.y is available" with a download link that opens in the browser, the reason
// when the hub needs a newer version, nothing otherwise; links only to http(s), whatever a snapshot carries.
#include "SampleSnapshots.h"
#include "ui/DashboardPage.h"
#include "ui/MainWindow.h"

#include <QDesktopServices>
#include <QLabel>
#include <QTranslator>
#include <QtTest>

using namespace cohort;

// Stands in for the browser: QDesktopServices hands it the URLs a click opens.
class LinkCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> opened;
public Q_SLOTS:
    void open(const QUrl &url) { opened.append(url); }
};

class TestUpdateNotice : public QObject {
    Q_OBJECT

    static QLabel *notice(const MainWindow &window)
    {
        return window.dashboardPage()->findChild<QLabel *>(QStringLiteral("updateNotice"));
    }

    // Clicks across the label until a click opens a link (or none does): the link must be where the text shows it.
    static bool clickUntilOpened(QLabel *label, const LinkCatcher &catcher)
    {
        for (int y = 2; y < label->height(); y += 4)
            for (int x = 2; x < label->width(); x += 3) {
                QTest::mouseClick(label, Qt::LeftButton, {}, QPoint(x, y));
                if (!catcher.opened.isEmpty())
                    return true;
            }
        return false;
    }

private Q_SLOTS:
    void noNoticeWithoutANewerVersion()
    {
        MainWindow window;
        window.showSnapshot(samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined")));
        QLabel *label = notice(window);
        QVERIFY(label);
        QVERIFY(label->isHidden());
        QCOMPARE(DashboardPage::updateNoticeText(samples::snapshot(NodeState::Idle, {})), QString());
        // The same version as this one, advertised: nothing to say either.
        EngineSnapshot same = samples::snapshot(NodeState::Idle, {});
        same.update = assessUpdate(ClientRelease{QStringLiteral("0.1.0"), {}, {}}, QStringLiteral("0.1.0"));
        window.showSnapshot(same);
        QVERIFY(label->isHidden());
    }

    void aNewerVersionIsShownWithALinkThatOpens()
    {
        MainWindow window;
        window.resize(900, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showSnapshot(
            samples::withUpdate(samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined"))));
        QLabel *label = notice(window);
        QVERIFY(label);
        QTRY_VERIFY(label->isVisible());
        QVERIFY2(label->text().startsWith(QStringLiteral("Cohort 99.0.0 is available.")), qPrintable(label->text()));
        QVERIFY2(label->text().contains(QStringLiteral("<a href=\"https://cohort.example/download\">Download</a>")),
                 qPrintable(label->text()));
        QCOMPARE(label->textFormat(), Qt::RichText);
        QVERIFY(label->openExternalLinks());
        QVERIFY(label->textInteractionFlags() & Qt::LinksAccessibleByMouse);

        LinkCatcher browser;
        QDesktopServices::setUrlHandler(QStringLiteral("https"), &browser, "open");
        const bool opened = clickUntilOpened(label, browser);
        QDesktopServices::unsetUrlHandler(QStringLiteral("https"));
        QVERIFY2(opened, "no click on the notice opened its link");
        QCOMPARE(browser.opened, QList<QUrl>{QUrl(QStringLiteral("https://cohort.example/download"))});

        // The hub stops advertising it: the notice goes.
        window.showSnapshot(samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined")));
        QTRY_VERIFY(!label->isVisible());
    }

    void belowTheHubsMinimumTheReasonIsShown()
    {
        MainWindow window;
        const EngineSnapshot s = samples::withUpdate(samples::snapshot(NodeState::Idle, {}), true);
        window.showSnapshot(s);
        QLabel *label = notice(window);
        QVERIFY(label && !label->isHidden());
        QVERIFY2(label->text().startsWith(QStringLiteral("This hub needs Cohort 99.0.0 or newer; you have 0.1.0.")),
                 qPrintable(label->text()));
        QVERIFY(label->text().contains(QStringLiteral("href=\"https://cohort.example/download\"")));
        // The headline says the engine stopped, and why.
        auto *title = window.dashboardPage()->findChild<QLabel *>(QStringLiteral("stateTitle"));
        auto *why = window.dashboardPage()->findChild<QLabel *>(QStringLiteral("stateWhy"));
        QVERIFY(title && why);
        QCOMPARE(title->text(), nodeStateTitle(NodeState::Error));
        QCOMPARE(
            why->text(),
            QStringLiteral(
                "This hub needs Cohort 99.0.0 or newer; you have 0.1.0. Download: https://cohort.example/download"));
    }

    // The engine refuses such values from a hub; the dashboard does not rely on that.
    void hostileValuesNeverBecomeLinksOrMarkup()
    {
        EngineSnapshot s = samples::snapshot(NodeState::Idle, {});
        s.update.running = QStringLiteral("0.1.0");
        s.update.latest = QStringLiteral("<img src=x onerror=alert(1)>");
        s.update.available = true;
        for (const QString &url : {QStringLiteral("javascript:alert(1)"), QStringLiteral("file:///etc/passwd"),
                                   QStringLiteral("https://cohort.example/\"onclick=\"x")}) {
            s.update.downloadUrl = url;
            const QString text = DashboardPage::updateNoticeText(s);
            QVERIFY2(!text.contains(QStringLiteral("href")), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("<img")) && text.contains(QStringLiteral("&lt;img")),
                     qPrintable(text));
        }
    }

    void theNoticeIsTranslated()
    {
        QTranslator german;
        QVERIFY(german.load(QStringLiteral(":/i18n/cohort_de")));
        QVERIFY(QCoreApplication::installTranslator(&german));
        const QString available =
            DashboardPage::updateNoticeText(samples::withUpdate(samples::snapshot(NodeState::Idle, {})));
        const QString required =
            DashboardPage::updateNoticeText(samples::withUpdate(samples::snapshot(NodeState::Idle, {}), true));
        QCoreApplication::removeTranslator(&german);
        QVERIFY2(available.startsWith(QStringLiteral("Cohort 99.0.0 ist verfügbar.")), qPrintable(available));
        QVERIFY2(available.contains(QStringLiteral(">Herunterladen</a>")), qPrintable(available));
        QVERIFY2(required.startsWith(QStringLiteral("Dieser Hub braucht Cohort 99.0.0 oder neuer; Sie haben 0.1.0.")),
                 qPrintable(required));
        QTranslator french;
        QVERIFY(french.load(QStringLiteral(":/i18n/cohort_fr")));
        QVERIFY(QCoreApplication::installTranslator(&french));
        const QString disponible =
            DashboardPage::updateNoticeText(samples::withUpdate(samples::snapshot(NodeState::Idle, {})));
        QCoreApplication::removeTranslator(&french);
        QVERIFY2(disponible.startsWith(QStringLiteral("Cohort 99.0.0 est disponible.")), qPrintable(disponible));
    }
};

QTEST_MAIN(TestUpdateNotice)
#include "tst_update_notice.moc"
