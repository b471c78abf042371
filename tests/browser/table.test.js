// picket-serve in a real browser: Debian's chromium, headless, driven by playwright-core (no
// browser is downloaded). It plays a whole set of Picket by clicks, takes a decision back, saves
// the record and resumes it, plays a hand of Court Circular for three, and checks the layout at
// phone width. Screenshots go to $PICKET_SHOTS when it is set (docs/serve.md's pictures).
//
// It also reviews the saved set (every decision valued, the worst marked, stepped through by
// keys) and watches a small arena run (PICKET_ARENA, PICKET_ENGINE) through --watch.
//
// Environment: PICKET_SERVE, PICKET_ARENA, PICKET_ENGINE (the programs), CHROMIUM (default
// /usr/bin/chromium).
// Ends with a summary line; exits non-zero on the first failure.
'use strict';
const { chromium } = require('playwright-core');
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const SERVE = process.env.PICKET_SERVE;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = process.env.PICKET_SHOTS || '';
let checks = 0;

function check(ok, what) {
  checks++;
  if (!ok) throw new Error(`failed: ${what}`);
  console.log(`ok ${checks} - ${what}`);
}

function startServer(extra) {
  return new Promise((resolve, reject) => {
    const p = spawn(SERVE, ['--listen', '127.0.0.1:0', '--quiet', '--hint-level', '3', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = /open (http:\/\/[^ ]+) /.exec(out);
      if (m) resolve({ proc: p, url: m[1] });
    });
    p.on('exit', (code) => reject(new Error(`picket-serve exited (${code}) before it listened`)));
  });
}

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

// Wait until it is the person's move or the set is over; the status line says which.
async function settle(page) {
  await page.waitForFunction(() => /^(Your move|The set is over|The set stopped)/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
  return page.textContent('#status');
}

let callsByClicks = 0; // holdings called by marking their cards (Rubicon Piquet's sinking)

// One decision by clicks: a call's cards marked; a lit card that plays alone; else mark lit cards until the marked
// button takes them; else the first move button.
async function decide(page) {
  const before = await page.evaluate(() => document.getElementById('talk').children.length);
  // The table re-renders as news arrives: locators (found again at each action), not handles.
  const moved = (n) => document.getElementById('talk').children.length > n
    || /over|stopped/.test(document.getElementById('status').textContent);
  // A call (declarations=may-sink) is a holding, not any cards: the longest call the table
  // offers, its cards marked one by one, then the marked button.
  const call = await page.evaluate(() => {
    const calls = ((st.snap && st.snap.moves) || []).filter((m) => /^declare /.test(m.text) && m.cards.length);
    calls.sort((a, b) => b.cards.length - a.cards.length);
    return calls.length ? calls[0].cards : null;
  });
  if (call) {
    for (const c of call) await page.locator(`#hand button.card[data-card="${c}"]`).click();
    if (call.length > 1) await page.locator('#b-marked').click();
    await page.waitForFunction(moved, before, { timeout: 60000 });
    callsByClicks++;
    return;
  }
  const marked = await page.locator('#b-marked').count();
  const lit = await page.locator('#hand button.card.lit').count();
  if (!marked && lit) {
    await page.locator('#hand button.card.lit').first().click();
  } else if (marked && lit) {
    for (let k = 0; k < lit; k++) {
      const free = page.locator('#hand button.card.lit:not(.marked)');
      if (!(await free.count())) break;
      await free.last().click(); // the lowest-looking card last in the hand
      await page.locator('#b-marked').click();
      // The server's answer: the move made, or a refusal shown (then mark one more card).
      await page.waitForFunction((n) => document.getElementById('error').textContent !== ''
        || document.getElementById('talk').children.length > n, before, { timeout: 60000 });
      if (!(await page.textContent('#error'))) break;
    }
  } else {
    const b = page.locator('#actions button');
    if (!(await b.count())) throw new Error('no move to make at the table');
    await b.first().click();
  }
  await page.waitForFunction(moved, before, { timeout: 60000 });
}

// A new table opened by `act` (the page's address names its game).
async function opened(page, act) {
  const before = await page.evaluate(() => location.hash);
  await act();
  await page.waitForFunction((h) => location.hash !== h && location.hash === `#g=${document.body.dataset.game}`, before, { timeout: 30000 });
}

async function playSet(page, maxDecisions, onDecision) {
  for (let n = 0; n < maxDecisions; n++) {
    const s = await settle(page);
    if (!s.startsWith('Your move')) return { status: s, decisions: n };
    if (onDecision) await onDecision(n);
    await decide(page);
  }
  return { status: await page.textContent('#status'), decisions: maxDecisions };
}

async function main() {
  for (const v of ['PICKET_SERVE', 'PICKET_ARENA', 'PICKET_ENGINE']) if (!process.env[v]) throw new Error(`${v} is not set`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'picket-browser-'));
  // A small arena run for the server to follow.
  const arena = spawnSync(process.env.PICKET_ARENA, ['-engine', `cmd=${process.env.PICKET_ENGINE}`, 'name=heuristic', 'option.bot=heuristic',
    '-engine', `cmd=${process.env.PICKET_ENGINE}`, 'name=random', 'option.bot=random', '-preset', 'cotgrave', '-rounds', '3',
    '-seed', '2', '-concurrency', '2', '-quiet', '-results', path.join(tmp, 'run.jsonl'), '-records', path.join(tmp, 'records')], { encoding: 'utf8' });
  if (arena.status !== 0) throw new Error(`the arena run failed: ${arena.stderr}`);
  const server = await startServer(['--watch', path.join(tmp, 'run.jsonl'), '--watch-records', path.join(tmp, 'records')]);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const ctx = await browser.newContext({ acceptDownloads: true, viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    check(await page.title() === 'picket: the table', 'the page loads');

    // A whole set of Picket, to 100, against level 1, by clicks.
    await page.selectOption('#f-engine', 'level-1');
    await page.fill('#f-seed', '11');
    await page.click('#b-new');
    await settle(page);
    check((await page.$$('#hand button.card')).length === 12, 'twelve cards dealt, drawn as cards');
    await shot(page, 'table-exchange.png');

    let tookBack = false, sawLastTrick = false;
    const played = await playSet(page, 2000, async (n) => {
      sawLastTrick = sawLastTrick || (await page.textContent('#felt')).includes('last trick, won by');
      if (n === 6 && !tookBack) {
        const talkBefore = await page.evaluate(() => document.getElementById('talk').children.length);
        await decide(page);
        await settle(page);
        await page.click('#b-takeback');
        await page.waitForFunction((k) => document.getElementById('talk').children.length < k, talkBefore + 1, { timeout: 30000 });
        await settle(page);
        tookBack = true;
      }
      if (n === 20) {
        await page.click('#b-hint');
        await page.waitForSelector('#hints ol li', { timeout: 60000 });
        check((await page.textContent('#hints')).includes('points'), 'a hint gives values in points');
        await shot(page, 'table-play.png');
      }
    });
    check(tookBack, 'a decision was taken back');
    check(sawLastTrick, 'the last trick stays on the table until the person moves on');
    check(played.status.startsWith('The set is over'), `the set played to its end (${played.decisions} decisions)`);
    check((await page.$$('#sheet tr')).length >= 2, 'the score sheet has the hands');
    await shot(page, 'table-over.png');

    // Save, then resume the saved record.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#b-save')]);
    const saved = path.join(tmp, 'set.txt');
    await download.saveAs(saved);
    const text = fs.readFileSync(saved, 'utf8');
    check(text.startsWith('picket-record') && /# picket-serve: seat 0 you/.test(text) && /\nresult /.test(text), 'the record saves');
    await opened(page, () => page.setInputFiles('#f-resume', saved));
    await page.waitForFunction(() => /The set is over/.test(document.getElementById('status').textContent), null, { timeout: 30000 });
    check(true, 'the saved record resumes at its end');

    // The review of the set: every decision valued, the worst marked, stepped through by keys.
    await page.setInputFiles('#f-review', saved);
    await page.waitForFunction(() => document.body.dataset.review === 'done', null, { timeout: 120000 });
    const summary = await page.textContent('#rv-summary');
    const m = /(\d+) of (\d+) decisions valued/.exec(summary);
    check(m && m[1] === m[2] && +m[2] > 20, `every decision valued (${summary})`);
    check((await page.$$('#rv-worst button.mistake')).length >= 1, 'the worst decisions are marked');
    await page.click('#rv-worst button.mistake');
    check((await page.$$('#rv-step .rv-hand')).length === 2, 'a step shows both seats\' cards');
    const pos = await page.textContent('#rv-pos');
    await page.focus('#rv-next');
    await page.keyboard.press('ArrowRight');
    check(await page.textContent('#rv-pos') !== pos, 'the arrow keys step through the moves');
    await shot(page, 'review.png');

    // The arena run, followed.
    await page.click('#b-watch');
    await page.waitForFunction(() => document.body.dataset.watch === '6', null, { timeout: 30000 });
    const standings = await page.textContent('#w-standings');
    check(/heuristic/.test(standings) && /random/.test(standings), 'the standings of the arena run');
    await shot(page, 'watch.png');

    // A record cut short resumes where it stopped, and play goes on.
    const cut = text.split('\n').filter((l) => !l.startsWith('result')).slice(0, 30).join('\n') + '\n';
    fs.writeFileSync(path.join(tmp, 'cut.txt'), cut);
    await opened(page, () => page.setInputFiles('#f-resume', path.join(tmp, 'cut.txt')));
    await page.waitForFunction(() => document.getElementById('talk').children.length > 3, null, { timeout: 30000 });
    await settle(page);
    const more = await playSet(page, 5);
    check(more.decisions >= 1, 'a resumed set goes on');

    // Court Circular for three: a deal by clicks.
    await page.selectOption('#f-game', 'court-circular');
    await page.selectOption('#f-players', '3');
    await page.selectOption('#f-engine', 'level-1');
    await page.fill('#f-seed', '5');
    await page.fill('#f-flags', '');
    await opened(page, () => page.click('#b-new'));
    await settle(page);
    check((await page.$$('#seats .seat')).length === 3, 'three seats at Court Circular');
    const court = await playSet(page, 12);
    check(court.decisions >= 1, `Court Circular plays by clicks (${court.decisions} decisions)`);
    await shot(page, 'court.png');

    // Rubicon Piquet: a whole partie of six deals by clicks, the higher cut's choice included.
    await page.selectOption('#f-game', 'picket');
    await page.selectOption('#f-preset', 'cavendish');
    await page.selectOption('#f-engine', 'level-1');
    await page.fill('#f-seed', '7');
    await opened(page, () => page.click('#b-new'));
    const partie = await playSet(page, 300);
    const lines = await page.textContent('#lines');
    check(/The set is over/.test(partie.status) && /(wins the partie: \d+|the partie is drawn)/.test(lines),
      `a partie of Rubicon Piquet plays to its settlement by clicks (${partie.decisions} decisions)`);
    check(callsByClicks >= 1, `calls made by marking their cards (${callsByClicks})`);
    await shot(page, 'partie.png');
    await page.selectOption('#f-preset', 'cotgrave');

    // Phone width: nothing wider than the screen.
    await page.setViewportSize({ width: 380, height: 800 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    check(wide <= 400, `the layout fits a phone (${wide} px)`);
    await shot(page, 'phone.png');

    // Keyboard: a card played with the arrow keys and Enter.
    await page.setViewportSize({ width: 1100, height: 900 });
    await opened(page, async () => { await page.selectOption('#f-game', 'picket'); await page.fill('#f-seed', '21'); await page.click('#b-new'); });
    for (let k = 0; k < 40; k++) {
      await settle(page);
      const lit = await page.$$('#hand button.card.lit');
      if (lit.length && !(await page.$('#b-marked'))) break; // the play: a card plays alone
      await decide(page);
    }
    const talkBefore = await page.evaluate(() => document.getElementById('talk').children.length);
    await page.focus('#b-hint');
    await page.keyboard.press('ArrowRight');
    const focused = await page.evaluate(() => document.activeElement.dataset.card || '');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.getElementById('talk').children.length > n, talkBefore, { timeout: 30000 });
    const talkText = await page.evaluate(() => [...document.getElementById('talk').children].map((li) => li.textContent).join('\n'));
    check(focused !== '' && talkText.includes(`you: play ${focused}`), `a card played by the keyboard (${focused})`);

    // Cards are buttons with names for screen readers.
    const label = await page.getAttribute('#hand button.card', 'aria-label');
    check(label === null || / of (clubs|diamonds|hearts|spades)$/.test(label), 'cards are named for screen readers');
    check(errors.length === 0, `no script errors (${errors.join('; ')})`);
  } finally {
    await browser.close();
    server.proc.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(() => { console.log(`browser: ${checks} checks passed`); process.exit(0); },
  (e) => { console.error(`browser: ${e.message}`); console.log(`browser: failed after ${checks} checks`); process.exit(1); });
