// Figures for bench/RESULTS.md: the time from opening / to an interactive lobby (the variants
// listed), median of 7 fresh page loads, against a baseline from the same run: opening a static
// file of the same server (the browser's and the server's fixed cost of a page load).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { AtoutServer } from './support';

let server: AtoutServer;
test.beforeAll(async () => {
  server = await AtoutServer.start();
});
test.afterAll(async () => {
  await server?.stop();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// How long one load may take before the test gives up on it. The goal is on the median, so a single
// slow load (the first, on a machine busy with other tests) is one of the seven figures, not a
// failure; only a page that never gets there fails.
const kOneLoad = { timeout: 30_000 };

// Seven fresh browser contexts: in each, the baseline (a static file of the same server), then
// `after_open` on a page that has just opened `/`, which returns its marks (ms since opening `/`).
async function seven_loads(browser: Browser, after_open: (page: Page, since: () => number) => Promise<number[]>) {
  const baseline: number[] = [];
  const marks: number[][] = [];
  for (let i = 0; i < 7; ++i) {
    const context = await browser.newContext();
    const page = await context.newPage();
    let start = Date.now();
    await page.goto(`${server.url}/favicon.svg`);
    baseline.push(Date.now() - start);
    start = Date.now();
    await page.goto(`${server.url}/`);
    marks.push(await after_open(page, () => Date.now() - start));
    await context.close();
  }
  // One list per mark, across the seven loads.
  return { baseline, marks: marks[0].map((_, k) => marks.map((m) => m[k])) };
}

test('figures: opening / to an interactive lobby', async ({ browser }) => {
  const { baseline, marks } = await seven_loads(browser, async (page, since) => {
    await expect(page.locator('#variant option').first()).toBeAttached(kOneLoad);
    return [since()];
  });
  const [lobby] = marks;
  console.log(
    `figures: / to interactive lobby median ${median(lobby)} ms (slowest ${Math.max(...lobby)} ms); baseline (static file) median ${median(baseline)} ms`,
  );
  expect(median(lobby)).toBeLessThan(5000);
});

// The time from opening / to a table against bots where the person can act: the lobby, one click on
// "Play against the computer", the table created with three bots, the deal, and the bots' bids
// before the person's turn (rules bots, the default level). Baseline: the same static file load.
test('figures: opening / to a playable table against bots', async ({ browser }) => {
  const { baseline, marks } = await seven_loads(browser, async (page, since) => {
    await page.getByRole('button', { name: 'Play against the computer' }).click();
    await expect(page.locator('.hand .card-button').first()).toBeVisible(kOneLoad);
    const dealt = since();
    await expect(page.locator('.hand .card-button.legal, .actions button').first()).toBeVisible(kOneLoad);
    return [dealt, since()];
  });
  const [dealt, playable] = marks;
  console.log(
    `figures: / to a table against bots: hand shown median ${median(dealt)} ms, the person's turn median ` +
      `${median(playable)} ms; baseline (static file) median ${median(baseline)} ms`,
  );
  expect(median(playable)).toBeLessThan(5000);
});
