// The "Candidate card 1.11.0" section of docs/fidelity.md: the rows whose simulated value card
// 1.11.0's table (data/fidelity-candidate-1.11.0.csv) changes from the default 1.7.1's, the row
// it adds to the calibration set, both summaries and the calibrated points outside their
// tolerance, all computed from the tables; and, written by hand from the runs named in it, what
// the recalibration changes, what it does not, and why there is no card 1.11.1 for Rust.
import type { CandidateFigures } from './candidate-181-section.ts';
import type { ComparedRow, SectionRow } from './candidate-section.ts';

export const CANDIDATE_1110_VERSION = '1.11.0';

export interface Candidate1110Figures extends CandidateFigures {
  /** Rows only the candidate's table has: its added calibration point(s). */
  added: SectionRow[];
}

export function candidate1110Section(changed: ComparedRow[], baseVersion: string, f: Candidate1110Figures): string {
  const v = CANDIDATE_1110_VERSION;
  const table = changed.map((r) => `| ${r.id} | ${r.paper} | ${r.default_sim} (${r.default_error}) | ${r.candidate_sim} (${r.candidate_error}) |`);
  const added = f.added.map((r) => `| ${r.id} | ${r.paper} | - (not in card ${baseVersion}'s table) | ${r.sim} (${r.error}) |`);
  const outside = f.calibratedOutside.length
    ? `Calibrated points card ${v} moves outside ±15 % (card ${baseVersion} has them inside): ${f.calibratedOutside.map((r) => `${r.id} ${r.sim} (${r.error})`).join('; ')}. So card ${v} does not become the default: a calibrated point must stay within its tolerance.`
    : `Card ${v} moves no calibrated point outside ±15 %.`;
  return `## Candidate card ${v}: the serialized step from Table 1's bare-metal row

Card ${v} ([data/models/${v}.json](../data/models/${v}.json), its whole table in
[data/fidelity-candidate-${v}.csv](../data/fidelity-candidate-${v}.csv)) is card ${baseVersion}, the
default, recalibrated: Table 1's C++ row on m5.metal (36 Kops/s on 8 CPUs of the same CPU model
as m5.2xlarge's, §5.7) joins the calibration set. It is a calibrated row, never a held-out one:
its note in data/paper/paper-values.csv says so, the candidate's table marks it calibrated, and
its summaries below never count it as held out. It sets the serialized step; the rest follows as \`calibrate\` derives it
(\`npm --workspace @replicant/sim run calibrate -- --card data/models/${baseVersion}.json --out data/models/${v}.json --table1\`,
sim/src/calibrate/table1.ts):

1. **The step** (\`cpu.cpp.step_us\`): secant iterations of the table's own C++ search (32 GiB,
   8 CPUs, workload A) on m5.metal until its maximum at the SLO is 36 Kops/s: 10.908 µs gives
   30.185, 9.146 µs gives 35.997. m5.metal is the card with no gRPC hand-off. That is an
   assumption, stated: the hand-off stands for waking an OS thread, which is what a hypervisor
   makes dear, and Table 1 shows it: the builds with OS threads and a hand-off lose 20 % (C++)
   and 10 % (Java) on m5.2xlarge, the builds with user-mode threads and none (Go, Rust) under 1 %.
   A bare-metal wake-up of a few µs, which the model leaves out, would give a shorter step still.
2. **The hand-off** (\`cpu.cpp.handoff_mean_us\`): with that step, bisected on §5.1's ratio as
   card 1.2.0 derived it (20 ms over C++'s mean latency at its simulated maximum on m5.2xlarge,
   the table's 10 s run, is 10): 200 µs gives 5.65 (max 26.5 Kops/s), 150 gives 6.90 (30.4),
   125 gives 8.47 (32.7), 100 gives 10.02 (34.8). So 100 µs, where card ${baseVersion} has 150.
3. **Java** takes both (the same code, §3; the same gRPC set-up, Fig 6), and both builds' message
   CPU is re-derived from Fig 6(b) (C++ 75 % at 28.7 Kops/s, Java 48 % at 18), so the CPU per
   operation is unchanged. Go and Rust are untouched.

The whole fit took 80 s wall, 20 s CPU (load average 5 on 2 cores). Nothing was set by hand and
nothing was fitted to the 16-vCPU point.

**How the table was computed.** \`npm run fidelity -- --card data/models/${v}.json --cache DIR\`
into an empty cache, every point (the card's table, not a part of it): 726 s wall, 107 s CPU,
under \`nice -n 10\`, load average 19 on 2 cores (28 Nov 2026, 05:31 to 05:43 UTC); then
\`--shard table1\` (the m5.metal search: 35.997 Kops/s) and \`--cached-only\`, which wrote the table
with that row. Go's and Rust's parameters are card ${baseVersion}'s; their rows move only in the third
digit (Go A 32 GiB 49.601 → 49.599 Kops/s), which is main's code since the default's table was
made, not the card.

${outside} It is also worse on held-out points: C++'s maxima at 8 and 6 GiB and in workload B
follow its 28.7 → 34.8 (+19.5 to +21.3 %), so 6 of 10 held-out maxima are within ±15 % (card
${baseVersion}: 10 of 10) and their median error is 8.4 % (2.5 %); the C++-Java gap over 8, 4 and
2 vCPUs grows from −0.4 % to +16.7 %; Fig 4's p99 points fall further below the paper's (2 of
6 within a factor of 2, against 4). What improves: §5.1's ratio, a calibrated row, comes to 10.03
(card ${baseVersion}: 7.36, −26.4 %); Java's calibrated 32 GiB point and utilisation (18.245 Kops/s,
47.4 %); C++'s follower utilisation (30.4 %, the paper's 30); the utilisation median (8.4 → 7.9 pp).
Fig 6(b)'s C++ leader utilisation, calibrated too, goes from 74.4 to 91.0 % (+16 pp): the same
CPU per operation at a higher maximum. I recommend keeping card ${baseVersion} as the default.

**What it changes.** Fig 6(a)'s C++ point is no longer fitted: with the bare-metal step and the
§5.1 hand-off the model's C++ on m5.2xlarge reaches 34.8 Kops/s, where the paper's reaches 28.7.
The hand-off that §5.1's ratio asks for is too small to hold C++ to 28.7: 150 µs gives 30.4 Kops/s
at a ratio of 6.90, 200 µs 26.5 at 5.65 (the fit's runs above), so a hand-off that held C++ at 28.7
would put the ratio near 6, and with the step from Table 1 the ratio and Fig 6(a) cannot both be
met by one hand-off. Java gains at 8 vCPUs (16.3 → 18.2 Kops/s, the paper's 18, −9.4 % →
+1.4 %) and at 16 vCPUs (19.4 → 22.5, the paper's 29, −33 % → −22.5 %), so §5.2's point moves
toward the paper but stays outside ±20 %: the shorter step and the shorter hand-off drain the
backlog of each 200 ms young pause sooner, and the pauses themselves are unchanged (at 16 vCPUs
a 200 ms pause every 44 s decides the p99). Fig 7's 4-vCPU point barely moves (9.447 → 9.395 Kops/s):
there the cores and G1's pauses, not the mutex, hold Java.

**Rust at 4 vCPUs: no card 1.11.1.** §5.4 says Rust's efficiency falls as vCPUs rise (the Log
lock and Tokio's shared I/O driver contended). A CPU cost of contention that grows with the cores
contending and leaves the 8-vCPU calibration as it is would lower Rust's CPU per operation at 4
vCPUs. But the model's Rust at 4 vCPUs is bound by its cores (card ${baseVersion}: 59.2 Kops/s at
98.8 % leader CPU, one search of the table's spec), so a lower cost per operation raises its
maximum and leaves it core-bound: with its message CPU lowered by the 5.7 µs per operation that
such a contention share would free (a share of 15 % at 8 vCPUs, the native harness's 56.9 µs
against the paper's 66.8, scaled by 3 of 7 other cores), the search gives 64.7 Kops/s at 98.8 %.
To stop at 85 % the model's Rust would need a limit other than its cores at 4 vCPUs; the mutex
(3 × 4.757 µs, 70 Kops/s) is the only other one, and reaching it would keep Rust's 4-vCPU
throughput at its 8-vCPU value, against §5.4's "drop similarly" to Go. And no calibrated figure
gives the size of the contention share: the paper states the utilisation only at 8, 4 and
2 vCPUs (the last two held out) and no throughput at 4 or 2; the 15 % above comes from the
native harness, measured on a shared 2-core machine, which the card keeps as a cross-check
only. So the mechanism cannot be stated without fitting the held-out points, and the point
stays a miss.

| paper id | paper | card ${baseVersion} | card ${v} |
|---|---|---|---|
${[...added, ...table].join('\n')}

Default card ${baseVersion}:

${f.defaultSummary}

Candidate card ${v}:

${f.candidateSummary}

`;
}
