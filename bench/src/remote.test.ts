import { describe, expect, it } from 'vitest';
import { hostsFromInventoryList } from './remote.ts';

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
