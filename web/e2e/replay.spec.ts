// A short match played over WebSocket against the server's bots, then its pages: the replay,
// stepped to the end, ends on the score the server stored; the player's page lists the match and
// links to that replay; the leaderboard lists the player and links to that page.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { AtoutServer, ScriptedPlayer } from './support';

const kShots = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'web-screenshots');
let server: AtoutServer;

test.beforeAll(async () => {
  server = await AtoutServer.start();
});

test.afterAll(async () => {
  await server?.stop();
});

test('a finished match: its replay, its player, the leaderboard', async ({ page }) => {
  const page_errors: string[] = [];
  page.on('pageerror', (e) => page_errors.push(String(e)));
  const { variants } = await server.api('/api/variants');
  const target_spec = variants
    .find((v: { id: string }) => v.id === 'french')
    .options.find((o: { name: string }) => o.name === 'target');
  const target = target_spec.allowed ? Math.min(...target_spec.allowed) : target_spec.min;

  const ann = await ScriptedPlayer.connect(server.port, 'ann');
  let history: any;
  try {
    const created = await ann.request({
      type: 'create_table',
      variant: 'french',
      options: { target },
      bots: { level: 'random' },
    });
    expect(created.type).toBe('table_created');
    await expect
      .poll(async () => (history = await server.api(`/api/players/${ann.player_id}/matches`)).matches[0]?.ended_at ?? null, {
        timeout: 60_000,
      })
      .not.toBeNull();
  } finally {
    ann.close();
  }
  const stored = history.matches[0];
  expect(stored.end_reason).toBe('finished');
  expect(stored.match_score).toEqual(ann.match_result.match_score);
  const replay = await server.api(`/api/matches/${stored.match_id}/replay`);
  // Seats by name, bots as computer players.
  const seat_name = (seat: number) => {
    const s = replay.seats[seat];
    return s.player_id.startsWith('bot:') ? `computer (${s.player_id.slice(4)})` : s.name;
  };

  // The replay: one row per deal the server dealt, stepped by the keyboard and the buttons.
  await page.goto(`${server.url}/replay/${stored.match_id}`);
  const board = page.getByTestId('replay-board');
  await expect(board).toHaveAttribute('data-total', String(replay.actions.length));
  await expect(page.getByTestId('replay-deal-row')).toHaveCount(replay.deals.length);
  // Every deal of a finished match has its score, line by line, as the players were shown it.
  expect(replay.deals.every((d: { result: unknown }) => d.result !== null)).toBe(true);
  const scored = page.getByTestId('hand-result');
  await expect(scored).toHaveCount(replay.deals.length);
  // Every deal's seed is checked in the page against its commitment.
  const checks = page.getByTestId('deal-check');
  await expect(checks).toHaveCount(replay.deals.length);
  for (let i = 0; i < replay.deals.length; ++i) await expect(checks.nth(i)).toHaveAttribute('data-state', 'verified');
  const last = replay.deals[replay.deals.length - 1].result;
  await expect(scored.last()).toContainText(`${seat_name(0)} & ${seat_name(2)} ${last.teams[0].score}`);
  expect(last.match_score).toEqual(stored.match_score);
  await expect(board).toHaveAttribute('data-step', '0');
  // Before the first bid: the five cards each seat was dealt, and the turned-up card.
  for (const seat of [0, 1, 2, 3]) await expect(page.getByTestId(`replay-seat-${seat}`).locator('.card')).toHaveCount(5);
  await expect(page.getByTestId('replay-turn-up').locator('.card')).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(board).toHaveAttribute('data-step', '2');
  await expect(page.getByTestId('replay-last')).toContainText(seat_name(replay.actions[1].seat));
  await page.keyboard.press('ArrowLeft');
  await expect(board).toHaveAttribute('data-step', '1');
  await page.getByTestId('replay-forward').click();
  await expect(board).toHaveAttribute('data-step', '2');
  await expect(page.getByTestId('replay-final')).toHaveCount(0);
  // Before the first card of the first deal played, every seat holds its 8 cards; the first card
  // then lies in the trick under its player's name.
  const first_play = replay.actions.findIndex((a: { type: string }) => a.type === 'play');
  await page.keyboard.press('Home');
  for (let i = 0; i < first_play; ++i) await page.keyboard.press('ArrowRight');
  await expect(board).toHaveAttribute('data-step', String(first_play));
  for (const seat of [0, 1, 2, 3]) await expect(page.getByTestId(`replay-seat-${seat}`).locator('.card')).toHaveCount(8);
  await page.keyboard.press('ArrowRight');
  const leader = replay.actions[first_play].seat;
  // The first card's double-dummy cost, as the server's analysis of the deal gives it: random
  // bots play, so the page shows a best card or the points given away and the best cards.
  let costed: any;
  for (const d of replay.deals) {
    const analysis = await server.api(`/api/matches/${stored.match_id}/analysis?deal=${d.deal_number}`);
    costed ??= analysis.plays.find((p: { action: number }) => p.action === first_play);
    if (costed) break;
  }
  expect(costed.card).toBe(replay.actions[first_play].card);
  await expect(page.getByTestId('replay-cost')).toHaveAttribute('data-cost', String(costed.cost));
  await expect(page.getByTestId('replay-cost')).toContainText(costed.cost === 0 ? 'a best card' : `gave away ${costed.cost} points`);
  await expect(page.getByTestId('replay-given')).toContainText(`${seat_name(leader)} ${costed.cost}`);
  await page.screenshot({ path: `${kShots}/desktop-replay.png`, fullPage: true });
  // A bid shows no cost.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('replay-cost')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('replay-trick').locator('.played')).toHaveCount(1);
  await expect(page.getByTestId('replay-trick')).toContainText(seat_name(leader));
  await expect(page.getByTestId(`replay-seat-${leader}`).locator('.card')).toHaveCount(7);
  // Deal by deal to the end, then one back and one forward.
  for (let i = 0; i <= replay.deals.length && (await board.getAttribute('data-step')) !== String(replay.actions.length); ++i)
    await page.keyboard.press('PageDown');
  await expect(board).toHaveAttribute('data-step', String(replay.actions.length));
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('replay-final')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('replay-final')).toHaveAttribute('data-score', stored.match_score.join('-'));
  // The last trick of the match is shown complete, with its winner, and no seat holds a card.
  await expect(page.getByTestId('replay-trick').locator('.played')).toHaveCount(4);
  await expect(page.getByTestId('replay-trick-winner')).toBeVisible();
  for (const seat of [0, 1, 2, 3]) await expect(page.getByTestId(`replay-seat-${seat}`).locator('.card')).toHaveCount(0);

  // The player's page, from the replay: the match with a link back to its replay.
  await page.getByTestId('replay-player').filter({ hasText: 'ann' }).click();
  await expect(page.getByTestId('player-name')).toHaveText('ann');
  const row = page.locator(`[data-testid="history-match"][data-match-id="${stored.match_id}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('history-replay')).toHaveAttribute('href', `/replay/${stored.match_id}`);
  await expect(page.locator('[data-testid="rating"][data-ladder="french"]')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goBack();
  await expect(board).toBeVisible();
  await page.screenshot({ path: `${kShots}/phone-replay.png`, fullPage: true });
  await page.goForward();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: `${kShots}/desktop-player.png`, fullPage: true });

  // The leaderboard, from the lobby: ann is on the French ladder, with a link to her page.
  await page.goto(`${server.url}/`);
  await page.getByTestId('leaderboard-link').click();
  await expect(page.getByTestId('leaderboard')).toHaveAttribute('data-ladder', 'french');
  const entry = page.locator(`[data-testid="leader"][data-player-id="${ann.player_id}"]`);
  await expect(entry).toContainText('ann');
  await entry.getByRole('link').click();
  await expect(page.getByTestId('player-name')).toHaveText('ann');
  // A match the server does not know gets its message.
  await page.goto(`${server.url}/replay/nosuchmatch`);
  await expect(page.getByTestId('replay').getByRole('alert')).toHaveAttribute('data-code', 'unknown_match');
  await expect(page.getByTestId('replay')).toContainText('Unknown match.');
  expect(page_errors).toEqual([]);
});
