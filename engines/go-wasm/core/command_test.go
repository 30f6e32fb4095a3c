package core

import (
	"strings"
	"testing"
)

func TestParseCommandAcceptsTheThreeVerbs(t *testing.T) {
	cases := map[string]Command{
		"get k":            {Type: CommandGet, Key: "k"},
		"del user123":      {Type: CommandDel, Key: "user123"},
		"put k v":          {Type: CommandPut, Key: "k", Value: "v"},
		"put k a  b c ":    {Type: CommandPut, Key: "k", Value: "a  b c "},
		"put k ":           {Type: CommandPut, Key: "k", Value: ""},
		"put ~!{}\"\\ x y": {Type: CommandPut, Key: "~!{}\"\\", Value: "x y"},
	}
	for line, want := range cases {
		got, ok := ParseCommand(line)
		if !ok || got != want {
			t.Errorf("ParseCommand(%q) = %+v, %v; want %+v", line, got, ok, want)
		}
	}
}

func TestParseCommandRejectsMalformedLines(t *testing.T) {
	bad := []string{"", "get", "get ", "GET k", "get k x", "get  k", "put k", "put  k v", "del",
		"scan k", "get k\t", "put k v\x00", "put k caf\xc3\xa9", "get " + strings.Repeat("k", MaxKeyBytes+1),
		"put k " + strings.Repeat("v", MaxValueBytes+1), " get k"}
	for _, line := range bad {
		if c, ok := ParseCommand(line); ok {
			t.Errorf("ParseCommand(%q) accepted %+v", line, c)
		}
	}
}

func TestLimitsAreInclusive(t *testing.T) {
	if _, ok := ParseCommand("get " + strings.Repeat("k", MaxKeyBytes)); !ok {
		t.Error("a key of exactly MaxKeyBytes must be accepted")
	}
	if _, ok := ParseCommand("put k " + strings.Repeat("v", MaxValueBytes)); !ok {
		t.Error("a value of exactly MaxValueBytes must be accepted")
	}
}

func TestReplyLines(t *testing.T) {
	cases := map[string]Result{
		"v":             {Type: ResultOk, Value: "v"},
		"":              {Type: ResultOk},
		"key not found": {Type: ResultNotFound},
		"retry":         {Type: ResultRetry},
		"leader is 2":   {Type: ResultLeaderIs, Leader: 2},
		"bad command":   {Type: ResultBadCommand},
	}
	for want, r := range cases {
		if got := ReplyLine(r); got != want {
			t.Errorf("ReplyLine(%+v) = %q, want %q", r, got, want)
		}
	}
}
