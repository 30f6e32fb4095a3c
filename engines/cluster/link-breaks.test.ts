import { describe, expect, it } from 'vitest';
import { attributeLinkBreaks, describeLinkBreaks, parseLinkEvents, type ResetRecord } from './link-breaks.ts';
import { lineStampMs } from './node-status.ts';

// Lines as the servers wrote them in the third series' r2 cpp,rust,java memory run (13:53:52.487
// UTC start, docs/reliability.md), and stalls as Go, Java and C++ log them.
const cppLog = [
  '[cpp n0] 2026/11/27 13:54:02.695821 lost the connection to peer 2 (127.0.0.1:15895); reconnecting',
  '[cpp n0] 2026/11/27 13:54:02.695900 connected to peer 2 (127.0.0.1:15895)',
  '[cpp n0] 2026/11/27 13:54:13.524137 status {"role":"candidate","leader":1,"peer_queue_bytes":0}',
  '[cpp n0] 2026/11/27 13:54:14.060569 lost the connection to peer 2 (127.0.0.1:15895); reconnecting',
  '[cpp n0] 2026/11/27 13:54:17.565187 lost the connection to peer 2 (127.0.0.1:15895); reconnecting',
  '[cpp n0] 2026/11/27 13:54:22.522620 lost the connection to peer 1 (127.0.0.1:15894); reconnecting',
].join('\n');
const rustLog = [
  '[rust n1] 2026/11/27 13:54:02.538816 link to peer 2 at 127.0.0.1:15895 broke: Connection reset by peer (os error 104); reconnecting',
  '[rust n1] 2026/11/27 13:54:07.491621 link to peer 0 at 127.0.0.1:15893 broke: Connection reset by peer (os error 104); reconnecting',
  '[rust n1] 2026/11/27 13:54:14.034142 link to peer 2 at 127.0.0.1:15895 broke: Connection reset by peer (os error 104); reconnecting',
].join('\n');
// Java as a follower writes to node 0 only when it stands for election: it noticed the 07.5 reset at 13.3
const javaLog = '[java n2] 2026/11/27 13:54:13.298637 link to peer 0 at /127.0.0.1:15893 broke: Connection reset by peer; reconnecting';

const at = (stamp: string) => lineStampMs(`2026/11/27 ${stamp} `)!;
const start = at('13:53:52.487000');
// the test's resets: on the 5 s grid, the fifth 1.5 s late (the test process starved with the
// servers), the follower the current leader names (Rust led until 13:54:13, then C++)
const resets: ResetRecord[] = [
  { atMs: at('13:54:02.500000'), leader: 1, follower: 2 },
  { atMs: at('13:54:07.480000'), leader: 1, follower: 0 },
  { atMs: at('13:54:14.020000'), leader: 1, follower: 2 },
  { atMs: at('13:54:17.500000'), leader: 0, follower: 2 },
  { atMs: at('13:54:22.500000'), leader: 0, follower: 1 },
];
const events = () => [...parseLinkEvents(cppLog, 0), ...parseLinkEvents(rustLog, 1), ...parseLinkEvents(javaLog, 2)];

describe('link breaks in a reset run', () => {
  it('reads every server format, and skips status lines', () => {
    const e = events();
    expect(e.map((x) => `${x.from}>${x.to} ${x.kind}`)).toEqual([
      '0>2 broke',
      '0>2 broke',
      '0>2 broke',
      '0>1 broke',
      '1>2 broke',
      '1>0 broke',
      '1>2 broke',
      '2>0 broke',
    ]);
    const go = '[go n1] 2026/11/27 13:59:46.410086 link to peer 2 at 127.0.0.1:26656: no write progress for 1s with 25775 bytes to send; redialling';
    const java = '[java n1] 2026/11/27 10:17:37.500888 link to peer 2 at /127.0.0.1:16876 broke: no write progress for 1000 ms; reconnecting';
    const rust = '[rust n0] 2026/11/27 10:17:37.500888 link to peer 1 at 127.0.0.1:16876 broke: no write progress for 1s with 4096 bytes to send; reconnecting';
    for (const line of [go, java, rust]) expect(parseLinkEvents(line, 1).map((x) => x.kind)).toEqual(['stalled']);
  });

  it('counts a C++ stall and the break that follows it as one redial', () => {
    const log = [
      '[cpp n0] 2026/11/27 13:54:20.000100 no write progress to peer 2 (127.0.0.1:15895) for 1000 ms; redialling',
      '[cpp n0] 2026/11/27 13:54:20.000200 lost the connection to peer 2 (127.0.0.1:15895); reconnecting',
      '[cpp n0] 2026/11/27 13:54:27.000200 lost the connection to peer 2 (127.0.0.1:15895); reconnecting',
    ].join('\n');
    expect(parseLinkEvents(log, 0).map((x) => x.kind)).toEqual(['stalled', 'broke']);
  });

  it('explains the breaks stop 31 read as off the grid by the resets the test made', () => {
    const s = attributeLinkBreaks(events(), resets, start);
    expect(s.broke).toBe(8);
    expect(s.unexplained).toEqual([]);
    expect(s.stalled).toEqual([]);
    expect(describeLinkBreaks(s, start)).toBe('8 link breaks, each after a reset of the node it goes to; no write-progress redial');
  });

  it('names a break with no reset of its peer since the link last broke', () => {
    // without the late fifth reset, the C++ and Rust breaks at 13:54:14 have none
    const s = attributeLinkBreaks(events(), resets.filter((r) => r.atMs !== at('13:54:14.020000')), start);
    expect(s.unexplained.map((e) => `${e.from}>${e.to}`)).toEqual(['1>2', '0>2']);
    expect(describeLinkBreaks(s, start)).toContain('2 not after a reset of the node it goes to (n1->n2 at +21.55 s, n0->n2 at +21.57 s)');
    // one reset explains one break per link: the 17.5 s reset does not also explain 14.06
    const s2 = attributeLinkBreaks(events(), resets.filter((r) => r.follower !== 2 || r.atMs === at('13:54:17.500000')), start);
    expect(s2.unexplained.map((e) => `${e.from}>${e.to} +${((e.atMs - start) / 1000).toFixed(2)}`)).toEqual(['1>2 +10.05', '0>2 +10.21', '1>2 +21.55', '0>2 +21.57']);
  });

  it('never takes a stalled write for a reset', () => {
    const log = '[java n1] 2026/11/27 13:54:18.000000 link to peer 2 at /127.0.0.1:16876 broke: no write progress for 1000 ms; reconnecting';
    const s = attributeLinkBreaks(parseLinkEvents(log, 1), resets, start);
    expect(s.broke).toBe(0);
    expect(s.stalled).toHaveLength(1);
    expect(describeLinkBreaks(s, start)).toBe('0 link breaks, each after a reset of the node it goes to; 1 write-progress redials (n1->n2 at +25.51 s)');
  });
});
