package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "out.html")
	var out, errb bytes.Buffer
	if code := run([]string{"--html", html, "../../testdata/bad-stale-read.jsonl"}, nil, &out, &errb); code != 1 {
		t.Fatalf("violation exits 1, got %d (%s)", code, errb.String())
	}
	if !strings.Contains(out.String(), `"verdict":"violation"`) {
		t.Fatalf("stdout: %s", out.String())
	}
	if b, err := os.ReadFile(html); err != nil || !bytes.Contains(b, []byte("<html")) {
		t.Fatalf("html not written: %v", err)
	}
	out.Reset()
	if code := run([]string{"-"}, strings.NewReader(`{"client":0,"op":"get","key":"a","call_us":0,"return_us":1,"result":"not_found"}`), &out, &errb); code != 0 {
		t.Fatalf("linearizable exits 0, got %d", code)
	}
	errb.Reset()
	if code := run([]string{"-"}, strings.NewReader("{\n"), &out, &errb); code != 2 || !strings.Contains(errb.String(), "line 1") {
		t.Fatalf("bad input exits 2 naming the line, got %d %q", code, errb.String())
	}
	if code := run([]string{"/nonexistent/h.jsonl"}, nil, &out, &errb); code != 2 {
		t.Fatalf("missing file exits 2, got %d", code)
	}
	if code := run([]string{}, nil, &out, &errb); code != 2 {
		t.Fatalf("no argument exits 2, got %d", code)
	}
}
