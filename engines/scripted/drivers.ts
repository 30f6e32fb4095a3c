// The two hosts of the scripted cluster (core.ts): one for synchronous engines (wasm, in the lab's
// step session and the simulator), one that awaits each step (native processes, and any engine
// through asAsync in the conformance CLI). Both expose the same commands under the same names.
import type { AsyncEngine, AsyncNode, SyncEngine, SyncNode } from '../loader/engine.ts';
import { ClusterCore, HarnessError, type ClusterObserver, type ClusterOptions, type Delivery, type HostRequest, type MessageFilter, type Script, type TimerName } from './core.ts';

/** One engine for every node, or one per node (a mixed cluster). */
type Engines<E> = E | readonly E[];

function engineOf<E>(engines: Engines<E>, id: number): E {
  return Array.isArray(engines) ? (engines as readonly E[])[id]! : (engines as E);
}

/** Commands that need no host: the same on both drivers. The state (pending messages, armed
 * timers, disks, unfinished persists, incarnations) is read off `core`. */
abstract class Driver<E, N> {
  readonly core: ClusterCore;
  protected readonly handles: (N | null)[];

  /** A cluster with no node created yet: boot each with `boot`. */
  constructor(
    protected readonly engines: Engines<E>,
    options: ClusterOptions,
    observer?: ClusterObserver,
  ) {
    this.core = new ClusterCore(options, observer);
    this.handles = this.core.up.map(() => null);
  }

  get size(): number {
    return this.core.size;
  }
  take(): string[] {
    return this.core.take();
  }
  isUp(id: number): boolean {
    return this.core.isUp(id);
  }
  isCut(from: number, to: number): boolean {
    return this.core.isCut(from, to);
  }
  matching(f: MessageFilter) {
    return this.core.matching(f);
  }
  drop(f: MessageFilter = {}) {
    return this.core.drop(f);
  }
  duplicate(f: MessageFilter = {}) {
    return this.core.duplicate(f);
  }
  cut(from: number, to: number): void {
    this.core.cut(from, to);
  }
  heal(): void {
    this.core.heal();
  }
  describePending(): string[] {
    return this.core.describePending();
  }

  /** The engine's handle of a node that is up. */
  node(id: number): N {
    this.core.checkNode(id);
    const n = this.handles[id];
    if (!n) throw new HarnessError(`n${id} is down`);
    return n;
  }
}

/** The scripted cluster over synchronous engines: every command returns at once. */
export class ScriptedCluster extends Driver<SyncEngine, SyncNode> {
  /** A cluster whose nodes are created and started (n0 first). */
  static start(engines: Engines<SyncEngine>, options: ClusterOptions, observer?: ClusterObserver): ScriptedCluster {
    const c = new ScriptedCluster(engines, options, observer);
    c.run(c.core.start());
    return c;
  }

  run<T>(script: Script<T>): T {
    let r = script.next('');
    while (!r.done) r = script.next(this.serve(r.value));
    return r.value;
  }

  private serve(req: HostRequest): string {
    switch (req.kind) {
      case 'create':
        this.handles[req.node] = engineOf(this.engines, req.node).createNode(req.config);
        return '';
      case 'step':
        return this.node(req.node).step(req.event);
      case 'destroy': {
        const n = this.handles[req.node];
        this.handles[req.node] = null;
        n?.destroy();
        return '';
      }
    }
  }

  boot(id: number): string {
    return this.run(this.core.boot(id));
  }
  step(id: number, eventJson: string): string {
    return this.run(this.core.step(id, eventJson));
  }
  completePersist(id: number): void {
    this.run(this.core.completePersist(id));
  }
  deliver(f: MessageFilter = {}): Delivery {
    return this.run(this.core.deliver(f));
  }
  deliverAll(f: MessageFilter = {}, limit?: number): number {
    return this.run(this.core.deliverAll(f, limit));
  }
  deliverRaw(to: number, eventJson: string): string {
    return this.run(this.core.deliverRaw(to, eventJson));
  }
  fire(id: number, timer: TimerName): string {
    return this.run(this.core.fire(id, timer));
  }
  client(id: number, clientId: number, requestId: number, line: string): string {
    return this.run(this.core.client(id, clientId, requestId, line));
  }
  gcPending(id: number, pauseUs: number): void {
    this.run(this.core.gcPending(id, pauseUs));
  }
  gcDone(id: number): void {
    this.run(this.core.gcDone(id));
  }
  crash(id: number): void {
    this.run(this.core.crash(id));
  }
  restart(id: number, wiped = false, event?: string): string {
    return this.run(this.core.restart(id, wiped, event));
  }
  inspect(id: number): string {
    return this.node(id).inspect();
  }
  close(): void {
    this.run(this.core.close());
  }
}

/** The scripted cluster over asynchronous engines: each step is awaited. */
export class AsyncScriptedCluster extends Driver<AsyncEngine, AsyncNode> {
  /** A cluster whose nodes are created and started (n0 first). */
  static async start(engines: Engines<AsyncEngine>, options: ClusterOptions, observer?: ClusterObserver): Promise<AsyncScriptedCluster> {
    const c = new AsyncScriptedCluster(engines, options, observer);
    await c.run(c.core.start());
    return c;
  }

  async run<T>(script: Script<T>): Promise<T> {
    let r = script.next('');
    while (!r.done) r = script.next(await this.serve(r.value));
    return r.value;
  }

  private async serve(req: HostRequest): Promise<string> {
    switch (req.kind) {
      case 'create':
        this.handles[req.node] = await engineOf(this.engines, req.node).createNode(req.config);
        return '';
      case 'step':
        return this.node(req.node).step(req.event);
      case 'destroy': {
        const n = this.handles[req.node];
        this.handles[req.node] = null;
        await n?.destroy();
        return '';
      }
    }
  }

  boot(id: number): Promise<string> {
    return this.run(this.core.boot(id));
  }
  step(id: number, eventJson: string): Promise<string> {
    return this.run(this.core.step(id, eventJson));
  }
  completePersist(id: number): Promise<void> {
    return this.run(this.core.completePersist(id));
  }
  deliver(f: MessageFilter = {}): Promise<Delivery> {
    return this.run(this.core.deliver(f));
  }
  deliverAll(f: MessageFilter = {}, limit?: number): Promise<number> {
    return this.run(this.core.deliverAll(f, limit));
  }
  deliverRaw(to: number, eventJson: string): Promise<string> {
    return this.run(this.core.deliverRaw(to, eventJson));
  }
  fire(id: number, timer: TimerName): Promise<string> {
    return this.run(this.core.fire(id, timer));
  }
  client(id: number, clientId: number, requestId: number, line: string): Promise<string> {
    return this.run(this.core.client(id, clientId, requestId, line));
  }
  gcPending(id: number, pauseUs: number): Promise<void> {
    return this.run(this.core.gcPending(id, pauseUs));
  }
  gcDone(id: number): Promise<void> {
    return this.run(this.core.gcDone(id));
  }
  crash(id: number): Promise<void> {
    return this.run(this.core.crash(id));
  }
  restart(id: number, wiped = false, event?: string): Promise<string> {
    return this.run(this.core.restart(id, wiped, event));
  }
  inspect(id: number): Promise<string> {
    return this.node(id).inspect();
  }
  close(): Promise<void> {
    return this.run(this.core.close());
  }
}
