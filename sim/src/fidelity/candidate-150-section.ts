// The "Candidate card 1.5.0" section of docs/fidelity.md. Card 1.5.0 was computed point by point
// (the searches and runs named below), not as a whole table: the text is written by hand from
// those runs and says which points it covers.

export const CARD_150_SECTION = `## Candidate card 1.5.0 (not the Lab's default)

[data/models/1.5.0.json](../data/models/1.5.0.json) keeps card 1.3.0's costs and adds three
mechanisms, none fitted to the paper:

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
the spec's \`model_card\` (the Lab's measurement):

| paper id | paper | default 1.3.0 | candidate 1.5.0 |
|---|---|---|---|
| fig6a-java-a-32gib-8vcpu-max-throughput-slo (calibration) | 18 Kops/s | 18.054 (+0.3 %) | 12.261 (-31.9 %) |
| fig7a-java-a-32gib-4vcpu-max-throughput-slo | 7 Kops/s | 15.703 (+124.3 %) | 9.139 (+30.6 %) |
| sec5-4-go-a-5gib-8vcpu-p99-latency-intended | 154 ms | 26.223 (-83 %) | 392.703 (+155 %) |
| sec5-5-go-b-5gib-8vcpu-p99-latency-intended | 156 ms | 21.055 (-86.5 %) | 392.703 (+151.7 %) |

**What improves.** Fig 7 for the reason the paper gives: at 4 vCPUs G1 has 4 GC threads, so the
same 200 ms goal allows half the eden and the program stops twice as often; Java falls to
9.1 Kops/s (paper 7) where cards up to 1.3.0 stay at the 15.7 the cores allow. Go's p99 at
5 GiB is now a wait for the end of a GC cycle, the order of the paper's (393 ms against 154; a
leader's and a follower's wait add up: each cycle marks the 5.25 GB live heap at 0.3 ns/B on all
8 cores, about 200 ms). Go still fails the SLO at 100 ops/s with 5 GiB (A and B), the paper's
bound.

**What breaks, and why it is not the default.** Java's calibration point: at 32 GiB and 8 vCPUs
the settled G1 pauses 200 ms every 30 to 40 s, and with 1.3.0's Log-mutex step the serialized
section is near saturation at 18 Kops/s, so the backlog a pause leaves drains too slowly and
the SLO fails above 12.3 Kops/s. Fitting the step again on that point (\`npm --workspace
@replicant/sim run calibrate -- --card data/models/1.5.0.json --engine java --cpu-only\`) is
the next step; two hand-set steps were tried at 4 vCPUs (10.908 µs, C++'s, and 8.0 µs, with the
message CPU re-derived from Fig 6(b)'s 48 %): both give 9.44 Kops/s there. The whole table
(Java's memory sweep, workload B, 16 vCPUs, the utilisations) was not computed with card 1.5.0,
so it cannot be judged against the issue's tolerances as a whole and stays a candidate. The
points above are held by sim/src/fidelity/fidelity.test.ts.

`;
