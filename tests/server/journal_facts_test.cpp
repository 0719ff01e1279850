// What a table tells its journal, in process with a recording journal: each report carries the
// facts the store's rows need (the hand's first and last event, the action's seq), so the journal
// keeps no state of its own.
#include <gtest/gtest.h>

#include "atout/server/table.hpp"
#include "recording_journal.hpp"
#include "recording_peer.hpp"

namespace atout::server::testing {
namespace {

TEST(JournalFacts, EachHandAndActionIsReportedWithItsSeq) {
  net::io_context ioc;
  auto work = net::make_work_guard(ioc);
  auto j = std::make_shared<RecordingJournal>();
  Record header;
  header.variant = "duel";
  header.deal.seed = Seed{0xFAC7u, 1};
  std::unique_ptr<State> shadow = create_state(header).state;
  TableInit init;
  init.id = "t3";
  init.match_id = "m3";
  init.state = create_state(header).state;
  init.journal = j;
  protocol::TableSettings settings;
  settings.turn_ms = 600'000;
  init.settings = settings;
  auto t = std::make_shared<Table>(ioc.get_executor(), std::move(init));
  std::vector<std::shared_ptr<RecordingPeer>> peers;
  std::vector<Member> members;
  for (int s = 0; s < 2; ++s) {
    peers.push_back(std::make_shared<RecordingPeer>());
    members.push_back(member_for(peers.back(), static_cast<std::uint64_t>(s + 1), "p" + std::to_string(s)));
    t->sit(members.back(), s, {});
  }
  ioc.poll();
  ASSERT_EQ(j->matches, 1);
  ASSERT_EQ(j->hands.size(), 1u);
  EXPECT_EQ(j->hands[0].first_seq, 2u);  // event 1 is the start

  // Play until the second hand is dealt.
  std::uint64_t seq = 1;
  while (shadow->hand_results().size() < 1 && !shadow->is_terminal()) {
    const Seat seat = shadow->current_player();
    const Action a = shadow->legal_actions().front();
    ASSERT_EQ(shadow->apply(seat, a), Refusal::none);
    t->act(members[static_cast<std::size_t>(seat)], a, {});
    ioc.poll();
    ++seq;
    ASSERT_EQ(j->seqs.back(), seq);
  }
  ASSERT_EQ(j->seqs.size(), seq - 1);
  ASSERT_TRUE(j->hands[0].last_seq);
  EXPECT_EQ(*j->hands[0].last_seq, seq);
  if (!shadow->is_terminal()) {
    ASSERT_EQ(j->hands.size(), 2u);
    EXPECT_EQ(j->hands[1].number, 1);
    EXPECT_EQ(j->hands[1].first_seq, seq + 1);
  }
}

}  // namespace
}  // namespace atout::server::testing
