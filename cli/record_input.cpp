// Reading a record for a command (see record_input.hpp).
#include "record_input.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"

namespace atout::cli {

using protocol::json;

std::string describe(Refusal r) {
  switch (r) {
    case Refusal::game_over:
      return "the match is already over";
    case Refusal::not_your_turn:
      return "it is not this seat's turn";
    case Refusal::wrong_phase:
      return "this action is not taken in the current phase";
    case Refusal::card_not_in_hand:
      return "the seat does not hold this card (or it was already played)";
    case Refusal::must_follow_suit:
      return "the seat must follow the suit led";
    case Refusal::must_beat:
      return "the seat must play a higher card of the suit led";
    case Refusal::must_trump:
      return "the seat cannot follow and must trump";
    case Refusal::must_overtrump:
      return "the seat must overtrump";
    case Refusal::must_undertrump:
      return "the seat cannot overtrump and must still play a trump";
    case Refusal::bid_too_low:
      return "the bid does not beat the last bid";
    case Refusal::invalid_bid:
      return "this bid is not allowed in this variant";
    case Refusal::invalid_trump:
      return "this trump cannot be taken now";
    case Refusal::cannot_double:
      return "there is no opposing bid to double";
    case Refusal::cannot_redouble:
      return "there is no double against this side to redouble";
    case Refusal::not_announced:
      return "this combination was not announced";
    case Refusal::invalid_combination:
      return "these cards are not a combination the seat holds";
    case Refusal::not_allowed:
      return "this action is not available to this seat now";
    case Refusal::none:
      break;
  }
  return "refused";
}

int read_json(const std::string& cmd, const std::vector<std::string>& args, std::istream& in, std::ostream& err,
              json& out) {
  if (args.size() != 1) {
    err << "atout " << cmd << ": expected exactly one input: a file name, or - for standard input\n";
    return kExitBadInput;
  }
  std::stringstream buf;
  if (args[0] == "-") {
    buf << in.rdbuf();
  } else {
    std::error_code ec;
    std::ifstream f(args[0], std::ios::binary);
    if (!f || std::filesystem::is_directory(args[0], ec)) {
      err << "atout " << cmd << ": cannot read '" << args[0] << "'\n";
      return kExitBadInput;
    }
    buf << f.rdbuf();
  }
  auto j = protocol::parse_text(buf.str());
  if (!j) {
    err << "atout " << cmd << ": " << j.error << "\n";
    return kExitBadInput;
  }
  out = std::move(*j.value);
  return kExitOk;
}

int load_record(const std::string& cmd, const json& j, std::ostream& err, std::unique_ptr<State>& state) {
  auto rec = protocol::parse_record(j);
  if (!rec) {
    err << "atout " << cmd << ": bad record: " << rec.error << "\n";
    return kExitBadInput;
  }
  ReplayResult r = replay(*rec.value);
  if (r.error) {
    err << "atout " << cmd << ": " << r.error->code << ": " << r.error->message << "\n";
    return kExitBadInput;
  }
  if (r.refusal != Refusal::none) {
    const RecordedAction& a = rec.value->actions[r.failed_index];
    const Seat seat = a.seat == kNoSeat ? r.state->current_player() : a.seat;
    const std::string who = seat == kNoSeat ? "with no seat to act" : "by seat " + std::to_string(seat);
    err << "atout " << cmd << ": action " << r.failed_index << " (" << to_string(a.action) << " " << who
        << ") refused: " << to_string(r.refusal) << ": " << describe(r.refusal) << "\n";
    return kExitRefused;
  }
  state = std::move(r.state);
  return kExitOk;
}

int read_record(const std::string& cmd, const std::vector<std::string>& args, std::istream& in, std::ostream& err,
                std::unique_ptr<State>& state) {
  json j;
  if (int rc = read_json(cmd, args, in, err, j)) return rc;
  return load_record(cmd, j, err, state);
}

}  // namespace atout::cli
