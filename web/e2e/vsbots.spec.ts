// A person plays a whole French match against the server's bots, started by one click in the lobby;
// the final score shown must be the one the server stored. And a table's owner seats and removes
// bots before the match.
import { expect, test, type Page } from '@playwright/test';
import { AtoutServer, ScriptedPlayer } from './support';

let server: AtoutServer;

test.beforeAll(async () => {
  server = await AtoutServer.start();
});

test.afterAll(async () => {
  await server?.stop();
});

// The shortest match the French variant allows, as the server lists it in /api/variants.
async function shortest_target(): Promise<number> {
  const { variants } = await server.api('/api/variants');
  const french = variants.find((v: { id: string }) => v.id === 'french');
  const target = french.options.find((o: { name: string }) => o.name === 'target');
  return target.allowed ? Math.min(...target.allowed) : target.min;
}

async function choose_target(page: Page, target: number) {
  const field = page.locator('#opt-target');
  if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(String(target));
  else await field.fill(String(target));
}

test('one click starts a French match against three bots, played to the end by clicking', async ({ page }) => {
  const page_errors: string[] = [];
  page.on('pageerror', (e) => page_errors.push(String(e)));
  const sent: any[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload)))));
  await page.goto(`${server.url}/`);
  await expect(page.getByTestId('me')).toHaveAttribute('data-player-id', /^.+$/);
  const player_id = await page.getByTestId('me').getAttribute('data-player-id');

  // French is the default variant; the level defaults to rules.
  await expect(page.locator('#variant')).toHaveValue('french');
  await expect(page.locator('#bot-level')).toHaveValue('rules');
  const target = await shortest_target();
  await choose_target(page, target);
  await page.getByRole('button', { name: 'Play against the computer' }).click();

  const table = page.getByTestId('table');
  await expect(table).toBeVisible();
  await expect(page.getByTestId('seat-0')).toContainText('(you)');
  for (const seat of [1, 2, 3]) {
    await expect(page.getByTestId(`seat-${seat}`)).toHaveAttribute('data-bot', 'rules');
    await expect(page.getByTestId(`seat-${seat}`)).toContainText('computer (rules)');
  }
  // One request made the table and seated the person: no sit, no error.
  const creates = sent.filter((m) => m.type === 'create_table');
  expect(creates).toHaveLength(1);
  expect(creates[0]).toMatchObject({ variant: 'french', options: { target }, bots: { level: 'rules' } });
  expect(sent.filter((m) => m.type === 'sit')).toHaveLength(0);
  await expect(page.getByTestId('error')).toHaveCount(0);
  // The match is running: no bot can be added or removed any more.
  await expect(page.locator('.hand .card-button').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a bot' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove' })).toHaveCount(0);

  const result = page.getByTestId('match-result');
  const legal_card = page.locator('.hand .card-button.legal').first();
  const take = page.locator('.actions button[data-action="take"]').first();
  const action = page.locator('.actions button').first();
  const last_action = page.getByTestId('last-action');
  let cards = 0;
  let bids = 0;
  let bot_actions_seen = 0;
  let trick_checked = false;
  while (!(await result.isVisible())) {
    const seq = (await table.getAttribute('data-seq')) ?? '';
    const my_turn = (await legal_card.count()) > 0 || (await action.count()) > 0;
    if (my_turn && (await last_action.count()) > 0 && (await last_action.getAttribute('data-seat')) !== '0') {
      // What a bot did just before the person's turn is shown as a bot's action.
      await expect(last_action).toHaveAttribute('data-by-bot', 'rules');
      await expect(last_action).toContainText('(computer, rules)');
      ++bot_actions_seen;
    }
    const played = page.getByTestId('trick').locator('.played');
    if (!trick_checked && (await legal_card.count()) > 0 && (await played.count()) > 0) {
      // Each card of the trick names the seat that played it (bots here); the last trick, opened
      // on demand, was won by the seat that leads this one.
      await expect(played.first().locator('.by')).toHaveText('computer (rules)');
      const leader = await played.first().getAttribute('data-seat');
      // (Only once a trick of this deal is done: in its first trick the last one is the last deal's.)
      const in_hand = await page.locator('.hand .card-button').count();
      if ((await page.getByTestId('last-trick').count()) > 0 && in_hand < 8) {
        await page.getByText('Show the last trick').click();
        await expect(page.getByTestId('last-trick')).toHaveAttribute('data-winner', leader ?? '');
        await expect(page.getByTestId('last-trick-winner')).toContainText('won by');
        trick_checked = true;
      }
    }
    if ((await legal_card.count()) > 0) {
      await legal_card.click();
      ++cards;
    } else if ((await action.count()) > 0) {
      // Bids from the offered buttons: take when offered, so that deals are played.
      await ((await take.count()) > 0 ? take : action).click();
      ++bids;
    } else {
      await page.waitForTimeout(20);
      continue;
    }
    await expect(table).not.toHaveAttribute('data-seq', seq);
  }
  expect(cards).toBeGreaterThanOrEqual(8);
  expect(trick_checked).toBe(true);
  expect(bids).toBeGreaterThan(0);
  expect(bot_actions_seen).toBeGreaterThan(0);
  // Every action the person sent was a click on something the server offered.
  expect(sent.filter((m) => m.type === 'action')).toHaveLength(cards + bids);

  // The final score shown is the one the server stored in the person's history.
  const shown = (await result.getAttribute('data-score')) ?? '';
  // The store writes the result a moment after the last event is sent: wait for it.
  let history: any;
  await expect
    .poll(async () => (history = await server.api(`/api/players/${player_id}/matches`)).matches[0]?.end_reason ?? null)
    .toBe('finished');
  expect(history.matches).toHaveLength(1);
  expect(shown).toBe(history.matches[0].match_score.join('-'));
  expect(Math.max(...history.matches[0].match_score)).toBeGreaterThanOrEqual(target);
  await expect(page.getByTestId('final-score')).toHaveText(history.matches[0].match_score.join(' – '));
  // Each ended hand's deal is checked in the page (Web Crypto SHA-256) against the commitment the
  // page saw before the cards were dealt.
  const hand_rows = await page.getByTestId('hand-result').count();
  expect(hand_rows).toBeGreaterThan(0);
  const checks = page.getByTestId('deal-check');
  await expect(checks).toHaveCount(hand_rows);
  for (let i = 0; i < hand_rows; ++i) await expect(checks.nth(i)).toHaveAttribute('data-state', 'verified');
  // The end of the match links to its replay.
  await expect(page.getByTestId('replay-link')).toHaveAttribute('href', `/replay/${history.matches[0].match_id}`);
  expect(page_errors).toEqual([]);
});

test("a table's owner adds and removes bots before the match; nobody else may", async ({ page }) => {
  await page.goto(`${server.url}/`);
  await page.getByRole('button', { name: 'Create table' }).click();
  const table = page.getByTestId('table');
  await expect(page.getByTestId('seat-0')).toContainText('(you)');
  const table_id = (await table.getAttribute('data-table-id')) ?? '';
  await expect(page.getByRole('button', { name: 'Add a bot' })).toHaveCount(3);

  // A bot at the chosen level in seat 2, then taken out again.
  await page.locator('#add-bot-level').selectOption('random');
  await page.getByTestId('seat-2').getByRole('button', { name: 'Add a bot' }).click();
  await expect(page.getByTestId('seat-2')).toHaveAttribute('data-bot', 'random');
  await expect(page.getByTestId('seat-2')).toContainText('computer (random)');
  await expect(page.getByRole('button', { name: 'Add a bot' })).toHaveCount(2);
  await page.getByTestId('seat-2').getByRole('button', { name: 'Remove' }).click();
  await expect.poll(() => page.getByTestId('seat-2').getAttribute('data-bot')).toBeNull();
  await expect(page.getByTestId('seat-2').getByRole('button', { name: 'Add a bot' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a bot' })).toHaveCount(3);

  // Another player may neither seat nor remove a bot there, and sees no such buttons.
  const other = await ScriptedPlayer.connect(server.port, 'eve');
  try {
    const refused = await other.request({ type: 'add_bot', table_id, seat: 1 });
    expect(refused).toMatchObject({ type: 'error', code: 'not_owner' });
    expect(await other.request({ type: 'sit', table_id, seat: 1 })).toMatchObject({ type: 'seated' });
    await expect(page.getByTestId('seat-1')).toContainText('eve');
    await expect(page.getByTestId('seat-1').getByRole('button')).toHaveCount(0);

    // Bots fill the last two seats; the match starts and the buttons go.
    await page.getByTestId('seat-2').getByRole('button', { name: 'Add a bot' }).click();
    await expect(page.getByTestId('seat-2')).toHaveAttribute('data-bot', 'random');
    await page.getByTestId('seat-3').getByRole('button', { name: 'Add a bot' }).click();
    await expect(page.locator('.hand .card-button').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add a bot' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove' })).toHaveCount(0);
    await expect(page.getByTestId('seat-3')).toHaveAttribute('data-bot', 'random');
  } finally {
    other.close();
  }
});
