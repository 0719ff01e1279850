// A `tables` page written from summaries already turned to text (tables_text) must be the very
// bytes of the nlohmann form, and list_tables must survive its own JSON form and refuse bad filters.
#include <gtest/gtest.h>

#include "atout/protocol/messages.hpp"

namespace atout::protocol {
namespace {

TableSummary summary(const std::string& id, TableStatus status, int seated) {
  TableSummary t;
  t.table_id = id;
  t.variant = "duel";
  t.status = status;
  for (int s = 0; s < 2; ++s) {
    SeatInfo seat;
    seat.seat = s;
    if (s < seated) {
      seat.player_id = "p" + std::to_string(s);
      seat.name = "name \"" + std::to_string(s) + "\" \xc3\xa9";
      seat.connected = true;
    }
    t.seats.push_back(seat);
  }
  t.spectators = seated;
  t.seq = static_cast<std::uint64_t>(seated) * 7;
  return t;
}

TEST(TablesText, IsTheBytesOfTheTreeForEveryIdAndPage) {
  const std::vector<TableSummary> tables{summary("t1", TableStatus::waiting, 0), summary("t2", TableStatus::playing, 2),
                                         summary("t9", TableStatus::paused, 1)};
  for (const RequestId& id : {RequestId{}, RequestId{std::int64_t{42}}, RequestId{std::string("a \"b\"")}}) {
    for (std::size_t n = 0; n <= tables.size(); ++n) {
      TableList list;
      list.page = Page{3, 7};
      list.total = 11;
      list.tables.assign(tables.begin(), tables.begin() + static_cast<std::ptrdiff_t>(n));
      std::string items;
      for (const TableSummary& t : list.tables) items += (items.empty() ? "" : ",") + summary_text(t);
      EXPECT_EQ(tables_text(list.page, list.total, items, id), serialize(list, id)) << n;
    }
  }
}

TEST(ListTablesRequest, RoundTripsThroughItsJson) {
  ListTables l;
  l.variant = "duel";
  l.status = TableStatus::paused;
  l.min_free = 2;
  l.page = Page{40, 10};
  const ParsedRequest back = parse_request(to_json(Request{l}, RequestId{std::int64_t{5}}).dump());
  const auto* r = std::get_if<Request>(&back.body);
  ASSERT_NE(r, nullptr);
  const auto* got = std::get_if<ListTables>(r);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->variant, l.variant);
  EXPECT_EQ(got->status, l.status);
  EXPECT_EQ(got->min_free, 2);
  EXPECT_EQ(got->page.offset, 40);
  EXPECT_EQ(got->page.limit, 10);
  // Without filters: every table, the default page.
  const ParsedRequest plain = parse_request(R"({"type":"list_tables"})");
  const auto& p = std::get<ListTables>(std::get<Request>(plain.body));
  EXPECT_FALSE(p.variant);
  EXPECT_FALSE(p.status);
  EXPECT_EQ(p.min_free, 0);
  EXPECT_EQ(p.page.offset, 0);
  EXPECT_EQ(p.page.limit, Page::kDefaultLimit);
}

TEST(ListTablesRequest, BadFiltersNameTheirField) {
  for (const auto& [text, name] :
       std::vector<std::pair<std::string, std::string>>{{R"({"type":"list_tables","status":"open"})", "status"},
                                                        {R"({"type":"list_tables","variant":"nope"})", "variant"},
                                                        {R"({"type":"list_tables","variant":null})", "variant"},
                                                        {R"({"type":"list_tables","min_free":99})", "min_free"},
                                                        {R"({"type":"list_tables","limit":1000})", "limit"},
                                                        {R"({"type":"list_tables","offset":"0"})", "offset"}}) {
    const ParsedRequest r = parse_request(text);
    const auto* e = std::get_if<Error>(&r.body);
    ASSERT_NE(e, nullptr) << text;
    EXPECT_EQ(e->code, ErrorCode::invalid_field) << text;
    EXPECT_EQ(e->field, name) << text;
  }
}

}  // namespace
}  // namespace atout::protocol
