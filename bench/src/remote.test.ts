import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectedNodeReport, hostsFromInventoryList, playbook } from './remote.ts';

// What `ansible-inventory --list` prints for an inventory like bench/ansible/inventory.ec2.example.yml.
const list = (servers: string[], clients: string[]) =>
  JSON.stringify({
    _meta: { hostvars: Object.fromEntries([...servers, ...clients].map((h, i) => [h, { ansible_host: `10.0.1.${10 + i}` }])) },
    all: { children: ['ungrouped', 'servers', 'client'] },
    servers: { hosts: servers },
    client: { hosts: clients },
  });

describe('hostsFromInventoryList', () => {
  it('takes the servers in inventory order (node ids) and the one client, by address', () => {
    const h = hostsFromInventoryList('inv.yml', list(['server-0', 'server-1', 'server-2'], ['client-0']));
    expect(h.servers).toEqual([
      { name: 'server-0', address: '10.0.1.10' },
      { name: 'server-1', address: '10.0.1.11' },
      { name: 'server-2', address: '10.0.1.12' },
    ]);
    expect(h.client).toEqual({ name: 'client-0', address: '10.0.1.13' });
  });

  it('falls back to the host name when no ansible_host is set', () => {
    const text = JSON.stringify({ servers: { hosts: ['a', 'b', 'c'] }, client: { hosts: ['d'] } });
    expect(hostsFromInventoryList('inv.yml', text).servers.map((s) => s.address)).toEqual(['a', 'b', 'c']);
  });

  it('refuses an inventory without three servers or without exactly one client', () => {
    expect(() => hostsFromInventoryList('inv.yml', list(['s0', 's1'], ['c0']))).toThrow(/"servers" group needs at least 3 hosts, has 2/);
    expect(() => hostsFromInventoryList('inv.yml', list(['s0', 's1', 's2'], []))).toThrow(/"client" group needs exactly 1 host, has 0/);
    expect(() => hostsFromInventoryList('inv.yml', list(['s0', 's1', 's2'], ['c0', 'c1']))).toThrow(/has 2/);
  });
});

describe('playbook', () => {
  it('leaves only its log in the output folder: no variables file for data/validate.mjs to read as results', async () => {
    const out = mkdtempSync(join(tmpdir(), 'replicant-playbook-test-'));
    try {
      const hosts = { inventory: join(out, 'no-inventory.yml'), servers: [], client: { name: 'c0', address: 'c0' } };
      // A playbook that does not exist: ansible-playbook (or, without it, the spawn) fails at once.
      await expect(playbook(hosts, 'no-such-playbook.yml', { engine: 'go' }, join(out, 'step.log'))).rejects.toThrow();
      expect(readdirSync(out)).toEqual(['step.log']);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('collectedNodeReport', () => {
  it("reads stop-node.sh's files: memory peak, OOM kills, and a node gone before the stop", () => {
    const dir = mkdtempSync(join(tmpdir(), 'replicant-collected-'));
    try {
      mkdirSync(join(dir, 's1'));
      writeFileSync(join(dir, 's1', 'memory_peak_bytes'), '20918272\n');
      writeFileSync(join(dir, 's1', 'oom_kills'), '1\n');
      writeFileSync(join(dir, 's1', 'node_exited'), '1\n');
      expect(collectedNodeReport(join(dir, 's1'), 1)).toMatchObject({ id: 1, memory_peak_bytes: 20918272, oom_kills: 1, exited: true });
      // Nothing brought back (an older host script, a failed fetch): nothing seen.
      expect(collectedNodeReport(join(dir, 's2'), 2)).toMatchObject({ id: 2, memory_peak_bytes: 0, oom_kills: 0, exited: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
