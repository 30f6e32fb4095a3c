#!/usr/bin/env python3
"""Differential test: drives the Go reference host and the C++ host with the same random
cluster histories and demands identical bytes from every step and every inspect.

  python3 engines/cpp-wasm/tools/differential.py [--runs N] [--steps N] [--seed S]
                                                 [--cpp-host build/asan/replicant-host]

Each run picks a cluster size and seed, then mixes deliveries, drops, duplicates, timer
firings, client commands (good and malformed), garbage events (mutated messages, broken
JSON) and crash/restart. The network is modelled from the reference engine's own effects.
Not part of CI (the transcripts are); a bench-style check while developing the engine.
"""
import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
HOSTS = {
    'go': os.path.join(ROOT, 'go-wasm/dist/replicant-host'),
    'cpp': os.path.join(ROOT, 'cpp-wasm/dist/replicant-host'),
}


class Host:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def request(self, op, handle, payload=b''):
        self.p.stdin.write(f'{op} {handle} {len(payload)}\n'.encode() + payload)
        self.p.stdin.flush()
        status, length = self.p.stdout.readline().decode().split()
        return status, self.p.stdout.read(int(length))

    def close(self):
        self.p.stdin.close()
        self.p.wait()


KEYS = ['a', 'b', 'k', 'key1', 'x' * 256]
BAD_LINES = ['', 'get', 'get ', 'put k', 'get a b', 'GET a', 'put  a v', 'del a ', 'get \ta',
             'put ' + 'y' * 257 + ' v', 'put a \x01', 'frob a', 'get a\r', 'put a ' + 'v' * 65537]


def client_line(rng):
    if rng.random() < 0.15:
        return rng.choice(BAD_LINES)
    verb = rng.choice(['get', 'put', 'put', 'del'])
    key = rng.choice(KEYS)
    if verb == 'put':
        value = rng.choice(['', '1', 'hello world', 'v' * rng.randint(0, 300), ' lead', 'q"\\'])
        return f'put {key} {value}'
    return f'{verb} {key}'


def mutate(rng, msg_json):
    """Garbage derived from a real message: a byte flipped, a field changed, truncated..."""
    choice = rng.randrange(8)
    if choice == 0 and msg_json:
        i = rng.randrange(len(msg_json))
        return msg_json[:i] + chr(rng.randrange(32, 127)) + msg_json[i + 1:]
    if choice == 1:
        return msg_json[:rng.randrange(len(msg_json) + 1)]
    m = json.loads(msg_json)
    if choice == 2:
        m['from'] = rng.randrange(17)
    elif choice == 3:
        m['to'] = rng.randrange(17)
    elif choice == 4:
        m['extra'] = 1
    elif choice == 5:
        for k in ('ballot', 'channel_id', 'last_executed'):
            if k in m:
                m[k] = rng.choice([0, 15, 2**53 - 1, 2**53, 1.5, -1, '1'])
    elif choice == 6 and 'instance' in m:
        m['instance']['state'] = rng.choice(['committed', 'executed', 'bogus'])
        m['instance']['index'] = rng.choice([0, 1, 2, 100])
    else:
        return json.dumps(m, separators=(',', ':')).replace('{', '{ "type2":0,', 1)
    return json.dumps(m, separators=(',', ':'))


def run(run_seed, steps):
    rng = random.Random(run_seed)
    n = rng.choice([1, 2, 3, 3, 3, 5])
    base_seed = rng.randrange(2**40)
    cfg_extra = {}
    if rng.random() < 0.5:
        cfg_extra['accept_timeout_ticks'] = rng.randint(1, 4)
    if rng.random() < 0.3:
        cfg_extra['max_pending_accepts'] = rng.randint(1, 4)
    if rng.random() < 0.2:
        cfg_extra['trace'] = False
    hosts = {name: Host(path) for name, path in HOSTS.items()}
    handles = {name: [0] * n for name in hosts}
    incarnation = [0] * n
    pending = []  # message JSON strings (from the reference output)
    timers = [set() for _ in range(n)]
    client_seq = [0]

    def step(i, event):
        outs = {}
        for name, h in hosts.items():
            status, out = h.request('step', handles[name][i], event.encode())
            outs[name] = (status, out)
        if outs['go'] != outs['cpp']:
            raise AssertionError(f'run {run_seed}: step on n{i} differs\nevent: {event}\n'
                                 f'go:  {outs["go"]}\ncpp: {outs["cpp"]}')
        for line in outs['go'][1].decode().splitlines():
            e = json.loads(line)
            if e['type'] == 'send':
                pending.append(json.dumps(e['msg'], separators=(',', ':')))
            elif e['type'] == 'set_timer':
                timers[i].add(e['timer'])
            elif e['type'] == 'cancel_timer':
                timers[i].discard(e['timer'])

    def create(i):
        cfg = dict(id=i, num_peers=n, seed=base_seed + i + 16 * incarnation[i], **cfg_extra)
        for name, h in hosts.items():
            status, out = h.request('create', 0, json.dumps(cfg).encode())
            assert status == 'ok', (name, out)
            handles[name][i] = int(out)
        timers[i].clear()
        step(i, '{"type":"start"}')

    def compare_inspect(i):
        views = {name: h.request('inspect', handles[name][i]) for name, h in hosts.items()}
        if views['go'] != views['cpp']:
            raise AssertionError(f'run {run_seed}: inspect of n{i} differs\n'
                                 f'go:  {views["go"]}\ncpp: {views["cpp"]}')

    for i in range(n):
        create(i)
    for _ in range(steps):
        r = rng.random()
        if r < 0.45 and pending:
            k = rng.randrange(len(pending)) if rng.random() < 0.3 else 0
            msg = pending.pop(k)
            to = json.loads(msg)['to']
            if rng.random() < 0.05:
                pending.append(msg)  # duplicate
            step(to, '{"type":"message","msg":' + msg + '}')
        elif r < 0.50 and pending:
            pending.pop(rng.randrange(len(pending)))  # drop
        elif r < 0.68:
            i = rng.randrange(n)
            if timers[i]:
                t = rng.choice(sorted(timers[i]))
                timers[i].discard(t)
                step(i, json.dumps({'type': 'timer', 'timer': t}, separators=(',', ':')))
        elif r < 0.86:
            i = rng.randrange(n)
            client_seq[0] += 1
            step(i, json.dumps({'type': 'client', 'client_id': rng.randrange(1, 5),
                                'request_id': client_seq[0], 'line': client_line(rng)},
                               separators=(',', ':')))
        elif r < 0.93 and pending:
            msg = rng.choice(pending)
            garbage = mutate(rng, msg)
            to = rng.randrange(n)
            step(to, '{"type":"message","msg":' + garbage + '}')
        elif r < 0.95:
            i = rng.randrange(n)
            step(i, rng.choice(['{"type":"timer","timer":"other"}', '{"type":"start","x":1}',
                                '[1,2]', '', '{"type":"client","client_id":1,"request_id":1,'
                                '"line":"put a \\u00e9"}', '{"type":"start"} x']))
        elif r < 0.97:
            i = rng.randrange(n)
            compare_inspect(i)
        elif r < 0.985:
            i = rng.randrange(n)
            for name, h in hosts.items():
                h.request('destroy', handles[name][i])
            pending[:] = [m for m in pending if json.loads(m)['to'] != i]
            incarnation[i] += 1
            create(i)
        else:
            # a long quiet period: every armed timer fires once, in node order
            for i in range(n):
                for t in sorted(timers[i]):
                    timers[i].discard(t)
                    step(i, json.dumps({'type': 'timer', 'timer': t}, separators=(',', ':')))
    for i in range(n):
        compare_inspect(i)
    for h in hosts.values():
        h.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=200)
    ap.add_argument('--steps', type=int, default=400)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--cpp-host', help='another C++ host, e.g. build/asan/replicant-host')
    args = ap.parse_args()
    if args.cpp_host:
        HOSTS['cpp'] = os.path.abspath(args.cpp_host)
    for path in HOSTS.values():
        if not os.path.exists(path):
            sys.exit(f'{path} is missing; build first')
    for k in range(args.runs):
        run(args.seed + k, args.steps)
    print(f'differential: {args.runs} runs x {args.steps} steps: go and cpp identical')


if __name__ == '__main__':
    main()
