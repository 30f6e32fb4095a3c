import { describe, expect, it } from 'vitest';
import { buildPlan, cpuCount, describePlan, footprintApplies, judgeByWait, PAPER_RATIOS, RECORD_BYTES, resolveOptions, UsageError, warmStartKey, withFootprint } from './plan.ts';

describe('resolveOptions', () => {
  it('takes the preset, then the flags over it', () => {
    const o = resolveOptions({ preset: 'smoke', engine: 'all', 'duration-s': '9' });
    expect(o.systems).toEqual(['cpp', 'java', 'go', 'rust', 'etcd']);
    expect(o.records).toBe(20_000);
    expect(o.duration_s).toBe(9);
    expect(o.slo_ms).toBe(20);
    expect(o.threads).toBe(64);
  });

  it("keeps the paper's full-size settings as a preset", () => {
    const o = resolveOptions({ preset: 'paper' });
    expect(o.records).toBe(7_500_000);
    expect(o.mem_gib).toEqual([32, 8, 6, 5]);
    expect(o.vcpus).toEqual([8, 4, 2]);
    expect(o.warmup_s).toBe(20);
    expect(o.memory_baseline).toBe('none');
  });

  // Issue 16: `--hosts` forced "no footprint", so at ratio 2 of 20,000 records a node got 20 MiB
  // and the JVM, C++ and Rust could not load (data/native/2026-11-27-hosts).
  it('adds the measured footprint on hosts by the same rule as on one machine', () => {
    for (const hosts of [undefined, 'inventory.yml']) {
      const o = resolveOptions({ engine: 'java', ratio: '2', records: '20000', ...(hosts ? { hosts } : {}) });
      const s = buildPlan(o)[0]!;
      expect(footprintApplies(s, o)).toBe(true);
      const limited = withFootprint(s, 60 * 2 ** 20);
      expect(limited.memory_bytes).toBe(2 * 20_000 * RECORD_BYTES + 60 * 2 ** 20);
      expect(limited.baseline_bytes).toBe(60 * 2 ** 20);
      // Applying it again gives the same limit, not a second footprint.
      expect(withFootprint(limited, 60 * 2 ** 20).memory_bytes).toBe(limited.memory_bytes);
    }
    // The paper's full size keeps its own rule (no footprint) on hosts too, and so does the flag.
    expect(resolveOptions({ preset: 'paper', hosts: 'inventory.yml' }).memory_baseline).toBe('none');
    expect(resolveOptions({ hosts: 'inventory.yml', 'memory-baseline': 'none' }).memory_baseline).toBe('none');
  });

  it('prints a hosts run its own plan header, not the local cgroups, cpusets and shares', () => {
    const o = resolveOptions({ engine: 'go', ratio: '2', records: '20000', hosts: 'inventory.yml' });
    const text = describePlan(o, buildPlan(o));
    expect(text).toContain('on separate hosts (Ansible inventory inventory.yml)');
    expect(text).toContain('interference on the hosts is not measured');
    expect(text).toContain('fixed footprint (measured first on this controller');
    expect(text).toContain('cold searches: the hosts path bisects');
    expect(text).not.toMatch(/cpu\.shares \d|cpusets:|schedstat\)|wait up to|warm-started/);
    const local = resolveOptions({ engine: 'go', ratio: '2', records: '20000' });
    expect(describePlan(local, buildPlan(local))).toMatch(/cpu\.shares 262144[^]*cpusets: load generator 0, nodes 1/);
  });

  it.each([
    [{ engine: 'go,postgres' }, /unknown "postgres"/],
    [{ workload: 'c' }, /--workload/],
    [{ records: 'many' }, /--records/],
    [{ 'mem-gib': '1', ratio: '8' }, /not both/],
    [{ ratio: '8,-1' }, /positive/],
    [{ 'node-cpus': '1;2' }, /cpu list/],
    [{ tolerance: '1.5' }, /below 1/],
    [{ preset: 'huge' }, /--preset/],
    [{ 'min-rate': '500', 'max-rate': '400' }, /must exceed/],
    [{ 'memory-baseline': 'maybe' }, /auto or none/],
    [{ durability: 'disk' }, /--durability must be/],
    [{ durability: 'log', fsync: 'sometimes' }, /--fsync must be always, interval or never/],
    [{ durability: 'log', fsync: 'interval,hourly' }, /--fsync must be always, interval or never \(or a list of them\), got "hourly"/],
    [{ durability: 'none', fsync: 'interval' }, /--fsync needs --durability log/],
    [{ fsync: 'never' }, /--fsync needs --durability log/],
  ])('refuses %j with a clear message', (flags, message) => {
    expect(() => resolveOptions(flags)).toThrow(UsageError);
    expect(() => resolveOptions(flags)).toThrow(message);
  });
});

describe('durability', () => {
  it('measures none, then log with each fsync policy, on one setting back to back; etcd once', () => {
    const o = resolveOptions({ preset: 'smoke', engine: 'cpp,etcd', durability: 'none,log', fsync: 'never,always', repetitions: '2' });
    const plan = buildPlan(o);
    expect(plan.map((s) => s.id)).toEqual([
      'cpp-a-r8-8vcpu-rep1', 'cpp-a-log-fsync-never-r8-8vcpu-rep1', 'cpp-a-log-fsync-always-r8-8vcpu-rep1', 'etcd-a-r8-8vcpu-rep1',
      'etcd-a-r8-8vcpu-rep2', 'cpp-a-log-fsync-always-r8-8vcpu-rep2', 'cpp-a-log-fsync-never-r8-8vcpu-rep2', 'cpp-a-r8-8vcpu-rep2',
    ]);
    expect(plan.filter((s) => s.system === 'cpp').map((s) => [s.durability, s.fsync]).slice(0, 3)).toEqual([['none', null], ['log', 'never'], ['log', 'always']]);
    expect(plan.find((s) => s.system === 'etcd')).toMatchObject({ durability: 'log', fsync: 'always' });
    expect(describePlan(o, plan)).toContain('durability log, fsync never');
  });

  it('takes --fsync interval and runs it between never and always, passing it to the servers by name', () => {
    const o = resolveOptions({ preset: 'smoke', engine: 'go', durability: 'none,log', fsync: 'never,interval,always', repetitions: '2' });
    expect(o.fsyncs).toEqual(['never', 'interval', 'always']);
    const plan = buildPlan(o);
    expect(plan.map((s) => s.id)).toEqual([
      'go-a-r8-8vcpu-rep1', 'go-a-log-fsync-never-r8-8vcpu-rep1', 'go-a-log-fsync-interval-r8-8vcpu-rep1', 'go-a-log-fsync-always-r8-8vcpu-rep1',
      'go-a-log-fsync-always-r8-8vcpu-rep2', 'go-a-log-fsync-interval-r8-8vcpu-rep2', 'go-a-log-fsync-never-r8-8vcpu-rep2', 'go-a-r8-8vcpu-rep2',
    ]);
    expect(plan[2]).toMatchObject({ durability: 'log', fsync: 'interval' });
    expect(describePlan(o, plan)).toContain('durability log, fsync interval');
  });

  it('measures every probe\'s window whole unless --early-stop, which one machine only runs', () => {
    expect(resolveOptions({}).early_stop).toBe(false);
    expect(resolveOptions({ 'early-stop': true }).early_stop).toBe(true);
    const early = resolveOptions({ 'early-stop': true });
    expect(describePlan(early, buildPlan(early))).toMatch(/early stop \(--early-stop\)/);
    expect(() => resolveOptions({ 'early-stop': true, hosts: 'inventory.yml' })).toThrow(/--early-stop works on one machine only/);
  });

  it('warm-starts searches unless --cold-search, and carries answers only between memory sizes of one system, mode and repetition', () => {
    const o = resolveOptions({ preset: 'scaled', engine: 'go,cpp', ratio: '8,2', durability: 'none,log', fsync: 'interval', repetitions: '2' });
    expect(o.warm_start).toBe(true);
    expect(describePlan(o, buildPlan(o))).toContain('warm-started');
    expect(resolveOptions({ 'cold-search': true }).warm_start).toBe(false);
    const plan = buildPlan(o);
    const key = (id: string) => warmStartKey(plan.find((s) => s.id === id)!);
    expect(key('go-a-r2-8vcpu-rep1')).toBe(key('go-a-r8-8vcpu-rep1'));
    expect(key('go-a-log-fsync-interval-r2-8vcpu-rep1')).not.toBe(key('go-a-r2-8vcpu-rep1'));
    expect(key('go-a-r2-8vcpu-rep2')).not.toBe(key('go-a-r2-8vcpu-rep1'));
    expect(key('cpp-a-r2-8vcpu-rep1')).not.toBe(key('go-a-r2-8vcpu-rep1'));
    expect(key('go-b-r2-8vcpu-rep1')).not.toBe(key('go-a-r2-8vcpu-rep1'));
  });

  it('defaults to durability none, as before the setting existed', () => {
    const plan = buildPlan(resolveOptions({ preset: 'smoke', engine: 'go' }));
    expect(plan.map((s) => [s.id, s.durability, s.fsync])).toEqual([['go-a-r8-8vcpu-rep1', 'none', null]]);
  });
});

describe('buildPlan', () => {
  it("applies the paper's memory:data ratios to the scaled data set", () => {
    const o = resolveOptions({ preset: 'scaled', engine: 'go', workload: 'a' });
    const plan = buildPlan(o).filter((s) => s.repetition === 1);
    expect(plan.map((s) => s.ratio)).toEqual(PAPER_RATIOS);
    expect(plan[0]!.memory_bytes).toBe(8 * 100_000 * RECORD_BYTES);
    expect(plan.every((s) => s.baseline_bytes === 0)).toBe(true); // measured at run time
  });

  it('runs the systems of one setting back to back, reversed on even repetitions', () => {
    const o = resolveOptions({ preset: 'smoke', engine: 'go,java,etcd', repetitions: '2' });
    expect(buildPlan(o).map((s) => s.id)).toEqual([
      'go-a-r8-8vcpu-rep1', 'java-a-r8-8vcpu-rep1', 'etcd-a-r8-8vcpu-rep1',
      'etcd-a-r8-8vcpu-rep2', 'java-a-r8-8vcpu-rep2', 'go-a-r8-8vcpu-rep2',
    ]);
  });

  it('turns paper vCPUs into a CPU quota, none when it covers the whole cpuset', () => {
    const o = resolveOptions({ preset: 'scaled', engine: 'go', workload: 'a', ratio: '8', vcpus: '8,4,2' });
    expect(buildPlan(o).filter((s) => s.repetition === 1).map((s) => s.cpu_quota_cores)).toEqual([null, 0.5, 0.25]);
    const wide = resolveOptions({ preset: 'scaled', engine: 'go', workload: 'a', ratio: '8', vcpus: '8', 'node-cpus': '0-1' });
    expect(buildPlan(wide)[0]!.cpu_quota_cores).toBe(1);
  });

  it('repeats every setting three times by default, so results carry a spread', () => {
    expect(buildPlan(resolveOptions({ preset: 'scaled', engine: 'go', workload: 'a', ratio: '8' })).map((s) => s.repetition)).toEqual([1, 2, 3]);
    expect(resolveOptions({ engine: 'go' }).repetitions).toBe(3);
  });

  it('takes the disturbance thresholds and refuses nonsense', () => {
    const o = resolveOptions({ engine: 'go', 'disturbed-cores': '0.5', 'disturbed-steal': '0.1', 'disturbed-retries': '0' });
    expect([o.disturbed_cores, o.disturbed_steal, o.disturbed_retries]).toEqual([0.5, 0.1, 0]);
    expect(() => resolveOptions({ engine: 'go', 'disturbed-steal': '5' })).toThrow(/share below 1/);
    expect(() => resolveOptions({ engine: 'go', 'disturbed-retries': '-1' })).toThrow(/disturbed-retries/);
  });

  it('gives the benchmark\'s groups cpu.shares 262144 by default and then judges probes by its run-queue wait', () => {
    const o = resolveOptions({ engine: 'go' });
    expect([o.cpu_shares, o.disturbed_wait_us, judgeByWait(o)]).toEqual([262_144, 500, true]);
    expect(describePlan(o, buildPlan(o))).toMatch(/cpu.shares 262144 .* waits? > 500 µs for a CPU per slice/s);
    const equal = resolveOptions({ engine: 'go', 'cpu-shares': '1024', 'disturbed-wait-us': '800' });
    expect([equal.cpu_shares, equal.disturbed_wait_us, judgeByWait(equal)]).toEqual([1024, 800, false]);
    expect(describePlan(equal, buildPlan(equal))).toMatch(/other processes use > 0.25 cores/);
    for (const bad of ['1', '262145', '2.5', 'lots']) expect(() => resolveOptions({ engine: 'go', 'cpu-shares': bad }), bad).toThrow(/cpu-shares/);
  });

  it('takes a GC mitigation for Go and Java, names it in settings and the plan, refuses it elsewhere', () => {
    const o = resolveOptions({ engine: 'go,java', mitigation: 'blade', ratio: '1.5,8', preset: 'smoke' });
    expect(o.mitigation).toBe('blade');
    const settings = buildPlan(o);
    expect(settings.every((s) => s.id.includes('-blade-'))).toBe(true);
    expect(describePlan(o, settings)).toContain('GC mitigation: blade');
    expect(resolveOptions({ engine: 'go' }).mitigation).toBe('none');
    expect(buildPlan(resolveOptions({ engine: 'go' }))[0]!.id).not.toContain('none');
    expect(() => resolveOptions({ engine: 'go,rust', mitigation: 'blade' })).toThrow(/only the Go and Java servers/);
    expect(() => resolveOptions({ engine: 'go', mitigation: 'gc-off' })).toThrow(UsageError);
  });

  it('names absolute memory settings by GiB', () => {
    const o = resolveOptions({ preset: 'paper', engine: 'rust', workload: 'b', vcpus: '8' });
    expect(buildPlan(o).map((s) => s.id).slice(0, 4)).toEqual(['rust-b-32gib-8vcpu-rep1', 'rust-b-8gib-8vcpu-rep1', 'rust-b-6gib-8vcpu-rep1', 'rust-b-5gib-8vcpu-rep1']);
  });

  it('describes itself for --dry-run', () => {
    const o = resolveOptions({ preset: 'smoke', engine: 'all' });
    const text = describePlan(o, buildPlan(o));
    expect(text).toMatch(/^plan: 5 setting\(s\), preset smoke/);
    expect(text).toContain('etcd-a-r8-8vcpu-rep1');
    expect(text).toContain('+ footprint');
  });

  it('counts cpus in a list', () => {
    expect(cpuCount('1')).toBe(1);
    expect(cpuCount('0-3,6')).toBe(5);
  });
});
