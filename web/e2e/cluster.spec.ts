// For each engine in the build: step a cold-start election and a put to execution in the
// Cluster view, then check the page against the engine itself — the same recorded choices
// replayed in Node by the simulator's step session on the engine's Node build.
import { test, expect, type Page } from '@playwright/test';
import { createStepSession } from '@replicant/sim';
import { provider } from '@replicant/sim/cli/engines';
import { formatBallot } from '@replicant/engines/loader/ballot';
import type { EngineName } from '@replicant/engines/loader/catalogue';
import { openView, screenshot } from './helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

interface Inspect {
  role: string;
  ballot: number;
  last_executed: number;
  global_last_executed: number;
  log: { index: number; ballot: number; state: string; command: { type: string; key: string; value?: string } }[];
  kv: { entries: [string, string][] };
}

async function engineOptions(page: Page): Promise<EngineName[]> {
  return page.getByTestId('engine-select').locator('option:not([disabled])').evaluateAll((os) =>
    os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== 'all'),
  ) as Promise<EngineName[]>;
}

/** Steps once per time and waits until the step counter moves: the step is the worker's answer,
 * so the screen (the pending list too) shows it a moment after the click, and a caller reading
 * the screen before then would act on the state before the step (stepUntilQuiet then clicked
 * once more than it needed and recorded a choice after the test had read the count). */
async function next(page: Page, times = 1) {
  const counter = page.getByTestId('step-counter');
  for (let i = 0; i < times; i++) {
    const before = (await counter.textContent()) ?? '';
    await page.getByTestId('next-step').click();
    await expect(counter).not.toHaveText(before);
  }
}

/** Sends the client form's command and waits until the worker lists it as pending: the pending
 * list is the worker's answer, so the command shows a moment after the click, and stepping
 * before then would find only timers and stop (a stepUntilQuiet that returned at once). */
async function sendClient(page: Page) {
  const pending = page.getByTestId('pending-list').locator('li[data-kind="client"]');
  const before = await pending.count();
  await page.getByTestId('client-send').click();
  await expect(pending).toHaveCount(before + 1);
}

/** Steps until only timers are pending (every message delivered). */
async function stepUntilQuiet(page: Page, limit = 80) {
  for (let i = 0; i < limit; i++) {
    const pending = page.getByTestId('pending-list').locator('li');
    const kinds = await pending.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-kind')));
    if (kinds.every((k) => k === 'timer')) return;
    await next(page);
  }
  throw new Error('the cluster did not settle');
}

function choicesOf(url: string): { choices: string[]; step: number } {
  const q = new URL(url).searchParams;
  const raw = q.get('c.choices');
  return { choices: raw ? (JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as string[]) : [], step: Number(q.get('c.step') ?? 0) };
}

test('every engine in the build elects a leader and executes a put, and the page shows exactly the engine’s state', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await openView(page, '?view=cluster', 'cluster');
  const engines = await engineOptions(page);
  expect(engines.length).toBeGreaterThan(0);
  for (const engine of engines) {
    await openView(page, `?view=cluster&c.engine=${engine}&seed=7`, 'cluster');
    // Cold start: the first timer due is an election timer; firing it starts an election.
    await next(page);
    await expect(page.getByTestId('event-log')).toContainText('stands for election');
    await stepUntilQuiet(page);
    const leader = page.locator('[data-role="leader"]');
    await expect(leader).toHaveCount(1);
    const leaderId = Number((await leader.getAttribute('data-testid'))!.replace('node-', ''));
    await expect(page.getByTestId('event-log')).toContainText('becomes leader');

    // A put sent to the leader: accepted by a majority, committed, executed.
    await page.getByTestId('client-node').selectOption(String(leaderId));
    await page.getByTestId('client-line').fill('put color blue');
    await sendClient(page);
    await next(page, 2); // the command arrives; the leader's accepts are on the wire
    if (engine === 'go') {
      await expect(page.getByTestId('flight')).toHaveCount(0); // animations done
      await screenshot(page, testInfo, 'cluster');
    }
    await stepUntilQuiet(page);
    await expect(page.getByTestId(`log-${leaderId}`).locator('tr[data-index="1"]')).toHaveAttribute('data-state', 'executed');
    await expect(page.getByTestId('event-log')).toContainText('answers the client: ok');

    // Every recorded choice reaches the URL (written a moment later); replay them in Node.
    const recorded = Number(await page.getByTestId('step-counter').getAttribute('data-recorded'));
    expect(recorded).toBeGreaterThan(5);
    await expect.poll(() => choicesOf(page.url()).choices.length).toBe(recorded);
    const { choices } = choicesOf(page.url());
    const session = createStepSession({ cluster: { engines: [engine, engine, engine], seed: 7 } }, await provider([engine]));
    session.replay(choices);
    for (let id = 0; id < 3; id++) {
      const v = JSON.parse(session.inspect(id)) as Inspect;
      const card = page.getByTestId(`node-${id}`);
      await expect(card).toHaveAttribute('data-role', v.role);
      await expect(card).toHaveAttribute('data-ballot', String(v.ballot));
      await expect(page.getByTestId(`ballot-${id}`)).toHaveText(`ballot ${formatBallot(v.ballot)}`);
      await expect(page.getByTestId(`last-executed-${id}`)).toHaveText(String(v.last_executed));
      await expect(page.getByTestId(`gle-${id}`)).toHaveText(String(v.global_last_executed));
      const rows = await page.getByTestId(`log-${id}`).locator('tbody tr[data-index]').evaluateAll((trs) =>
        trs.map((tr) => [...[...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent ?? ''), tr.getAttribute('data-state') ?? '']),
      );
      expect(rows, `${engine} n${id} log`).toEqual(
        v.log.map((i) => [String(i.index), formatBallot(i.ballot), `${i.command.type} ${i.command.key}${i.command.value !== undefined ? ` ${i.command.value}` : ''}`, i.state]),
      );
    }
    expect(JSON.parse(session.inspect(leaderId)).kv.entries).toEqual([['color', 'blue']]);
    await screenshot(page, testInfo, `cluster-${engine}`, false);
  }
});

test('rewind, redo, and a shared address rebuild the same cluster', async ({ page, context }) => {
  await openView(page, '?view=cluster&c.engine=go&seed=3', 'cluster');
  await next(page, 6);
  await expect(page.getByTestId('step-counter')).toContainText('step 9/9');
  const before = await page.getByTestId('node-1').getAttribute('data-ballot');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('step-counter')).toContainText('step 7/9');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-counter')).toContainText('step 9/9');
  await expect(page.getByTestId('node-1')).toHaveAttribute('data-ballot', before!);
  // the address is written a moment after the screen (the engines answer from their worker, and
  // the URL is debounced): wait until it holds the six choices at the last step (0)
  await expect.poll(() => choicesOf(page.url())).toEqual({ choices: expect.any(Array), step: 0 });
  await expect.poll(() => choicesOf(page.url()).choices.length).toBe(6);
  const other = await context.newPage();
  await openView(other, new URL(page.url()).search, 'cluster');
  await expect(other.getByTestId('step-counter')).toContainText('step 9/9');
  for (let id = 0; id < 3; id++) {
    await expect(other.getByTestId(`node-${id}`)).toHaveAttribute('data-ballot', (await page.getByTestId(`node-${id}`).getAttribute('data-ballot'))!);
  }
});

test('faults: a crashed node, a cut link and a follower that redirects the client', async ({ page }) => {
  await openView(page, '?view=cluster&c.engine=go&seed=1', 'cluster');
  await next(page);
  await stepUntilQuiet(page);
  const leaderId = Number((await page.locator('[data-role="leader"]').getAttribute('data-testid'))!.replace('node-', ''));
  const follower = (leaderId + 1) % 3;
  await page.getByTestId('client-node').selectOption(String(follower));
  await sendClient(page);
  await stepUntilQuiet(page);
  await expect(page.getByTestId('event-log')).toContainText(`answers the client: ask n${leaderId}, the leader`);
  await page.getByTestId(`node-${follower}`).getByRole('button', { name: 'Crash' }).click();
  await expect(page.getByTestId(`node-${follower}`)).toHaveAttribute('data-role', 'down');
  await page.getByRole('button', { name: `cut the link from n${leaderId} to n${(leaderId + 2) % 3}` }).click();
  await expect(page.getByTestId('event-log')).toContainText(`link n${leaderId} → n${(leaderId + 2) % 3} cut`);
  // The grid shows the state apart from the action: a cut link has no "cut" button left.
  const cell = page.getByTestId(`cut-cell-${leaderId}-${(leaderId + 2) % 3}`);
  await expect(cell).toHaveAttribute('data-state', 'cut');
  await expect(cell).toContainText('✗ down');
  await expect(cell.getByRole('button')).toHaveCount(0);
  await expect(page.getByTestId(`cut-cell-${(leaderId + 2) % 3}-${leaderId}`)).toContainText('up');
  await page.getByRole('button', { name: 'Heal all links' }).click();
  await page.getByTestId(`node-${follower}`).getByRole('button', { name: 'Restart' }).click();
  await expect(page.getByTestId(`node-${follower}`)).toHaveAttribute('data-role', 'follower');
});

test('all engines side by side stay identical', async ({ page }) => {
  await openView(page, '?view=cluster&c.engine=all&seed=5', 'cluster');
  await next(page);
  await stepUntilQuiet(page);
  await page.getByTestId('client-line').fill('put k v');
  const leaderId = (await page.locator('[data-role="leader"]').getAttribute('data-testid'))!.replace('node-', '');
  await page.getByTestId('client-node').selectOption(leaderId);
  await sendClient(page);
  await stepUntilQuiet(page);
  await expect(page.getByTestId('comparison')).toContainText('identical');
  await expect(page.getByTestId('comparison')).toContainText('byte for byte');
});

/** Elects a leader from a cold start and returns its id. */
async function elect(page: Page): Promise<number> {
  await next(page);
  await stepUntilQuiet(page);
  return Number((await page.locator('[data-role="leader"]').getAttribute('data-testid'))!.replace('node-', ''));
}

test('a client command is delivered by its own deliver button and by a click on its label', async ({ page }) => {
  await openView(page, '?view=cluster&c.engine=go&seed=7', 'cluster');
  const leaderId = await elect(page);
  await page.getByTestId('client-node').selectOption(String(leaderId));
  await page.getByTestId('client-line').fill('put x 1');
  await page.getByTestId('client-send').click();
  await page.getByTestId('pending-list').locator('li[data-kind="client"]').getByRole('button', { name: 'deliver' }).click();
  await expect(page.getByTestId('action-error')).toHaveCount(0);
  await expect(page.getByTestId('event-log')).toContainText(`A client sends “put x 1” to n${leaderId}`);
  await page.getByTestId('client-line').fill('put y 2');
  await page.getByTestId('client-send').click();
  // The label sits in the topology, where an in-flight message's label (the first put's accept)
  // can be drawn over it for a moment: a pointer click then lands on that message (seen in 1 of 3
  // runs). What this checks is the label's own action, so the click is sent to the label itself.
  await page.getByRole('button', { name: `deliver the client command put y 2 to n${leaderId}` }).dispatchEvent('click');
  await expect(page.getByTestId('action-error')).toHaveCount(0);
  await expect(page.getByTestId('event-log')).toContainText(`A client sends “put y 2” to n${leaderId}`);
  await expect(page.getByTestId('pending-list')).not.toContainText('due in -');
  await expect(page.getByTestId('pending-list')).not.toContainText('commit timer');
});

test('a candidate shows the ballot it stands with, as the narration says', async ({ page }) => {
  await openView(page, '?view=cluster&c.engine=go&seed=7', 'cluster');
  await next(page); // the first election timer: that node stands for election
  const candidate = page.locator('[data-role="candidate"]');
  await expect(candidate).toHaveCount(1);
  const id = Number((await candidate.getAttribute('data-testid'))!.replace('node-', ''));
  const said = /stands for election with ballot (\d+\.\d+)/.exec((await page.getByTestId('event-log').textContent()) ?? '')?.[1];
  expect(said).toBeTruthy();
  await expect(page.getByTestId(`ballot-${id}`)).toHaveText(`ballot ${said}`);
  await expect(page.getByTestId(`topology-node-${id}`)).toContainText(said!);
  await expect(page.getByTestId('cluster-legend')).toContainText('round.leader');
});

test('log markers stay inside their node card at 1440 px', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openView(page, '?view=cluster&c.engine=go&seed=7', 'cluster');
  const leaderId = await elect(page);
  await page.getByTestId('client-node').selectOption(String(leaderId));
  await page.getByTestId('client-line').fill('put a-rather-long-key some-long-value');
  await sendClient(page);
  await stepUntilQuiet(page);
  await expect(page.getByTestId(`log-${leaderId}`).locator('.marker-chip').first()).toBeVisible();
  const spills = await page.locator('.node-card').evaluateAll((cards) =>
    cards.flatMap((card) => {
      const box = card.getBoundingClientRect();
      return [...card.querySelectorAll('*')]
        .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > box.right + 0.5)
        .map((el) => `${card.getAttribute('data-testid')}: ${el.tagName}.${el.className} "${(el.textContent ?? '').slice(0, 30)}"`);
    }),
  );
  expect(spills).toEqual([]);
});

test('durability log: each node shows its disk; restart from disk keeps the promise and the accepted value, a wiped node rejoins by state transfer', async ({ page }) => {
  test.setTimeout(180_000);
  await openView(page, '?view=cluster&c.engine=go&seed=7', 'cluster');
  await expect(page.getByTestId('durability-sentence')).toContainText('Durability none');
  await expect(page.getByTestId('volatile-0')).toContainText('nothing is on disk');
  // the step cluster's knob (the torture control above it has a durability of its own)
  await page.locator('[data-knob="c.durability"] select').selectOption('log');
  await expect(page.getByTestId('durability-sentence')).toContainText('before any message that reveals them leaves');
  await expect(page.locator('html[data-ready="cluster"]')).toHaveCount(1);
  const leaderId = await elect(page);
  const f = (leaderId + 1) % 3;
  await page.getByTestId('client-node').selectOption(String(leaderId));
  await page.getByTestId('client-line').fill('put color blue');
  await sendClient(page);
  await stepUntilQuiet(page);
  const ballot = await page.getByTestId(`node-${f}`).getAttribute('data-ballot');
  const promise = await page.getByTestId(`disk-promise-${f}`).textContent();
  expect(promise).toContain('promised ballot');
  await expect(page.getByTestId(`disk-entries-${f}`)).toContainText('put color blue');

  // restart from disk: the promise and the accepted value are back
  await page.getByTestId(`node-${f}`).getByRole('button', { name: 'Crash' }).click();
  await expect(page.getByTestId(`node-${f}`)).toHaveAttribute('data-role', 'down');
  await expect(page.getByTestId(`disk-entries-${f}`)).toContainText('put color blue'); // the disk outlives the crash
  await page.getByTestId(`restart-disk-${f}`).click();
  await expect(page.getByTestId(`node-${f}`)).toHaveAttribute('data-ballot', ballot!);
  await expect(page.getByTestId(`log-${f}`)).toContainText('put color blue');
  await expect(page.getByTestId('event-log')).toContainText('reads back the');

  // heartbeats until every node has executed and trimmed index 1, then a wiped restart
  for (let i = 0; i < 120 && (await page.getByTestId(`gle-${leaderId}`).textContent()) !== '1'; i++) await next(page);
  await expect(page.getByTestId(`gle-${leaderId}`)).toHaveText('1');
  await page.getByTestId(`node-${f}`).getByRole('button', { name: 'Crash' }).click();
  await page.getByTestId(`restart-wiped-${f}`).click();
  await expect(page.getByTestId(`disk-${f}`)).toHaveAttribute('data-records', '0');
  await expect(page.getByTestId(`node-${f}`)).toHaveAttribute('data-ballot', '15'); // 0.-: it forgot its promise
  for (let i = 0; i < 120 && !((await page.getByTestId(`kv-${f}`).textContent()) ?? '').includes('blue'); i++) await next(page);
  await expect(page.getByTestId(`kv-${f}`)).toContainText('blue');
  await expect(page.getByTestId('event-log')).toContainText('state transfer');
});
