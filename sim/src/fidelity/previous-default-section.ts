// The "Card 1.7.1 against the previous default 1.7.0" section of docs/fidelity.md: the rows whose
// simulated value differs between the previous default's table (data/fidelity-card-1.7.0.csv)
// and this one, both summaries, all computed from the tables; and, written by hand from the runs
// named in it, the two Go runtime constants the card adds and Go's figures at each memory size.
import type { ComparedRow } from './candidate-section.ts';

export const PREVIOUS_DEFAULT_VERSION = '1.7.0';

export function previousDefaultSection(changed: ComparedRow[], version: string, previousSummary: string, summary: string): string {
  const table = changed.map((r) => `| ${r.id} | ${r.paper} | ${r.default_sim} (${r.default_error}) | ${r.candidate_sim} (${r.candidate_error}) |`);
  const v = version;
  const defaultVersion = PREVIOUS_DEFAULT_VERSION;
  return `## Card ${v} against the previous default ${defaultVersion}

Card ${v} ([data/models/${v}.json](../data/models/${v}.json)) is the Lab's default; card
${defaultVersion}'s table is kept in [data/fidelity-card-${defaultVersion}.csv](../data/fidelity-card-${defaultVersion}.csv). Card ${v} is card ${defaultVersion} with two constants
of Go's runtime, read in its source (Go 1.26 on this machine), nothing fitted; the calibration set
is unchanged. Card ${defaultVersion} already has the idle-time mark workers (\`go.idle_workers\`, since card
1.2.0): while a cycle marks, every core the program leaves idle marks, beside the dedicated 25 % of
GOMAXPROCS, and gives its core back the instant work arrives.

- **An idle-time worker gives its core back at its next check for work** (\`go.drain_check_bytes\`,
  100,000 B). The runtime's idle-mode drain asks whether goroutines or network events wait
  (pollWork) only every drainCheckThreshold units of scan work (runtime/mgcmark.go; its comment: about
  100 µs at 1 MB/ms). At the card's 0.3 ns/B that is every 30 µs: work that arrives on a core an idle
  worker holds waits for the worker's next check, and the wait is GC time.
- **The memory limit's heap goal keeps 3 % headroom** (\`go.limit_headroom_fraction\`,
  memoryLimitHeapGoalHeadroomPercent in runtime/mgcpacer.go, added for golang/go#57069): where
  GOMEMLIMIT sets the goal (8 and 6 GiB here) the goal is 3 % below the limit less the non-heap
  memory, so the runway to the trigger is shorter and cycles come more often. The paper does not
  name its Go version; the card assumes one with the headroom.

**Go under both cards** (the table's spec, sim/src/fidelity/specs.ts: the searches of the Lab's
sweeps, then the leader over 120 s at each memory's maximum, 600 s at 100 ops/s at 5 GiB; card
${defaultVersion} → card ${v}):

| Go | max Kops/s | leader CPU at the max | GC share while a cycle runs | time a cycle runs | cycles per s |
|---|---|---|---|---|---|
| A, 32 GiB | 49.600 → 49.601 | 70.9 → 70.9 % | 31.06 → 31.06 % | 7.30 → 7.30 % | 0.115 → 0.115 |
| A, 8 GiB | 49.600 → 49.601 | 72.9 → 72.9 % | 31.19 → 31.49 % | 12.47 → 13.38 % | 0.197 → 0.213 |
| A, 6 GiB | 42.636 → 41.082 | 69.8 → 69.0 % | 40.74 → 42.90 % | 25.84 → 28.69 % | 0.533 → 0.623 |
| A, 5 GiB | < 0.1 → < 0.1 | - | 99.24 → 99.19 % | 100.06 → 100.08 % | 5.04 → 5.04 |
| B, 32 GiB | 49.602 → 49.601 | - → 69.3 % | - | - | - |
| B, 5 GiB | < 0.1 → < 0.1 | - | - | - | - |

The frequency multipliers of Fig 12(a) follow: 32 → 8 GiB 1.71 → 1.86× (paper 2×), 6 → 5 GiB
9.46 → 8.09× (paper 5×). The 30 µs check barely moves anything: at 32 GiB the leader's cores are
already full while a cycle runs (its second-by-second utilisation is 69 % between cycles and reaches
100 % over the 0.64 s a cycle lasts: the dedicated 25 % and the 6 % the program leaves), so there is
almost no idle time left for a worker to keep. The paper's ≈ 50 % there, with the leader at 71 %
overall (Fig 9(b)), needs the program to give up cores while a cycle runs, which neither the GC guide
nor the paper describes. The headroom moves the 8 and 6 GiB points, toward the paper.

**Why it is the default.** It meets the rule for a default, checked on a fresh run of the whole
table (below): no held-out max-throughput point leaves ±15 % (10 of 10, as with card ${defaultVersion}),
the bounds hold (Go A and B at 5 GiB meet the SLO at no rate down to 100 ops/s), no calibrated point
leaves its tolerance (Go A at 32 GiB 49.601 Kops/s, paper 49.8), and no line of the summary is
worse than card ${defaultVersion}'s. Go's throughput per utilisation at its lowest feasible memory (§5.4,
55 Kops/s per utilisation fraction at 6 GiB) goes from 61.09 (+11.1 %) to 59.54 (+8.3 %); the
utilisation median from 8.40 to 8.35 pp, still above the issue's 7. (Its one earlier failure,
+16.7 % on that §5.4 point, came from the sampled probe's 2 s window reading the leader at 64.0 %
where the whole window reads 69.0 %; searches read their CPU figures from the whole window since
\`wholeWindowRun\`.) Every Go figure the Lab and the Race show changes with it; C++, Java and Rust
figures do not (the cards differ only in \`go.*\`).

**How it was computed.** The table at the top: \`nice -n 10 npm run fidelity -- --cache DIR\` with card
${v} the default, one process, into an empty cache: 481 s wall, 161 s CPU, load average 0.9 on 2 cores at the start and 13 at the end (27 Nov 2026); its table is the one card
${v} had as a candidate, to the digit. Card ${defaultVersion}'s table is
the default's table of the commit before (a6644f0), kept as it was. Every row of C++, Java and
Rust came out the same to the digit in both. Card ${defaultVersion}'s Go figures in the table above that
its table does not hold (8 GiB's, and each memory's cycle counts) come from its own runs of the
same spec (\`--card data/models/${defaultVersion}.json --cache DIR --shard run:go/A/GIB/8/OPS/SECONDS\` at its
searches' answers, when card 1.7.1 was a candidate). The mechanism's tests: sim/src/models/models.test.ts (an idle-time
worker keeps a core until its next check: work arriving 31 µs after the cores went idle starts
29 µs late with a 30 µs period, at once without; the headroom's goal and a cycle period 1.08 to
1.12 times shorter; a cycle with no idle core stays at the dedicated 25 %, the program's work late
by at most its two pauses).

The rows whose simulated value differs (simulated, error against the paper):

| paper id | paper | previous default ${defaultVersion} | default ${v} |
|---|---|---|---|
${table.join('\n')}

Summary of card ${v}'s table (as at the top):

${summary}

Card ${defaultVersion}'s:

${previousSummary}

`;
}
