// Every variant other than French (which play.spec.ts and vsbots.spec.ts play to the end), one or
// more hands each against three `random` bots, played by clicking what the page offers. Over the
// variants the person uses every bidding form at least once: a take, a bid with a value, a capot
// bid, a double, a coinche (coinche's double), an announcement or a show, and a concession. Random
// bots bid often, so a double is offered soon; announcing needs a hand that holds a declaration,
// so hands go on (within a bound) until one came.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { AtoutServer } from './support';

let server: AtoutServer;
test.beforeAll(async () => {
  server = await AtoutServer.start();
});
test.afterAll(async () => {
  await server?.stop();
});

// A bidding form: its name in the coverage, and the buttons that make it.
const kForms: Record<string, string> = {
  take: '.actions button[data-action="take"]',
  bid_value: '.actions button[data-action="bid"][data-value]:not([data-capot])',
  capot_bid: '.actions button[data-action="bid"][data-capot="true"]',
  double: '.actions button[data-action="double"]',
  coinche: '.actions button[data-action="double"]',
  announce: '.actions button[data-action="announce"], .actions button[data-action="show"]',
  concede: '.actions button[data-action="concede"]',
};

// The forms each variant is asked to cover (coinche's double is the coinche), and the options of its
// table. Announcing needs declarations made by hand (`declare: manual`, where a variant has the
// option) and a hand that holds one, so it is counted wherever it comes.
const kPlan: { variant: string; forms: string[]; max_hands: number; options?: Record<string, string> }[] = [
  // Random bots may bid past every value the person could name before its turn, hand after hand:
  // a run met four such coinche hands in a row, so coinche may take more.
  { variant: 'coinche', forms: ['coinche', 'bid_value'], max_hands: 10, options: { declare: 'manual' } },
  { variant: 'bazar', forms: ['capot_bid', 'double'], max_hands: 4 },
  { variant: 'belot', forms: ['double'], max_hands: 4, options: { declare: 'manual' } },
  { variant: 'duel', forms: ['take'], max_hands: 4, options: { declare: 'manual' } },
  { variant: 'simple', forms: ['concede'], max_hands: 2 },
];
// Hands played past a variant's own forms while no announcement has come yet, over the variants
// that announce by hand. Eight cards hold a combination about one time in four, and a hand that
// everyone passes shows none, so a budget of 12 failed about one run in a hundred; with 40 the
// chance is under one in a thousand, and a run that meets one early stops at once.
const kAnnounceBudget = 40;

async function first(page: Page, selector: string): Promise<Locator | null> {
  const l = page.locator(selector).first();
  return (await l.count()) > 0 ? l : null;
}

test('one hand or more of every other variant, covering every bidding form', async ({ browser }) => {
  test.setTimeout(600_000);
  const page_errors: string[] = [];
  const covered = new Set<string>();
  let extra_hands = 0;

  for (const plan of kPlan) {
    const wanted = () => plan.forms.filter((f) => !covered.has(f));
    let played = 0;
    const announcing = () =>
      plan.options?.declare === 'manual' && !covered.has('announce') && extra_hands < kAnnounceBudget;
    const more = () => played === 0 || (played < plan.max_hands && wanted().length > 0) || announcing();
    // A match may end within a hand (a coinche doubled twice passes any target): then a new table.
    while (more()) {
      // A new guest for each table, so that no seat is held from the last one.
      const context = await browser.newContext();
      const page = await context.newPage();
      page.on('pageerror', (e) => page_errors.push(String(e)));
      const sent: any[] = [];
      page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload)))));
      await page.goto(`${server.url}/`);
      await expect(page.getByTestId('me')).toHaveAttribute('data-player-id', /^.+$/);
      await page.locator('#variant').selectOption(plan.variant);
      await page.locator('#bot-level').selectOption('random');
      for (const [name, value] of Object.entries(plan.options ?? {})) await page.locator(`#opt-${name}`).selectOption(value);
      await page.getByRole('button', { name: 'Play against the computer' }).click();
      const table = page.getByTestId('table');
      await expect(table).toBeVisible();
      await expect(page.locator('.hand .card-button').first()).toBeVisible();
      const hands = page.getByTestId('hand-result');
      const result = page.getByTestId('match-result');

      while (more() && !(await result.isVisible())) {
        const before = await hands.count();
        // One hand: act whenever the page offers something, until its result is listed.
        while ((await hands.count()) === before && !(await result.isVisible())) {
          const seq = (await table.getAttribute('data-seq')) ?? '';
          let chosen: Locator | null = null;
          let form: string | null = null;
          for (const f of [...wanted(), ...(covered.has('announce') ? [] : ['announce'])]) {
            chosen = await first(page, kForms[f]);
            if (chosen) {
              form = f;
              break;
            }
          }
          // Otherwise: pass in an auction (so that the bots' bids stand), play a legal card, or
          // take the first thing offered.
          chosen ??=
            (await first(page, '.actions button[data-action="pass"]')) ??
            (await first(page, '.hand .card-button.legal')) ??
            (await first(page, '.actions button'));
          if (!chosen) {
            await page.waitForTimeout(20);
            continue;
          }
          await chosen.click();
          if (form) covered.add(form);
          await expect(table).not.toHaveAttribute('data-seq', seq);
        }
        const for_announce = announcing() && (wanted().length === 0 || played >= plan.max_hands);
        ++played;
        if (for_announce) ++extra_hands;
      }
      // The hands' results are on the page, each with its breakdown and its deal checked.
      const rows = await hands.count();
      expect(rows).toBeGreaterThan(0);
      for (let i = 0; i < rows; ++i) {
        await expect(page.getByTestId('deal-check').nth(i)).toHaveAttribute('data-state', 'verified');
      }
      // The person acted at this table, and the server refused nothing.
      expect(sent.filter((m) => m.type === 'action').length).toBeGreaterThan(0);
      await expect(page.getByTestId('error')).toHaveCount(0);
      await context.close();
    }
    console.log(`variants: ${plan.variant}, ${played} hands; forms used so far: ${[...covered].sort().join(' ')}`);
    expect(wanted(), `${plan.variant}: forms not offered in ${played} hands`).toEqual([]);
  }
  expect([...covered].sort()).toEqual(Object.keys(kForms).sort());
  expect(page_errors).toEqual([]);
});
