// A private table through its invite link: two people in two browsers play a duel hand, and a third
// browser that opens the same link watches. At every step the watcher's page holds none of the
// cards in the players' hands, and no frame it receives carries a hand or a legal action.
import { expect, test, type Page } from '@playwright/test';
import { AtoutServer, expect_public_frames } from './support';

let server: AtoutServer;

test.beforeAll(async () => {
  server = await AtoutServer.start();
});

test.afterAll(async () => {
  await server?.stop();
});

async function hand_of(page: Page): Promise<string[]> {
  return page.locator('.hand .card-button').evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
}

async function cards_shown(page: Page): Promise<string[]> {
  return page.locator('[data-card]').evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
}

test('two people at a private table through its invite link, and a third watching it', async ({ browser }) => {
  const page_errors: string[] = [];
  const open = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => page_errors.push(String(e)));
    return { context, page };
  };

  // Ann creates a private duel; the page shows its invite link, and the lobby does not list it.
  const ann = await open();
  await ann.page.goto(`${server.url}/`);
  await ann.page.locator('#variant').selectOption('duel');
  await ann.page.getByLabel('Private (invite only)').check();
  await ann.page.getByRole('button', { name: 'Create table' }).click();
  const table = ann.page.getByTestId('table');
  await expect(table).toBeVisible();
  const link = await ann.page.getByTestId('invite').inputValue();
  expect(link).toMatch(new RegExp(`^${server.url}/t/[0-9a-f]+$`));
  const table_id = (await table.getAttribute('data-table-id')) ?? '';
  const listed = await server.api('/api/tables?limit=100');
  expect(listed.tables.map((t: { table_id: string }) => t.table_id)).not.toContain(table_id);

  // Bob opens the link and sits in the free seat; the match starts.
  const bob = await open();
  await bob.page.goto(link);
  await expect(bob.page.getByTestId('table')).toHaveAttribute('data-table-id', table_id);
  await expect(bob.page.getByTestId('seat-1')).toContainText('(you)');
  await expect(ann.page.locator('.hand .card-button').first()).toBeVisible();

  // Cid opens the same link: the table is full, so the page watches it, recording every frame.
  const cid = await open();
  const frames: string[] = [];
  cid.page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  await cid.page.goto(link);
  const watched = cid.page.getByTestId('table');
  await expect(watched).toHaveAttribute('data-table-id', table_id);
  await expect(cid.page.getByText('(you)')).toHaveCount(0);

  // One hand played out, each person acting when the page offers something. After each step, once the
  // watcher's page shows the same event, it holds no card of either hand.
  const players = [ann.page, bob.page];
  const results = ann.page.getByTestId('hand-result');
  let steps = 0;
  let checked = 0;
  for (;;) {
    let acted = false;
    for (const page of players) {
      // A legal card, else a take (so that the hand is played), else the first thing offered.
      let chosen = null;
      for (const sel of ['.hand .card-button.legal', '.actions button[data-action="take"]', '.actions button']) {
        const l = page.locator(sel).first();
        if ((await l.count()) > 0) {
          chosen = l;
          break;
        }
      }
      if (!chosen) continue;
      const seq = (await page.getByTestId('table').getAttribute('data-seq')) ?? '';
      await chosen.click();
      await expect(page.getByTestId('table')).not.toHaveAttribute('data-seq', seq);
      acted = true;
      ++steps;
      break;
    }
    if (!acted) {
      await ann.page.waitForTimeout(20);
      continue;
    }
    // Nobody acts until the three pages show the same event.
    const seq = (await table.getAttribute('data-seq')) ?? '';
    await expect(bob.page.getByTestId('table')).toHaveAttribute('data-seq', seq);
    await expect(watched).toHaveAttribute('data-seq', seq);
    // The step that ended the hand also dealt the next one: its hands reuse the cards of the
    // last trick, which every page may show. The check is made within the hand.
    if ((await results.count()) > 0) break;
    const held = new Set([...(await hand_of(ann.page)), ...(await hand_of(bob.page))]);
    expect(held.size).toBeGreaterThan(0);
    for (const c of await cards_shown(cid.page)) expect(held.has(c), `the watcher's page shows ${c}`).toBe(false);
    expect(await cid.page.locator('.hand').count()).toBe(0);
    ++checked;
  }
  expect(steps).toBeGreaterThan(10);
  expect(checked).toBe(steps - 1);

  // Every frame the watcher got: no hand, no seat, no legal action, whole or as a delta.
  const { events } = expect_public_frames(frames);
  expect(events).toBeGreaterThanOrEqual(steps);
  expect(page_errors).toEqual([]);
  for (const p of [ann, bob, cid]) await p.context.close();
});
