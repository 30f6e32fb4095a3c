// The binary step's encoding (binary-codec.ts, docs/protocol.md "Binary step"): canonical JSON
// and the binary form carry the same values, a send's wire size is computed without writing
// its JSON, and bad bytes are clear errors — in the codec and in the real cores that have the binary step (their wasm builds).
import { describe, expect, it } from 'vitest';
import {
  batchFrames, BinaryCodecError, ByteReader, ByteWriter, effectsJsonLines, eventBinaryOf, eventJsonOf, EVENT_JSON, messageJson, readSendFacts,
  stepBatchAsJson, stepBinaryAsJson, writeBatchFrame, type SendFacts,
} from './binary-codec.ts';
import { EngineError } from './engine.ts';
import { wasmNodeEngine } from './node-loaders.ts';

const accept = (value: string, key = 'k') =>
  `{"type":"message","msg":{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1234567,"client_id":7,"request_id":99,"state":"in_progress","command":{"type":"put","key":${JSON.stringify(key)},"value":${JSON.stringify(value)}}}}}`;

const HOT_EVENTS = [
  accept('plain value'),
  accept('quotes " and \\ backslashes', 'k"\\'),
  accept('"quoted" \\ after a plain key', 'plain'), // the key's count must stop at its end
  accept(''),
  accept('x'.repeat(70_000)), // a length past two LEB128 bytes (too long for the core: it says so)
  '{"type":"message","msg":{"type":"accept_request","from":2,"to":0,"channel_id":0,"instance":{"ballot":258,"index":1,"client_id":0,"request_id":0,"state":"committed","command":{"type":"noop"}}}}',
  '{"type":"message","msg":{"type":"accept_request","from":2,"to":0,"channel_id":0,"instance":{"ballot":258,"index":1,"client_id":0,"request_id":0,"state":"executed","command":{"type":"del","key":"a"}}}}',
  '{"type":"message","msg":{"type":"accept_response","from":0,"to":1,"channel_id":4,"ok":true,"ballot":257}}',
  '{"type":"message","msg":{"type":"accept_response","from":0,"to":1,"channel_id":4,"ok":false,"ballot":9007199254740991}}',
  '{"type":"message","msg":{"type":"commit_request","from":1,"to":0,"channel_id":5,"ballot":257,"last_executed":4,"global_last_executed":2}}',
  '{"type":"message","msg":{"type":"commit_response","from":0,"to":1,"channel_id":5,"ok":false,"ballot":257,"last_executed":128}}',
  '{"type":"client","client_id":7,"request_id":1,"line":"put k v \\"q\\""}',
];

describe('the binary encoding', () => {
  it('carries every per-operation event and gives back its canonical JSON', () => {
    for (const json of HOT_EVENTS) {
      const bin = eventBinaryOf(json);
      expect(bin[0], json.slice(0, 80)).not.toBe(EVENT_JSON);
      expect(eventJsonOf(bin)).toBe(json);
    }
  });

  it("computes a send's canonical JSON length without writing it", () => {
    const facts: SendFacts = { type: 0, to: 0, jsonLength: 0, put: false };
    for (const json of HOT_EVENTS.filter((e) => e.includes('"message"'))) {
      const bin = eventBinaryOf(json);
      const msg = json.slice('{"type":"message","msg":'.length, -1);
      expect(messageJson(new ByteReader().reset(bin, 1))).toBe(msg);
      readSendFacts(new ByteReader().reset(bin, 1), facts);
      expect(facts.jsonLength).toBe(msg.length);
      expect(facts.put).toBe(msg.includes('"command":{"type":"put"'));
      expect(facts.to).toBe(JSON.parse(msg).to);
    }
  });

  it('keeps everything else, and text that is not canonical, as JSON behind tag 0', () => {
    for (const json of ['{"type":"start"}', '{"type":"timer","timer":"commit"}', '{ "type":"client","client_id":1,"request_id":1,"line":"get k"}', '{"type":"client","client_id":1,"client_id":2,"request_id":1,"line":"get k"}', 'not json', accept('v').replace('"put"', '"stash"')]) {
      const bin = eventBinaryOf(json);
      expect(bin[0]).toBe(EVENT_JSON);
      expect(new TextDecoder().decode(bin.subarray(1))).toBe(json);
    }
  });

  it('refuses bad bytes with a clear error', () => {
    const bad: [number[], RegExp][] = [
      [[9], /unknown effect tag 9/],
      [[1, 7], /truncated/],
      [[1, 0x80, 0x00, 1, 0], /shortest form/],
      [[1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0], /below 2\^53/],
      [[1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1], /longer than 8 bytes/],
      [[1, 1, 1, 9], /enumeration byte 9/],
      [[0, 5, 0x7b], /truncated string/],
      [[2, 3, 2, 0, 1], /truncated/],
      [[2, 6, 2, 0, 1, 4, 7, 1], /boolean byte 7/],
    ];
    for (const [bytes, message] of bad) {
      expect(() => effectsJsonLines(Uint8Array.from(bytes)), String(bytes)).toThrow(BinaryCodecError);
      expect(() => effectsJsonLines(Uint8Array.from(bytes)), String(bytes)).toThrow(message);
    }
    expect(() => new ByteWriter().uint(-1)).toThrow(/not an integer below 2\^53/);
  });
});

describe("a core's binary step", () => {
  it.each(['rust', 'cpp', 'go', 'java'] as const)('%s answers bad bytes with bad_event, loses nothing, and steps on', async (name) => {
    const engine = await wasmNodeEngine(name);
    const node = engine.createNode({ id: 0, num_peers: 1, seed: 1, trace: false });
    const put = (i: number) => `{"type":"client","client_id":1,"request_id":${i},"line":"put k v${i}"}`;
    const json = engine.createNode({ id: 0, num_peers: 1, seed: 1, trace: false });
    const both = (e: string) => {
      const want = json.step(e);
      expect(stepBinaryAsJson(node, e)).toBe(want);
      return want;
    };
    both('{"type":"start"}');
    both('{"type":"timer","timer":"election"}');
    expect(both(put(1))).toContain('"result":"ok"');
    const garbage = [[], [9], [1, 1], [1, 0x80, 0, 1, 0], [2, 1, 1, 0, 0, 1], [2, 2, 1, 0, 4, 2, 1], [1, 1, 1, 0, 0]];
    for (const bytes of garbage) {
      expect(effectsJsonLines(node.stepBinary!(Uint8Array.from(bytes))), String(bytes)).toBe('{"type":"error","error":"bad_event"}\n');
    }
    json.step('not json'); // the same count of bad events on the JSON twin
    for (let i = 1; i < garbage.length; i++) json.step('{}');
    expect(both(put(2))).toContain('"result":"ok"');
    expect(node.inspect()).toBe(json.inspect());
    node.destroy();
    json.destroy();
  });
});

describe('the batch step (docs/protocol.md, "Batch step")', () => {
  it('frames bodies behind their lengths and refuses framing that does not hold', () => {
    const w = new ByteWriter();
    const bodies = [Uint8Array.from([1, 2]), new Uint8Array(0), new Uint8Array(300).fill(7)];
    for (const b of bodies) writeBatchFrame(w, b);
    expect(batchFrames(w.view()).map((f) => [...f])).toEqual(bodies.map((b) => [...b]));
    expect(batchFrames(new Uint8Array(0))).toEqual([]);
    for (const [bytes, message] of [[[3, 1, 2], /truncated string/], [[0x80], /truncated/], [[0x80, 0], /shortest form/]] as const) {
      expect(() => batchFrames(Uint8Array.from(bytes)), String(bytes)).toThrow(message);
    }
  });

  it.each(['rust', 'cpp'] as const)('%s: a batch gives the effects of its events stepped one by one; bad framing steps nothing', async (name) => {
    const engine = await wasmNodeEngine(name);
    const batched = engine.createNode({ id: 0, num_peers: 1, seed: 1, trace: false });
    const json = engine.createNode({ id: 0, num_peers: 1, seed: 1, trace: false });
    const put = (i: number) => `{"type":"client","client_id":1,"request_id":${i},"line":"put k v${i}"}`;
    const events = ['{"type":"start"}', '{"type":"timer","timer":"election"}', put(1), 'not json', put(2), accept('v'), put(3)];
    const before = batched.inspect();
    // a good frame, then one that promises more bytes than there are: refused as a whole
    expect(() => batched.stepBatch!(Uint8Array.from([2, 0, 0x7b, 9, 1]))).toThrow(EngineError);
    expect(() => batched.stepBatch!(Uint8Array.from([0x80]))).toThrow(/bad batch framing/);
    expect(batched.inspect()).toBe(before);
    const want = events.map((e) => json.step(e));
    expect(want[2]).toContain('"result":"ok"');
    expect(stepBatchAsJson(batched, events.slice(0, 3))).toEqual(want.slice(0, 3));
    expect(stepBatchAsJson(batched, [])).toEqual([]);
    expect(stepBatchAsJson(batched, events.slice(3))).toEqual(want.slice(3));
    expect(batched.inspect()).toBe(json.inspect());
    batched.destroy();
    json.destroy();
  });
});
