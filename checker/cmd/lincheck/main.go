// lincheck: checks a history file (JSON Lines, docs/linearizability.md) for linearizability
// with Porcupine, prints the verdict as one JSON line and optionally writes Porcupine's HTML
// visualisation. Exit status: 0 linearizable, 1 violation, 3 undecided (timeout), 2 bad input.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"replicant/checker/lincheck"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lincheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	html := fs.String("html", "", "write Porcupine's visualisation to this HTML file")
	timeout := fs.Float64("timeout-s", 60, "give up (verdict unknown) after this many seconds; 0 = never")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lincheck [--html FILE] [--timeout-s S] HISTORY.jsonl   (- reads stdin)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if *timeout < 0 || *timeout > 86400 {
		fmt.Fprintln(stderr, "lincheck: --timeout-s must be in [0, 86400]")
		return 2
	}
	in := stdin
	if path := fs.Arg(0); path != "-" {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(stderr, "lincheck: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	h, err := lincheck.ParseHistory(in)
	if err != nil {
		fmt.Fprintf(stderr, "lincheck: %v\n", err)
		return 2
	}
	c := lincheck.Check(h, time.Duration(*timeout*float64(time.Second)))
	if *html != "" {
		f, err := os.Create(*html)
		if err == nil {
			err = c.WriteHTML(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "lincheck: writing %s: %v\n", *html, err)
			return 2
		}
	}
	out, _ := json.Marshal(c.Verdict)
	fmt.Fprintln(stdout, string(out))
	switch c.Verdict.Verdict {
	case lincheck.Linearizable:
		return 0
	case lincheck.Violation:
		return 1
	default:
		return 3
	}
}
