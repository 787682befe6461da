/**
 * Brigade benchmarks (the budgets of docs/benchmarks.md): middleware overhead, DynamoDB calls per
 * operation, handler bundle size and module init time, local stage start, guest search, reads at the
 * round-trip floor, selling tables (availability, the optimizer, automatic assignment), the purchase
 * summary of a month, load (autocannon), the proof runs (fuzz, sweeps, faults), the scale model and the
 * authorizer at 100,000 keys. Writes bench/report.md. `npx tsx bench/sections/selling.ts` prints §7 alone,
 * `npx tsx bench/sections/purchaseSummary.ts` §9, `npx tsx bench/sections/load.ts` §10,
 * `npx tsx bench/sections/proof.ts` §11, `npx tsx bench/sections/scale.ts` §12,
 * `npx tsx bench/sections/authorizer.ts` §13, `npx tsx bench/sections/overhead.ts` §1.
 *
 *   npm run bench
 *
 * Budget failures are reported, not thrown: the exit code is non-zero only when the bench itself
 * crashes. See docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mark, verdict, type Verdict } from './lib/md';

// Before any handler module loads: config() reads the environment lazily, on first use.
process.env.STAGE = 'local';
process.env.TABLE_NAME = 'bench';
delete process.env.DYNAMODB_ENDPOINT;
process.env.AWS_REGION ??= 'eu-north-1';
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reportPath = join(root, 'bench', 'report.md');

type Section<T> = { ok: true; value: T; seconds: number } | { ok: false; error: Error; seconds: number };

async function section<T>(name: string, run: () => Promise<T>): Promise<Section<T>> {
  const t0 = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const value = await run();
    const seconds = (performance.now() - t0) / 1000;
    process.stderr.write(`bench: ${name} done in ${seconds.toFixed(1)} s\n`);
    return { ok: true, value, seconds };
  } catch (err) {
    const seconds = (performance.now() - t0) / 1000;
    process.stderr.write(`bench: ${name} CRASHED: ${(err as Error).stack ?? err}\n`);
    return { ok: false, error: err as Error, seconds };
  }
}

function gitDescribe(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'shared', 'functions'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head} + uncommitted changes in shared/ or functions/` : head;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<number> {
  const started = new Date();
  const { resetConfig } = await import('../shared/config');
  resetConfig();
  const { createHarness } = await import('./lib/harness');
  const { dynamoCalls, callsMarkdown, staleFixtures } = await import('./sections/calls');
  const { middlewareOverhead, OVERHEAD_BUDGET_MS } = await import('./sections/overhead');
  const { bundles, bundleBudgetOf, BUNDLE_BUDGET_BYTES, BUNDLE_BUDGET_EXEMPTIONS, INIT_BUDGET_MS, INIT_RUNS } =
    await import('./sections/bundles');
  const { localStart, START_BUDGET_MS, START_RUNS } = await import('./sections/localStart');
  const { guestSearch, guestSearchChecks, guestSearchMarkdown, GUEST_POPULATION } = await import(
    './sections/guestSearch'
  );
  const { readFloor, readFloorChecks, readFloorMarkdown } = await import('./sections/readFloor');
  const { selling, sellingChecks, sellingMarkdown } = await import('./sections/selling');
  const { customTagSearch, customTagSearchChecks, customTagSearchMarkdown, TAG_POPULATION } = await import(
    './sections/customTagSearch'
  );
  const { purchaseSummarySection, purchaseSummaryChecks, purchaseSummaryMarkdown, SUMMARY_PURCHASES } = await import(
    './sections/purchaseSummary'
  );
  const { loadSection, loadChecks, loadMarkdown } = await import('./sections/load');
  const { proof, proofChecks, proofMarkdown } = await import('./sections/proof');
  const { scaleSection, scaleChecks, scaleMarkdown } = await import('./sections/scale');
  const { authorizerSection, authorizerChecks, authorizerMarkdown, AUTHORIZER_KEYS } = await import(
    './sections/authorizer'
  );
  const md = await import('./lib/md');
  const { ms, kb, table } = md;

  const harness = await createHarness(root);
  // Calls first: it also proves every fixture answers 2xx before anything is timed.
  const calls = await section('DynamoDB calls per operation', () => dynamoCalls(harness));
  const overhead = await section('middleware overhead', () => middlewareOverhead(harness));
  harness.db.restore();
  // After the mock is restored: this section talks to its own DynamoDB Local.
  const guests = await section('guest search', () => guestSearch());
  const floor = await section('reads at the round-trip floor', () => readFloor());
  const tags = await section('custom tag search', () => customTagSearch());
  const bundled = await section('bundles and init time', () => bundles(root));
  const start = await section('local stage start', () => localStart(root));
  const sold = await section('selling tables', () => selling());
  const reported = await section('purchase summary', () => purchaseSummarySection());
  const loaded = await section('load', () => loadSection());
  const scaled = await section('scale model', () => scaleSection());
  const authorized = await section('authorizer at 100,000 keys', () => authorizerSection());
  // Last: it runs Vitest in child processes (the fuzz, the sweeps, the fault scenarios); nothing here is timed against a budget.
  const proved = await section('fuzz, sweeps and faults', () => proof());

  const cpu = cpus();
  const summary: (readonly unknown[])[] = [];
  const out: string[] = [];
  out.push('# Brigade benchmark report', '');
  out.push(
    table(
      ['', ''],
      [
        ['Date', started.toISOString()],
        ['Node (in-process sections)', process.version],
        ['Node (init-time child processes)', bundled.ok ? bundled.value.node : 'n/a'],
        ['CPU', `${cpu[0]?.model ?? 'unknown'} × ${cpu.length} cores`],
        [
          'OS',
          `${platform()} ${release()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, load average ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' / ')}`,
        ],
        ['Commit', gitDescribe()],
        ['Command', '`npx tsx bench/run.ts` (or `npm run bench`)'],
      ],
    ),
    '',
    `> **Noise warning.** These figures come from a noisy ${cpu.length}-core shared machine, not from Lambda. Treat single-digit-percent`,
    '> differences between runs as noise; compare runs on the same machine only. Budgets are from docs/benchmarks.md, “The budgets”.',
    '',
  );

  // §1
  const s1: string[] = ['## 1. Middleware overhead per request', ''];
  if (overhead.ok) {
    const o = overhead.value;
    s1.push(
      `Budget: overhead ≤ ${OVERHEAD_BUDGET_MS} ms median, warm, database excluded. In-process (handlers loaded through tsx), DynamoDB`,
      'mocked with aws-sdk-client-mock on `DynamoDBDocumentClient`, real API key verification (bcrypt-hashed key record answered by the',
      'GetItem mock; the in-memory key cache holds it after the first call), a Lambda-like context (Middy arms its early-timeout timer).',
      `Each figure: ${o.settings.rounds} interleaved rounds × ${o.settings.batch} sequential calls after ${o.settings.warmup} warm-up calls; median and p99 of all calls.`,
      '',
    );
    const rows = o.rows.map((r) => {
      // Database excluded, as the budget is written: the figure with the plain stub (the sinon mock's own cost is a test tool's).
      const v = r.error ? 'ERROR' : verdict(r.plainOverhead <= OVERHEAD_BUDGET_MS);
      summary.push([
        `§1 Middleware overhead \`${r.operationId}\``,
        `≤ ${OVERHEAD_BUDGET_MS} ms median`,
        r.error ?? ms(r.plainOverhead),
        mark(v),
      ]);
      return [
        `\`${r.operationId}\``,
        r.error ? '—' : ms(r.handler.median),
        r.error ? '—' : ms(r.handler.p99),
        r.error ? '—' : ms(r.baseline.median),
        r.error ? '—' : ms(r.baseline.p99),
        r.error ?? ms(r.overhead),
        r.error ? '—' : ms(r.overheadP99),
        `${r.sendsPerRequest} (≈ ${ms(r.sendsPerRequest * o.mockSend.median)})`,
        r.keyLookups,
      ];
    });
    const reference = o.rows
      .filter((r) => !r.error)
      .map((r) => [
        `\`${r.operationId}\``,
        ms(r.plain.median),
        ms(r.plain.p99),
        `**${ms(r.plainOverhead)}**`,
        `${((r.plain.median / r.handler.median) * 100).toFixed(0)} %`,
        `≤ ${OVERHEAD_BUDGET_MS} ms`,
        mark(verdict(r.plainOverhead <= OVERHEAD_BUDGET_MS)),
      ]);
    s1.push(
      table(
        [
          'Operation',
          'Handler median (sinon mock)',
          'Handler p99',
          'Baseline median',
          'Baseline p99',
          'Overhead median (with the mock)',
          'Overhead p99 (info)',
          'Mocked sends/request (≈ mock cost)',
          'Key lookups while measuring',
        ],
        rows,
      ),
      '',
      'The budget figure, database excluded: the same handlers, interleaved with the runs above, with `DynamoDBDocumentClient#send` replaced',
      'by a plain async function that gives the same answers without sinon (no argument matching, no call recording). The table above',
      "keeps the aws-sdk-client-mock figures, which add sinon's own cost per send, for comparison with earlier reports.",
      '',
      table(
        [
          'Operation',
          'Handler median, plain stub',
          'Handler p99, plain stub',
          'Overhead median, plain stub',
          'Share of the mocked figure',
          'Budget',
          'Result',
        ],
        reference,
      ),
      '',
      '- **Handler** = the deployed handler function: Middy chain (responder, header normalizer, credential, rate window, permission,',
      '  parameters, JSON body, schema validation) + the domain call + the mocked DynamoDB sends.',
      '- **Baseline** = a plain `async` function that `JSON.parse`s the same body and `JSON.stringify`s a response of the same shape',
      "  (the handler's own response body). Both sides build a fresh event per call, so that cost cancels out.",
      '- **Overhead** = handler median − baseline median. It includes the domain logic (ids, timestamps, item mapping) and the',
      `  **mock's own cost**: one mocked \`send\` (sinon stub, argument matching, call recording) takes ${ms(o.mockSend.median)} median`,
      `  (p99 ${ms(o.mockSend.p99)}), estimated per request in the "mocked sends" column. The real SDK's marshalling, signing and HTTP are not included.`,
      '- **Key lookups while measuring** must be 0: otherwise the key cache expired during the run and a bcrypt verification was timed.',
    );
  } else {
    s1.push(`**CRASHED**: ${overhead.error.message}`);
    summary.push(['§1 Middleware overhead', `≤ ${OVERHEAD_BUDGET_MS} ms median`, 'crashed', '**ERROR**']);
  }
  s1.push('');

  // §2
  const s2: string[] = ['## 2. DynamoDB calls per operation', ''];
  if (calls.ok) {
    s2.push(
      'Every route of `shared/routes.ts`, one warm request each (a first request warms the key cache), DynamoDB mocked; commands',
      'counted by type. Budget (docs/benchmarks.md): read by id 1 GetItem, write 1 TransactWriteItems, list 1 Query per page, each + 1 rate-window',
      'UpdateItem. A list\'s total comes from its counter item: that GetItem is its own column and is not counted in "Data calls".',
      '"Key lookup on a cold key cache" is the extra GetItem the first request of a container (or of a key, each 60 s) makes to verify',
      'the API key on the local stage; on AWS the API Gateway authorizer does it instead.',
      '',
      callsMarkdown(calls.value),
    );
    for (const r of calls.value) {
      if (r.verdict === 'INFO') continue;
      summary.push([
        `§2 DynamoDB calls \`${r.route.operationId}\``,
        r.budget,
        r.why || 'within budget',
        mark(r.verdict),
      ]);
      if (r.verdict === 'MISSING FIXTURE')
        process.stderr.write(`bench: MISSING FIXTURE for route ${r.route.operationId}: add it to bench/fixtures.ts\n`);
    }
    const stale = staleFixtures();
    if (stale.length)
      summary.push(['§2 Fixtures', 'one per route, no others', `stale: ${stale.join(', ')}`, mark('ERROR')]);
  } else {
    s2.push(`**CRASHED**: ${calls.error.message}`);
    summary.push(['§2 DynamoDB calls', '§6', 'crashed', '**ERROR**']);
  }
  s2.push('');

  // §3
  const s3: string[] = ['## 3. Handler bundle size and module init time', ''];
  if (bundled.ok) {
    const b = bundled.value;
    s3.push(
      'Each handler file of the route table bundled with esbuild (bundle, platform node, format esm, target node22, minify,',
      'external `@aws-sdk/*` as the Lambda runtime provides SDK v3, a `createRequire` banner for CommonJS dependencies).',
      `Init time: a fresh \`node\` (${b.node}) per run imports the bundle; the figure is \`performance.now()\` around \`await import()\`,`,
      `median of ${INIT_RUNS} runs (process start-up excluded). **The SDK is external, so its load time (resolved from the project's`,
      '`node_modules`) is included in every init figure.**',
      '',
    );
    const rows = b.rows.map((r) => {
      const budget = bundleBudgetOf(r.handler);
      const sizeV = r.error && !r.bytes ? 'ERROR' : verdict(r.bytes <= budget);
      // Judged on the handler's own code: the SDK is the runtime's, the same for every design (docs/benchmarks.md).
      const initV = r.error ? 'ERROR' : verdict(r.ownMedian <= INIT_BUDGET_MS);
      const exempt = BUNDLE_BUDGET_EXEMPTIONS[r.handler] ? ' (exempt: see below)' : '';
      summary.push([
        `§3 Bundle size \`${r.handler}\``,
        `≤ ${budget / 1024} KB${exempt}`,
        r.bytes ? kb(r.bytes) : r.error,
        mark(sizeV),
      ]);
      summary.push([
        `§3 Module init \`${r.handler}\` (own code; with SDK ${ms(r.initMedian)})`,
        `≤ ${INIT_BUDGET_MS} ms median`,
        r.error ?? ms(r.ownMedian),
        mark(initV),
      ]);
      return [
        `\`${r.handler}\``,
        r.operations.map((o) => `\`${o}\``).join(', '),
        r.bytes ? `${kb(r.bytes)}${exempt ? ` (≤ ${budget / 1024} KB, exempt)` : ''}` : '—',
        mark(sizeV),
        r.error ? r.error : `${ms(r.initMedian)} (${r.initRuns.map((x) => x.toFixed(0)).join(', ')})`,
        r.ownRuns.length ? `**${ms(r.ownMedian)}** (${r.ownRuns.map((x) => x.toFixed(0)).join(', ')})` : '—',
        mark(initV),
        r.contributors
          .slice(0, 6)
          .map((c) => `${c.name} ${kb(c.bytes)}`)
          .join('; '),
      ];
    });
    s3.push(
      table(
        [
          'Handler file',
          'Operations',
          `Minified size (≤ ${BUNDLE_BUDGET_BYTES / 1024} KB)`,
          'Size',
          'Init median with the SDK (runs, ms), for information',
          `Init median of the handler's own code, SDK preloaded (≤ ${INIT_BUDGET_MS} ms; runs)`,
          'Init',
          'Largest contributors (minified bytes in bundle)',
        ],
        rows,
      ),
      '',
      `- SDK share: importing only the external SDK packages the bundles use (${[...new Set(b.rows.flatMap((r) => r.externals))].map((e) => `\`${e}\``).join(', ') || 'none'}) in a fresh process takes` +
        ` **${b.sdkOnly.error ? b.sdkOnly.error : ms(b.sdkOnly.median)}** median (runs: ${b.sdkOnly.runs.map((x) => x.toFixed(0)).join(', ')}). The "own code only" column times the same import in a process where those SDK packages were imported first (untimed); SDK + own code ≈ init, give or take the noise.`,
      ...Object.entries(BUNDLE_BUDGET_EXEMPTIONS).map(
        ([handler, e]) =>
          `- Exempt from the ${BUNDLE_BUDGET_BYTES / 1024} KB budget: \`${handler}\`, within ${e.bytes / 1024} KB instead: ${e.reason}.`,
      ),
      `- Floor: \`await import()\` of an empty module takes ${b.emptyModule.error ?? ms(b.emptyModule.median)} median.`,
      "- On Lambda the SDK loads from the runtime's own copy and the CPU share depends on the memory size (1 vCPU at 1769 MB):",
      '  expect different absolute figures there; the budget is checked here, on this machine.',
    );
  } else {
    s3.push(`**CRASHED**: ${bundled.error.message}`);
    summary.push(['§3 Bundles', '', 'crashed', '**ERROR**']);
  }
  s3.push('');

  // §4
  const s4: string[] = ['## 4. Local stage start', ''];
  if (start.ok) {
    const v = verdict(start.value.median <= START_BUDGET_MS);
    summary.push([
      '§4 Local stage start (`npm start` until /live answers)',
      `≤ ${START_BUDGET_MS / 1000} s median`,
      ms(start.value.median),
      mark(v),
    ]);
    s4.push(
      `\`npm start\` with a fresh in-memory DynamoDB Local, a new table and the seed, timed from spawning npm until \`GET /live\` answers 200,`,
      `${START_RUNS} runs: ${start.value.runs.map((x) => ms(x)).join(', ')}; median **${ms(start.value.median)}** (budget ≤ ${START_BUDGET_MS / 1000} s): ${mark(v)}.`,
    );
  } else {
    s4.push(`**CRASHED**: ${start.error.message}`);
    summary.push(['§4 Local stage start', `≤ ${START_BUDGET_MS / 1000} s`, 'crashed', '**ERROR**']);
  }
  s4.push('');

  // §5 to §11: each section's checks go to the summary, its own text to its part of the report.
  const s5 = reportSection(
    `## 5. Guest search on ${GUEST_POPULATION.toLocaleString('en')} guests`,
    guests,
    guestSearchChecks,
    guestSearchMarkdown,
    ['§5 Guest search', 'correct results, 1 Query per page'],
    summary,
  );
  const s6 = reportSection(
    '## 6. Reads at the round-trip floor',
    floor,
    readFloorChecks,
    readFloorMarkdown,
    ['§6 Round-trip floor', 'HTTP / raw ≤ 1.5 (median)'],
    summary,
  );
  const s7 = reportSection(
    '## 7. Selling tables',
    sold,
    sellingChecks,
    sellingMarkdown,
    [
      '§7 Selling tables',
      'availability ≤ 10 ms, optimizer ≤ 1 s and within 1 %, evenings: covers vs smallest fit, decision p99 ≤ 250 ms',
    ],
    summary,
  );
  const s8 = reportSection(
    `## 8. Custom tag search on ${TAG_POPULATION.toLocaleString('en')} tags`,
    tags,
    customTagSearchChecks,
    customTagSearchMarkdown,
    ['§8 Custom tag search', 'correct results, 1 Query per page'],
    summary,
  );
  const s9 = reportSection(
    `## 9. Purchase summary of a month of ${SUMMARY_PURCHASES.toLocaleString('en')} purchases`,
    reported,
    purchaseSummaryChecks,
    purchaseSummaryMarkdown,
    ['§9 Purchase summary', 'the sums of the purchases; 1 GetItem + 1 Query'],
    summary,
  );
  const s10 = reportSection(
    '## 10. Load',
    loaded,
    loadChecks,
    loadMarkdown,
    ['§10 Load', '0 errors other than 429'],
    summary,
  );
  const s11 = reportSection(
    '## 11. Proof: every route fuzzed and swept, faults made on purpose',
    proved,
    proofChecks,
    proofMarkdown,
    ['§11 Proof', 'fuzz, sweeps and faults pass'],
    summary,
  );
  const s12 = reportSection(
    '## 12. Scale model: what each operation costs, the walls and the cost per million requests',
    scaled,
    scaleChecks,
    scaleMarkdown,
    ['§12 Scale model', 'measured'],
    summary,
  );
  const s13 = reportSection(
    `## 13. The authorizer at ${AUTHORIZER_KEYS.toLocaleString('en')} keys: measured steps, simulated containers`,
    authorized,
    authorizerChecks,
    authorizerMarkdown,
    ['§13 Authorizer', '≥ 10,000 requests/s, none refused'],
    summary,
  );

  const failures = summary.filter(
    (r) => String(r[3]).includes('FAIL') || String(r[3]).includes('ERROR') || String(r[3]).includes('MISSING'),
  );
  out.push(
    '## At a glance',
    '',
    failures.length
      ? `**${failures.length} of ${summary.length} checks did not pass.**`
      : `All ${summary.length} checks pass.`,
    '',
    table(['Section', 'Checks', 'Pass', 'Info', 'Not passing'], atAGlance(summary)),
    '',
    '## Summary',
    '',
    table(['Check', 'Budget', 'Measured', 'Result'], summary),
    '',
    ...s1,
    ...s2,
    ...s3,
    ...s4,
    ...s5,
    ...s6,
    ...s7,
    ...s8,
    ...s9,
    ...s10,
    ...s11,
    ...s12,
    ...s13,
    '---',
    `Sections took: calls ${calls.seconds.toFixed(1)} s, overhead ${overhead.seconds.toFixed(1)} s, bundles ${bundled.seconds.toFixed(1)} s, local start ${start.seconds.toFixed(1)} s, guest search ${guests.seconds.toFixed(1)} s, round-trip floor ${floor.seconds.toFixed(1)} s, selling tables ${sold.seconds.toFixed(1)} s, custom tag search ${tags.seconds.toFixed(1)} s, purchase summary ${reported.seconds.toFixed(1)} s, load ${loaded.seconds.toFixed(1)} s, scale model ${scaled.seconds.toFixed(1)} s, authorizer ${authorized.seconds.toFixed(1)} s, fuzz, sweeps and faults ${proved.seconds.toFixed(1)} s. How to read this report: docs/benchmarks.md.`,
    '',
  );
  await writeFile(reportPath, out.join('\n'));
  process.stdout.write(`${reportPath}\n`);
  if (failures.length) process.stderr.write(`bench: ${failures.length} check(s) did not pass (reported, not fatal)\n`);
  return calls.ok &&
    overhead.ok &&
    bundled.ok &&
    start.ok &&
    guests.ok &&
    floor.ok &&
    sold.ok &&
    tags.ok &&
    reported.ok &&
    loaded.ok &&
    scaled.ok &&
    authorized.ok &&
    proved.ok
    ? 0
    : 1;
}

/**
 * A section that reports itself: its checks ([check, budget, measured, pass or verdict]) are added
 * to the summary and its markdown follows its heading; a crashed section says so in both places.
 */
function reportSection<T>(
  heading: string,
  result: Section<T>,
  checks: (value: T) => readonly (readonly [string, string, string, boolean | Verdict])[],
  markdown: (value: T) => string[],
  crashed: readonly [check: string, budget: string],
  summary: (readonly unknown[])[],
): string[] {
  if (!result.ok) {
    summary.push([...crashed, 'crashed', '**ERROR**']);
    return [heading, '', `**CRASHED**: ${result.error.message}`, ''];
  }
  for (const [check, budget, measured, v] of checks(result.value))
    summary.push([check, budget, measured, mark(typeof v === 'boolean' ? verdict(v) : v)]);
  return [heading, '', ...markdown(result.value), ''];
}

/** One line per section: how many of its checks pass, and the ones that do not (the first three, then a count). */
function atAGlance(summary: readonly (readonly unknown[])[]): string[][] {
  const sections = new Map<string, (readonly unknown[])[]>();
  for (const row of summary) {
    const section = /^§\d+/.exec(String(row[0]))?.[0] ?? 'other';
    sections.set(section, [...(sections.get(section) ?? []), row]);
  }
  return [...sections].map(([section, rows]) => {
    const result = (r: readonly unknown[]) => String(r[3]).replace(/\*/g, '');
    const failing = rows.filter((r) => !['PASS', 'INFO'].includes(result(r)));
    const named = failing.slice(0, 3).map((r) => `${String(r[0]).replace(/^§\d+ /, '')}: ${result(r)}`);
    return [
      section,
      String(rows.length),
      String(rows.filter((r) => result(r) === 'PASS').length),
      String(rows.filter((r) => result(r) === 'INFO').length),
      failing.length ? `${named.join('; ')}${failing.length > 3 ? `; and ${failing.length - 3} more` : ''}` : '—',
    ];
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench crashed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
