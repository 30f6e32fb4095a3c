// The "Candidate card" section of docs/fidelity.md: a card that is not the Lab's default, compared
// row by row with the default's table. The rows come from data/fidelity-candidate-<version>.csv
// (the fidelity generator's table for that card); the text around them is written by hand from
// that run and says how it was made.

export interface ComparedRow {
  id: string;
  paper: string;
  default_sim: number;
  default_error: string;
  candidate_sim: number;
  candidate_error: string;
  candidate_card: string;
}

export interface SectionRow {
  id: string;
  paper: string;
  sim: number;
  error: string;
  card: string;
}

/** The rows whose simulated value differs between the default's table and the candidate's, in the
 * default table's order; a row missing from the candidate's table is an error (the two tables
 * must cover the same points to be compared). */
export function changedRows(defaults: SectionRow[], candidate: SectionRow[]): ComparedRow[] {
  const byId = new Map(candidate.map((r) => [r.id, r]));
  const out: ComparedRow[] = [];
  for (const d of defaults) {
    const c = byId.get(d.id);
    if (!c) throw new Error(`candidate table has no row ${d.id}`);
    if (c.sim === d.sim) continue;
    out.push({ id: d.id, paper: d.paper, default_sim: d.sim, default_error: d.error, candidate_sim: c.sim, candidate_error: c.error, candidate_card: c.card });
  }
  return out;
}

/** Parameters of two cards that differ, leaving out the storage model's (`storage.*`), which a run
 * without durability never reads. Empty: the two cards give the same figures for such runs. */
export function differingNonStorageParameters(a: Record<string, { value: unknown }>, b: Record<string, { value: unknown }>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !k.startsWith('storage.')));
  return [...keys].filter((k) => JSON.stringify(a[k]?.value) !== JSON.stringify(b[k]?.value)).sort();
}

export const CANDIDATE_VERSION = '1.4.0';

export function candidateSection(changed: ComparedRow[], defaultVersion: string, defaultSummary: string, candidateSummary: string): string {
  const table = changed.map((r) => `| ${r.id} | ${r.paper} | ${r.default_sim} (${r.default_error}) | ${r.candidate_sim} (${r.candidate_error})${r.candidate_card !== CANDIDATE_VERSION ? ` (card ${r.candidate_card}: not recomputed)` : ''} |`);
  return `## Candidate card ${CANDIDATE_VERSION} (not the Lab's default)

[data/models/${CANDIDATE_VERSION}.json](../data/models/${CANDIDATE_VERSION}.json) adds G1's pause-time goal to the
eden sizing (\`g1.pause_goal_ms\`, MaxGCPauseMillis 200 ms: eden no larger than the one whose
predicted young pause meets the goal, never below G1NewSizePercent's 5 % of the heap), takes
Java's Log-mutex step from C++'s, and calibrates Java's young-pause copy cost
(\`g1.copy_ns_per_byte\`) on Java's 32 GiB point (Fig 6(a), 18 Kops/s at 48 %). Its full table is
[data/fidelity-candidate-${CANDIDATE_VERSION}.csv](../data/fidelity-candidate-${CANDIDATE_VERSION}.csv). The rows whose simulated value
differs from the default card ${defaultVersion}'s (simulated, error against the paper):

| paper id | paper | default ${defaultVersion} | candidate ${CANDIDATE_VERSION} |
|---|---|---|---|
${table.join('\n')}

Java's workload A memory sweep (8 vCPUs, Kops/s at the SLO; not rows of the paper's table, Fig 6(a)
shows Java flat from 32 to 8 GiB, then falling): default 18.05, 18.05, 16.60, 2.60 at 32, 8, 6,
5 GiB; candidate 18.05, **23.42**, 17.67, 2.67.

Summary of the candidate's table (computed from it as above):

${candidateSummary}

Against the default's:

${defaultSummary}

**What improves.** The idle-core effect of Fig 7: with the pause goal, half the vCPUs give half
the GC threads, so the same goal allows half the eden and G1 stops the program twice as often;
Java at 4 vCPUs falls from 15.7 to 10.8 Kops/s (paper 7) and its leader utilisation from 84 % to
57 % (paper 38 %). Java's Log-mutex step taken from C++'s lets workload B's reads through at
32 GiB (28.2 Kops/s, paper 27), so the C++ : Java and Java : Go ratios of workload B at 32 GiB
come within 15 %.

**What breaks, and why it is not the default.** The sweep is no longer monotone: Java at 8 GiB
(23.4 Kops/s) is faster than at 32 GiB (18.05), where the paper is flat. The cause is G1's floor
on the young generation (G1NewSizePercent, 5 % of the heap): at 32 GiB it keeps eden at 1.6 GiB
whatever the goal says, and the copy cost calibrated on that point (about 4 times what a
realistic copy rate gives) makes each of those young pauses long enough to set the limit there;
at 8 GiB the floor is 0.4 GiB, the pauses stay under the SLO and the serialized section limits
instead. Java's workload B at 5 GiB also rises to 25.2 Kops/s (paper 17; not traced to its
cause), and its Fig 4 p99s move from above the paper's to below it. A card that moves Java's
workload B at 5 GiB and the C++ : Java ratio there outside ±15 %, Java's 8 GiB utilisation to
+22.7 pp and breaks the shape of Fig 6 is not the Lab's card.

**How it was computed.** The generator has no card option: \`DEFAULT_CARD\` in
sim/src/models/card.ts was pointed at data/models/${CANDIDATE_VERSION}.json in a working copy (not committed),
the sweeps computed one per process with
\`nice -n 5 npm run --silent fidelity -- --cache DIR --shard sweep:N[:ENGINE]\` (N = 0, 1, 2, 3;
\`--shard runs\` for the runs without a search), and the table written from that cache with
\`npm run fidelity -- --cache DIR --cached-only\`; the rows it could not take from the cache keep
the default's value and say so (two: the §5.1 latency ratio and Java at 16 vCPUs). The Fig 7(a) point is held by sim/src/fidelity/fidelity.test.ts
(card ${CANDIDATE_VERSION}: meets the SLO at 5 Kops/s, misses it at 12.6).

**Go's p99 at 5 GiB.** The paper's Go p99 at 5 GiB is 154 ms (A) and 156 ms (B); cards up to
1.4.0 give tens of ms, the CPU of the assists a request does itself. Card 1.5.0 (below) adds the
runtime's parked assists and checks the hypothesis written here before.

`;
}
