// Drives a language's native host process (stdin/stdout, the host protocol of
// engines/conformance/README.md). Requests are answered in order, so one queue of pending
// promises pairs them with responses.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { AsyncEngine, AsyncNode, EngineError, EngineName, NodeConfig } from './engine.ts';

interface Pending {
  resolve: (payload: string) => void;
  reject: (error: Error) => void;
}

export class NativeHost implements AsyncEngine {
  readonly target = 'native' as const;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private exited: Error | null = null;
  private stderr = '';

  constructor(
    readonly name: EngineName,
    command: string,
    args: string[] = [],
  ) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    const onEnd = (why: string) => {
      this.exited = new EngineError(name, `host ${why}${this.stderr ? `: ${this.stderr.trim()}` : ''}`);
      for (const p of this.pending.splice(0)) p.reject(this.exited);
    };
    this.child.on('exit', (code, signal) => onEnd(`exited (${signal ?? code})`));
    this.child.on('error', (err) => onEnd(`failed to start ${command}: ${err.message}`));
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const header = this.buffer.subarray(0, nl).toString();
      const [status, lengthText] = header.split(' ');
      const length = Number(lengthText);
      if (this.buffer.length < nl + 1 + length) return;
      const payload = this.buffer.subarray(nl + 1, nl + 1 + length).toString();
      this.buffer = this.buffer.subarray(nl + 1 + length);
      const p = this.pending.shift();
      if (!p) throw new EngineError(this.name, `unexpected response ${header}`);
      if (status === 'ok') p.resolve(payload);
      else p.reject(new EngineError(this.name, payload));
    }
  }

  request(op: string, handle: number, payload = ''): Promise<string> {
    if (this.exited) return Promise.reject(this.exited);
    const body = Buffer.from(payload);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.child.stdin.write(`${op} ${handle} ${body.length}\n`);
      this.child.stdin.write(body);
    });
  }

  async createNode(config: NodeConfig): Promise<AsyncNode> {
    const handle = Number(await this.request('create', 0, JSON.stringify(config)));
    return {
      step: (e) => this.request('step', handle, e),
      inspect: () => this.request('inspect', handle),
      stats: () => this.request('stats', handle),
      destroy: async () => {
        await this.request('destroy', handle);
      },
    };
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const done = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    await done;
  }
}
