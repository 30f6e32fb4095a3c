// Counts what an engine provider's nodes do through the batch step (the calls and the events
// in them), for the checks and the bench that must see the batch path really ran.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { batchFrames } from '@replicant/engines/loader/binary-codec';

export interface BatchCount {
  calls: number;
  events: number;
}

/** The same engines, their nodes' batch calls counted into `count`. */
export function countingBatches(provide: (name: EngineName) => SyncEngine, count: BatchCount): (name: EngineName) => SyncEngine {
  return (name) => {
    const engine = provide(name);
    return {
      ...engine,
      createNode(config) {
        const node = engine.createNode(config);
        const { stepEvents } = node;
        if (!stepEvents) return node;
        return Object.assign(Object.create(node) as typeof node, {
          stepEvents: (events: readonly Uint8Array[]) => {
            const out = stepEvents.call(node, events);
            count.calls++;
            count.events += batchFrames(out).length;
            return out;
          },
        });
      },
    };
  };
}
