package lincheck

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The self-test: every ok-*.jsonl in testdata must be accepted and every bad-*.jsonl rejected,
// so a checker that accepts everything (or nothing) fails here.
func TestKnownHistories(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.jsonl")
	if err != nil || len(files) < 8 {
		t.Fatalf("expected the testdata histories, found %d (%v)", len(files), err)
	}
	var good, bad int
	for _, f := range files {
		name := filepath.Base(f)
		want := ""
		switch {
		case strings.HasPrefix(name, "ok-"):
			want, good = Linearizable, good+1
		case strings.HasPrefix(name, "bad-"):
			want, bad = Violation, bad+1
		default:
			t.Fatalf("%s: a testdata history is named ok-* or bad-*", name)
		}
		h := mustParse(t, f)
		got := Check(h, 0).Verdict
		if got.Verdict != want {
			t.Errorf("%s: verdict %s, want %s", name, got.Verdict, want)
		}
		if want == Violation && (len(got.ViolatingKeys) == 0 || len(got.SuspectOperations) == 0) {
			t.Errorf("%s: a violation names its keys and suspects: %+v", name, got)
		}
	}
	if good == 0 || bad == 0 {
		t.Fatalf("need both kinds: %d ok, %d bad", good, bad)
	}
}

func TestViolationNamesKeyAndOperations(t *testing.T) {
	h := mustParse(t, "../testdata/bad-new-then-old.jsonl")
	v := Check(h, 0).Verdict
	if len(v.ViolatingKeys) != 1 || v.ViolatingKeys[0] != "a" {
		t.Fatalf("violating keys %v, want [a] (b is fine)", v.ViolatingKeys)
	}
	for _, id := range v.SuspectOperations {
		if h.Ops[id].Key != "a" {
			t.Fatalf("suspect #%d is on key %s", id, h.Ops[id].Key)
		}
	}
	if v.Keys != 2 || v.Operations != 5 || v.Checked != 5 {
		t.Fatalf("counts: %+v", v)
	}
}

func TestUnknownOutcomes(t *testing.T) {
	v := Check(mustParse(t, "../testdata/ok-dropped-read.jsonl"), 0).Verdict
	if v.DroppedReads != 1 || v.Checked != 2 {
		t.Fatalf("a read without reply is dropped: %+v", v)
	}
	v = Check(mustParse(t, "../testdata/ok-unknown-write-lost.jsonl"), 0).Verdict
	if v.UnknownWrites != 2 {
		t.Fatalf("unknown writes counted: %+v", v)
	}
}

// Unknown puts whose value no read returned are checked with one stand-in value: the stale read
// after the acknowledged put is still caught, a read unknown put keeps its value, and an unread
// one still makes the key present for a later del (ok-unread-unknown-put-makes-del-ok.jsonl).
func TestUnreadUnknownPutsShareOneValue(t *testing.T) {
	// the full history, where the stand-in is used (Check shows this one by the value check first)
	v := checkFull(mustParse(t, "../testdata/bad-unread-unknown-put-hides-nothing.jsonl"), 0)
	if v.Verdict != Violation || v.UnknownWrites != 2 || v.UnreadUnknownPuts != 2 || v.Checked != 5 {
		t.Fatalf("both unknown puts unread, the stale read still caught: %+v", v)
	}
	v = Check(mustParse(t, "../testdata/bad-unknown-write-flickers.jsonl"), 0).Verdict
	if v.Verdict != Violation || v.UnreadUnknownPuts != 0 {
		t.Fatalf("a read unknown put keeps its value: %+v", v)
	}
	v = Check(mustParse(t, "../testdata/ok-unread-unknown-put-makes-del-ok.jsonl"), 0).Verdict
	if v.Verdict != Linearizable || v.UnreadUnknownPuts != 1 {
		t.Fatalf("an unread unknown put may have made the key present: %+v", v)
	}
}

func TestVisualisation(t *testing.T) {
	c := Check(mustParse(t, "../testdata/bad-stale-read.jsonl"), 0)
	var buf bytes.Buffer
	if err := c.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "<html") || !strings.Contains(buf.String(), `put(a, \"2\")`) {
		t.Fatalf("visualisation lacks the history: %.300s", buf.String())
	}
}

func TestBadInput(t *testing.T) {
	cases := map[string]string{
		"not json":          `{"client":0,`,
		"unknown field":     `{"client":0,"op":"get","key":"a","call_us":0,"return_us":1,"result":"not_found","extra":1}`,
		"missing key":       `{"client":0,"op":"get","call_us":0,"return_us":1,"result":"not_found"}`,
		"missing client":    `{"op":"get","key":"a","call_us":0,"return_us":1,"result":"not_found"}`,
		"bad op":            `{"client":0,"op":"cas","key":"a","call_us":0,"return_us":1,"result":"ok"}`,
		"bad result":        `{"client":0,"op":"get","key":"a","call_us":0,"return_us":1,"result":"retry"}`,
		"return first":      `{"client":0,"op":"get","key":"a","call_us":5,"return_us":1,"result":"not_found"}`,
		"no return":         `{"client":0,"op":"get","key":"a","call_us":5,"result":"not_found"}`,
		"unknown w/ return": `{"client":0,"op":"put","key":"a","value":"v","call_us":5,"return_us":6,"result":"unknown"}`,
		"put no value":      `{"client":0,"op":"put","key":"a","call_us":0,"return_us":1,"result":"ok"}`,
		"get ok no value":   `{"client":0,"op":"get","key":"a","call_us":0,"return_us":1,"result":"ok"}`,
		"space in key":      `{"client":0,"op":"get","key":"a b","call_us":0,"return_us":1,"result":"not_found"}`,
		"negative client":   `{"client":-1,"op":"get","key":"a","call_us":0,"return_us":1,"result":"not_found"}`,
		"fraction":          `{"client":0.5,"op":"get","key":"a","call_us":0,"return_us":1,"result":"not_found"}`,
		"two values":        `{"client":0,"op":"get","key":"a","call_us":0,"return_us":1,"result":"not_found"} {}`,
		"array":             `[1,2]`,
	}
	for name, line := range cases {
		_, err := ParseHistory(strings.NewReader("# header\n\n" + line + "\n"))
		pe, ok := err.(*ParseError)
		if !ok || pe.Line != 3 {
			t.Errorf("%s: want a ParseError on line 3, got %v", name, err)
		}
	}
	long := strings.Repeat("x", MaxLineBytes+10)
	if _, err := ParseHistory(strings.NewReader(long)); err == nil {
		t.Errorf("an over-long line is an error")
	}
}

func TestEmptyHistory(t *testing.T) {
	h, err := ParseHistory(strings.NewReader("\n# nothing\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v := Check(h, 0).Verdict; v.Verdict != Linearizable || v.Operations != 0 {
		t.Fatalf("empty history: %+v", v)
	}
}

func mustParse(t *testing.T, path string) History {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := ParseHistory(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return h
}
