// The "Tried and not taken" section of docs/fidelity.md: candidate cards whose mechanism lost and
// was taken out of sim/ again. One row each: the mechanism, what it fixed, what it broke, and the
// commit where its code, card and whole table can still be read. Written by hand from the tables
// those cards had (their sections in docs/fidelity.md at that commit); no table is read here, so
// the text does not change when the default's table is recomputed. Every figure is simulated
// (fast mode, the table's specs) and names its card.

/** The last commit that holds the retired mechanisms' code, cards and tables. */
export const RETIRED_AT_COMMIT = '562fbcc';

export interface TriedMechanism {
  card: string;
  mechanism: string;
  fixed: string;
  broke: string;
}

export const TRIED: readonly TriedMechanism[] = [
  {
    card: '1.8.2 (on 1.8.1)',
    mechanism: "The paper's heartbeat: the leader's commit round waits for every peer, and a follower that hears none for 1.5 to 2 commit intervals (225 to 300 ms) starts an election; the winner replays one instance per round trip (`commit.waits_for_all_peers`, `commit.election_wait_*_intervals`, fast mode only).",
    fixed: 'Fig 6(b) Java A 8 GiB leader 70.4 → 38.7 % (paper 43 %, −4.3 pp); the followers no longer cover for each other during a full collection, as in card 1.8.1.',
    broke: 'Calibrated Java A 5 GiB to 1.61 Kops/s (−46.3 %; the C++/Java ratio at 5 GiB +84.3 %): each election cost more than the pause behind it. Go at 5 GiB p99s 641 s (A) and 595 s (B) against 154 and 156 ms; p99 points within 2× 4 → 2 of 6; Fig 4(b) Java 16.8 ms against 966.',
  },
  {
    card: '1.9.0 (on 1.7.1)',
    mechanism: "Go's pacer sets each cycle's goal over the heap last marked and its trigger from the measured cons/mark ratio, 45/64 to 61/64 of the way to the goal (`go.pacer_trigger`, `go.pacer_cons_mark_mean_of_two`; runtime/mgcpacer.go).",
    fixed: 'Fig 12(a) GC share 32 GiB −18.9 → −13.6 pp, 6 GiB −12.1 → −8.7 pp; 32 → 8 GiB frequency multiplier −7.1 → +5 %; utilisation median 8.4 → 7.1 pp.',
    broke: 'Fig 12(b) 6 GiB runtime share −11.3 → −16.6 pp; 6 → 5 GiB frequency multiplier +61.7 → +83.4 %; still 7 of 14 utilisations within 7 pp.',
  },
  {
    card: '1.10.0 (on 1.7.1)',
    mechanism: "CPU by operation kind: a read costs each role the share of an update that the native harness's CPU per operation on workloads A and B gives, at the same workload-A mean (`cpu.<engine>.<role>_<op>_factor`, from measured card 0.1.0-measured.20261122, 1,000 ops/s on a loaded machine; Java's leader read/update 0.685).",
    fixed: 'Fig 8(b) Java B leader 71.8 → 60.8 % (paper 60 %); utilisation median 8.35 → 6.35 pp.',
    broke: "Nothing in the table; refuted by the quiet calibration (data/models/measured/2026-11-28-quiet/): the same command with its 1,000 ops/s card gives Java's leader read/update 1.026 (12,000 ops/s: 1.186), and the whole table with those factors (all four engines; the card written by `calibrate --card data/models/1.7.1.json --op-cpu data/models/measured/2026-11-28-quiet/0.1.0-measured.20261128.json`) puts Fig 8(b) at 73.7 % (+13.7 pp, default +11.8) and the utilisation median at 8.3 pp (91 s wall, load average 5 on 2 cores, 28 Nov 2026).",
  },
  {
    card: '1.10.1 (on 1.10.0)',
    mechanism: "Card 1.10.0's factors with card 1.9.0's Go pacer.",
    fixed: "Card 1.10.0's Fig 8(b); the pacer's Fig 12(a) shares (32 GiB −13.2 pp, 6 GiB −8.7 pp).",
    broke: "The pacer's Fig 12(b) 6 GiB share (−15.9 pp) and 6 → 5 GiB multiplier (+78.1 %); its factors refuted as card 1.10.0's.",
  },
];

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function triedSection(rows: readonly TriedMechanism[] = TRIED, commit = RETIRED_AT_COMMIT): string {
  const lines = rows.map((r) => `| ${cell(r.card)} | ${cell(r.mechanism)} | ${cell(r.fixed)} | ${cell(r.broke)} |`);
  return `## Tried and not taken

Candidate cards whose mechanism lost against the default and was taken out of the simulator
again; none is in the Lab. Their code, cards, whole tables and full sections can still be read
at commit ${commit} (\`git show ${commit}:docs/fidelity.md\`; the cards in data/models/, the tables in
data/fidelity-candidate-<version>.csv). Every figure is simulated, fast mode, with the card named.

| card | mechanism | what it fixed | what it broke |
|---|---|---|---|
${lines.join('\n')}

`;
}
