// The binary step's proof of sameness (docs/protocol.md, "Binary step"): every node is a pair
// of twins, one stepped on canonical JSON, the other on the same events through the binary
// step; every step's effects (the binary ones written back as JSON) and every inspect view must
// be byte for byte the same. `npm run conformance -- --binary` runs every transcript this way.
// An engine with the batch step (docs/protocol.md, "Batch step") gets a third twin, stepped on
// the same events in batches (of 1 to MAX_BATCH events, and whatever is pending when the
// transcript inspects or ends): each event's effects out of a batch must be the JSON twin's.
import type { AsyncEngine, AsyncNode } from '../../loader/engine.ts';
import { EVENT_JSON, eventBinaryOf } from '../../loader/binary-codec.ts';
import { firstDifference } from './difference.ts';

export interface SamenessCount {
  steps: number;
  /** of which had a binary form (the rest went as JSON behind tag 0x00) */
  binary: number;
  /** events stepped through the batch step and compared */
  batched: number;
  batches: number;
}

/** Batch sizes cycle 1, 2, …, MAX_BATCH, so every transcript sees batches of several sizes. */
const MAX_BATCH = 7;

export function binaryTwins(engine: AsyncEngine, count: SamenessCount): AsyncEngine {
  return {
    name: engine.name,
    target: engine.target,
    async createNode(config) {
      const json = await engine.createNode(config);
      const binary = await engine.createNode(config);
      if (!binary.stepBinaryAsJson) {
        await Promise.all([json.destroy(), binary.destroy()]);
        throw new Error(`${engine.name}/${engine.target} has no binary step`);
      }
      const batch = binary.stepBatchAsJson ? await engine.createNode(config) : null;
      const same = (what: string, a: string, b: string, step = 'binary step'): string => {
        if (a !== b) throw new Error(`${step} differs from JSON ${what}: ${firstDifference(a, b)}`);
        return a;
      };
      // Events the batch twin has yet to step, with the JSON twin's effects for each.
      let pending: { event: string; effects: string }[] = [];
      let batchSize = 1;
      const flush = async (): Promise<void> => {
        if (!batch || pending.length === 0) return;
        const taken = pending;
        pending = [];
        const effects = await batch.stepBatchAsJson!(taken.map((p) => p.event));
        taken.forEach((p, i) => same(`on ${brief(p.event)} (event ${i + 1} of a batch of ${taken.length})`, p.effects, effects[i]!, 'batch step'));
        count.batched += taken.length;
        count.batches++;
        batchSize = (batchSize % MAX_BATCH) + 1;
      };
      const node: AsyncNode = {
        async step(e) {
          const a = await json.step(e);
          const b = await binary.stepBinaryAsJson!(e);
          count.steps++;
          if (eventBinaryOf(e)[0] !== EVENT_JSON) count.binary++;
          same(`on ${brief(e)}`, a, b);
          if (batch) {
            pending.push({ event: e, effects: a });
            if (pending.length >= batchSize) await flush();
          }
          return a;
        },
        async inspect() {
          const view = same('in inspect', await json.inspect(), await binary.inspect());
          if (batch) {
            await flush();
            same('in inspect', view, await batch.inspect(), 'batch step');
          }
          return view;
        },
        stats: () => json.stats(),
        async destroy() {
          try {
            await flush();
          } finally {
            await Promise.all([json.destroy(), binary.destroy(), batch?.destroy()]);
          }
        },
      };
      return node;
    },
    close: () => engine.close(),
  };
}

function brief(e: string): string {
  return e.length > 200 ? `${e.slice(0, 200)}…` : e;
}
