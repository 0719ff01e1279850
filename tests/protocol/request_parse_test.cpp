// Parsing requests at the boundary: an error names the field at fault, nested fields by their
// path (`action.value`, `action.cards[1]`, `options.target`, `resume[0].last_seq`), and every
// code that request_errors() says parsing can give is given by some request.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "atout/protocol/messages.hpp"
#include "atout/protocol/request_errors.hpp"

namespace atout::protocol {
namespace {

struct BadRequest {
  const char* text;
  ErrorCode code;
  const char* field;
};

const std::string kToken(64, 'a');

// Each request with one thing wrong, the code it must get, and the field that error must name.
std::vector<BadRequest> bad_requests() {
  return {
      // hello
      {R"({"type":"hello"})", ErrorCode::missing_field, "protocol"},
      {R"({"type":"hello","protocol":"1"})", ErrorCode::invalid_field, "protocol"},
      {R"({"type":"hello","protocol":2})", ErrorCode::unsupported_version, "protocol"},
      {R"({"type":"hello","protocol":1,"name":"a\u0001"})", ErrorCode::invalid_field, "name"},
      {R"({"type":"hello","protocol":1,"token":"xyz"})", ErrorCode::invalid_field, "token"},
      {R"({"type":"hello","protocol":1,"ack":"never"})", ErrorCode::invalid_field, "ack"},
      {R"({"type":"hello","protocol":1,"views":"deltas"})", ErrorCode::invalid_field, "views"},
      {R"({"type":"hello","protocol":1,"views":true})", ErrorCode::invalid_field, "views"},
      {R"({"type":"hello","protocol":1,"resume":[{"table_id":"t1","last_seq":1}]})", ErrorCode::invalid_field,
       "resume"},
      // create_table
      {R"({"type":"create_table"})", ErrorCode::missing_field, "variant"},
      {R"({"type":"create_table","variant":7})", ErrorCode::invalid_field, "variant"},
      {R"({"type":"create_table","variant":"duel","options":[]})", ErrorCode::invalid_field, "options"},
      {R"({"type":"create_table","variant":"duel","options":{"target":[1]}})", ErrorCode::invalid_field,
       "options.target"},
      {R"({"type":"create_table","variant":"duel","options":{"target":99999999}})", ErrorCode::invalid_field,
       "options.target"},
      {R"({"type":"create_table","variant":"duel","private":"yes"})", ErrorCode::invalid_field, "private"},
      {R"({"type":"create_table","variant":"duel","settings":{"turn_ms":1}})", ErrorCode::invalid_field,
       "settings.turn_ms"},
      {R"({"type":"create_table","variant":"duel","settings":{"colour":1}})", ErrorCode::invalid_field,
       "settings.colour"},
      {R"({"type":"create_table","variant":"duel","settings":{"bot_level":"genius"}})", ErrorCode::unknown_bot_level,
       "settings.bot_level"},
      {R"({"type":"create_table","variant":"duel","settings":{"bot_level":2}})", ErrorCode::invalid_field,
       "settings.bot_level"},
      {R"({"type":"create_table","variant":"duel","bots":true})", ErrorCode::invalid_field, "bots"},
      {R"({"type":"create_table","variant":"duel","bots":{"level":"master"}})", ErrorCode::unknown_bot_level,
       "bots.level"},
      {R"({"type":"create_table","variant":"duel","bots":{"seats":[]}})", ErrorCode::invalid_field, "bots.seats"},
      {R"({"type":"create_table","variant":"duel","bots":{"seats":[1,2,3,0,1,2,3,0,1]}})", ErrorCode::invalid_field,
       "bots.seats"},
      {R"({"type":"create_table","variant":"duel","bots":{"seats":[1,"2"]}})", ErrorCode::invalid_field,
       "bots.seats[1]"},
      {R"({"type":"create_table","variant":"duel","bots":{"seats":[1,1]}})", ErrorCode::invalid_field, "bots.seats[1]"},
      {R"({"type":"create_table","variant":"duel","bots":{"count":3}})", ErrorCode::invalid_field, "bots.count"},
      // add_bot and remove_bot
      {R"({"type":"add_bot"})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"add_bot","table_id":3})", ErrorCode::invalid_field, "table_id"},
      {R"({"type":"add_bot","table_id":"t1","seat":"east"})", ErrorCode::invalid_field, "seat"},
      {R"({"type":"add_bot","table_id":"t1","seat":99999999999})", ErrorCode::invalid_field, "seat"},
      {R"({"type":"add_bot","table_id":"t1","level":"expert"})", ErrorCode::unknown_bot_level, "level"},
      {R"({"type":"add_bot","table_id":"t1","level":["rules"]})", ErrorCode::invalid_field, "level"},
      {R"({"type":"remove_bot","seat":1})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"remove_bot","table_id":"t1"})", ErrorCode::missing_field, "seat"},
      {R"({"type":"remove_bot","table_id":"t1","seat":1.5})", ErrorCode::invalid_field, "seat"},
      {R"({"type":"remove_bot","table_id":[],"seat":1})", ErrorCode::invalid_field, "table_id"},
      // sit and spectate
      {R"({"type":"sit"})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"sit","table_id":5})", ErrorCode::invalid_field, "table_id"},
      {R"({"type":"sit","invite":""})", ErrorCode::invalid_field, "invite"},
      {R"({"type":"sit","table_id":"t1","seat":"north"})", ErrorCode::invalid_field, "seat"},
      {R"({"type":"sit","table_id":"t1","seat":99999999999})", ErrorCode::invalid_field, "seat"},
      {R"({"type":"sit","table_id":"t1","last_seq":-1})", ErrorCode::invalid_field, "last_seq"},
      {R"({"type":"spectate"})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"spectate","table_id":"t1","last_seq":"x"})", ErrorCode::invalid_field, "last_seq"},
      // stand and leave
      {R"({"type":"stand"})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"stand","table_id":[]})", ErrorCode::invalid_field, "table_id"},
      {R"({"type":"leave"})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"leave","table_id":""})", ErrorCode::invalid_field, "table_id"},
      // action, and each field of an action
      {R"({"type":"action","action":{"type":"pass"}})", ErrorCode::missing_field, "table_id"},
      {R"({"type":"action","table_id":"t1"})", ErrorCode::missing_field, "action"},
      {R"({"type":"action","table_id":"t1","action":"pass"})", ErrorCode::invalid_field, "action"},
      {R"({"type":"action","table_id":"t1","action":{}})", ErrorCode::missing_field, "action.type"},
      {R"({"type":"action","table_id":"t1","action":{"type":3}})", ErrorCode::invalid_field, "action.type"},
      {R"({"type":"action","table_id":"t1","action":{"type":"jump"}})", ErrorCode::invalid_field, "action.type"},
      {R"({"type":"action","table_id":"t1","action":{"type":"play"}})", ErrorCode::missing_field, "action.card"},
      {R"({"type":"action","table_id":"t1","action":{"type":"play","card":"1X"}})", ErrorCode::invalid_field,
       "action.card"},
      {R"({"type":"action","table_id":"t1","action":{"type":"play","card":7}})", ErrorCode::invalid_field,
       "action.card"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid","value":90}})", ErrorCode::missing_field,
       "action.trump"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid","trump":"stars","value":90}})",
       ErrorCode::invalid_field, "action.trump"},
      {R"({"type":"action","table_id":"t1","action":{"type":"take","trump":1}})", ErrorCode::invalid_field,
       "action.trump"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid","trump":"hearts","value":20000}})",
       ErrorCode::invalid_field, "action.value"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid","trump":"hearts","value":-5}})",
       ErrorCode::invalid_field, "action.value"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid","trump":"hearts","value":18446744073709551615}})",
       ErrorCode::invalid_field, "action.value"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid","trump":"hearts","value":"90"}})",
       ErrorCode::invalid_field, "action.value"},
      {R"({"type":"action","table_id":"t1","action":{"type":"bid","trump":"hearts","capot":1}})",
       ErrorCode::invalid_field, "action.capot"},
      {R"({"type":"action","table_id":"t1","action":{"type":"announce"}})", ErrorCode::missing_field, "action.cards"},
      {R"({"type":"action","table_id":"t1","action":{"type":"announce","cards":"JS"}})", ErrorCode::invalid_field,
       "action.cards"},
      {R"({"type":"action","table_id":"t1","action":{"type":"show","cards":["JS","ZZ","QS"]}})",
       ErrorCode::invalid_field, "action.cards[1]"},
      {R"({"type":"action","table_id":"t1","action":{"type":"show","cards":["JS","QS","JS"]}})",
       ErrorCode::invalid_field, "action.cards[2]"},
      {R"({"type":"action","table_id":"t1","action":{"type":"take","cards":["AS",4]}})", ErrorCode::invalid_field,
       "action.cards[1]"},
      // chat
      {R"({"type":"chat"})", ErrorCode::missing_field, "text"},
      {R"({"type":"chat","text":""})", ErrorCode::invalid_field, "text"},
      {R"({"type":"chat","text":"a\u0007"})", ErrorCode::invalid_field, "text"},
      {R"({"type":"chat","table_id":1,"text":"hi"})", ErrorCode::invalid_field, "table_id"},
      // the lobby listing
      {R"({"type":"list_tables","variant":"whist"})", ErrorCode::invalid_field, "variant"},
      {R"({"type":"list_tables","status":"over"})", ErrorCode::invalid_field, "status"},
      {R"({"type":"list_tables","min_free":9})", ErrorCode::invalid_field, "min_free"},
      {R"({"type":"list_tables","limit":0})", ErrorCode::invalid_field, "limit"},
      {R"({"type":"list_tables","offset":"2"})", ErrorCode::invalid_field, "offset"},
      {R"({"type":"list_tables","status":"open"})", ErrorCode::invalid_field, "status"},
      // the reads
      {R"({"type":"get_profile"})", ErrorCode::missing_field, "player_id"},
      {R"({"type":"get_profile","player_id":""})", ErrorCode::invalid_field, "player_id"},
      {R"({"type":"get_leaderboard"})", ErrorCode::missing_field, "ladder"},
      {R"({"type":"get_leaderboard","ladder":"duel","limit":0})", ErrorCode::invalid_field, "limit"},
      {R"({"type":"get_leaderboard","ladder":"duel","offset":-1})", ErrorCode::invalid_field, "offset"},
      {R"({"type":"get_history"})", ErrorCode::missing_field, "player_id"},
      {R"({"type":"get_history","player_id":"p1","limit":101})", ErrorCode::invalid_field, "limit"},
      {R"({"type":"get_replay"})", ErrorCode::missing_field, "match_id"},
      {R"({"type":"get_replay","match_id":false})", ErrorCode::invalid_field, "match_id"},
      {R"({"type":"get_analysis","deal_number":0})", ErrorCode::missing_field, "match_id"},
      {R"({"type":"get_analysis","match_id":"m1"})", ErrorCode::missing_field, "deal_number"},
      {R"({"type":"get_analysis","match_id":"m1","deal_number":-1})", ErrorCode::invalid_field, "deal_number"},
      {R"({"type":"get_analysis","match_id":"m1","deal_number":10000})", ErrorCode::invalid_field, "deal_number"},
      {R"({"type":"get_analysis","match_id":"m1","deal_number":"2"})", ErrorCode::invalid_field, "deal_number"},
      {R"({"type":"get_analysis","match_id":"m1","deal_number":1.5})", ErrorCode::invalid_field, "deal_number"},
  };
}

std::string type_in(const char* text) { return json::parse(text)["type"].get<std::string>(); }

TEST(RequestParse, EachErrorNamesTheFieldAtFault) {
  for (const BadRequest& b : bad_requests()) {
    SCOPED_TRACE(b.text);
    const ParsedRequest p = parse_request(b.text);
    const auto* e = std::get_if<Error>(&p.body);
    ASSERT_NE(e, nullptr) << "parsed, but should have been refused";
    EXPECT_EQ(to_string(e->code), to_string(b.code)) << e->message;
    ASSERT_TRUE(e->field.has_value()) << e->message;
    EXPECT_EQ(*e->field, b.field) << e->message;
    EXPECT_FALSE(e->message.empty());
  }
}

// A frame that is not one JSON value is bad_json, and its message points near the fault: past a
// complete value, the first byte after it (not byte 0, as it did for trailing text).
TEST(RequestParse, MalformedJsonSaysNearWhichByte) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"type":"ping","id":64}garbage)", "near byte 24"},
      {R"({"type":"ping",})", "near byte 16"},
      {R"({"type")", "near byte 8"},
  };
  for (const auto& [text, near] : cases) {
    const ParsedRequest p = parse_request(text);
    const auto* e = std::get_if<Error>(&p.body);
    ASSERT_NE(e, nullptr) << text;
    EXPECT_EQ(to_string(e->code), "bad_json") << text;
    EXPECT_NE(e->message.find(near), std::string::npos) << text << ": " << e->message;
  }
}

// The resume list of a hello: each entry's errors name the entry.
TEST(RequestParse, ResumeEntriesAreNamedByTheirPlace) {
  const auto hello = [](const json& resume) {
    return json{{"type", "hello"}, {"protocol", 1}, {"token", kToken}, {"resume", resume}}.dump();
  };
  struct Case {
    json resume;
    ErrorCode code;
    std::string field;
  };
  const std::vector<Case> cases = {
      {json::array({7}), ErrorCode::invalid_field, "resume[0]"},
      {json::array({{{"table_id", "t1"}, {"last_seq", 1}}, {{"last_seq", 2}}}), ErrorCode::missing_field,
       "resume[1].table_id"},
      {json::array({{{"table_id", "t1"}}}), ErrorCode::missing_field, "resume[0].last_seq"},
      {json::array({{{"table_id", "t1"}, {"last_seq", 1}}, {{"table_id", "t2"}, {"last_seq", -3}}}),
       ErrorCode::invalid_field, "resume[1].last_seq"},
      {json::array({{{"table_id", 4}, {"last_seq", 1}}}), ErrorCode::invalid_field, "resume[0].table_id"},
      {json::object(), ErrorCode::invalid_field, "resume"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.resume.dump());
    const ParsedRequest p = parse_request(hello(c.resume));
    const auto* e = std::get_if<Error>(&p.body);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(to_string(e->code), to_string(c.code));
    EXPECT_EQ(e->field.value_or("(none)"), c.field);
  }
  const ParsedRequest good = parse_request(hello(json::array({{{"table_id", "t1"}, {"last_seq", 3}}})));
  ASSERT_TRUE(std::holds_alternative<Request>(good.body));
}

// The same action with nothing wrong parses: the cases above fail for the one fault they hold.
TEST(RequestParse, TheSameActionsWellFormedParse) {
  for (const char* text : {R"({"type":"action","table_id":"t1","action":{"type":"bid","trump":"hearts","value":90}})",
                           R"({"type":"action","table_id":"t1","action":{"type":"show","cards":["JS","QS","KS"]}})",
                           R"({"type":"action","table_id":"t1","action":{"type":"take","cards":["AS"]}})",
                           R"({"type":"create_table","variant":"duel","options":{"target":1001}})",
                           R"({"type":"create_table","variant":"duel","bots":{"level":"sampling","seats":[1]}})",
                           R"({"type":"create_table","variant":"duel","settings":{"bot_level":"random"}})",
                           R"({"type":"add_bot","table_id":"t1","seat":1,"level":"random"})",
                           R"({"type":"remove_bot","table_id":"t1","seat":1})"}) {
    SCOPED_TRACE(text);
    const ParsedRequest p = parse_request(text);
    EXPECT_TRUE(std::holds_alternative<Request>(p.body));
  }
}

// Every code a request's entry in request_errors() lists that parsing alone gives (missing_field,
// invalid_field, unsupported_version) is given to that request by one of the cases above.
TEST(RequestParse, EveryParseCodeOfEveryRequestIsProvoked) {
  std::set<std::pair<std::string, std::string>> provoked;
  for (const BadRequest& b : bad_requests()) provoked.insert({type_in(b.text), to_string(b.code)});
  const std::set<ErrorCode> parse_codes = {ErrorCode::missing_field, ErrorCode::invalid_field,
                                           ErrorCode::unsupported_version};
  std::size_t checked = 0;
  for (const RequestErrors& r : request_errors())
    for (ErrorCode c : r.codes)
      if (parse_codes.contains(c)) {
        EXPECT_TRUE(provoked.contains({std::string(r.type), to_string(c)})) << r.type << " " << to_string(c);
        ++checked;
      }
  EXPECT_GT(checked, 20u);
  // And no case provokes a code its request is not listed with.
  for (const auto& [type, code] : provoked) {
    const auto codes = errors_of(type);
    EXPECT_TRUE(std::any_of(codes.begin(), codes.end(), [&](ErrorCode c) { return to_string(c) == code; }))
        << type << " gave " << code << ", which request_errors() does not list for it";
  }
}

// Each request type parses, and each has an entry in the table.
TEST(RequestParse, EveryRequestTypeHasAnEntry) {
  std::set<std::string> listed;
  for (const RequestErrors& r : request_errors()) EXPECT_TRUE(listed.insert(std::string(r.type)).second) << r.type;
  EXPECT_EQ(listed.size(), std::variant_size_v<Request>);
  for (const std::string& t : listed) {
    const ParsedRequest p = parse_request(json{{"type", t}}.dump());
    if (const auto* e = std::get_if<Error>(&p.body)) {
      EXPECT_NE(to_string(e->code), "unknown_type") << t;
    }
  }
  EXPECT_TRUE(errors_of("no_such_request").empty());
}

// The bot fields parse into their typed values, defaults included.
TEST(RequestParse, BotFieldsParseIntoTheirValues) {
  const ParsedRequest create = parse_request(
      R"({"type":"create_table","variant":"belot","bots":{"seats":[3,1]},"settings":{"bot_level":"random"}})");
  const auto* c = std::get_if<CreateTable>(&std::get<Request>(create.body));
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->bots.has_value());
  EXPECT_EQ(c->bots->level, BotLevel::rules);
  EXPECT_EQ(c->bots->seats, (std::vector<int>{3, 1}));
  EXPECT_EQ(c->settings.bot_level, BotLevel::random);
  const ParsedRequest plain = parse_request(R"({"type":"create_table","variant":"belot"})");
  const auto* p = std::get_if<CreateTable>(&std::get<Request>(plain.body));
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->bots.has_value());
  EXPECT_EQ(p->settings.bot_level, BotLevel::rules);
  const ParsedRequest add = parse_request(R"({"type":"add_bot","table_id":"t4"})");
  const auto* a = std::get_if<AddBot>(&std::get<Request>(add.body));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->table_id, "t4");
  EXPECT_FALSE(a->seat.has_value());
  EXPECT_EQ(a->level, BotLevel::rules);
  // Player ids of bots, and only those.
  EXPECT_EQ(bot_player_id(BotLevel::sampling), "bot:sampling");
  EXPECT_EQ(bot_of_player("bot:random"), BotLevel::random);
  EXPECT_FALSE(bot_of_player("bot:genius").has_value());
  EXPECT_FALSE(bot_of_player("p_rules").has_value());
}

}  // namespace
}  // namespace atout::protocol

namespace atout::protocol {
namespace {

TEST(RequestParse, HelloViewsDefaultToFull) {
  const auto views_of = [](const char* text) {
    const ParsedRequest p = parse_request(text);
    const auto* h = std::get_if<Hello>(&std::get<Request>(p.body));
    EXPECT_NE(h, nullptr) << text;
    return h ? h->views : Views::full;
  };
  EXPECT_EQ(views_of(R"({"type":"hello","protocol":1})"), Views::full);
  EXPECT_EQ(views_of(R"({"type":"hello","protocol":1,"views":"full"})"), Views::full);
  EXPECT_EQ(views_of(R"({"type":"hello","protocol":1,"views":"delta"})"), Views::delta);
  // Written back as it was read, and left out when it is the default.
  Hello h;
  h.views = Views::delta;
  EXPECT_EQ(to_json(Request{h}).at("views"), "delta");
  EXPECT_FALSE(to_json(Request{Hello{}}).contains("views"));
}

}  // namespace
}  // namespace atout::protocol
