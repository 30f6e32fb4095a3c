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
      "Calibration has to place Java's 18 Kops/s at 48 % utilisation somewhere; with ample heap the G1 model sees young pauses rarely " +
      '(eden is 60 % of -Xmx, so one every minute or so) and short, so the limit lands on the serialized section (the Log mutex). The ' +
      "model has no mechanism by which G1 needs idle cores. The paper's own figures say what one must do: Java's leader CPU per " +
      'operation is the same at 8 and 4 vCPUs (0.48 × 8 / 18 Kops/s = 213 µs, 0.38 × 4 / 7 Kops/s = 217 µs), so at 4 vCPUs something ' +
      'other than CPU holds the p99 at 38 % utilisation — collector bursts long enough to push operations past the SLO, frequent enough to ' +
      "touch 1 % of them, and twice as long with half the GC threads. The paper's Java falls to 7 Kops/s at 4 vCPUs and rises to 29 Kops/s " +
      "at 16; the model's stays where the mutex and the cores allow.",
    ids: [
      'fig7a-java-a-32gib-4vcpu-max-throughput-slo',
      'fig7b-java-a-32gib-4vcpu-vcpu-utilization-leader',
      'fig7a-cpp-vs-java-a-32gib-throughput-gap-avg',
      'sec5-2-java-a-16vcpu-max-throughput-slo',
    ],
  },
  {
    title: 'One CPU cost per operation, whatever it does',
    text:
      'Every operation, read or update, is one log instance: three core steps and six messages on the leader. A read allocates less ' +
      'than an update (measured), so workload B collects less often than A; but where CPU or the serialized section sets the limit ' +
      "(ample memory) B comes out at A's throughput, while the paper's B is faster there, most of all for Java.",
    ids: [
      'fig8a-java-b-32gib-8vcpu-max-throughput-slo',
      'fig8b-java-b-32gib-8vcpu-vcpu-utilization-leader',
      'sec5-3-cpp-vs-java-b-32gib-8vcpu-throughput-ratio',
      'sec5-5-java-vs-go-b-32gib-8vcpu-throughput-ratio',
      'fig11a-go-b-32gib-8vcpu-max-throughput-slo',
    ],
  },
  {
    title: "Go's collector at a tight memory limit",
    text:
      'The 5 GiB failure needs a live heap at GOMEMLIMIT (the calibrated bytes per record): cycles then run back to back. Since card ' +
      "1.2.0 the model has Go's idle-time mark workers, so a cycle takes nearly all the CPU the program leaves idle (Fig 12(a)'s bursts) " +
      'and ends sooner, and workload B fails at 5 GiB as A does. What decides the p99 there is still only the assists an allocating ' +
      "request must do: tens of ms, not the paper's 154 ms; the model has no scheduler that keeps a request's goroutine waiting behind " +
      'the mark workers. At 5 GiB the idle workers, with nearly all of 8 cores to themselves at 100 ops/s, end each back-to-back ' +
      "cycle so soon that cycles come about 9 times as often as at 6 GiB, against the paper's 5 times. With ample memory the " +
      "instantaneous GC share stays near the dedicated 25 % plus the little idle time the maximum load leaves, below the paper's 50 %.",
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
    title: 'Latency at light load',
    text:
      "Since card 1.2.0 each message waits for its reader thread (the gRPC builds' hand-off, set by the paper's 2 ms average of " +
      "Fig 3), so C++'s operation takes about 2 ms and its service-time p99 at 20 Kops/s a few ms; the TCP builds have no room for one " +
      '(Little\'s law at their throughput with 64 clients). The rest of a real p99 — kernel scheduling of 64+ threads on 8 cores, gRPC ' +
      "flow control — is not modelled, and Java's p99 with full collections inside a 60 s run depends on where they fall.",
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
