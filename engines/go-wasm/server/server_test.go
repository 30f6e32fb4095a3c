package server

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

func startCluster(t *testing.T, n int) (FileConfig, []*Server) {
	addrs := freeAddrs(t, 2*n)
	cfg := FileConfig{CommitIntervalMs: 20, Peers: addrs[:n], Clients: addrs[n:]}
	var servers []*Server
	for id := 0; id < n; id++ {
		s, err := New(cfg, id, uint64(id+1), log.New(io.Discard, "", 0))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	t.Cleanup(func() {
		for _, s := range servers {
			s.Stop()
		}
	})
	return cfg, servers
}

type client struct {
	conn net.Conn
	r    *bufio.Reader
}

func dial(t *testing.T, addr string) *client {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	return &client{conn, bufio.NewReader(conn)}
}

func (c *client) do(t *testing.T, line string) string {
	fmt.Fprintf(c.conn, "%s\n", line)
	reply, err := c.r.ReadString('\n')
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return strings.TrimSuffix(reply, "\n")
}

// leaderClient finds the leader by following redirects and retrying while none is elected.
func leaderClient(t *testing.T, cfg FileConfig) *client {
	deadline := time.Now().Add(5 * time.Second)
	c := dial(t, cfg.Clients[0])
	for time.Now().Before(deadline) {
		switch reply := c.do(t, "get probe"); {
		case reply == "retry":
			time.Sleep(20 * time.Millisecond)
		case strings.HasPrefix(reply, "leader is "):
			var id int
			fmt.Sscanf(reply, "leader is %d", &id)
			c = dial(t, cfg.Clients[id])
		default:
			return c
		}
	}
	t.Fatal("no leader elected")
	return nil
}

func TestClusterReplicatesAndHandlesBadInput(t *testing.T) {
	cfg, _ := startCluster(t, 3)
	c := leaderClient(t, cfg)
	if got := c.do(t, "put greeting hello world"); got != "" {
		t.Fatalf("put: %q", got)
	}
	if got := c.do(t, "get greeting"); got != "hello world" {
		t.Fatalf("get: %q", got)
	}
	if got := c.do(t, "del nothing"); got != "key not found" {
		t.Fatalf("del: %q", got)
	}
	if got := c.do(t, "frobnicate"); got != "bad command" {
		t.Fatalf("bad line: %q", got)
	}
	if got := c.do(t, "get greeting"); got != "hello world" {
		t.Fatalf("connection unusable after a bad line: %q", got)
	}
	long := dial(t, cfg.Clients[0])
	fmt.Fprintf(long.conn, "put k %s\n", strings.Repeat("x", maxClientLineBytes+10))
	if reply, _ := long.r.ReadString('\n'); reply != "bad command\n" {
		t.Fatalf("over-long line: %q", reply)
	}
	if _, err := long.r.ReadString('\n'); err == nil {
		t.Fatal("the connection should be closed after an over-long line")
	}
	peer, err := net.Dial("tcp", cfg.Peers[1])
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(peer, "garbage\n{\"type\":\"accept_request\"}\n")
	peer.Close()
	// Ask whoever leads now: on a loaded machine the leader can change at any moment, and the point
	// here is that the garbage crashed nothing and lost nothing, not who answers.
	if got := leaderClient(t, cfg).do(t, "get greeting"); got != "hello world" {
		t.Fatalf("after garbage peer frames: %q", got)
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := dir + "/c.json"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := `{"peers":["127.0.0.1:1","127.0.0.1:2","127.0.0.1:3"],"clients":["127.0.0.1:4","127.0.0.1:5","127.0.0.1:6"]}`
	cfg, err := LoadConfig(write(good), 2)
	if err != nil || cfg.CommitIntervalMs != 150 {
		t.Fatalf("commit_interval_ms must default to 150: %+v %v", cfg, err)
	}
	for _, bad := range []string{`nope`, `{"peers":["127.0.0.1:1"],"clients":[]}`, `{"peers":["x"],"clients":["y"]}`,
		`{"commit_interval_ms":0,"peers":["127.0.0.1:1"],"clients":["127.0.0.1:2"]}`,
		`{"peers":["127.0.0.1:1"],"clients":["127.0.0.1:2"],"colour":"blue"}`} {
		if _, err := LoadConfig(write(bad), 0); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if _, err := LoadConfig(write(good), 3); err == nil {
		t.Error("accepted an id outside peers")
	}
	if _, err := LoadConfig(dir+"/missing.json", 0); err == nil {
		t.Error("accepted a missing file")
	}
}

func TestRedialStaysUnderTheElectionTimeout(t *testing.T) {
	for _, ci := range []uint64{1, 2, 150, 1000} {
		election := time.Duration(ci) * time.Millisecond * 3 / 2 // the shortest election delay
		if got := redialCap(ci); got <= 0 || got >= election {
			t.Errorf("commit interval %d ms: redial cap %v, shortest election delay %v", ci, got, election)
		}
	}
}
