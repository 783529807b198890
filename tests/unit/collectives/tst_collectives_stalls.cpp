// The stall judge (collectives/StallJudge.h): which ring links an aborted operation's reports dispute, and ring
// orders that avoid them. Pure logic; the hostile staller against real processes is in tst_collectives_hostile.
#include "collectives/StallJudge.h"

#include <QTest>

#include <set>
#include <vector>

using namespace cohort::collectives;

namespace QTest {
template <>
inline char *toString(const std::vector<Link> &links)
{
    QByteArray text;
    for (const Link &l : links)
        text += QByteArray::number(l.from) + "->" + QByteArray::number(l.to) + " ";
    return qstrdup(text.constData());
}
} // namespace QTest

class TestCollectivesStalls : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stallReportsFindTheDisputedLink()
    {
        // Ring 1 -> 2 -> 3 -> 4 -> 1, two blocks per step. A staller that moves nothing (2): its successor starves at
        // the first block, everyone downstream waits on a block its own predecessor did not have yet.
        const std::vector<uint32_t> order{1, 2, 3, 4};
        const auto starvedAt = [](uint32_t step, uint32_t block) {
            return StallReport{false, true, false, {step, block}};
        };
        std::map<uint32_t, StallReport> silent{{2, StallReport{false, false, false, {0, 0}}},
                                               {3, starvedAt(0, 0)},
                                               {4, starvedAt(1, 0)},
                                               {1, starvedAt(2, 0)}};
        QCOMPARE(disputedLinks(order, silent), (std::vector<Link>{{2, 3}}));
        // The same staller claiming it starved too: it frames 1, which held block (0, 0) — step 0 is its own input.
        std::map<uint32_t, StallReport> framing{{2, starvedAt(0, 0)}, // it sent its own step 0, then nothing
                                                {3, starvedAt(1, 0)},
                                                {4, starvedAt(2, 0)},
                                                {1, starvedAt(3, 0)}};
        QCOMPARE(disputedLinks(order, framing), (std::vector<Link>{{1, 2}}));
        // A framer that claims it starved and passes nothing on (3 starves at (0, 0) too): both its links.
        framing[3] = starvedAt(0, 0);
        QCOMPARE(disputedLinks(order, framing), (std::vector<Link>{{1, 2}, {2, 3}}));
        // An honest slow chain: each waits on a block its predecessor has not received the input of. No dispute.
        std::map<uint32_t, StallReport> chain{{1, starvedAt(1, 1)},
                                              {2, starvedAt(2, 1)},
                                              {3, starvedAt(3, 1)},
                                              {4, StallReport{false, false, false, {0, 1}}}};
        QCOMPARE(disputedLinks(order, chain), std::vector<Link>{});
        // Block granularity: 2 waits on (2, 1); 1 received past (1, 1) — it held it.
        chain[1] = starvedAt(1, 2);
        QCOMPARE(disputedLinks(order, chain), (std::vector<Link>{{1, 2}}));
        // A sender blocked on a successor that does not read; a member that finished; a member that said nothing.
        std::map<uint32_t, StallReport> blocked{{1, StallReport{false, false, true, {5, 0}}}};
        QCOMPARE(disputedLinks(order, blocked), (std::vector<Link>{{1, 2}}));
        std::map<uint32_t, StallReport> finished{{1, StallReport{true, false, false, {}}}, {2, starvedAt(4, 0)}};
        QCOMPARE(disputedLinks(order, finished), (std::vector<Link>{{1, 2}}));
        std::map<uint32_t, StallReport> unsaid{{2, starvedAt(4, 0)}};
        QCOMPARE(disputedLinks(order, unsaid), (std::vector<Link>{{1, 2}}));
        QCOMPARE(disputedLinks({7}, unsaid), std::vector<Link>{});
    }

    void ringOrdersAvoidDisputedLinks()
    {
        const auto uses = [](const std::vector<uint32_t> &order, Link link) {
            for (size_t k = 0; k < order.size(); ++k)
                if (order[k] == link.from && order[(k + 1) % order.size()] == link.to)
                    return true;
            return false;
        };
        const std::vector<uint32_t> four{1, 2, 3, 4};
        QCOMPARE(orderAvoiding(four, {}), four);
        QCOMPARE(orderAvoiding(four, {Link{2, 1}}), four); // not used: unchanged
        const std::vector<uint32_t> moved = orderAvoiding(four, {Link{1, 2}});
        QCOMPARE(moved.size(), size_t(4));
        QVERIFY(!uses(moved, Link{1, 2}));
        QCOMPARE(std::set<uint32_t>(moved.begin(), moved.end()), std::set<uint32_t>(four.begin(), four.end()));
        // Three members: the reverse direction.
        const std::vector<uint32_t> three = orderAvoiding({1, 2, 3}, {Link{1, 2}});
        QCOMPARE(three, (std::vector<uint32_t>{1, 3, 2}));
        // A staller disputed with both neighbours, then with the next: still a ring that avoids all three links.
        const std::set<Link> disputed{{1, 2}, {2, 3}, {4, 2}};
        const std::vector<uint32_t> around = orderAvoiding({1, 2, 3, 4, 5}, disputed);
        for (const Link &l : disputed)
            QVERIFY(!uses(around, l));
        // Two members: both directions are used whatever the order.
        QCOMPARE(orderAvoiding({1, 2}, {Link{1, 2}}), (std::vector<uint32_t>{1, 2}));
        // Every link into 1 disputed: no ring avoids them all, and only the last step of each of the 39! orders
        // finds that out; the bounded search gives up with an order using fewest of them.
        std::set<Link> intoOne;
        std::vector<uint32_t> many;
        for (uint32_t id = 1; id <= 40; ++id) {
            many.push_back(id);
            if (id != 1)
                intoOne.insert(Link{id, 1});
        }
        const std::vector<uint32_t> fallback = orderAvoiding(many, intoOne);
        QCOMPARE(std::set<uint32_t>(fallback.begin(), fallback.end()), std::set<uint32_t>(many.begin(), many.end()));
    }
};

QTEST_GUILESS_MAIN(TestCollectivesStalls)
#include "tst_collectives_stalls.moc"
