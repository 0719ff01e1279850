// The connection to the server and the store around the state: says hello (with the saved token),
// takes back a held seat from the last event seen, reconnects after a drop, follows a `redirect`
// to the node that runs a table, and keeps what a reload needs (token, name, table, last seq, hand
// results) in localStorage.
import { DeltaViews } from './delta';
import type { Action, BotLevel, ServerMessage } from './protocol';
import { initial_state, new_table, reduce, type State, type TableState } from './state';

export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface SavedTable {
  table_id: string;
  seat: number | null;
  last_seq: number;
  invite?: string;
  owner?: boolean;
  hands: TableState['hands'];
  commitments?: TableState['commitments'];
  match_id?: string;
}

const kToken = 'atout.token';
const kName = 'atout.name';
const kTable = 'atout.table';
// Take-overs waited out in a row before a table is given up: waits of 0.5, 1, 2, 4, then 5 s, about
// 48 s in all, longer than a node of a cluster with the default lease takes to take a stopped
// node's tables over. A `moving` answer that says a take-over may take longer (`takeover_ms`, from
// the cluster's lease) is waited out that long since the first answer of the row.
const kMovingTries = 12;

// A row of `moving` answers: each is waited out, 0.5, 1, 2, 4, then 5 s, until the row has lasted
// kMovingTries answers and the longest take-over it was told of (`takeover_ms`), counted from its
// first answer.
class MovingRow {
  private tries_ = 0;
  private since_ = 0;
  private limit_ = 0;

  get waiting(): boolean {
    return this.tries_ > 0;
  }

  // One more answer at `now`: the wait before trying again, or undefined when it is time to give
  // up (the row then ends).
  next(now: number, takeover_ms?: number): number | undefined {
    if (this.tries_ === 0) {
      this.since_ = now;
      this.limit_ = 0;
    }
    this.limit_ = Math.max(this.limit_, takeover_ms ?? 0);
    if (this.tries_ < kMovingTries || now - this.since_ < this.limit_) {
      const wait = Math.min(500 * 2 ** Math.min(this.tries_, 4), 5_000);
      this.tries_++;
      return wait;
    }
    this.tries_ = 0;
    return undefined;
  }

  end() {
    this.tries_ = 0;
  }
}

export type Socket = {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
};

export class Client {
  private state_: State = initial_state();
  private listeners_ = new Set<() => void>();
  private socket_?: Socket;
  private next_id_ = 1;
  private retry_ms_ = 500;
  private pending_invite_?: string;
  private invite_tried_spectate_ = false;
  // create_table requests with bots: the server seats their creator itself.
  private seated_by_server_ = new Set<number | string>();
  // With several nodes: the node to connect to (none: the page's own server), the sit and spectate
  // requests awaiting their reply (a redirect sends them again), and the one to send after hello.
  private url_?: string;
  private joining_ = new Map<number | string, Record<string, unknown>>();
  private again_?: Record<string, unknown>;
  // The ids of actions awaiting their reply.
  private acting_ = new Set<number | string>();
  // Take-overs of our table seen in a row (unknown_table marked `moving`): each is waited out
  // and resumed, after which the table is given up.
  private takeover_row_ = new MovingRow();
  // Requests with an invite answered `moving` (the node could not look the invite up, or its table
  // is being taken over), asked again in a row; the pending request is sent again only while
  // `invite_retry_` is the number it was given (a new connection, a leave or another join moves it
  // on).
  private invite_row_ = new MovingRow();
  private invite_retry_ = 0;

  constructor(
    private readonly open_socket: (url?: string) => Socket,
    private readonly storage: KeyValue,
    private readonly now: () => number = () => Date.now(),
    private readonly later: (f: () => void, ms: number) => void = (f, ms) => void setTimeout(f, ms),
  ) {
    const saved = this.saved_table();
    if (saved) {
      this.state_.table = {
        ...new_table(saved.table_id, saved.seat, saved.invite),
        owner: saved.owner === true,
        last_seq: saved.last_seq,
        hands: saved.hands,
        commitments: saved.commitments ?? {},
        match_id: saved.match_id,
      };
    }
  }

  get state(): State {
    return this.state_;
  }

  subscribe(f: () => void): () => void {
    this.listeners_.add(f);
    return () => this.listeners_.delete(f);
  }

  get name(): string {
    return this.storage.getItem(kName) ?? '';
  }

  set_name(name: string) {
    this.storage.setItem(kName, name);
  }

  // Opens the socket; `invite` (from a /t/<code> link) is joined once the hello is answered.
  start(invite?: string) {
    this.drop_invite_retry();
    this.pending_invite_ = invite;
    this.connect();
  }

  private connect() {
    const ws = this.open_socket(this.url_);
    this.socket_ = ws;
    // Events come as deltas (hello's `views`), each applied to the last whole event of its table
    // on this socket: a new socket (a reconnection, or a redirect to another node) starts with
    // none, since the server there sends a whole event first.
    const views = new DeltaViews();
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.retry_ms_ = 500;
      this.say_hello();
    };
    ws.onmessage = (ev) => {
      // A socket left behind (redirected away) may still deliver: none of it is for us now.
      if (this.socket_ !== ws || typeof ev.data !== 'string') return;
      let m: ServerMessage;
      try {
        m = JSON.parse(ev.data) as ServerMessage;
      } catch {
        return;
      }
      if (m.type === 'event') views.keep(m);
      if (m.type === 'delta') {
        const whole = views.rebuild(m);
        // Out of step with the server (never expected): a new connection resumes from a whole view.
        if (!whole) return ws.close();
        m = whole;
      }
      this.on_message(m);
    };
    ws.onclose = (ev) => {
      if (this.socket_ !== ws) return;
      this.socket_ = undefined;
      this.drop_invite_retry();
      if (ev.code === 4001 || this.state_.connection === 'replaced') {
        this.set({ ...this.state_, connection: 'replaced' });
        return;
      }
      this.set({ ...this.state_, connection: 'closed' });
      // A node we were sent to that cannot be reached at all (it stopped since): try again through
      // the page's own server, which knows where the table runs now.
      if (!opened) this.url_ = undefined;
      const wait = this.retry_ms_;
      this.retry_ms_ = Math.min(this.retry_ms_ * 2, 10_000);
      this.later(() => this.connect(), wait);
    };
  }

  // An invite asked again later is not asked any more: the page joins or leaves something else, or
  // a new connection's hello asks for it itself.
  private drop_invite_retry() {
    this.invite_retry_++;
  }

  // Closes the socket and, after `wait` ms, connects through the page's own server again; the
  // hello resumes our seat wherever the table runs by then.
  private reconnect_later(wait: number) {
    this.url_ = undefined;
    const old = this.socket_;
    this.socket_ = undefined;
    old?.close();
    this.set({ ...this.state_, connection: 'closed' });
    this.later(() => this.connect(), wait);
  }

  private say_hello() {
    const hello: Record<string, unknown> = { type: 'hello', protocol: 1, views: 'delta' };
    const token = this.storage.getItem(kToken);
    if (token) hello.token = token;
    if (this.name) hello.name = this.name;
    const t = this.state_.table;
    if (token && t && t.seat !== null) hello.resume = [{ table_id: t.table_id, last_seq: t.last_seq }];
    this.send(hello);
  }

  send(request: Record<string, unknown>): number {
    const id = this.next_id_++;
    if (request.type === 'sit' || request.type === 'spectate') this.joining_.set(id, request);
    if (this.socket_ && this.socket_.readyState === 1) this.socket_.send(JSON.stringify({ ...request, id }));
    return id;
  }

  private set(s: State) {
    this.state_ = s;
    this.save_table();
    for (const f of this.listeners_) f();
  }

  on_message(m: ServerMessage) {
    const before = this.state_;
    const reply_to = 'id' in m ? m.id : undefined;
    if (m.type === 'redirect') {
      this.redirect(m.url, reply_to !== undefined ? this.joining_.get(reply_to) : undefined);
      return;
    }
    const joining = reply_to !== undefined ? this.joining_.get(reply_to) : undefined;
    if (reply_to !== undefined) this.joining_.delete(reply_to);
    const answers_action = reply_to !== undefined && this.acting_.delete(reply_to);
    if (m.type === 'error' && m.code === 'unknown_table' && answers_action && before.table?.seat != null) {
      // The node refused an action at our own table as unknown: with several nodes, it has lost
      // touch with the others and another node may be taking the table over. Reconnect (through
      // the page's own server) and resume: the hello takes the seat back wherever the table runs.
      this.reconnect_later(this.retry_ms_);
      return;
    }
    if (
      m.type === 'error' &&
      m.code === 'unknown_table' &&
      m.moving === true &&
      before.table !== undefined &&
      m.table_id === before.table.table_id
    ) {
      // Another node is taking our table over (its node stopped): the table is not gone, so wait
      // a moment, longer each time, and resume there (a seat by the hello, watching by spectate
      // again), rather than give it up; unless it never comes back, and then the table is given
      // up with the error to say why.
      const wait = this.takeover_row_.next(this.now(), m.takeover_ms);
      if (wait !== undefined) this.reconnect_later(wait);
      else this.set({ ...reduce(before, m, this.now()), table: undefined });
      return;
    }
    const invite_unsure =
      m.type === 'error' && m.moving === true && (m.code === 'bad_invite' || m.code === 'unknown_table');
    if (joining?.invite !== undefined && !invite_unsure) this.invite_row_.end();
    if (invite_unsure && joining?.invite !== undefined) {
      // The node could not look the invite up (the cluster's Redis is away), or its table is being
      // taken over: it may still be good, so the same request goes again on this connection after
      // a wait, as a take-over is waited out. Once that has lasted too long, the error is shown.
      const wait = this.invite_row_.next(this.now(), m.takeover_ms);
      if (wait !== undefined) {
        const retry = ++this.invite_retry_;
        this.later(() => {
          if (retry === this.invite_retry_) this.send(joining);
        }, wait);
        return;
      }
    }
    if (
      m.type === 'error' &&
      m.code === 'unknown_table' &&
      this.takeover_row_.waiting &&
      m.table_id !== undefined &&
      m.table_id === before.table?.table_id
    ) {
      // Waiting out a take-over, we are told the table is not there any more: it closed meanwhile.
      this.takeover_row_.end();
      this.set({ ...reduce(before, m, this.now()), table: undefined });
      return;
    }
    if ((m.type === 'seated' || m.type === 'watching' || m.type === 'event') && m.table_id === before.table?.table_id)
      this.takeover_row_.end();
    if (m.type === 'error' && m.code === 'unknown_token') {
      // The saved identity is gone: start again as a new guest.
      this.storage.removeItem(kToken);
      this.set({ ...before, table: undefined, error: m });
      this.say_hello();
      return;
    }
    if (
      m.type === 'error' &&
      m.code === 'unknown_table' &&
      before.table &&
      before.table.event === undefined &&
      m.table_id === before.table.table_id
    ) {
      // The table we came back to has closed (its match ended, or was forfeited, while we were
      // away): back to the lobby, with the error to say why, instead of a table that is not there.
      this.set({ ...reduce(before, m, this.now()), table: undefined });
      return;
    }
    if (
      m.type === 'error' &&
      m.code === 'bad_invite' &&
      before.table?.invite !== undefined &&
      joining?.invite === before.table.invite
    ) {
      // Coming back to a private table by its invite, which no table has any more: it has closed.
      this.takeover_row_.end();
      this.set({ ...reduce(before, m, this.now()), table: undefined });
      return;
    }
    if (m.type === 'error' && m.code === 'not_seated' && before.table && before.table.event === undefined) {
      // The held seat was not ours any more (the match ended, or the window closed).
      this.set({ ...reduce(before, m, this.now()), table: undefined });
      return;
    }
    this.set(reduce(before, m, this.now()));
    if (m.type === 'welcome') this.after_welcome(m.token);
    // The creator of a table takes the first free seat, as everyone does with sit; with bots, the
    // server has seated the creator already.
    if (m.type === 'table_created') {
      if (m.id !== undefined && this.seated_by_server_.delete(m.id)) return;
      this.sit(m.table.table_id);
    }
    if (m.type === 'error' && m.id !== undefined) this.seated_by_server_.delete(m.id);
    if (m.type === 'error' && this.pending_invite_ && (m.code === 'table_full' || m.code === 'already_seated')) {
      const invite = this.pending_invite_;
      if (!this.invite_tried_spectate_) {
        this.invite_tried_spectate_ = true;
        this.send({ type: 'spectate', invite });
      }
    }
    if ((m.type === 'seated' || m.type === 'watching') && this.pending_invite_ && this.state_.table) {
      this.set({ ...this.state_, table: { ...this.state_.table, invite: this.pending_invite_ } });
      this.pending_invite_ = undefined;
    }
  }

  // Another node runs the table: connect there now (the saved seat is resumed by the hello) and
  // send `again` (the sit or spectate that was redirected) once it has answered.
  private redirect(url: string, again?: Record<string, unknown>) {
    if (again) this.joining_.clear();
    this.again_ = again;
    this.url_ = url;
    const old = this.socket_;
    this.socket_ = undefined; // its close is ours, not a drop to retry
    old?.close();
    this.connect();
  }

  private after_welcome(token: string) {
    this.storage.setItem(kToken, token);
    this.send({ type: 'list_variants' });
    this.send({ type: 'subscribe_lobby' });
    const again = this.again_;
    this.again_ = undefined;
    if (again) {
      this.send(again);
      return;
    }
    const t = this.state_.table;
    if (t && t.seat === null) {
      // A private table is found again only with its invite: its id alone names no table.
      this.send({ type: 'spectate', table_id: t.table_id, last_seq: t.last_seq, ...this.invite_for(t.table_id) });
    } else if (this.pending_invite_ && (!t || t.invite !== this.pending_invite_)) {
      // The invite not answered yet on the last connection: a seat first again, and watching if
      // the table is still full.
      this.invite_tried_spectate_ = false;
      this.send({ type: 'sit', invite: this.pending_invite_ });
    }
  }

  // ---- What the player does --------------------------------------------------------------------

  create_table(variant: string, options: Record<string, unknown>, is_private: boolean) {
    this.drop_invite_retry();
    this.send({ type: 'create_table', variant, options, private: is_private });
  }

  // A table with bots in every seat but one: the server sits the player there and the match starts.
  play_computer(variant: string, options: Record<string, unknown>, level: BotLevel) {
    const id = this.send({ type: 'create_table', variant, options, bots: { level } });
    this.seated_by_server_.add(id);
  }

  add_bot(seat: number, level: BotLevel) {
    const t = this.state_.table;
    if (t) this.send({ type: 'add_bot', table_id: t.table_id, seat, level });
  }

  remove_bot(seat: number) {
    const t = this.state_.table;
    if (t) this.send({ type: 'remove_bot', table_id: t.table_id, seat });
  }

  // A private table is only found with its invite: the one this page knows for it goes along.
  sit(table_id: string, seat?: number) {
    this.drop_invite_retry();
    this.send({ type: 'sit', table_id, ...(seat === undefined ? {} : { seat }), ...this.invite_for(table_id) });
  }

  spectate(table_id: string) {
    this.drop_invite_retry();
    this.send({ type: 'spectate', table_id, ...this.invite_for(table_id) });
  }

  private invite_for(table_id: string): { invite?: string } {
    const t = this.state_.table;
    return t && t.table_id === table_id && t.invite ? { invite: t.invite } : {};
  }

  act(action: Action) {
    const t = this.state_.table;
    if (t) this.acting_.add(this.send({ type: 'action', table_id: t.table_id, action }));
  }

  stand() {
    const t = this.state_.table;
    if (t) this.send({ type: 'stand', table_id: t.table_id });
  }

  leave() {
    const t = this.state_.table;
    if (t) this.send({ type: 'leave', table_id: t.table_id });
    this.takeover_row_.end();
    this.drop_invite_retry();
    this.set({ ...this.state_, table: undefined });
  }

  chat(text: string) {
    const t = this.state_.table;
    this.send(t ? { type: 'chat', table_id: t.table_id, text } : { type: 'chat', text });
  }

  dismiss_error() {
    this.set({ ...this.state_, error: undefined });
  }

  // ---- Persistence -----------------------------------------------------------------------------

  private saved_table(): SavedTable | undefined {
    try {
      const raw = this.storage.getItem(kTable);
      return raw ? (JSON.parse(raw) as SavedTable) : undefined;
    } catch {
      return undefined;
    }
  }

  private save_table() {
    const t = this.state_.table;
    if (!t) {
      this.storage.removeItem(kTable);
      return;
    }
    const saved: SavedTable = {
      table_id: t.table_id,
      seat: t.seat,
      last_seq: t.last_seq,
      invite: t.invite,
      owner: t.owner,
      hands: t.hands,
      commitments: t.commitments,
      match_id: t.match_id,
    };
    this.storage.setItem(kTable, JSON.stringify(saved));
  }
}
