// A person plays a whole French match in the browser against three scripted players; a spectator
// watches; the person reloads mid-hand. The final score shown must be the one the server stored.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AtoutServer, expect_public_frames, ScriptedPlayer } from './support';

const kShots = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'web-screenshots');

// A full-page screenshot at desktop size and one at phone size (held upright), kept under
// build/web-screenshots/ for a person to look at.
async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${kShots}/desktop-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${kShots}/phone-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

let server: AtoutServer;
const players: ScriptedPlayer[] = [];

test.beforeAll(async () => {
  server = await AtoutServer.start();
  mkdirSync(kShots, { recursive: true });
});

test.afterAll(async () => {
  for (const p of players) p.close();
  await server?.stop();
});

async function hand_of(page: Page): Promise<string[]> {
  return page.locator('.hand .card-button').evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
}

test('a person plays a French match to the end; a spectator sees no hidden card; a reload resumes', async ({
  browser,
}) => {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  const page = await desktop.newPage();
  const page_errors: string[] = [];
  page.on('pageerror', (e) => page_errors.push(String(e)));
  // Render time per event: from the frame's arrival to the table showing its seq (measured in the
  // page, by a wrapper around WebSocket and an observer of the table's data-seq).
  await page.addInitScript(() => {
    const w = window as any;
    w.__arrived = {};
    w.__render_ms = [];
    const Native = window.WebSocket;
    w.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        // A live delta has no seq: it is the event after the socket's last one at its table.
        const last: Record<string, number> = {};
        this.addEventListener('message', (e: MessageEvent) => {
          const m = JSON.parse(String(e.data));
          if (m.type !== 'event' && m.type !== 'delta') return;
          const seq = m.seq ?? last[m.table_id] + 1;
          last[m.table_id] = seq;
          w.__arrived[seq] = performance.now();
        });
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        const seq = (r.target as Element).getAttribute('data-seq');
        if (seq && w.__arrived[seq] !== undefined) {
          w.__render_ms.push(performance.now() - w.__arrived[seq]);
          delete w.__arrived[seq];
        }
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-seq'] });
  });
  const opened = Date.now();
  await page.goto(`${server.url}/`);

  // A French table, with the shortest match target the variant allows.
  await page.locator('#variant').selectOption('french');
  await page.locator('#opt-target').selectOption('501');
  await shoot(page, 'lobby');
  await page.getByRole('button', { name: 'Create table' }).click();
  const table = page.getByTestId('table');
  await expect(table).toBeVisible();
  await expect(page.getByTestId('seat-0')).toContainText('(you)');
  const table_id = (await table.getAttribute('data-table-id')) ?? '';
  const listed = await server.api('/api/tables?variant=french&limit=100');
  const created = listed.tables.find((t: { table_id: string }) => t.table_id === table_id);
  expect(created.options.target).toBe(501);

  // A spectator, from the lobby, recording every frame it gets.
  const watcher = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const spectator = await watcher.newPage();
  const spectator_frames: string[] = [];
  spectator.on('websocket', (ws) => ws.on('framereceived', (f) => spectator_frames.push(String(f.payload))));
  await spectator.goto(`${server.url}/`);
  await spectator.locator(`[data-table="${table_id}"]`).getByRole('button', { name: 'Watch' }).click();
  await expect(spectator.getByTestId('table')).toBeVisible();

  // Three scripted players fill the other seats; the match starts.
  for (const name of ['bob', 'cid', 'dee']) {
    const p = await ScriptedPlayer.connect(server.port, name);
    players.push(p);
    const seated = await p.request({ type: 'sit', table_id });
    expect(seated.type).toBe('seated');
  }
  await expect(page.locator('.hand .card-button').first()).toBeVisible();
  const playable_ms = Date.now() - opened;

  const result = page.getByTestId('match-result');
  const legal_card = page.locator('.hand .card-button.legal').first();
  const action = page.locator('.actions button').first();
  let clicks = 0;
  let refused_once = false;
  let reloaded = false;
  let shot_bidding = false;
  const table_seq = async () => (await page.getByTestId('table').getAttribute('data-seq')) ?? '';
  while (!(await result.isVisible())) {
    let seq = await table_seq();
    if ((await legal_card.count()) > 0) {
      // The person's turn: nobody else acts now, so the seq read here stays until the person acts
      // (read before, it may have been another player's turn that has passed since).
      seq = await table_seq();
      const not_legal = page.locator('.hand .card-button.not-legal').first();
      if (!refused_once && (await not_legal.count()) > 0) {
        // A card the legal list does not offer is refused on the page; nothing is sent.
        await not_legal.click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
        await expect(page.locator('.refusal')).toHaveText('You cannot play that card now');
        await expect(page.getByTestId('table')).toHaveAttribute('data-seq', seq);
        refused_once = true;
      }
      if (!reloaded && clicks >= 6) {
        // Mid-hand, on the person's turn: reload, and come back to the same position.
        const hand = await hand_of(page);
        await shoot(page, 'table');
        await page.reload();
        await expect(page.getByTestId('table')).toHaveAttribute('data-seq', seq);
        await expect.poll(() => hand_of(page)).toEqual(hand);
        await expect(page.getByTestId('table')).toHaveAttribute('data-duplicates', '0');
        await expect(page.getByTestId('table')).toHaveAttribute('data-gaps', '0');
        await expect(legal_card).toBeVisible();
        reloaded = true;
        continue;
      }
      await legal_card.click();
    } else if ((await action.count()) > 0) {
      seq = await table_seq();
      if (!shot_bidding) {
        await shoot(page, 'bidding');
        shot_bidding = true;
      }
      await action.click();
    } else {
      await page.waitForTimeout(20);
      continue;
    }
    await expect(page.getByTestId('table')).not.toHaveAttribute('data-seq', seq);
    ++clicks;
  }
  expect(reloaded).toBe(true);
  expect(refused_once).toBe(true);

  // The final score shown is the server's stored result.
  const shown = (await result.getAttribute('data-score')) ?? '';
  // The store writes the result a moment after the last event is sent: wait for it.
  let history: any;
  await expect
    .poll(async () => (history = await server.api(`/api/players/${players[0].player_id}/matches`)).matches[0]?.end_reason ?? null)
    .toBe('finished');
  expect(shown).toBe(history.matches[0].match_score.join('-'));
  expect(Math.max(...history.matches[0].match_score)).toBeGreaterThanOrEqual(501);
  await expect(page.getByTestId('hand-result').first()).toBeVisible();
  await shoot(page, 'end');

  // The spectator: no hand on the page, and no frame with a hand or a legal action, whether a
  // whole event or a delta (checked as sent, and as the event it rebuilds).
  await expect(spectator.getByTestId('match-result')).toBeVisible();
  expect(await spectator.locator('.hand').count()).toBe(0);
  const seen = expect_public_frames(spectator_frames);
  expect(seen.events).toBeGreaterThan(clicks);
  expect(seen.deltas).toBeGreaterThan(clicks); // the page asked for deltas
  expect(page_errors).toEqual([]);
  const render_ms: number[] = await page.evaluate(() => (window as any).__render_ms);
  render_ms.sort((a, b) => a - b);
  expect(render_ms.length).toBeGreaterThan(clicks);
  const at = (q: number) => render_ms[Math.floor(q * (render_ms.length - 1))].toFixed(1);
  console.log(
    `figures: ${clicks} clicks; opening / to a playable table: ${playable_ms} ms; ` +
      `render per event (frame to DOM, ${render_ms.length} events since the reload): median ${at(0.5)} ms, p95 ${at(0.95)} ms`,
  );
  await desktop.close();
  await watcher.close();
});

test('the page answers an unknown invite with a clear message, and has no inline script', async ({ page }) => {
  await page.goto(`${server.url}/t/00000000000000000000000000000000`);
  await expect(page.getByTestId('error')).toHaveAttribute('data-code', 'bad_invite');
  await expect(page.getByTestId('error')).toContainText('This invite link is not valid.');
  expect(await page.locator('script:not([src])').count()).toBe(0);
  const r = await fetch(`${server.url}/`);
  expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
});
