// Where the model is known to fall short of the paper, and why: one list, rendered into
// docs/fidelity.md by `npm run fidelity` and shown by the Lab beside a simulated point that
// lands outside ±15 % of the paper's value. Each limit names the paper points it explains.

export interface ModelLimit {
  title: string;
  text: string;
  /** Paper ids (data/paper/paper-values.csv) whose misses this limit explains. */
  ids: string[];
}

/** A simulated point further than this from the paper's value is marked in the Lab. */
export const TOLERANCE_PERCENT = 15;
/** A simulated leader utilisation further than this (percentage points) from the paper's is
 * marked in the Lab (the criterion: held-out utilisations within 7 pp at the median). */
export const UTILIZATION_TOLERANCE_PP = 7;

export const MODEL_LIMITS: ModelLimit[] = [
  {
    title: 'What limits Java with ample memory',
    text:
      "Since card 1.5.0 the model has G1's pause-time goal with the GC threads following the vCPUs: at 4 vCPUs half the threads " +
      'allow half the eden for the same 200 ms goal, so the program stops twice as often, and Java falls from the 15.7 Kops/s the ' +
      "cores allow (cards up to 1.3.0) to about 9.5, against the paper's 7. What remains: the model's Java at 4 vCPUs meets the SLO " +
      'up to 9.5 Kops/s, with a 200 ms young pause about every 33 s and the backlog after it; the paper\'s misses it above 7 at the ' +
      'same CPU per operation as at 8 vCPUs (0.38 × 4 / 7 Kops/s = 217 µs, 0.48 × 8 / 18 Kops/s = 213 µs), so there G1 needs ' +
      'more idle cores than the model gives it: work the model does not have, such as concurrent refinement threads and the 64+ ' +
      'request threads competing with the GC threads for 4 cores, or a concurrent marking cycle (the model\'s 32 GiB heap starts ' +
      "none in 30 minutes). At 16 vCPUs (64 GiB) the model's Java is held near 19 Kops/s (card 1.7.0's Log-mutex step, C++'s " +
      "10.9 µs; card 1.6.0's hand-set 8 µs gave 21) by the backlog each 200 ms young pause leaves behind the Log mutex, " +
      "where the paper's reaches 29: C++'s step alone would allow 30.5 Kops/s, so the paper's 29 implies a shorter serialized step " +
      "in Java than in C++, or shorter young pauses with 13 GC threads, which the model does not have. At 8 GiB the heap bounds " +
      'eden below the size the 200 ms goal would give, so the model\'s young pauses there are tens of ms, and its Java reaches ' +
      "16 to 23 Kops/s, as much as at 32 GiB or more, where the paper's falls (Fig 6(a)); its utilisation follows (Fig 6(b): 43 %). " +
      "The mechanism: in card 1.7.0 the garbage an update leaves outside the sparse regions stays until a full collection, " +
      'and at 8 GiB none comes within 10 minutes, so the heap fills with it, eden shrinks to the least the heap allows and the ' +
      'settled collector (where each probe starts) pauses about 12 ms every second at 20 Kops/s, under the 20 ms SLO: the ' +
      'tighter the heap, the shorter the pauses. So at 5, 6 and 8 GiB only the full collection decides the p99: a cold search ' +
      "of the table's spec (npm --workspace @replicant/sim run one-search -- --engine java --gib G, card 1.7.1, load average 9 to " +
      '11 on 2 cores) ends at 2.67, 10.08 and 23.14 Kops/s, each where the full collection (1.83 s) comes within the 600 s ' +
      'window (periods 360, 518 and 598 s), so the answer grows with the room the heap leaves the garbage; at 32 GiB a 200 ms ' +
      "young pause every 37 s decides it (16.31 Kops/s). The paper's 43 % and 39 % at 8 and 6 GiB, at its 32 GiB CPU per " +
      "operation (213 µs), mean about 16 and 15 Kops/s, near its 18 at 32 GiB: there something holds the paper's Java near its " +
      "32 GiB rate that the model's pauses at those heaps (about 12 ms at 8 GiB) are too short to do. " +
      "In G1 that garbage lies in the map's own regions; once it puts their live share " +
      'below G1MixedGCLiveThresholdPercent (85 %) a marking cycle makes every one of them a candidate, and the mixed phase ' +
      'copies the live map out an eighth per collection. Candidate card 1.8.0 (data/models/1.8.0.json, g1.dense_candidates, ' +
      "nothing fitted) has that: at 8 GiB a burst of eight ~154 ms pauses every 3 to 7 minutes, and between bursts 40 to 55 ms " +
      'pauses every few seconds, so its Java A at 8 GiB meets the SLO up to 11.05 Kops/s at 30.1 % leader CPU (card 1.7.0: 23.2 Kops/s at ' +
      "70.4 %), overshooting the paper's 43 % the other way (-12.9 pp against +27.5), and at 6 GiB, where the burst now comes " +
      "before the full collection, 13.8 Kops/s at 40.7 % (paper 39 %; card 1.7.0 33.6 %): the searches of the table's spec " +
      '(sim/src/fidelity/specs.ts) for these two points, cold-started, with the steady-state shortcut held to the plain run ' +
      "for the burst (sim/src/run/shortcut.test.ts; before that fix they gave 10.3 Kops/s at 27.8 % and 12.7 at 38.1 %). The " +
      "rest of that overshoot was the model's two followers, allocating alike from the same state, pausing at the same instant, " +
      "so that each 40 to 55 ms young pause stopped every operation (the leader needs one follower's vote). Candidate card 1.8.1 " +
      '(g1.independent_phases, nothing fitted) starts each JVM at its own seeded point of its young cycle, the old generation ' +
      "in step: its whole table puts Java A at 8 GiB at 14.98 Kops/s and 40.6 % leader CPU (paper 43 %, -2.4 pp), but at 6 GiB " +
      "at 17.5 Kops/s and 54.8 % (+15.8 pp), and it lifts the calibrated 5 GiB point to 4.67 Kops/s (+55.6 %): there the " +
      "followers' 1.8 s full collections no longer coincide, and the model lets the other follower cover each one, where the " +
      "paper's heartbeat waits for every peer and a follower that hears none for 225 to 300 ms starts an election (docs/fidelity.md, " +
      "'Candidate card 1.8.1'). Candidate card 1.8.2 added that heartbeat: each full collection then cost elections and a " +
      "replay longer than the pause, the calibrated 5 GiB point fell to 1.61 Kops/s (-46 %) and Go's 5 GiB p99s rose to 10 " +
      "minutes, so it was retired (docs/fidelity.md, 'Tried and not taken'). So no candidate is the default.",
    ids: [
      'fig7a-java-a-32gib-4vcpu-max-throughput-slo',
      'fig7b-java-a-32gib-4vcpu-vcpu-utilization-leader',
      'fig6b-java-a-8gib-8vcpu-vcpu-utilization-leader',
      'fig7a-cpp-vs-java-a-32gib-throughput-gap-avg',
      'sec5-2-java-a-16vcpu-max-throughput-slo',
    ],
  },
  {
    title: 'One CPU cost per operation, whatever it does',
    text:
      'Every operation, read or update, is one log instance: three core steps and six messages on the leader. A read allocates less ' +
      'than an update (measured), so workload B collects less often than A; where CPU or the serialized section sets the limit, B ' +
      "comes out near A's throughput, and the leader's utilisation at B's maximum is A's CPU per operation at B's rate (Fig 8(b): " +
      "the paper's Java spends 178 µs per operation in B, 0.60 × 8 / 27 Kops/s, against 213 µs in A). Since card 1.7.0 the garbage " +
      "G1's mixed collections can take is reclaimed once, as it is made, and the rest waits for a full collection: at 5 GiB the full " +
      'collections come at a period set by the updates, so workload B (5 % updates) meets one every 9 to 10 minutes at 17 Kops/s ' +
      "where A (50 %) meets one every 5.5 minutes at 3 Kops/s, and B's maximum falls to about 16 Kops/s (Fig 8(a): 17). Cards " +
      "before 1.7.0 took a share of all old garbage at every marking cycle, and B's reads, filling the least eden every half second, " +
      'made G1 mark often enough that it never reached a full collection (27 Kops/s at 5 GiB). Candidate card 1.10.0 took a ' +
      "read's CPU as a measured share of an update's (Java's leader 0.685, from a run on a loaded machine), which put Fig 8(b) " +
      "at 60.8 %; on a quiet machine our engines' leaders spend within 6 % as much on a read as on an update (Java 1.03 at " +
      "1,000 ops/s), which puts Fig 8(b) at 73.7 %, so it was retired (docs/fidelity.md, 'Tried and not taken'): what makes the " +
      "paper's Java spend less per operation in B is not in our measurements.",
    ids: [
      'fig8a-java-b-32gib-8vcpu-max-throughput-slo',
      'fig8a-java-b-5gib-8vcpu-max-throughput-slo',
      'sec5-3-cpp-vs-java-b-5gib-8vcpu-throughput-ratio',
      'fig8b-java-b-32gib-8vcpu-vcpu-utilization-leader',
      'sec5-3-cpp-vs-java-b-32gib-8vcpu-throughput-ratio',
      'sec5-5-java-vs-go-b-32gib-8vcpu-throughput-ratio',
      'fig11a-go-b-32gib-8vcpu-max-throughput-slo',
    ],
  },
  {
    title: "Go's collector at a tight memory limit",
    text:
      'The 5 GiB failure needs a live heap at GOMEMLIMIT (the calibrated bytes per record): cycles then run back to back, and the ' +
      "idle-time mark workers take nearly all the CPU the program leaves idle (Fig 12(a)'s bursts), so a cycle marks the 5.25 GB " +
      'live heap at 0.3 ns/B on all 8 cores in about 200 ms. Since card 1.5.0 an allocation past the heap goal parks its goroutine ' +
      'until the cycle ends, and since 1.6.0 each node collects at its own phase: a request waits for the rest of the leader\'s ' +
      "cycle and the rest of the earlier follower's, one cycle on average, about 300 ms at the p99 against the paper's 154, within " +
      'its factor of 2 but high: the model wakes a parked assist only at the end of the cycle, where the runtime also wakes it as ' +
      "background credit pays its debt. Since card 1.7.1 (the Lab's default; two constants of Go's runtime, nothing fitted) " +
      "the memory limit's heap goal keeps the runtime's 3 % headroom, so at 8 and 6 GiB cycles come more often, and an idle-time " +
      'mark worker checks for work every 30 µs of marking. Cycles at 5 GiB, back to back at about 200 ms each, come 8.1 times as ' +
      "often as at 6 GiB against the paper's 5 times (card 1.7.0: 9.5): at 6 GiB the model's cycles are still rarer than the " +
      "paper's (a cycle runs 28.7 % of the time, the paper's 40 %; 42.9 % GC share while it does, the paper's 55 %). " +
      'With ample memory the instantaneous GC share stays near the dedicated 25 % plus the ' +
      "little idle time the maximum load leaves, below the paper's 50 %: at Go's maximum (49.6 Kops/s, 32 GiB) the leader's " +
      'cores are full while a cycle runs (69 % between cycles, 100 % over the 0.64 s a cycle lasts), so the idle-time workers ' +
      "have nothing more to take; the paper's 50 % with the leader at 71 % overall (Fig 9(b)) needs the program to give up cores " +
      "during a cycle; card 1.7.1's 30 µs check leaves the 32 GiB share at 31 % (docs/fidelity.md, 'Card 1.7.1 against the " +
      "previous default 1.7.0').",
    ids: [
      'fig11a-go-b-5gib-8vcpu-max-throughput-slo',
      'sec5-5-go-b-5gib-8vcpu-p99-latency-intended',
      'sec5-4-go-a-5gib-8vcpu-p99-latency-intended',
      'fig12a-go-a-5gib-8vcpu-gc-instantaneous-vcpu-utilization',
      'fig12a-go-a-6gib-8vcpu-gc-instantaneous-vcpu-utilization',
      'fig12a-go-a-32gib-8vcpu-gc-instantaneous-vcpu-utilization',
      'fig12b-go-a-6gib-8vcpu-gc-runtime-share',
      'fig12b-go-a-5gib-8vcpu-gc-runtime-share',
      'fig12a-go-a-8vcpu-gc-frequency-multiplier-6to5gib',
      'fig12a-go-a-8vcpu-gc-frequency-multiplier-32to8gib',
    ],
  },
  {
    title: 'Lock contention costs no CPU here',
    text:
      "A thread waiting for the Log mutex gives its core back, so the leader's utilisation counts only work, and each engine has " +
      "one CPU cost per operation, calibrated at 8 vCPUs. The paper's Rust spends CPU on contention that grows with the cores — " +
      "its Log lock and Tokio's shared I/O driver (§5.4: its efficiency falls as vCPUs rise) — so at 8 vCPUs its calibrated cost " +
      'per operation holds contention that 4 vCPUs have less of. The model\'s Rust at 4 vCPUs therefore runs out of cores (about ' +
      "100 % at its maximum) where the paper's stops at 85 % (Fig 10(b)).",
    ids: ['fig10b-rust-a-32gib-4vcpu-vcpu-utilization-leader', 'fig10b-rust-a-32gib-2vcpu-vcpu-utilization-leader'],
  },
  {
    title: 'Latency at light load',
    text:
      "Since card 1.2.0 each message waits for its reader thread (the gRPC builds' hand-off, set by the paper's 2 ms average of " +
      "Fig 3), so C++'s operation takes about 2 ms and its service-time p99 at 20 Kops/s a few ms; the TCP builds have no room for one " +
      '(Little\'s law at their throughput with 64 clients). The rest of a real p99 — kernel scheduling of 64+ threads on 8 cores, gRPC ' +
      "flow control — is not modelled. Java's intended p99 at 20 Kops/s with 2 M records in 5 GiB (Fig 4(b), 966 ms) is decided by " +
      "how long its collections stop it: card 1.3.0's full collections inside the 60 s run gave seconds, card 1.5.0's G1, sized " +
      'for its 200 ms goal, gives tens of ms. The spec is the paper\'s (Fig 3\'s 2 M records, 5 GiB, 64 client threads, 20 Kops/s, ' +
      "latency from each request's intended start; the paper states no duration, the table runs 60 s, and its 20 s warm-up " +
      'instead of 2 s gives 40 ms, not 34): the model is what misses. Its 2 M records are a live heap of about 1.3 GB in 5 GiB, ' +
      'so from card 1.7.0 on (card 1.7.1 too) its G1 makes only young pauses there, 51 ms about every 5.6 s on the leader and ' +
      '60 ms on the followers (the longest wait 88 ms), and the window\'s dry run finds no full collection frequent enough to ' +
      'matter to the p99; one would stop it about 0.5 s (1.3 GB at 3 ns/B on 8 threads). The paper\'s 966 ms needs 1 % of the operations to wait ' +
      'that long: 12,000 of a 60 s run at 20 Kops/s. After a stop of P s the 64 threads catch up at about 35 Kops/s (64 over ' +
      'the 1.8 ms an operation takes), so λ(P − 0.966)·C/(C − λ) operations wait longer, which is 12,000 only for a stop of ' +
      'about 1.2 s; so the paper\'s Java stopped for more than a second, or fell behind for seconds, at a heap the model ' +
      "finds ample. Its service-time p99 (Fig 4(a), 8 ms against C++'s 5) says the same from the other side: the model's Java " +
      "and C++ both read 2.6 to 2.7 ms there, as a pause of tens of ms every few seconds reaches far fewer than 1 % of " +
      'the operations a closed loop measures. Nor is the record count what misses: §4.3 loads 7.5 M records wherever a figure ' +
      "names no other count, and 5 GiB is the paper's tightest memory for them (ratio 1.25), so Fig 4 read that way is the same " +
      'spec with 7.5 M records (npm run sim -- run --engine java --records 7500000 --ratio 1.25 --target 20000 --duration-s 60 ' +
      "--warmup-s 2 --fidelity fast). There C++ is unchanged (2.62 ms both ways) and the model's Java overshoots instead: an " +
      'intended p99 of 3.33 s (+245 %). At 20 Kops/s its full collections (1.83 s) come every 50 s, and the three nodes reach ' +
      "theirs after the same count of updates: both followers stop at 48.9 s, and the leader, whose updates wait while " +
      'they are stopped, reaches its own at 51.1 s, just after, so the cluster serves nothing for 4.1 s and 5 % of the ' +
      "operations wait over 2.7 s (over the 10 minutes of §5.1's runs, --duration-s 600, one such stop every 50 s: 2.82 s, " +
      '+192 %, and 3.65 ms). Its service-time p99 ' +
      "is 3.21 ms (-60 %), at a knee beside the paper's 8: 0.8 % of the operations wait out a young or mixed pause of 9 to 11 ms " +
      '(the p99.2 is 9.4 ms), just under the 1 % that would put the p99 there. So the paper\'s 966 ms lies between the ' +
      "model's two readings, 34 ms with 2 M records and 3.33 s with 7.5 M, neither within its factor of 2; the table keeps " +
      "the text's reading (Fig 3(a)'s 2 M records).",
    ids: [
      'fig4a-cpp-a-5gib-8vcpu-p99-latency-service-time',
      'fig4b-cpp-a-5gib-8vcpu-p99-latency-intended',
      'fig4a-java-a-5gib-8vcpu-p99-latency-service-time',
      'fig4b-java-a-5gib-8vcpu-p99-latency-intended',
    ],
  },
];

/** The known limit that explains a miss at this paper point, if any. */
export function limitFor(paperId: string): ModelLimit | null {
  return MODEL_LIMITS.find((l) => l.ids.includes(paperId)) ?? null;
}
