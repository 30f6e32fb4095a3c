package server

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

var errLineTooLong = errors.New("line too long")

// readLine reads one line of at most limit bytes (without the "\n"; one trailing "\r" is
// removed). A longer line returns errLineTooLong.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit+1 {
			return nil, errLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, nil
	}
}
