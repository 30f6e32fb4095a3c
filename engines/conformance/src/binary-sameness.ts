// The binary step's proof of sameness (docs/protocol.md, "Binary step"): every node is a pair
// of twins, one stepped on canonical JSON, the other on the same events through the binary
// step; every step's effects (the binary ones written back as JSON) and every inspect view must
// be byte for byte the same. `npm run conformance -- --binary` runs every transcript this way.
import type { AsyncEngine, AsyncNode } from '../../loader/engine.ts';
import { EVENT_JSON, eventBinaryOf } from '../../loader/binary-codec.ts';
import { firstDifference } from './difference.ts';

export interface SamenessCount {
  steps: number;
  /** of which had a binary form (the rest went as JSON behind tag 0x00) */
  binary: number;
}

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
      const same = (what: string, a: string, b: string): string => {
        if (a !== b) throw new Error(`binary step differs from JSON ${what}: ${firstDifference(a, b)}`);
        return a;
      };
      const node: AsyncNode = {
        async step(e) {
          const a = await json.step(e);
          const b = await binary.stepBinaryAsJson!(e);
          count.steps++;
          if (eventBinaryOf(e)[0] !== EVENT_JSON) count.binary++;
          return same(`on ${e.length > 200 ? `${e.slice(0, 200)}…` : e}`, a, b);
        },
        async inspect() {
          return same('in inspect', await json.inspect(), await binary.inspect());
        },
        stats: () => json.stats(),
        async destroy() {
          await Promise.all([json.destroy(), binary.destroy()]);
        },
      };
      return node;
    },
    close: () => engine.close(),
  };
}
