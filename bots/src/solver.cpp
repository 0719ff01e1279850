// The double-dummy solver: fail-soft alpha-beta on the declarer's points over bitmask hands, with a
// transposition table at trick boundaries, equivalent cards merged and cheap bounds (docs/solver.md).
#include "atout/bots/solver.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <optional>

#include "run_keys.hpp"
#include "transposition_table.hpp"

namespace atout::bots {

namespace {

using solver_detail::kInf;
using solver_detail::NearTable;
using solver_detail::TranspositionTable;
namespace entry = solver_detail::entry;

constexpr int kNoMove = -1;
// Inside a trick with this many tricks left or fewer, the search is plain (Impl::search_plain).
constexpr int kPlainTricks = 3;
// The boundaries with this many tricks left or fewer go in the near table (NearTable).
constexpr int kNearTricks = 3;
// Trick flags: which sides have taken a trick so far (they decide whether a capot is still open).
constexpr int kDeclarerTook = 1;
constexpr int kDefenceTook = 2;

// The number of cards in a suit's byte.
constexpr std::array<std::uint8_t, 256> kBitCount = [] {
  std::array<std::uint8_t, 256> out{};
  for (int b = 0; b < 256; ++b)
    out[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(std::popcount(static_cast<unsigned>(b)));
  return out;
}();
constexpr std::uint32_t suit_bits(int suit) { return 0xFFu << (suit * 8); }
// The internal indices strictly above `c` (within a suit, above means stronger).
constexpr std::uint32_t above(int c) { return c >= 31 ? 0u : ~0u << (c + 1); }

// The part of the state that a move changes besides the hands; saved and restored around a move.
struct TrickState {
  int count = 0;
  int leader = 0;
  int led = 0;       // suit led
  int best = 0;      // internal index of the card holding the trick
  int best_pos = 0;  // its position in the trick
  int pts = 0;       // points on the table
  int current = 0;
  int tricks_left = 0;
  int flags = 0;
  int remaining = 0;  // points still in the hands
};

}  // namespace

struct Solver::Impl {
  SolverOptions opt;
  std::optional<TranspositionTable> table;  // none when opt.use_table is false
  std::optional<NearTable> near;            // none when either is off: then the table has every boundary
  std::uint64_t nodes = 0;
  // Killer moves: the card that last cut the search off at a lead with the same tricks left and
  // seat, and at the third card of a trick with the same tricks left, seat and suit led. Cuts
  // repeat across sibling positions, so each is tried first there (measured: about 30 % fewer
  // nodes; killers at the second and fourth cards cost nodes and are not kept).
  std::array<std::array<std::int8_t, 4>, 16> lead_killer{};
  std::array<std::array<std::int8_t, 16>, 16> third_killer{};
  // A solve with a deadline: the clock is read at the first node and every 1,024 after; once past
  // it, every search returns at once and nothing more is stored in the table.
  bool timed = false;
  bool stopped = false;
  std::chrono::steady_clock::time_point deadline;

  // The rules of the position, in internal indices (suit * 8 + strength under the contract).
  int players = 4;
  int declarer = 0;
  std::uint32_t trump_mask = 0;  // the trump suit's cards in a suit contract
  int beat_suits = 0;            // suits in which a player following suit must beat the best card
  bool suit_mode = true;
  bool partner_frees = true;
  bool undertrump_forced = true;
  std::array<int, kCards> pts{};
  std::array<std::uint8_t, kCards> to_engine{};
  int last = 10;
  int capot_adjust = 0;  // what a declarer's capot adds to the future value
  int trump_shift = 0;   // the trump suit's first internal index (suit contracts)
  // Within every suit a stronger card is worth at least as much (true of every variant's table;
  // checked on loading), so a hand's cheapest cards of a suit are its lowest.
  bool points_rise_with_strength = true;
  bool tables_ready = false;  // suit_points and points_rise_with_strength are those of `pts`
  std::array<std::array<std::int16_t, 256>, 4> suit_points{};  // points of a set of a suit's cards, by its byte

  solver_detail::RunKeys run_keys;  // the cards left as the table keys them

  std::array<std::uint32_t, 4> hand{};
  TrickState ts;

  explicit Impl(SolverOptions o) : opt(o) {
    if (opt.use_table) table.emplace(opt.table_bits);
    if (opt.use_table && opt.near_table_bits > 0) near.emplace(opt.near_table_bits);
  }

  int team(int seat) const { return seat & 1; }
  // (a + b) % players for seats a and b; players is 2 or 4, so a mask does it (this is on every
  // node's path).
  int seat_after(int a, int b) const { return (a + b) & (players - 1); }

  bool beats(int c, int best) const {
    if ((c >> 3) == (best >> 3)) return c > best;
    return (trump_mask >> c) & 1u;
  }

  std::uint32_t legal(int seat) const {
    return legal_in(hand[static_cast<std::size_t>(seat)], ts.count, ts.led, ts.best, ts.best_pos);
  }
  // The legal cards of hand `h` as the card at position `count` of a trick whose suit led is `led`
  // and whose best card so far, `best`, was played at position `best_pos`.
  std::uint32_t legal_in(std::uint32_t h, int count, int led, int best, int best_pos) const {
    if (count == 0) return h;
    const std::uint32_t follow = h & suit_bits(led);
    if (follow) {
      if (((beat_suits >> led) & 1) && (best >> 3) == led) {
        const std::uint32_t over = follow & above(best);
        if (over) return over;
      }
      return follow;
    }
    if (!suit_mode) return h;
    const std::uint32_t trumps = h & trump_mask;
    if (!trumps) return h;
    const bool partner_winning = players == 4 && ((count - best_pos) & 1) == 0;
    if (partner_winning && partner_frees) return h;
    if (!((trump_mask >> best) & 1u)) return trumps;
    const std::uint32_t over = trumps & above(best);
    if (over) return over;
    return undertrump_forced ? trumps : h;
  }

  // The cards that can still decide a trick: those in the hands and, inside a trick, the card holding
  // it. The trick's other cards are beaten, and nothing is compared with them again.
  std::uint32_t live_cards() const {
    const std::uint32_t in_hands = hand[0] | hand[1] | hand[2] | hand[3];
    return ts.count > 0 ? in_hands | (1u << ts.best) : in_hands;
  }

  // Keeps one card of each run of equivalent cards: cards of one hand, adjacent among the live cards
  // (live_cards) and worth the same points. The top of a run stays.
  std::uint32_t merge(std::uint32_t moves, int seat) const {
    if (!opt.merge_equivalent) return moves;
    const std::uint32_t h = hand[static_cast<std::size_t>(seat)];
    const std::uint32_t live = live_cards();
    std::uint32_t out = moves;
    for (std::uint32_t m = moves; m; m &= m - 1) {
      const int c = std::countr_zero(m);
      const std::uint32_t up = live & suit_bits(c >> 3) & above(c);
      if (!up) continue;
      const int next = std::countr_zero(up);
      if (((h >> next) & 1u) && pts[static_cast<std::size_t>(next)] == pts[static_cast<std::size_t>(c)])
        out &= ~(1u << c);
    }
    return out;
  }

  // Plays internal card `c`; returns the declarer's points gained (a completed trick, the last
  // trick, the capot adjustments) and sets `terminal` when the deal is over.
  int play(int c, bool& terminal) {
    const int seat = ts.current;
    hand[static_cast<std::size_t>(seat)] &= ~(1u << c);
    const int p = pts[static_cast<std::size_t>(c)];
    ts.remaining -= p;
    if (ts.count == 0) {
      ts.leader = seat;
      ts.led = c >> 3;
      ts.best = c;
      ts.best_pos = 0;
    } else if (beats(c, ts.best)) {
      ts.best = c;
      ts.best_pos = ts.count;
    }
    ts.pts += p;
    ++ts.count;
    terminal = false;
    if (ts.count < players) {
      ts.current = seat + 1 == players ? 0 : seat + 1;
      return 0;
    }
    const int winner = seat_after(ts.leader, ts.best_pos);
    const bool decl = team(winner) == declarer;
    int gained = decl ? ts.pts : 0;
    ts.flags |= decl ? kDeclarerTook : kDefenceTook;
    --ts.tricks_left;
    ts.count = 0;
    ts.pts = 0;
    ts.current = winner;
    if (ts.tricks_left == 0) {
      terminal = true;
      if (decl) gained += last;
      if (!(ts.flags & kDefenceTook)) gained += capot_adjust;
      // A capot by the defence: the declarer scores 0 either way, and the defence prefers it.
      if (!(ts.flags & kDeclarerTook)) gained -= 1;
    }
    return gained;
  }

  // Plays the last trick out (one card in each hand still to play) and restores the state.
  int play_out() {
    const TrickState saved = ts;
    const std::array<std::uint32_t, 4> saved_hands = hand;
    bool terminal = false;
    int gained = 0;
    while (!terminal) gained += play(std::countr_zero(hand[static_cast<std::size_t>(ts.current)]), terminal);
    ts = saved;
    hand = saved_hands;
    return gained;
  }

  // What move ordering needs of the node, computed once for all its moves.
  struct OrderContext {
    std::uint32_t live_other = 0;  // live cards in the other hands
    bool last_to_play = false;
    bool partner_holds = false;  // a partner holds the trick
    bool partner_safe = false;   // ... with a card nobody still to play can beat
  };
  OrderContext order_context(int seat) const {
    OrderContext o;
    o.live_other = (hand[0] | hand[1] | hand[2] | hand[3]) & ~hand[static_cast<std::size_t>(seat)];
    if (ts.count == 0) return o;
    o.last_to_play = ts.count == players - 1;
    o.partner_holds = players == 4 && team(seat_after(ts.leader, ts.best_pos)) == team(seat);
    o.partner_safe = o.last_to_play || !(o.live_other & suit_bits(ts.best >> 3) & above(ts.best));
    return o;
  }

  // Leading: a master card (no live card above it in other hands) first, most points first; then
  // low cards. Leads that usually work better come earlier: a low card to a partner who holds the
  // suit's master, or who can trump it; a trump by the declarer's side. Later: a plain card that
  // an opponent can trump, and a master nobody else can follow (it stays sure for later).
  int lead_score(int c, const OrderContext& o) const {
    const int p = pts[static_cast<std::size_t>(c)];
    const int seat = ts.current;
    const std::uint32_t suit = suit_bits(c >> 3);
    const std::uint32_t others = o.live_other & suit;
    const bool master = !(others & above(c));
    const bool trump = (trump_mask >> c) & 1u;
    int score = master ? 200 + p + (trump ? 50 : 0) : 100 - p - (c & 7);
    if (master && !others) score -= 60;
    if (trump && team(seat) == declarer) score += 40;
    const std::uint32_t next = hand[static_cast<std::size_t>(seat_after(seat, 1))];
    const auto can_trump = [&](std::uint32_t h) { return !(h & suit) && (h & trump_mask); };
    if (players == 4) {
      const std::uint32_t partner = hand[static_cast<std::size_t>(seat_after(seat, 2))];
      const std::uint32_t last_hand = hand[static_cast<std::size_t>(seat_after(seat, 3))];
      if (!master && ((partner >> (31 - std::countl_zero(others))) & 1u)) score += 120;
      if (suit_mode && !trump) {
        if (can_trump(next) || can_trump(last_hand)) score -= 150;
        if (!master && can_trump(partner)) score += 60;
      }
    } else if (suit_mode && !trump && can_trump(next)) {
      score -= 80;
    }
    return score;
  }

  // Move ordering: a higher score is tried first.
  int order_score(int c, const OrderContext& o) const {
    const int p = pts[static_cast<std::size_t>(c)];
    if (ts.count == 0) return lead_score(c, o);
    if (beats(c, ts.best)) {
      // Taking the trick: with a card nobody still to play can beat, the best.
      const bool safe = o.last_to_play || !(o.live_other & suit_bits(c >> 3) & above(c));
      return (safe ? 300 : 150) + p + (safe ? 0 : (c & 7));
    }
    if (o.partner_holds) return o.partner_safe ? 250 + p : 100 - p;
    return 100 - p - (c & 7);
  }

  // Bounds on the future value at a trick boundary: the points still out (with the capot still
  // open or not) and the leader's quick tricks, the masters it can cash one after the other.
  struct Bounds {
    int lo = 0;
    int hi = 0;
    bool capot_open = false;          // the declarer's side may still take every trick
    bool defence_capot_open = false;  // the defence may still take every trick
  };
  Bounds bounds() const {
    const int base = ts.remaining + ts.pts + last;
    bool capot_open = !(ts.flags & kDefenceTook);
    bool defence_capot_open = !(ts.flags & kDeclarerTook);
    const std::uint32_t all = hand[0] | hand[1] | hand[2] | hand[3];
    // In a suit contract, the trumps above every trump of the other side win a trick each time one
    // is played (only a higher trump beats a trump), so that side takes at least their points and
    // at least one trick. Valid at a trick boundary only: mid-trick, the table may hold a higher one.
    int declarer_sure = 0, defence_sure = 0;
    if (suit_mode && ts.count == 0) {
      const std::uint32_t trumps = all & trump_mask;
      if (trumps) {
        const int top = 31 - std::countl_zero(trumps);
        int holder = 0;
        while (!((hand[static_cast<std::size_t>(holder)] >> top) & 1u)) ++holder;
        const int side = team(holder);
        const std::uint32_t side_cards =
            players == 4 ? hand[static_cast<std::size_t>(side)] | hand[static_cast<std::size_t>(side + 2)]
                         : hand[static_cast<std::size_t>(holder)];
        const std::uint32_t theirs = trumps & ~side_cards;
        const std::uint32_t run = theirs ? trumps & above(31 - std::countl_zero(theirs)) : trumps;
        const int sure = suit_points[static_cast<std::size_t>(trump_shift >> 3)][(run >> trump_shift) & 0xFFu];
        if (side == declarer) {
          declarer_sure = sure;
          defence_capot_open = false;
        } else {
          defence_sure = sure;
          capot_open = false;
        }
      }
    }
    Bounds b;
    b.hi = (capot_open ? std::max(base, base + capot_adjust) : base) - defence_sure;
    b.lo = defence_capot_open ? -1 : declarer_sure;
    if (capot_open) b.lo = std::min(b.lo, base + capot_adjust);
    b.capot_open = capot_open;
    b.defence_capot_open = defence_capot_open;
    return b;
  }

  // Tightens `b` (from bounds()) by the leader's quick tricks, the masters it can cash one after the
  // other. Kept apart from bounds() because it costs more: it runs only when they did not settle
  // the search.
  void add_quick_tricks(Bounds& b) const {
    const bool capot_open = b.capot_open;
    const bool defence_capot_open = b.defence_capot_open;
    // Quick tricks need the leader to keep the lead: a partner forced to trump the leader's master
    // would take it over.
    if (ts.count != 0 || (capot_open && capot_adjust < 0) || (players == 4 && !partner_frees)) return;
    const int base = ts.remaining + ts.pts + last;
    const std::uint32_t all = hand[0] | hand[1] | hand[2] | hand[3];
    const int leader = ts.current;
    const std::uint32_t mine = hand[static_cast<std::size_t>(leader)];
    int quick = 0, sure = 0;
    for (int suit = 0; suit < 4; ++suit) {
      const int shift = suit * 8;
      const std::uint32_t own = (mine >> shift) & 0xFFu;
      if (!own) continue;
      // The leader's masters: its cards above every other live card of the suit.
      const std::uint32_t theirs = ((all >> shift) & 0xFFu) & ~own;
      std::uint32_t run = theirs ? own & ~((2u << (31 - std::countl_zero(theirs))) - 1) : own;
      if (!run) continue;
      int k = kBitCount[run];
      // Length: once the masters have been cashed as many times as any other hand holds cards of
      // the suit, the others are out of it, and the leader's low cards there win too (in a plain suit
      // of a suit contract, only as far as the trumping limit below allows).
      if (opt.length_tricks && k < kBitCount[own]) {
        int longest = 0;
        for (int o = 1; o < players; ++o)
          longest = std::max(
              longest,
              static_cast<int>(kBitCount[(hand[static_cast<std::size_t>(seat_after(leader, o))] >> shift) & 0xFFu]));
        if (k >= longest) {
          run = own;
          k = kBitCount[own];
        }
      }
      if (suit_mode && shift != trump_shift) {
        // A plain master wins only while no opponent with a trump is void: only the top `len`
        // masters are sure, `len` being the shortest such opponent's length in the suit.
        for (int o = 1; o < players; o += 2) {
          const std::uint32_t h = hand[static_cast<std::size_t>(seat_after(leader, o))];
          if (!(h & trump_mask)) continue;
          const int len = kBitCount[(h >> shift) & 0xFFu];
          for (; k > len; --k) run &= run - 1;
        }
        if (k == 0) continue;
      }
      int p = suit_points[static_cast<std::size_t>(suit)][run];
      if (points_rise_with_strength) {
        // The other seats must follow to the masters while they can: each gives at least its
        // cheapest cards of the suit, one a round, and they fall to the leader's side too.
        for (int o = 1; o < players; ++o) {
          std::uint32_t h = (hand[static_cast<std::size_t>(seat_after(leader, o))] >> shift) & 0xFFu;
          if (kBitCount[h] <= k) {
            p += suit_points[static_cast<std::size_t>(suit)][h];
          } else {
            for (int j = 0; j < k; ++j, h &= h - 1) p += pts[static_cast<std::size_t>(shift + std::countr_zero(h))];
          }
        }
      }
      quick += k;
      sure += p;
    }
    if (quick == 0) return;
    if (team(leader) == declarer) {
      if (quick >= ts.tricks_left) {
        b.lo = b.hi = capot_open ? base + capot_adjust : base;
      } else {
        b.lo = std::max(b.lo, sure);
        if (defence_capot_open) b.lo = std::max(b.lo, 0);
      }
    } else {
      if (quick >= ts.tricks_left) {
        b.lo = b.hi = defence_capot_open ? -1 : 0;
      } else {
        b.hi = std::min(b.hi, base - sure);
        if (capot_open) b.lo = std::min(defence_capot_open ? -1 : 0, b.lo);
        b.lo = std::min(b.lo, b.hi);
      }
    }
  }

  // The value of the seat to play playing `c`, searched within (alpha, beta); the state is restored.
  int value_after(int c, int alpha, int beta) {
    const int seat = ts.current;
    const TrickState saved = ts;
    bool terminal = false;
    const int gained = play(c, terminal);
    const int v = terminal ? gained : gained + search(alpha - gained, beta - gained);
    ts = saved;
    hand[static_cast<std::size_t>(seat)] |= 1u << c;
    return v;
  }

  // The last two tricks from their boundary, without moving the state: each seat holds two cards,
  // the first trick is searched (every legal card, in index order) and the second is forced. The
  // same value as search() there for less work: no state saved and restored, no ordering, no
  // bounds (measured with the table first: about 7 % less time a solve).
  struct LastTwo {
    int leader = 0;
    std::array<std::uint32_t, 4> played{};  // the card each seat played to the first trick
  };
  int last_two(int alpha, int beta) {
    LastTwo t;
    t.leader = ts.current;
    return last_two_card(t, 0, 0, 0, 0, 0, alpha, beta);
  }
  int last_two_card(LastTwo& t, int pos, int led, int best, int best_pos, int points, int alpha, int beta) {
    if (pos == players) return last_two_end(t, best_pos, points);
    const int seat = seat_after(t.leader, pos);
    const bool maximise = team(seat) == declarer;
    int value = maximise ? -kInf : kInf;
    for (std::uint32_t m = legal_in(hand[static_cast<std::size_t>(seat)], pos, led, best, best_pos); m; m &= m - 1) {
      const int c = std::countr_zero(m);
      const bool takes = pos == 0 || beats(c, best);
      t.played[static_cast<std::size_t>(seat)] = 1u << c;
      const int v = last_two_card(t, pos + 1, pos == 0 ? c >> 3 : led, takes ? c : best, takes ? pos : best_pos,
                                  points + pts[static_cast<std::size_t>(c)], alpha, beta);
      if (maximise) {
        value = std::max(value, v);
        alpha = std::max(alpha, value);
      } else {
        value = std::min(value, v);
        beta = std::min(beta, value);
      }
      if (alpha >= beta) break;
    }
    return value;
  }
  // The first trick complete: its points, then the second trick's (every card forced), the last
  // trick's bonus and the capot adjustments, as play() counts them.
  int last_two_end(const LastTwo& t, int best_pos, int points) const {
    const int winner = seat_after(t.leader, best_pos);
    int flags = ts.flags;
    int value = 0;
    if (team(winner) == declarer) {
      value += points;
      flags |= kDeclarerTook;
    } else {
      flags |= kDefenceTook;
    }
    int best = std::countr_zero(hand[static_cast<std::size_t>(winner)] & ~t.played[static_cast<std::size_t>(winner)]);
    int second_winner = winner;
    int second_points = pts[static_cast<std::size_t>(best)];
    for (int o = 1; o < players; ++o) {
      const int seat = seat_after(winner, o);
      const int c = std::countr_zero(hand[static_cast<std::size_t>(seat)] & ~t.played[static_cast<std::size_t>(seat)]);
      second_points += pts[static_cast<std::size_t>(c)];
      if (beats(c, best)) {
        best = c;
        second_winner = seat;
      }
    }
    if (team(second_winner) == declarer) {
      value += second_points + last;
      flags |= kDeclarerTook;
    } else {
      flags |= kDefenceTook;
    }
    if (!(flags & kDefenceTook)) value += capot_adjust;
    if (!(flags & kDeclarerTook)) value -= 1;
    return value;
  }

  // The value of card `c`, not the first one searched, in the window (alpha, beta). With
  // principal-variation search, a zero window first asks only whether it beats the best card so far
  // (the window's near bound); most do not, and that costs far less than a full window. One that
  // does is searched again in the window left above (or below) the bound that test proved.
  int value_of_later(int c, int alpha, int beta, bool maximise) {
    return later_value([&](int a, int b) { return value_after(c, a, b); }, alpha, beta, maximise);
  }
  // The same for a card whose value in a window is `value_in(a, b)`.
  template <class ValueIn>
  int later_value(const ValueIn& value_in, int alpha, int beta, bool maximise) {
    if (!opt.pvs || beta - alpha <= 1) return value_in(alpha, beta);
    if (maximise) {
      const int v = value_in(alpha, alpha + 1);
      return v > alpha && v < beta ? value_in(v - 1, beta) : v;
    }
    const int v = value_in(beta - 1, beta);
    return v < beta && v > alpha ? value_in(alpha, v + 1) : v;
  }

  // Counts a node of either search; true once a timed solve is past its deadline (the clock is read
  // at the first node and every 1,024 after, whichever search visits it).
  bool count_node() {
    ++nodes;
    if (timed && (nodes & 0x3FF) == 1 && std::chrono::steady_clock::now() >= deadline) stopped = true;
    return stopped;
  }

  // A node inside a trick with few tricks left (kPlainTricks or fewer): every legal card in the
  // order of its index, with no merging, ordering or killer moves, which cost more there than the
  // nodes they save (measured: about 10 % less time a solve). The trick's cards are searched on local
  // copies of its state, each card only taken from its hand and put back (measured: about 3 % fewer
  // instructions a solve than playing each through play() and restoring the state); at the trick's
  // end the next trick boundary is searched as usual, with its bounds and its table.
  int search_plain(int alpha, int beta) {
    if (ts.tricks_left == 1) {
      if (count_node()) return alpha;
      return play_out();
    }
    return plain_card(ts.count, ts.current, ts.led, ts.best, ts.best_pos, ts.pts, alpha, beta);
  }
  // Card `pos` of the trick, by `seat`; `points` are the trick's so far. A plain search starts only
  // inside a trick (search() leads every trick itself), so `pos` is at least 1 and a card beats
  // the trick only by beating `best`.
  int plain_card(int pos, int seat, int led, int best, int best_pos, int points, int alpha, int beta) {
    if (count_node()) return alpha;
    const bool maximise = team(seat) == declarer;
    const std::size_t s = static_cast<std::size_t>(seat);
    const int next = seat + 1 == players ? 0 : seat + 1;
    const bool closes = pos + 1 == players;
    const auto child = [&](int c, int a, int b) {
      hand[s] &= ~(1u << c);
      const bool takes = beats(c, best);
      const int p = points + pts[static_cast<std::size_t>(c)];
      const int b_card = takes ? c : best;
      const int b_pos = takes ? pos : best_pos;
      const int v = closes ? plain_trick_end(b_pos, p, a, b) : plain_card(pos + 1, next, led, b_card, b_pos, p, a, b);
      hand[s] |= 1u << c;
      return v;
    };
    int value = maximise ? -kInf : kInf;
    bool searched_one = false;
    for (std::uint32_t m = legal_in(hand[s], pos, led, best, best_pos); m; m &= m - 1) {
      const int c = std::countr_zero(m);
      const auto value_in = [&](int a, int b) { return child(c, a, b); };
      const int v = searched_one ? later_value(value_in, alpha, beta, maximise) : value_in(alpha, beta);
      searched_one = true;
      if (maximise) {
        value = std::max(value, v);
        alpha = std::max(alpha, value);
      } else {
        value = std::min(value, v);
        beta = std::min(beta, value);
      }
      if (alpha >= beta) break;
    }
    return value;
  }
  // The trick complete (its cards already out of the hands): the next boundary searched from the
  // state play() would leave, and the state put back.
  int plain_trick_end(int best_pos, int points, int alpha, int beta) {
    const TrickState saved = ts;
    const int winner = seat_after(ts.leader, best_pos);
    const bool decl = team(winner) == declarer;
    const int gained = decl ? points : 0;
    ts.remaining -= points - ts.pts;
    ts.flags |= decl ? kDeclarerTook : kDefenceTook;
    --ts.tricks_left;
    ts.count = 0;
    ts.pts = 0;
    ts.current = winner;
    const int v = gained + search(alpha - gained, beta - gained);
    ts = saved;
    return v;
  }

  int search(int alpha, int beta) {
    if (ts.count > 0 && ts.tricks_left <= kPlainTricks) return search_plain(alpha, beta);
    if (count_node()) return alpha;
    // The last trick: every card left is forced.
    if (ts.tricks_left == 1) return play_out();
    const int seat = ts.current;
    entry::Key k = 0;
    std::size_t slot = 0;  // the bucket of the table, or the slot of the near table
    int tt_move = kNoMove;
    const bool boundary = ts.count == 0;
    const bool tabled = boundary && opt.use_table;
    const bool in_near = tabled && near && ts.tricks_left <= kNearTricks;
    // The table first, then the bounds: the table settles more positions, and the bounds, the costlier
    // of the two (the quick tricks above all), are then not worked out for them (measured: about 5 %
    // less time a solve).
    if (tabled) {
      k = entry::key(run_keys.of(hand[0] | hand[1] | hand[2] | hand[3]), ts.current, ts.flags);
      const entry::Entry* e = nullptr;
      if (in_near) {
        slot = near->slot_of(k);
        e = near->find(slot, k);
      } else {
        slot = table->bucket_of(k);
        e = table->find(slot, k);
      }
      if (e) {
        const int lower = entry::lower(*e), upper = entry::upper(*e);
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower == upper) return lower;
        alpha = std::max(alpha, lower);
        beta = std::min(beta, upper);
        tt_move = entry::move(*e);
      }
    }
    // Stores what the search of this boundary found, in its table.
    const auto remember = [&](int v, int a0, int b0, int move) {
      if (!tabled || stopped) return;
      if (in_near) {
        near->store(slot, k, v, a0, b0, move);
      } else {
        table->store(slot, k, v, a0, b0, move, std::min(ts.tricks_left - 1, 7));
      }
    };
    // Two tricks left, at a trick boundary (inside a trick this late, search_plain has the node):
    // last_two() costs less than the bounds would.
    if (ts.tricks_left == 2 && opt.last_two) {
      const int v = last_two(alpha, beta);
      remember(v, alpha, beta, std::countr_zero(hand[static_cast<std::size_t>(seat)]));
      return v;
    }
    if (boundary && opt.bounds) {
      Bounds b = bounds();
      if (b.lo >= beta) return b.lo;
      if (b.hi <= alpha) return b.hi;
      add_quick_tricks(b);
      if (b.lo >= beta) return b.lo;
      if (b.hi <= alpha) return b.hi;
    }
    const std::uint32_t moves = merge(legal(seat), seat);
    std::int8_t* killer_slot = nullptr;
    if (boundary) {
      killer_slot = &lead_killer[static_cast<std::size_t>(ts.tricks_left)][static_cast<std::size_t>(seat)];
    } else if (ts.count == 2) {
      killer_slot =
          &third_killer[static_cast<std::size_t>(ts.tricks_left)][static_cast<std::size_t>(seat * 4 + ts.led)];
    }
    const int killer = killer_slot ? *killer_slot : kNoMove;
    const bool maximise = team(seat) == declarer;
    const int a0 = alpha, b0 = beta;
    int best = maximise ? -kInf : kInf;
    int best_move = kNoMove;
    bool searched_one = false;
    // Searches card `c`; true when it cuts the search off.
    const auto try_card = [&](int c) {
      const int v = searched_one ? value_of_later(c, alpha, beta, maximise) : value_after(c, alpha, beta);
      searched_one = true;
      if (maximise) {
        if (v > best) {
          best = v;
          best_move = c;
        }
        alpha = std::max(alpha, best);
      } else {
        if (v < best) {
          best = v;
          best_move = c;
        }
        beta = std::min(beta, best);
      }
      if (alpha < beta) return false;
      if (killer_slot) *killer_slot = static_cast<std::int8_t>(c);
      return true;
    };
    // The first card to try: the killer, else the table's lead, else (a single card) the only one.
    // Most cuts come from it, and then the other cards are never ordered.
    int first = kNoMove;
    if (killer != kNoMove && ((moves >> killer) & 1u)) {
      first = killer;
    } else if (tt_move != kNoMove && ((moves >> tt_move) & 1u)) {
      first = tt_move;
    } else if ((moves & (moves - 1)) == 0) {
      first = std::countr_zero(moves);
    }
    bool cut = first != kNoMove && try_card(first);
    const std::uint32_t rest = first == kNoMove ? moves : moves & ~(1u << first);
    if (!cut && rest) {
      std::array<std::uint8_t, 16> list{};
      std::array<int, 16> score{};
      int n = 0;
      const OrderContext oc = order_context(seat);
      for (std::uint32_t m = rest; m; m &= m - 1) {
        const int c = std::countr_zero(m);
        const int s = c == tt_move ? 1000 : order_score(c, oc);
        int i = n++;
        while (i > 0 && score[static_cast<std::size_t>(i - 1)] < s) {
          score[static_cast<std::size_t>(i)] = score[static_cast<std::size_t>(i - 1)];
          list[static_cast<std::size_t>(i)] = list[static_cast<std::size_t>(i - 1)];
          --i;
        }
        score[static_cast<std::size_t>(i)] = s;
        list[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c);
      }
      for (int i = 0; i < n && !try_card(list[static_cast<std::size_t>(i)]); ++i) {
      }
    }
    // With no best lead (every lead failed), a card that is not the leader's stands for none.
    remember(best, a0, b0, best_move == kNoMove ? std::countr_zero(~hand[static_cast<std::size_t>(seat)]) : best_move);
    return best;
  }

  // Loads `p` into the internal state; returns the declarer's points already won.
  int load(const Position& p) {
    players = p.rules.players;
    declarer = p.declarer_team;
    suit_mode = p.trump.mode == Mode::suit;
    partner_frees = p.rules.partner_master_frees;
    undertrump_forced = p.rules.undertrump == Undertrump::forced;
    trump_mask = suit_mode ? suit_bits(static_cast<int>(p.trump.suit)) : 0u;
    trump_shift = suit_mode ? static_cast<int>(p.trump.suit) * 8 : 0;
    beat_suits = 0;
    if (suit_mode) beat_suits = 1 << static_cast<int>(p.trump.suit);
    if (p.trump.mode == Mode::all_trumps && p.rules.all_trumps_must_beat) beat_suits = 0xF;
    std::array<int, kCards> to_internal{};
    const std::array<int, kCards> previous_pts = pts;
    for (int i = 0; i < kCards; ++i) {
      const Card c = Card::from_index(i);
      const int internal = static_cast<int>(c.suit()) * 8 + strength(p.trump, c);
      to_internal[static_cast<std::size_t>(i)] = internal;
      to_engine[static_cast<std::size_t>(internal)] = static_cast<std::uint8_t>(i);
      pts[static_cast<std::size_t>(internal)] = p.value.points[static_cast<std::size_t>(i)];
    }
    // The tables that follow from the points, again only when they changed: the sampling bot solves
    // world after world of one contract, many of them in a few microseconds.
    if (!tables_ready || pts != previous_pts) {
      tables_ready = true;
      points_rise_with_strength = true;
      for (int c = 1; c < 32; ++c)
        if ((c & 7) != 0 && pts[static_cast<std::size_t>(c)] < pts[static_cast<std::size_t>(c - 1)])
          points_rise_with_strength = false;
      for (int suit = 0; suit < 4; ++suit) {
        auto& table_of_suit = suit_points[static_cast<std::size_t>(suit)];
        table_of_suit[0] = 0;
        // Each set is a smaller set and its lowest card.
        for (unsigned bits = 1; bits < 256; ++bits)
          table_of_suit[bits] = static_cast<std::int16_t>(
              table_of_suit[bits & (bits - 1)] + pts[static_cast<std::size_t>(suit * 8 + std::countr_zero(bits))]);
      }
    }
    auto convert = [&](CardSet s) {
      std::uint32_t out = 0;
      for (Card c : s) out |= 1u << to_internal[static_cast<std::size_t>(c.index())];
      return out;
    };
    hand = {};
    ts = TrickState{};
    for (int s = 0; s < players; ++s) {
      hand[static_cast<std::size_t>(s)] = convert(p.hands[static_cast<std::size_t>(s)]);
      for (Card c : p.hands[static_cast<std::size_t>(s)])
        ts.remaining += p.value.points[static_cast<std::size_t>(c.index())];
    }
    ts.count = p.trick.count;
    ts.leader = p.trick.leader;
    ts.current = p.current;
    if (ts.count > 0) {
      ts.led = static_cast<int>(p.trick.led());
      ts.best = to_internal[static_cast<std::size_t>(p.trick.cards[p.trick.win].index())];
      ts.best_pos = p.trick.win;
      for (int i = 0; i < ts.count; ++i) {
        const Card c = p.trick.cards[static_cast<std::size_t>(i)];
        ts.pts += p.value.points[static_cast<std::size_t>(c.index())];
      }
    }
    ts.tricks_left = p.tricks_left();
    if (p.tricks_won[static_cast<std::size_t>(declarer)] > 0) ts.flags |= kDeclarerTook;
    if (p.tricks_won[static_cast<std::size_t>(1 - declarer)] > 0) ts.flags |= kDefenceTook;
    last = p.value.last_trick;
    const int total = p.points[0] + p.points[1] + ts.remaining + ts.pts + last;
    capot_adjust = p.value.capot_rule == CapotRule::replace ? p.value.capot - total : p.value.capot;
    nodes = 0;
    for (auto& k : lead_killer) k.fill(kNoMove);
    for (auto& k : third_killer) k.fill(kNoMove);
    stopped = false;
    if (table) table->new_solve();
    if (near) near->new_solve();
    if (table) run_keys.build(hand, pts, opt.run_keys);
    return p.points[static_cast<std::size_t>(declarer)];
  }

  static int final_points(int past, int future) { return std::max(0, past + future); }

  // The exact value of the position. By default one principal-variation search over the window the cheap
  // bounds leave: the first card of each node gets the full window and the others a zero-window test (see
  // value_of_later). With a guess (a sibling card's value), one zero-window search at the guess
  // first narrows that window. The older way, kept as an option to compare against, is a series of
  // zero-window searches ("is it at least m?") that halve the range, stepping away from a guess by
  // 1, 2, 4, ... points first; the table keeps the bounds each proves, so later ones revisit little.
  int exact(std::optional<int> guess = std::nullopt) {
    // Mid-trick roots get the remaining-points bounds only.
    Bounds b = bounds();
    add_quick_tricks(b);
    int lo = b.lo;
    int hi = b.hi;
    // Without a table, each zero-window search would start from nothing: one full window instead.
    if (!opt.use_table) return search(lo - 1, hi + 1);
    const auto probe = [&](int m) {
      const int v = search(m - 1, m);
      if (v >= m) {
        lo = v;
        return true;
      }
      hi = v;
      return false;
    };
    if (opt.pvs) {
      if (guess && *guess > lo && *guess <= hi && !stopped) probe(*guess);
      if (lo >= hi || stopped) return lo;
      return search(lo - 1, hi + 1);
    }
    if (guess && *guess > lo && *guess <= hi && !stopped) {
      const bool up = probe(*guess);
      for (int step = 1; lo < hi && !stopped; step *= 2) {
        const int m = up ? std::min(hi, lo + step) : std::max(lo + 1, hi - step + 1);
        if (probe(m) != up) break;
      }
    }
    while (lo < hi && !stopped) probe(lo + (hi - lo + 1) / 2);
    return lo;
  }
};

Solver::Solver(SolverOptions options) : impl_(std::make_unique<Impl>(options)) {}
Solver::~Solver() = default;

std::uint64_t Solver::nodes() const { return impl_->nodes; }

int Solver::value(const Position& p) {
  const int past = impl_->load(p);
  return Impl::final_points(past, impl_->exact());
}

std::optional<Solution> Solver::solve(const Position& p, std::chrono::steady_clock::time_point deadline) {
  Impl& s = *impl_;
  s.timed = true;
  s.deadline = deadline;
  Solution out = solve(p);
  s.timed = false;
  if (s.stopped) return std::nullopt;
  return out;
}

Solution Solver::solve(const Position& p) {
  Impl& s = *impl_;
  const int past = s.load(p);
  Solution out;
  const int seat = s.ts.current;
  const std::uint32_t legal = s.legal(seat);
  const std::uint32_t reps = s.merge(legal, seat);
  const bool maximise = s.team(seat) == s.declarer;
  std::array<int, kCards> values{};
  // Each representative card exactly; the table carries over from one to the next, and each card
  // after the first starts from the value of the one before.
  std::optional<int> previous;
  for (std::uint32_t m = reps; m; m &= m - 1) {
    const int c = std::countr_zero(m);
    const TrickState saved = s.ts;
    bool terminal = false;
    const int gained = s.play(c, terminal);
    const int v =
        terminal ? gained : gained + s.exact(previous ? std::optional<int>(*previous - gained) : std::nullopt);
    if (!terminal) previous = v;
    s.ts = saved;
    s.hand[static_cast<std::size_t>(seat)] |= 1u << c;
    values[static_cast<std::size_t>(c)] = v;
  }
  // A merged card takes the value of the top of its run.
  const std::uint32_t live = s.live_cards();
  for (int c = 31; c >= 0; --c) {
    if (!((legal >> c) & 1u) || ((reps >> c) & 1u)) continue;
    const int next = std::countr_zero(live & suit_bits(c >> 3) & above(c));
    values[static_cast<std::size_t>(c)] = values[static_cast<std::size_t>(next)];
  }
  int best = maximise ? -kInf : kInf;
  for (std::uint32_t m = legal; m; m &= m - 1) {
    const int c = std::countr_zero(m);
    const int v = values[static_cast<std::size_t>(c)];
    out.cards.push_back({Card::from_index(s.to_engine[static_cast<std::size_t>(c)]), Impl::final_points(past, v)});
    best = maximise ? std::max(best, v) : std::min(best, v);
  }
  std::sort(out.cards.begin(), out.cards.end(),
            [](const CardValue& a, const CardValue& b) { return a.card.index() < b.card.index(); });
  out.value = Impl::final_points(past, best);
  for (const CardValue& cv : out.cards)
    if (cv.value == out.value) {
      out.best = cv.card;
      break;
    }
  out.nodes = s.nodes;
  return out;
}

CardSet solver_legal(const Position& p) {
  Solver::Impl s(SolverOptions{.table_bits = 0, .use_table = false});
  s.load(p);
  const std::uint32_t legal = s.legal(s.ts.current);
  CardSet out;
  for (std::uint32_t m = legal; m; m &= m - 1)
    out.insert(Card::from_index(s.to_engine[static_cast<std::size_t>(std::countr_zero(m))]));
  return out;
}

}  // namespace atout::bots
