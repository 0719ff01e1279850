// The table actor in-process, with recording peers: membership callbacks, sequence numbers, and
// that another seat's announced cards are withheld from everyone else.
#include "atout/server/table.hpp"

#include <gtest/gtest.h>

#include "card_scan.hpp"
#include "recording_peer.hpp"

namespace atout::server::testing {
namespace {

using nlohmann::json;

std::vector<json> parsed(const std::vector<std::shared_ptr<const std::string>>& texts) {
  std::vector<json> out;
  for (const auto& t : texts) out.push_back(json::parse(*t));
  return out;
}

const json* find_type(const std::vector<json>& messages, const std::string& type) {
  for (const json& m : messages)
    if (m["type"] == type) return &m;
  return nullptr;
}

// A two-seat game whose seat 0 may announce its three spades or pass; then seat 1 may pass. No
// variant is needed to check what the table relays of an announcement.
class AnnounceGame : public State {
 public:
  AnnounceGame() {
    record_.variant = "stub";
    hands_ = {CardSet::suit_mask(Suit::spades) &
                  (CardSet::rank_mask(Rank::ace) | CardSet::rank_mask(Rank::king) | CardSet::rank_mask(Rank::queen)),
              CardSet::suit_mask(Suit::clubs) & (CardSet::rank_mask(Rank::seven) | CardSet::rank_mask(Rank::eight))};
  }
  CardSet combination() const { return hands_[0]; }
  using State::apply;
  using State::legal_actions;

  const Record& record() const override { return record_; }
  int players() const override { return 2; }
  Phase phase() const override { return done() ? Phase::match_over : Phase::playing; }
  Seat current_player() const override { return done() ? kNoSeat : static_cast<Seat>(step_); }
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (step_ == 0) out = {Action::announce(hands_[0]), Action::pass()};
    if (step_ == 1) out = {Action::pass()};
  }
  Refusal apply(Seat seat, const Action& action) override {
    if (done()) return Refusal::game_over;
    if (seat != current_player()) return Refusal::not_your_turn;
    const auto legal = legal_actions();
    if (std::find(legal.begin(), legal.end(), action) == legal.end()) return Refusal::not_allowed;
    if (action.type == ActionType::announce) announced_ = true;
    ++step_;
    return Refusal::none;
  }
  bool is_terminal() const override { return done(); }
  Observation observation(Seat seat) const override {
    Observation o;
    o.variant = "stub";
    o.seat = seat;
    o.players = 2;
    o.phase = phase();
    o.current = current_player();
    if (seat != kNoSeat) o.own = hands_[static_cast<std::size_t>(seat)];
    if (seat == current_player()) legal_actions(o.legal);
    if (announced_) o.declarations.push_back(DeclarationView{0, ComboKind::tierce, Rank::ace, 20, false, {}});
    o.visible = o.own;
    return o;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<AnnounceGame>(*this); }
  std::array<int, 2> match_score() const override { return {0, 0}; }
  std::optional<int> winner() const override { return done() ? std::optional<int>(0) : std::nullopt; }
  const std::vector<HandResult>& hand_results() const override { return results_; }
  std::vector<CardSet> hands() const override { return {hands_.begin(), hands_.end()}; }

 private:
  bool done() const { return step_ >= 2; }
  Record record_;
  std::array<CardSet, 2> hands_{};
  std::vector<HandResult> results_;
  int step_ = 0;
  bool announced_ = false;
};

class TableTest : public ::testing::Test {
 protected:
  std::shared_ptr<Table> make(std::unique_ptr<State> s, protocol::TableSettings settings = {}) {
    TableInit init;
    init.id = "t9";
    init.match_id = "m9";
    init.settings = settings;
    init.state = std::move(s);
    return std::make_shared<Table>(ioc_.get_executor(), std::move(init));
  }
  std::shared_ptr<RecordingPeer> peer_for(int i) {
    peers_.push_back(std::make_shared<RecordingPeer>());
    members_.push_back(member_for(peers_.back(), static_cast<std::uint64_t>(i + 1), "p" + std::to_string(i)));
    return peers_.back();
  }
  void run() { ioc_.poll(); }

  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_ = net::make_work_guard(ioc_);
  std::vector<std::shared_ptr<RecordingPeer>> peers_;
  std::vector<Member> members_;
};

TEST_F(TableTest, AnotherSeatsAnnouncedCardsAreWithheld) {
  auto game = std::make_unique<AnnounceGame>();
  const CardSet combo = game->combination();
  auto t = make(std::move(game));
  for (int i = 0; i < 3; ++i) peer_for(i);
  t->sit(members_[0], 0, {});
  t->sit(members_[1], 1, {});
  t->spectate(members_[2], {});
  run();
  for (auto& p : peers_) p->take();

  t->act(members_[0], Action::announce(combo), protocol::RequestId{std::int64_t{1}});
  run();
  const auto own = parsed(peers_[0]->take());
  ASSERT_NE(find_type(own, "accepted"), nullptr);
  const json* mine = find_type(own, "event");
  ASSERT_NE(mine, nullptr);
  EXPECT_EQ((*mine)["last_action"]["action"]["cards"].size(), 3u);
  EXPECT_FALSE((*mine)["last_action"].contains("redacted"));
  for (int r : {1, 2}) {
    const auto texts = peers_[static_cast<std::size_t>(r)]->take();
    ASSERT_FALSE(texts.empty());
    for (const auto& text : texts) EXPECT_TRUE((cards_in(*text) & combo).empty()) << "recipient " << r << ": " << *text;
    const auto messages = parsed(texts);
    const json* ev = find_type(messages, "event");
    ASSERT_NE(ev, nullptr);
    EXPECT_EQ((*ev)["last_action"]["redacted"], true);
    EXPECT_EQ((*ev)["last_action"]["action"], json({{"type", "announce"}}));
    EXPECT_EQ((*ev)["last_action"]["seat"], 0);
  }
}

TEST_F(TableTest, SequenceNumbersCountTheStartAndEachAcceptedAction) {
  auto t = make(std::make_unique<AnnounceGame>());
  peer_for(0);
  peer_for(1);
  t->sit(members_[0], 0, {});
  run();
  EXPECT_EQ(peers_[0]->tables(), std::set<std::string>{"t9"});
  EXPECT_EQ(find_type(parsed(peers_[0]->take()), "event"), nullptr);  // not started with a seat free
  t->sit(members_[1], std::nullopt, {});
  run();
  peers_[0]->take();
  const auto start = parsed(peers_[1]->take());
  EXPECT_EQ((*find_type(start, "seated"))["seat"], 1);
  EXPECT_EQ((*find_type(start, "event"))["seq"], 1);
  EXPECT_EQ((*find_type(start, "event"))["kind"], "start");

  // A refused action changes nothing and costs no sequence number.
  t->act(members_[1], Action::pass(), {});
  run();
  const auto refused = parsed(peers_[1]->take());
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0]["reason"], "not_your_turn");
  EXPECT_TRUE(peers_[0]->take().empty());

  t->act(members_[0], Action::pass(), {});
  run();
  EXPECT_EQ((*find_type(parsed(peers_[0]->take()), "accepted"))["seq"], 2);
  EXPECT_EQ((*find_type(parsed(peers_[1]->take()), "event"))["seq"], 2);

  // The last action ends the match: the event carries the result, and the table says it finished.
  t->act(members_[1], Action::pass(), {});
  run();
  const auto last = parsed(peers_[0]->take());
  const json* ev = find_type(last, "event");
  ASSERT_NE(ev, nullptr);
  EXPECT_EQ((*ev)["seq"], 3);
  EXPECT_EQ((*ev)["match_result"]["winner"], 0);
  EXPECT_EQ((*find_type(last, "table_update"))["table"]["status"], "finished");
}

TEST_F(TableTest, LeavingReportsDepartureAndTheLastMemberClosesTheTable) {
  auto t = make(std::make_unique<AnnounceGame>());
  peer_for(0);
  t->sit(members_[0], 0, {});
  run();
  EXPECT_EQ(peers_[0]->tables().size(), 1u);
  t->leave(members_[0], {});
  run();
  EXPECT_TRUE(peers_[0]->tables().empty());
  EXPECT_EQ((*find_type(parsed(peers_[0]->take()), "ok"))["request"], "leave");
  // Closed: a new sitter is told the table is gone.
  peer_for(1);
  t->sit(members_[1], 0, {});
  run();
  EXPECT_EQ(parsed(peers_[1]->take()).at(0)["code"], "unknown_table");
}

}  // namespace
}  // namespace atout::server::testing
