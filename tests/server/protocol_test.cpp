// Protocol v1 without a socket: request parsing, error codes and fields, and that docs/protocol.md
// and protocol/schema describe every message and code the library knows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "atout/protocol/messages.hpp"
#include "atout/protocol/request_errors.hpp"
#include "atout/protocol/view_delta.hpp"

namespace atout::protocol {
namespace {

std::string read_file(const std::string& relative) {
  std::ifstream in(std::string(ATOUT_SOURCE_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<Request> sample_requests() {
  Act act{"t3", Action::play(Card(Suit::hearts, Rank::jack))};
  CreateTable create{"french", Options{{"target", 701}, {"declarations", false}}, true, TableSettings{}};
  create.settings.turn_ms = 5000;
  create.settings.rated = false;
  create.settings.bot_level = BotLevel::random;
  CreateTable bots{"belot", Options{}, false, TableSettings{}};
  bots.bots = BotFill{BotLevel::sampling, {1, 3}};
  return {Hello{1, std::string("ann"), std::nullopt, {}},
          Hello{1, std::nullopt, std::string(64, 'f'), {}},
          Hello{1, std::nullopt, std::string(64, 'e'), {ResumeAt{"t1", 7}, ResumeAt{"t2", 0}}},
          ListVariants{},
          ListTables{},
          SubscribeLobby{},
          UnsubscribeLobby{},
          create,
          Sit{TableRef{std::string("t1"), std::nullopt}, 2, std::nullopt},
          Sit{TableRef{std::nullopt, std::string("abc")}, std::nullopt, std::nullopt},
          Sit{TableRef{std::string("t1"), std::nullopt}, std::nullopt, 12},
          Spectate{TableRef{std::string("t1"), std::nullopt}, std::nullopt},
          Spectate{TableRef{std::string("t1"), std::nullopt}, 3},
          Chat{std::string("t1"), "bonne chance"},
          Chat{std::nullopt, "hello lobby"},
          Stand{"t1"},
          Leave{"t1"},
          act,
          Act{"t3", Action::announce(CardSet::suit_mask(Suit::spades) & CardSet::rank_mask(Rank::jack))},
          AddBot{"t1", 2, BotLevel::sampling},
          AddBot{"t1", std::nullopt, BotLevel::rules},
          RemoveBot{"t1", 3},
          bots,
          Ping{},
          GetProfile{"p1"},
          GetLeaderboard{"belot", Page{40, 100}},
          GetHistory{"p1", Page{0, 5}},
          GetReplay{"0123456789abcdef"},
          GetAnalysis{"0123456789abcdef", 3}};
}

TEST(Requests, RoundTripThroughJson) {
  std::int64_t n = 0;
  for (const Request& r : sample_requests()) {
    const RequestId id = ++n % 2 ? RequestId{n} : RequestId{"r" + std::to_string(n)};
    const std::string text = to_json(r, id).dump();
    const ParsedRequest p = parse_request(text);
    ASSERT_TRUE(std::holds_alternative<Request>(p.body)) << text << ": " << std::get<Error>(p.body).message;
    const Request& back = std::get<Request>(p.body);
    EXPECT_EQ(p.id, id);
    EXPECT_EQ(type_of(back), type_of(r));
    EXPECT_EQ(to_json(back, id), to_json(r, id)) << text;
  }
}

struct BadCase {
  const char* text;
  ErrorCode code;
  const char* field;  // "" when the error names none
};

TEST(Requests, EachKindOfBadInputHasItsCodeAndField) {
  const BadCase cases[] = {
      {"", ErrorCode::bad_json, ""},
      {"{\"type\":", ErrorCode::bad_json, ""},
      {"[]", ErrorCode::bad_message, ""},
      {"{}", ErrorCode::missing_field, "type"},
      {R"({"type":null})", ErrorCode::invalid_field, "type"},
      {R"({"type":"ping","id":1.5})", ErrorCode::invalid_field, "id"},
      {R"({"type":"ping","id":""})", ErrorCode::invalid_field, "id"},
      {R"({"type":"ping","id":18446744073709551615})", ErrorCode::invalid_field, "id"},
      {R"({"type":"fly"})", ErrorCode::unknown_type, ""},
      {R"({"type":"hello"})", ErrorCode::missing_field, "protocol"},
      {R"({"type":"hello","protocol":3})", ErrorCode::unsupported_version, "protocol"},
      {R"({"type":"hello","protocol":1,"name":""})", ErrorCode::invalid_field, "name"},
      {R"({"type":"create_table","variant":"french","options":{"target":1.5}})", ErrorCode::invalid_field,
       "options.target"},
      {R"({"type":"sit"})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"sit","table_id":"t1","seat":99999999999})", ErrorCode::invalid_field, "seat"},
      {R"({"type":"sit","table_id":"t1","seat":1.0})", ErrorCode::invalid_field, "seat"},
      {R"({"type":"stand"})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"leave","table_id":""})", ErrorCode::invalid_field, "table_id"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid"}})", ErrorCode::missing_field, "action.trump"},
      {R"({"type":"action","table_id":"t1","action":{"type":"announce","cards":["JS","JS"]}})",
       ErrorCode::invalid_field, "action.cards[1]"},
      {R"({"type":"get_profile"})", ErrorCode::missing_field, "player_id"},
      {R"({"type":"get_profile","player_id":7})", ErrorCode::invalid_field, "player_id"},
      {R"({"type":"get_leaderboard"})", ErrorCode::missing_field, "ladder"},
      {R"({"type":"get_leaderboard","ladder":"belot","limit":0})", ErrorCode::invalid_field, "limit"},
      {R"({"type":"get_leaderboard","ladder":"belot","limit":101})", ErrorCode::invalid_field, "limit"},
      {R"({"type":"get_leaderboard","ladder":"belot","offset":-1})", ErrorCode::invalid_field, "offset"},
      {R"({"type":"get_history","player_id":"p1","offset":1000001})", ErrorCode::invalid_field, "offset"},
      {R"({"type":"get_history","player_id":"p1","limit":"10"})", ErrorCode::invalid_field, "limit"},
      {R"({"type":"get_history","player_id":"p1","offset":18446744073709551615})", ErrorCode::invalid_field, "offset"},
      {R"({"type":"get_replay","match_id":""})", ErrorCode::invalid_field, "match_id"},
  };
  for (const BadCase& c : cases) {
    const ParsedRequest p = parse_request(c.text);
    ASSERT_TRUE(std::holds_alternative<Error>(p.body)) << c.text;
    const Error& e = std::get<Error>(p.body);
    EXPECT_EQ(e.code, c.code) << c.text << ": " << e.message;
    EXPECT_EQ(e.field.value_or(""), c.field) << c.text;
    EXPECT_FALSE(e.message.empty());
  }
}

TEST(Requests, UnknownFieldsAreIgnoredForLaterMinorVersions) {
  const ParsedRequest p = parse_request(R"({"type":"ping","id":4,"trace":"x"})");
  EXPECT_TRUE(std::holds_alternative<Request>(p.body));
}

TEST(ErrorCodes, AreStableDistinctDocumentedAndInTheSchema) {
  const std::string doc = read_file("docs/protocol.md");
  const json defs = json::parse(read_file("protocol/schema/defs.json"));
  const json schema_codes = defs["$defs"]["error_code"]["enum"];
  std::set<std::string> seen;
  for (ErrorCode c : all_error_codes()) {
    const std::string s = to_string(c);
    EXPECT_TRUE(seen.insert(s).second) << s;
    EXPECT_NE(doc.find("| `" + s + "` |"), std::string::npos) << s << " is not in the docs' error table";
  }
  EXPECT_EQ(schema_codes.get<std::set<std::string>>(), seen);
  // The engine's refusal codes travel as `reason`; each is documented.
  for (int r = 1;; ++r) {
    const std::string s = to_string(static_cast<Refusal>(r));
    if (s == "unknown") break;
    EXPECT_NE(doc.find("`" + s + "`"), std::string::npos) << "refusal " << s << " is not documented";
  }
}

TEST(Messages, EveryTypeHasASchemaAndADocSection) {
  const std::string doc = read_file("docs/protocol.md");
  std::set<std::string> types;
  for (const Request& r : sample_requests()) types.insert(std::string(type_of(r)));
  const TableSummary summary{"t1", "french", {}, false, TableStatus::waiting, {}, {}, 0, 0};
  for (const json& j : {to_json(Welcome{}),
                        to_json(VariantList{}),
                        to_json(TableList{}),
                        to_json(TableCreated{summary, std::nullopt}),
                        to_json(Seated{}),
                        to_json(Watching{}),
                        to_json(Ok{}),
                        to_json(Accepted{}),
                        to_json(Pong{}),
                        to_json(Error{}),
                        to_json(Event{}),
                        to_json(Delta{}),
                        to_json(TableUpdate{summary}),
                        to_json(LobbyUpdate{summary}),
                        to_json(LobbyRemove{}),
                        to_json(ChatMessage{}),
                        to_json(Goodbye{}),
                        to_json(Profile{}),
                        to_json(Leaderboard{}),
                        to_json(History{}),
                        to_json(Replay{}),
                        to_json(Analysis{})})
    types.insert(j["type"].get<std::string>());
  EXPECT_EQ(types.size(), 42u);
  for (const std::string& t : types) {
    EXPECT_TRUE(std::filesystem::exists(std::string(ATOUT_SOURCE_DIR) + "/protocol/schema/" + t + ".json")) << t;
    EXPECT_NE(doc.find("### `" + t + "`"), std::string::npos) << t << " has no section in docs/protocol.md";
  }
}

// Fair dealing: the hand's result reveals its seed; the commitment travels in `commitment`.
TEST(Messages, EventsRevealAHandsSeedWithItsResultAndCarryTheCommitment) {
  Event e;
  e.table_id = "t1";
  HandResult h;
  h.seed = Seed{1, 2};
  e.hand_result = h;
  e.deal = DealCommitment{"m1", 1, std::string(64, 'a')};
  e.match_result = MatchResult{0, {501, 200}, {h}};
  const json j = to_json(e);
  EXPECT_EQ(j["hand_result"]["seed"], (Seed{1, 2}.hex()));
  EXPECT_EQ(j["commitment"]["hash"], std::string(64, 'a'));
  EXPECT_EQ(j["commitment"]["deal_number"], 1);
  EXPECT_EQ(j["commitment"]["match_id"], "m1");
  EXPECT_FALSE(j.contains("deal"));
  EXPECT_EQ(j["match_result"]["hands"][0]["seed"], (Seed{1, 2}.hex()));
  Event bare;
  EXPECT_FALSE(to_json(bare).contains("commitment"));
}

// The error codes named in a stretch of docs/protocol.md: every `word` in it that is a code.
std::set<std::string> codes_named(std::string_view text) {
  std::set<std::string> known;
  for (ErrorCode c : all_error_codes()) known.insert(to_string(c));
  std::set<std::string> out;
  for (std::size_t at = text.find('`'); at != std::string_view::npos;) {
    const std::size_t end = text.find('`', at + 1);
    if (end == std::string_view::npos) break;
    const std::string word(text.substr(at + 1, end - at - 1));
    if (known.contains(word)) out.insert(word);
    at = text.find('`', end + 1);
  }
  return out;
}

// The paragraph of `section` that starts with `lead`, up to the next blank line; empty if none.
std::string_view paragraph_from(std::string_view section, std::string_view lead) {
  const std::size_t at = section.find(lead);
  if (at == std::string_view::npos) return {};
  const std::size_t end = section.find("\n\n", at);
  return section.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
}

// Each request's section in docs/protocol.md lists exactly the codes request_errors() gives it,
// and the codes any request may get are listed once, under Client requests.
TEST(Messages, EachRequestsDocumentedErrorsAreTheCodesItsHandlerGives) {
  const std::string doc = read_file("docs/protocol.md");
  ASSERT_FALSE(doc.empty());
  for (const RequestErrors& r : request_errors()) {
    SCOPED_TRACE(std::string(r.type));
    const std::size_t start = doc.find("### `" + std::string(r.type) + "`");
    ASSERT_NE(start, std::string::npos);
    const std::size_t next = doc.find("\n#", start + 4);
    const std::string_view section = std::string_view(doc).substr(start, next - start);
    const std::string_view errors = paragraph_from(section, "Errors:");
    std::set<std::string> expected;
    for (ErrorCode c : r.codes) expected.insert(to_string(c));
    if (expected.empty()) {
      EXPECT_TRUE(errors.empty()) << "the section lists errors, but the request has none of its own";
      continue;
    }
    ASSERT_FALSE(errors.empty()) << "the section has no 'Errors:' list";
    EXPECT_EQ(codes_named(errors), expected) << errors;
  }
  const std::string_view general = paragraph_from(doc, "Any request may also be answered with");
  ASSERT_FALSE(general.empty());
  std::set<std::string> any;
  for (ErrorCode c : any_request_errors()) any.insert(to_string(c));
  EXPECT_EQ(codes_named(general), any) << general;
}

}  // namespace
}  // namespace atout::protocol
