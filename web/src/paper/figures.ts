// The paper's figures and Table 1 that state numbers, as panel specifications. Titles and
// headlines are this project's words; every number in a headline is read from data/.
import type { PanelSpec, XValue } from './panel-model.ts';
import { formatValue } from './panel-model.ts';
import type { ResultRow } from './results.ts';

export interface FigureSpec {
  key: string;
  label: string;
  section: string;
  /** What the figure is about, in a sentence of ours. */
  about: string;
  panels: PanelSpec[];
}

type Get = (series: string, x: XValue) => number | null;

const MEMORY = { dim: 'memory_gib' as const, values: [32, 8, 6, 5], label: 'Memory per server (GiB)' };
const VCPUS = { dim: 'vcpus' as const, values: [8, 4, 2], label: 'vCPUs per server' };
const SLO_LINE = { y: 20, label: 'SLO: p99 ≤ 20 ms (§5.1)' };
const KOPS = { kind: 'linear' as const, label: 'Max throughput at p99 ≤ 20 ms (Kops/s)' };
const LATENCY_LOG = { kind: 'log' as const, label: 'p99 latency (ms, log scale)', domain: [1, 2000] as [number, number] };
const UTIL = { kind: 'linear' as const, label: 'Leader vCPU utilization (%)', domain: [0, 100] as [number, number] };

type SweepKind =
  | 'throughput'
  | 'utilization'
  | { metric: string; what: string; y: PanelSpec['y']; unit: string };

/** A panel of the paper's sweep figures (6–13): one metric against memory or vCPUs. */
function sweepPanel(
  figure: string,
  panel: '(a)' | '(b)',
  kind: SweepKind,
  axis: 'memory' | 'vcpus',
  workload: 'A' | 'B',
  series: string[],
  headline: PanelSpec['headline'],
): PanelSpec {
  const k =
    kind === 'throughput'
      ? { metric: 'max_throughput_slo', what: 'max throughput at the SLO', y: KOPS, unit: 'Kops/s' }
      : kind === 'utilization'
        ? { metric: 'vcpu_utilization_leader', what: 'leader vCPU utilization', y: UTIL, unit: '%' }
        : kind;
  const isThroughputOrUtil = typeof kind === 'string';
  return {
    key: `${figure.replace(' ', '').toLowerCase()}${panel[1]}`,
    figure,
    panel,
    title: `${figure}${panel}: ${k.what}${isThroughputOrUtil ? ` vs ${axis === 'memory' ? 'memory' : 'vCPUs'}, workload ${workload}` : ''}`,
    metric: k.metric,
    workload,
    series,
    x: axis === 'memory' ? MEMORY : VCPUS,
    fixed: axis === 'memory' ? { vcpus: 8 } : { memory_gib: 32 },
    y: k.y,
    unit: k.unit,
    mode: 'lines',
    headline,
  };
}

/** A bar panel with one bar per implementation (Figs 3 and 4). */
function barsByLanguage(
  figure: string,
  panel: '(a)' | '(b)',
  title: string,
  metric: string,
  languages: string[],
  y: PanelSpec['y'],
  unit: string,
  headline: PanelSpec['headline'],
  extra: Partial<PanelSpec> = {},
): PanelSpec {
  return {
    key: `${figure.replace(' ', '').toLowerCase()}${panel[1]}`,
    figure,
    panel,
    title: `${figure}${panel}: ${title}`,
    metric,
    workload: 'A',
    series: languages,
    x: { dim: 'category', values: languages, label: 'Implementation' },
    y,
    unit,
    mode: 'bars',
    headline,
    ...extra,
  };
}

const f = (v: number | null) => (v === null ? '?' : formatValue(v));
const times = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? '?' : formatValue(Number((a / b).toFixed(1))));

/** "Go (57), Java (33) and C++ (29)" — stated values, highest first. */
function ranked(get: Get, names: string[], unit: string): string {
  const stated = names.map((n) => [n, get(n, n)] as const).filter((e): e is readonly [string, number] => e[1] !== null);
  stated.sort((a, b) => b[1] - a[1]);
  const parts = stated.map(([n, v]) => `${n} (${formatValue(v)} ${unit})`);
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

const FIG5_VARIANTS: Record<string, string> = {
  'fig5-go-a-32gib-8vcpu-p99-latency-intended': 'Go',
  'fig5-rust-a-32gib-8vcpu-p99-latency-intended-ptmalloc': 'Rust, ptmalloc',
  'fig5-rust-a-32gib-8vcpu-p99-latency-intended-jemalloc': 'Rust, jemalloc',
  'fig5-rust-a-32gib-8vcpu-p99-latency-intended-jemalloc-nodelay': 'Rust, jemalloc, no Nagle',
  'fig5-rust-a-32gib-8vcpu-p99-latency-intended-jemalloc-quickack': 'Rust, + Quick ACK',
};

export function makeFigures(valueOf: (id: string) => number | null): FigureSpec[] {
  return [
    {
      key: 'fig3',
      label: 'Fig 3',
      section: '4.4',
      about: 'Peak throughput of each implementation with 8–256 clients and 2 million records (little GC pressure), against average latency.',
      panels: [
        barsByLanguage('Fig 3', '(a)', 'peak throughput, gRPC between peers', 'peak_throughput_avg_latency', ['C++', 'Java', 'Go', 'Rust', 'etcd'], { kind: 'linear', label: 'Peak throughput (Kops/s)' }, 'Kops/s', (v) =>
          `Over gRPC the peaks rank ${ranked(v, ['C++', 'Java', 'Go'], 'Kops/s')}. These are peaks of an average-latency curve with no tail target — with little GC pressure, Java is not behind C++ yet.`,
        ),
        barsByLanguage('Fig 3', '(b)', 'peak throughput, plain TCP between peers', 'peak_throughput_avg_latency', ['Go', 'Rust'], { kind: 'linear', label: 'Peak throughput (Kops/s)' }, 'Kops/s', (v) => {
          const grpc = valueOf('fig3a-go-a-32gib-8vcpu-peak-throughput-avg-latency');
          const tcp = v('Go', 'Go');
          const gain = grpc && tcp ? Math.round((tcp / grpc - 1) * 100) : null;
          return `Replacing gRPC with plain TCP lifts Go's peak to ${f(tcp)} Kops/s, ${f(gain)} % above its gRPC peak of ${f(grpc)} Kops/s.`;
        }, { missingAt: [{ id: 'fig3b-rust-a-8vcpu-throughput-vs-avg-latency', series: 'Rust', x: 'Rust' }] }),
      ],
    },
    {
      key: 'fig4',
      label: 'Fig 4',
      section: '4.5',
      about: 'C++ and Java with 5 GiB, 64 clients and a 20 Kops/s target: the same run measured two ways.',
      panels: [
        barsByLanguage('Fig 4', '(a)', 'p99 latency as service time', 'p99_latency_service_time', ['C++', 'Java'], LATENCY_LOG, 'ms', (v) =>
          `Timed from when each request was actually sent, the two look alike: p99 is ${f(v('C++', 'C++'))} ms for C++ and ${f(v('Java', 'Java'))} ms for Java.`,
        { references: [SLO_LINE] }),
        barsByLanguage('Fig 4', '(b)', 'p99 latency from the intended start', 'p99_latency_intended', ['C++', 'Java'], LATENCY_LOG, 'ms', (v) =>
          `Timed from when each request should have started (so a stalled server cannot hide its stalls), Java's p99 is ${f(v('Java', 'Java'))} ms against ${f(v('C++', 'C++'))} ms for C++ — ${times(v('Java', 'Java'), v('C++', 'C++'))}× worse. GC pauses delay the requests queued behind them.`,
        { references: [SLO_LINE] }),
      ],
    },
    {
      key: 'fig5',
      label: 'Fig 5',
      section: '4.6',
      about: 'Go and four Rust variants over TCP with 64 clients and a 50 Kops/s target: allocator and Nagle’s algorithm matter.',
      panels: [
        {
          key: 'fig5',
          figure: 'Fig 5',
          panel: null,
          title: 'Fig 5: p99 latency of Go and Rust variants',
          metric: 'p99_latency_intended',
          workload: 'A',
          series: ['Go', 'Rust'],
          x: { dim: 'category', values: Object.values(FIG5_VARIANTS), label: 'Implementation and network set-up' },
          xOf: (r: ResultRow) => FIG5_VARIANTS[r.id] ?? null,
          y: { kind: 'linear', label: 'p99 latency, intended (ms)' },
          unit: 'ms',
          mode: 'bars',
          references: [SLO_LINE],
          headline: (v) =>
          `Rust with the stock allocator has a p99 of ${f(v('Rust', 'Rust, ptmalloc'))} ms; jemalloc brings it to ${f(v('Rust', 'Rust, jemalloc'))} ms and turning Nagle’s algorithm off to ${f(v('Rust', 'Rust, jemalloc, no Nagle'))} ms, close to Go's ${f(v('Go', 'Go'))} ms (Go disables Nagle by default). Quick ACK would reach ${f(v('Rust', 'Rust, + Quick ACK'))} ms, but Go has no such switch, so the later comparisons leave it off.`,
        },
      ],
    },
    {
      key: 'fig6',
      label: 'Fig 6',
      section: '5.2',
      about: 'C++ and Java under update-heavy workload A with 8 vCPUs as memory shrinks from 32 to 5 GiB (a 4 GiB dataset).',
      panels: [
        sweepPanel('Fig 6', '(a)', 'throughput', 'memory', 'A', ['C++', 'Java'], (v) =>
          `C++ holds ${f(v('C++', 32))} Kops/s at every memory size. Java reaches ${f(v('Java', 32))} Kops/s with 32 GiB but only ${f(v('Java', 5))} Kops/s with 5 GiB: ${times(v('Java', 32), v('Java', 5))}× less.`),
        sweepPanel('Fig 6', '(b)', 'utilization', 'memory', 'A', ['C++', 'Java'], (v) =>
          `At its best SLO-meeting load the C++ leader is ${f(v('C++', 32))} % busy whatever the memory; the Java leader drops from ${f(v('Java', 32))} % to ${f(v('Java', 5))} % as memory shrinks — it serves fewer requests because it must keep latency low between collections.`),
      ],
    },
    {
      key: 'fig7',
      label: 'Fig 7',
      section: '5.2',
      about: 'C++ and Java under workload A with 32 GiB as vCPUs go from 8 to 2.',
      panels: [
        sweepPanel('Fig 7', '(a)', 'throughput', 'vcpus', 'A', ['C++', 'Java'], (v) =>
          `Java falls from ${f(v('Java', 8))} Kops/s with 8 vCPUs to ${f(v('Java', 4))} Kops/s with 4. The text gives C++ only at 8 vCPUs (${f(v('C++', 8))} Kops/s, from Fig 6(a)) and says C++ with 4 vCPUs roughly matches Java with 8.`),
        sweepPanel('Fig 7', '(b)', 'utilization', 'vcpus', 'A', ['C++', 'Java'], (v) => `The Java leader is ${f(v('Java', 8))} % busy with 8 vCPUs and ${f(v('Java', 4))} % with 4.`),
      ],
    },
    {
      key: 'fig8',
      label: 'Fig 8',
      section: '5.3',
      about: 'C++ and Java under read-heavy workload B with 8 vCPUs as memory shrinks.',
      panels: [
        sweepPanel('Fig 8', '(a)', 'throughput', 'memory', 'B', ['C++', 'Java'], (v) =>
          `With few writes there is less garbage: C++ holds ${f(v('C++', 32))} Kops/s and Java falls only from ${f(v('Java', 32))} to ${f(v('Java', 5))} Kops/s (${times(v('C++', 5), v('Java', 5))}× below C++ at 5 GiB, against ${times(valueOf('fig6a-cpp-a-5gib-8vcpu-max-throughput-slo'), valueOf('fig6a-java-a-5gib-8vcpu-max-throughput-slo'))}× under workload A).`),
        sweepPanel('Fig 8', '(b)', 'utilization', 'memory', 'B', ['C++', 'Java'], (v) =>
          `The Java leader is ${f(v('Java', 32))} % busy at 32 GiB under workload B, against ${f(valueOf('fig6b-java-a-32gib-8vcpu-vcpu-utilization-leader'))} % under workload A.`),
      ],
    },
    {
      key: 'fig9',
      label: 'Fig 9',
      section: '5.4',
      about: 'Rust and Go under workload A with 8 vCPUs as memory shrinks.',
      panels: [
        sweepPanel('Fig 9', '(a)', 'throughput', 'memory', 'A', ['Rust', 'Go'], (v) => {
          const g5 = v('Go', 5);
          return `Rust stays at ${f(v('Rust', 32))} Kops/s as memory shrinks. Go reaches ${f(v('Go', 32))} Kops/s with 32 GiB${g5 !== null && g5 <= 0.1 ? ' and with 5 GiB cannot keep p99 under 20 ms even at 100 ops/s' : ''}.`;
        }),
        sweepPanel('Fig 9', '(b)', 'utilization', 'memory', 'A', ['Rust', 'Go'], (v) =>
          `Rust's leader stays ${f(v('Rust', 32))} % busy at every memory size; Go's is ${f(v('Go', 32))} % at 32 GiB (smoothed: the raw series spikes with each collection).`),
      ],
    },
    {
      key: 'fig10',
      label: 'Fig 10',
      section: '5.4',
      about: 'Rust and Go under workload A with 32 GiB as vCPUs go from 8 to 2.',
      panels: [
        sweepPanel('Fig 10', '(a)', 'throughput', 'vcpus', 'A', ['Rust', 'Go'], (v) =>
          `Only the 8-vCPU points are known, from Fig 9(a): Rust ${f(v('Rust', 8))} and Go ${f(v('Go', 8))} Kops/s. The text says both drop in a similar way as vCPUs shrink.`),
        sweepPanel('Fig 10', '(b)', 'utilization', 'vcpus', 'A', ['Rust', 'Go'], (v) =>
          `Rust's leader gets busier as vCPUs shrink — ${f(v('Rust', 8))} % with 8, ${f(v('Rust', 4))} % with 4 and ${f(v('Rust', 2))} % with 2 — because with many vCPUs it waits on a lock and on Tokio's I/O driver, not on GC.`),
      ],
    },
    {
      key: 'fig11',
      label: 'Fig 11',
      section: '5.5',
      about: 'Rust and Go under read-heavy workload B with 8 vCPUs as memory shrinks.',
      panels: [
        sweepPanel('Fig 11', '(a)', 'throughput', 'memory', 'B', ['Rust', 'Go'], (v) =>
          `Rust reaches ${f(v('Rust', 32))} Kops/s and keeps it at 5 GiB; Go reaches ${f(v('Go', 32))} Kops/s with 32 GiB but, even with few writes, cannot meet the SLO with 5 GiB.`),
        sweepPanel('Fig 11', '(b)', 'utilization', 'memory', 'B', ['Rust', 'Go'], () => ''),
      ],
    },
    {
      key: 'fig12',
      label: 'Fig 12',
      section: '5.6',
      about: 'Go’s garbage collector under workload A with 8 vCPUs (runtime traces, 400–420 s of the run).',
      panels: [
        sweepPanel('Fig 12', '(a)', { metric: 'gc_instantaneous_vcpu_utilization', what: 'vCPUs the Go GC takes while it runs', y: { kind: 'linear', label: 'GC vCPU utilization during GC (%)', domain: [0, 100] }, unit: '%' }, 'memory', 'A', ['Go'], (_v, t) =>
          `While it runs, Go's collector takes ${t('Go', 32)} % of the vCPUs with 32 GiB, ${t('Go', 6)} % with 6 GiB and ${t('Go', 5)} % with 5 GiB; it also runs ${f(valueOf('fig12a-go-a-8vcpu-gc-frequency-multiplier-32to8gib'))}× as often at 8 GiB as at 32, and ${f(valueOf('fig12a-go-a-8vcpu-gc-frequency-multiplier-6to5gib'))}× as often at 5 GiB as at 6.`),
        sweepPanel('Fig 12', '(b)', { metric: 'gc_runtime_share', what: 'share of run time with the Go GC active', y: { kind: 'linear', label: 'GC active, per 5 s window (%)', domain: [0, 100] }, unit: '%' }, 'memory', 'A', ['Go'], (_v, t) =>
          `Summed over 5-second windows, the collector is active for ${t('Go', 6)} % of the time with 6 GiB and ${t('Go', 5)} % with 5 GiB — time the leader cannot spend answering within 20 ms.`),
      ],
    },
    {
      key: 'fig13',
      label: 'Fig 13',
      section: '5.6',
      about: 'Java’s garbage collector under workload A with 8 vCPUs. The text describes it only in words.',
      panels: [
        sweepPanel('Fig 13', '(a)', { metric: 'gc_instantaneous_vcpu_utilization', what: 'vCPUs the Java GC takes while cleaning up', y: { kind: 'linear', label: '%' }, unit: '%' }, 'memory', 'A', ['Java'], () => ''),
        sweepPanel('Fig 13', '(b)', { metric: 'gc_runtime_share', what: 'cumulative Java GC time per 5 s', y: { kind: 'linear', label: '%' }, unit: '%' }, 'memory', 'A', ['Java'], () => ''),
      ],
    },
    {
      key: 'table1',
      label: 'Table 1',
      section: '5.7',
      about: 'Bare metal against virtualized servers, workload A, 8 CPUs and 32 GiB: how much virtualization costs each implementation.',
      panels: [
        {
          key: 'table1',
          figure: 'Table 1',
          panel: null,
          title: 'Table 1: max throughput at the SLO, bare metal vs virtualized',
          metric: 'max_throughput_slo',
          workload: 'A',
          series: ['m5.metal', 'm5.2xlarge'],
          seriesOf: (r: ResultRow) => r.instance_type ?? null,
          x: { dim: 'category', values: ['C++', 'Java', 'Go', 'Rust'], label: 'Implementation' },
          xOf: (r: ResultRow) => r.language,
          y: KOPS,
          unit: 'Kops/s',
          mode: 'bars',
          headline: (v) => {
          const loss = (l: string) => {
              const metal = v('m5.metal', l);
              const virt = v('m5.2xlarge', l);
              return metal && virt ? `${formatValue(Number((((metal - virt) / metal) * 100).toFixed(1)))} %` : '?';
          };
          return `Every implementation is faster on bare metal. Virtualization costs C++ ${loss('C++')} and Java ${loss('Java')} of their throughput, but Go only ${loss('Go')} and Rust ${loss('Rust')}.`;
          },
        },
      ],
    },
  ];
}
