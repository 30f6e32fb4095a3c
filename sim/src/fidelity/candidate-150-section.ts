// The "Candidate card 1.5.0" section of docs/fidelity.md. Card 1.5.0 was computed point by point
// (the searches and runs named below), not as a whole table: the text is written by hand from
// those runs and says which points it covers.

export const CARD_150_SECTION = `## Candidate card 1.5.0 (not the Lab's default)

[data/models/1.5.0.json](../data/models/1.5.0.json) keeps card 1.3.0's costs except Java's
Log-mutex step (below) and adds three mechanisms, none fitted to the paper:

- **G1 with a realistic copy cost.** Young pauses copy at 1.5 ns per surviving byte per GC thread
  (\`g1.copy_ns_per_byte\`, from a public G1 log: 23 workers, 46.7 ms of Object Copy each, 698 MB
  of survivors; card 1.4.0 fitted 5.93 on Fig 6(a)). What card 1.4.0's fit stood for is modelled
  instead: survivors age (\`g1.max_tenuring_threshold\` 15, \`g1.survivor_target_fraction\` 1/16
  of eden, OpenJDK's defaults), so a pause copies the survivor space again, not only what was
  written since the last pause. With the pause-time goal (200 ms) and the GC thread count
  following the vCPUs, G1 sizes eden for its settled survivor space; a run whose window is
  decided by young pauses starts from the settled collector (sim/src/run/measurement.ts), as the
  paper measured after loading and a 20 s warm-up.
- **Go's parked assists.** An allocation past the heap goal owes the rest of the cycle's mark
  work; the goroutine marks its share and waits on the runtime's assist queue until the cycle
  ends (\`go.park_assists\`), holding neither a core nor the Log mutex.

Computed with \`searchSlo(fidelitySearchSpec(...))\` and the fidelity runs, card 1.5.0 passed as
the spec's \`model_card\` (the Lab's measurement); Go's rows by the generator's own sweeps
(\`npm run fidelity -- --cache DIR --shard sweep:0:go\`, \`sweep:2:go\`, \`runs\` with
\`DEFAULT_CARD\` pointed at 1.5.0 in a working copy; Go at 6 GiB: 42.6 Kops/s, 1.3.0 43.1):

| paper id | paper | default 1.3.0 | candidate 1.5.0 |
|---|---|---|---|
| fig6a-java-a-32gib-8vcpu-max-throughput-slo (calibration) | 18 Kops/s | 18.054 (+0.3 %) | 16.876 (-6.2 %) |
| fig7a-java-a-32gib-4vcpu-max-throughput-slo | 7 Kops/s | 15.703 (+124.3 %) | 9.441 (+34.9 %) |
| fig9a-go-a-32gib-8vcpu-max-throughput-slo (calibration) | 49.8 Kops/s | 49.543 (-0.5 %) | 49.598 (-0.4 %) |
| fig9a-go-a-5gib-8vcpu-max-throughput-slo (calibration) | < 0.1 Kops/s | 0 (within bound) | 0 (within bound) |
| fig11a-go-b-32gib-8vcpu-max-throughput-slo | 55 Kops/s | 49.543 (-9.9 %) | 49.6 (-9.8 %) |
| fig11a-go-b-5gib-8vcpu-max-throughput-slo | < 0.1 Kops/s | 0 (within bound) | 0 (within bound) |
| sec5-4-go-a-5gib-8vcpu-p99-latency-intended | 154 ms | 26.223 (-83 %) | 392.703 (+155 %) |
| sec5-5-go-b-5gib-8vcpu-p99-latency-intended | 156 ms | 21.055 (-86.5 %) | 392.703 (+151.7 %) |

**What improves.** Fig 7 for the reason the paper gives: at 4 vCPUs G1 has 4 GC threads, so the
same 200 ms goal allows half the eden and the program stops twice as often; Java falls to
9.4 Kops/s (paper 7) where cards up to 1.3.0 stay at the 15.7 the cores allow. Go's p99 at
5 GiB is now a wait for the end of a GC cycle, the order of the paper's (393 ms against 154; a
leader's and a follower's wait add up: each cycle marks the 5.25 GB live heap at 0.3 ns/B on all
8 cores, about 200 ms). Go still fails the SLO at 100 ops/s with 5 GiB (A and B), the paper's
bound.

**Java's Log-mutex step, set by hand.** With 1.3.0's step (18.366 µs) the serialized section is
near saturation at 18 Kops/s, so the backlog each 200 ms pause leaves drains too slowly and Java
at 32 GiB, 8 vCPUs falls to 12.3 Kops/s. Two steps were tried on that point (the calibration
set's): C++'s 10.908 µs gives 16.2 Kops/s (4 vCPUs: 9.4), 8.0 µs gives 16.9 (4 vCPUs: 9.4); the
card takes 8.0 µs with the message CPU re-derived from Fig 6(b)'s 48 %. The fit has not
converged (\`npm --workspace @replicant/sim run calibrate -- --card data/models/1.5.0.json
--engine java --cpu-only\` has not been run on this card).

**Why it is not the default.** Only the rows above were computed with card 1.5.0. Java's memory
sweep (8, 6, 5 GiB), Java's workload B, Java at 16 vCPUs, the utilisations and GC shares and the
Fig 4 latencies were not, so the card cannot be
judged against the issue's tolerances as a whole; a smaller Log-mutex step also lets Java at
8 GiB (short pauses: eden there is held to what the heap leaves) run faster than at 32 GiB,
which card 1.4.0 showed, and that has not been checked here. Java at 4 vCPUs is still +35 %
(the vCPU tolerance is ±20 %) and Go's 5 GiB p99 a factor 2.5 above the paper's (the tolerance
is a factor 2). The Fig 7 and Go points are held by sim/src/fidelity/fidelity.test.ts.

`;
