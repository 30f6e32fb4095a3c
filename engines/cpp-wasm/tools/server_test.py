#!/usr/bin/env python3
"""Black-box test of a native Replicant server (default: the C++ one) over real sockets.

  python3 engines/cpp-wasm/tools/server_test.py [--server PATH] [--mixed go=PATH,...]

Checks: exit status 2 with a message on bad configurations, ids and addresses; a 3-node
cluster elects a leader and serves put/get/del; followers answer `leader is N`; malformed
lines get `bad command`; a line over 1 MiB gets `bad command` and the connection closes;
garbage peer frames are dropped and logged while the node keeps serving; concurrent clients;
the cluster survives the leader's crash with its data. With --mixed, node i runs the server
given for position i (e.g. --mixed cpp,go,cpp with GO_SERVER=path) so clusters mix languages.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SERVER = os.path.join(HERE, '..', 'dist', 'replicant-server')


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(('127.0.0.1', 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class Client:
    def __init__(self, port, timeout=5.0):
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile('rwb')

    def send_raw(self, data):
        self.file.write(data)
        self.file.flush()

    def cmd(self, line):
        self.send_raw(line.encode() + b'\n')
        reply = self.file.readline()
        if not reply:
            raise ConnectionError('connection closed')
        return reply.decode().rstrip('\n')

    def close(self):
        self.sock.close()


class Cluster:
    def __init__(self, servers, workdir, ci_ms=50):
        self.n = len(servers)
        ports = free_ports(2 * self.n)
        self.peer_ports = ports[:self.n]
        self.client_ports = ports[self.n:]
        self.config = os.path.join(workdir, 'cluster.json')
        with open(self.config, 'w') as f:
            json.dump({'commit_interval_ms': ci_ms,
                       'peers': [f'127.0.0.1:{p}' for p in self.peer_ports],
                       'clients': [f'127.0.0.1:{p}' for p in self.client_ports]}, f)
        self.servers = servers
        self.workdir = workdir
        self.procs = [None] * self.n
        for i in range(self.n):
            self.start(i)

    def log_path(self, i):
        return os.path.join(self.workdir, f'node{i}.log')

    def start(self, i):
        log = open(self.log_path(i), 'ab')
        self.procs[i] = subprocess.Popen([self.servers[i], '--config', self.config, '--id', str(i)],
                                         stdout=log, stderr=log)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(('127.0.0.1', self.client_ports[i]), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f'node {i} did not start')

    def kill(self, i):
        self.procs[i].kill()
        self.procs[i].wait()

    def alive(self, i):
        return self.procs[i].poll() is None

    def leader(self, timeout=15.0, exclude=()):
        """The leader once every live node agrees on it (startup may see a few elections)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            replies = {}
            for i in range(self.n):
                if i in exclude or not self.alive(i):
                    continue
                try:
                    c = Client(self.client_ports[i])
                    replies[i] = c.cmd('get __probe__')
                    c.close()
                except OSError:
                    replies[i] = None
            leaders = [i for i, r in replies.items() if r == 'key not found']
            if len(leaders) == 1:
                lead = leaders[0]
                if all(r == f'leader is {lead}' for i, r in replies.items() if i != lead):
                    return lead
            time.sleep(0.1)
        raise RuntimeError(f'no stable leader: {replies}')

    def follower_reply(self, i, line, timeout=5.0):
        """A follower's reply once it has heard from a leader (links connect with back-off)."""
        deadline = time.time() + timeout
        while True:
            c = Client(self.client_ports[i])
            reply = c.cmd(line)
            c.close()
            if reply != 'retry' or time.time() > deadline:
                return reply
            time.sleep(0.05)

    def stop(self):
        for p in self.procs:
            if p and p.poll() is None:
                p.kill()
                p.wait()


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print(f'  ok  {what}')


def run_config_errors(server, workdir):
    print('bad configurations end with status 2 and a message')

    def expect2(args, what, config_text=None):
        path = os.path.join(workdir, 'bad.json')
        if config_text is not None:
            with open(path, 'w') as f:
                f.write(config_text)
        p = subprocess.run([server] + [a.replace('@', path) for a in args], capture_output=True,
                           timeout=10)
        check(p.returncode == 2 and p.stderr.strip(), f'{what} (status {p.returncode}: '
              f'{p.stderr.decode().strip().splitlines()[0] if p.stderr else ""})')

    good = '{"commit_interval_ms":150,"peers":["127.0.0.1:1","127.0.0.1:2"],"clients":["127.0.0.1:3","127.0.0.1:4"]}'
    expect2(['--config', os.path.join(workdir, 'missing.json'), '--id', '0'], 'missing file')
    expect2(['@', '--id', '0'], 'malformed JSON', '{"peers":[')
    expect2(['--config', '@', '--id', '0'], 'an unknown field', good.replace('{', '{"colour":"blue",', 1))
    expect2(['@', '--id', '0'], 'peers not a list', '{"peers":"x","clients":[]}')
    expect2(['@', '--id', '0'], 'clients do not match peers',
            '{"peers":["127.0.0.1:1"],"clients":[]}')
    expect2(['@', '--id', '2'], 'id out of range', good)
    expect2(['@', '--id', 'x'], 'id not a number', good)
    expect2(['@'], 'no id', good)
    expect2(['@', '--id', '0'], 'address without a port',
            '{"peers":["127.0.0.1"],"clients":["127.0.0.1:5"]}')
    expect2(['@', '--id', '0'], 'unresolvable address',
            '{"peers":["no-such-host.invalid:7000"],"clients":["127.0.0.1:5"]}')
    busy = socket.socket()
    busy.bind(('127.0.0.1', 0))
    busy.listen()
    port = busy.getsockname()[1]
    other = free_ports(1)[0]
    expect2(['@', '--id', '0'], 'peer address in use',
            json.dumps({'peers': [f'127.0.0.1:{port}'], 'clients': [f'127.0.0.1:{other}']}))
    expect2(['@', '--id', '0'], 'client address in use',
            json.dumps({'peers': [f'127.0.0.1:{other}'], 'clients': [f'127.0.0.1:{port}']}))
    busy.close()


def run_cluster(servers, workdir):
    print(f'a {len(servers)}-node cluster: ' + ', '.join(servers))
    cl = Cluster(servers, workdir)
    try:
        lead = cl.leader()
        check(True, f'node {lead} leads')
        c = Client(cl.client_ports[lead])
        check(c.cmd('put k1 hello world') == '', 'put answers an empty line')
        check(c.cmd('get k1') == 'hello world', 'get returns the value')
        check(c.cmd('put k2 ') == '', 'put of an empty value')
        check(c.cmd('get k2') == '', 'get of an empty value')
        check(c.cmd('del k2') == '', 'del answers an empty line')
        check(c.cmd('get k2') == 'key not found', 'deleted key is not found')
        check(c.cmd('del k2') == 'key not found', 'del of a missing key')
        check(c.cmd('get k1\r') == 'hello world', 'one trailing CR is removed')
        for bad in ['get', 'GET k1', 'get k1 x', 'put k1', 'frob k', 'get  k1', 'get \tk1', '']:
            check(c.cmd(bad) == 'bad command', f'bad command for {bad!r}')
        for i in range(cl.n):
            if i != lead:
                reply = cl.follower_reply(i, 'get k1')
                check(reply == f'leader is {lead}', f'node {i} answers leader is {lead} ({reply!r})')

        # A line over 1 MiB: bad command, then the connection closes.
        big = Client(cl.client_ports[lead], timeout=10)
        big.send_raw(b'put big ' + b'x' * (1 << 20) + b'\n')
        reply = big.file.readline()
        rest = big.file.readline()
        check(reply == b'bad command\n' and rest == b'', 'a line over 1 MiB: bad command, closed')
        big.close()

        # Garbage peer frames are dropped; the node keeps serving.
        victim = (lead + 1) % cl.n
        g = socket.create_connection(('127.0.0.1', cl.peer_ports[victim]))
        g.sendall(b'not json\n{"type":"prepare_request"}\n'
                  + json.dumps({'type': 'commit_request', 'from': lead, 'to': 99,
                                'channel_id': 1, 'ballot': 0, 'last_executed': 0,
                                'global_last_executed': 0}).encode() + b'\n'
                  + b'{"type":"accept_response","from":7,"to":%d,"channel_id":1,"ok":true,"ballot":0}\n' % victim
                  + bytes(range(256)) + b'\n')
        time.sleep(0.3)
        g.close()
        check(cl.alive(victim), f'node {victim} survives garbage peer frames')
        with open(cl.log_path(victim), 'rb') as f:
            log = f.read().decode(errors='replace')
        check('dropp' in log, 'the garbage was logged')
        check(c.cmd('put k3 after garbage') == '' and c.cmd('get k3') == 'after garbage',
              'the cluster still commits')

        # Concurrent clients.
        errors = []
        retries = []

        def worker(w):
            try:
                cc = Client(cl.client_ports[lead])
                for j in range(100):
                    r = cc.cmd(f'put w{w}k{j} value-{w}-{j}-' + 'v' * 100)
                    if r == 'retry':
                        retries.append(r)
                    elif r != '':
                        errors.append(r)
                r = cc.cmd(f'get w{w}k99')
                if r != f'value-{w}-99-' + 'v' * 100:
                    errors.append(r)
                cc.close()
            except Exception as e:  # noqa: BLE001
                errors.append(repr(e))
        t0 = time.time()
        threads = [threading.Thread(target=worker, args=(w,)) for w in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        check(not errors and len(retries) < 80,
              f'8 concurrent clients x 100 puts ({time.time() - t0:.2f} s, {len(retries)} retries) '
              f'{errors[:3]}')
        c.close()

        # The leader crashes: another node takes over with the data.
        time.sleep(0.3)  # a heartbeat or two: followers learn the last commits
        cl.kill(lead)
        new = cl.leader(exclude=(lead,))
        check(new != lead, f'node {new} leads after node {lead} crashed')
        c2 = Client(cl.client_ports[new])
        check(c2.cmd('get k1') == 'hello world', 'the data survived')
        check(c2.cmd('put k4 v4') == '' and c2.cmd('get k4') == 'v4', 'the new leader commits')
        c2.close()
        cl.start(lead)
        time.sleep(0.5)
        check(cl.alive(lead), f'node {lead} restarted and rejoined')
        check(cl.follower_reply(lead, 'get k4') == f'leader is {new}',
              'the restarted node follows the new leader')
    finally:
        cl.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--server', default=DEFAULT_SERVER)
    ap.add_argument('--mixed', help='comma-separated server paths, one per node')
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        if args.mixed:
            run_cluster(args.mixed.split(','), workdir)
        else:
            run_config_errors(args.server, workdir)
            run_cluster([args.server] * 3, workdir)
    print('server test: passed')


if __name__ == '__main__':
    try:
        main()
    except AssertionError as e:
        print(f'FAIL: {e}', file=sys.stderr)
        sys.exit(1)
